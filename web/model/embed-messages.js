// The iframe protocol of embed.html, between the frame and the page around it
// (its parent), both ways and only with the origin the frame's ?origin= names:
//   frame -> parent  {type: 'attention-lab:height', height}   its page's height in CSS px
//   parent -> frame  {type: 'attention-lab:set', theme?, lang?, steps?}   applied without a reload
// The Share dialog's <iframe> snippet (page/share-ui.js iframeSnippet) carries
// ?origin= (a placeholder the author replaces with their page's origin) and a
// listener that sizes every such frame on the page; the authors' page and the
// README show the same listener.

export const HEIGHT_MESSAGE = 'attention-lab:height';
export const SET_MESSAGE = 'attention-lab:set';

/** What the snippet's ?origin= says until the author writes their page's origin in its place. */
export const ORIGIN_PLACEHOLDER = 'https://your-site.example';

/** The class of the snippet's iframes: its listener sizes each of them. */
export const FRAME_CLASS = 'attention-lab-frame';

const THEMES = new Set(['auto', 'light', 'dark']);

/**
 * The settings of a set message {type: SET_MESSAGE, theme?, lang?, steps?}
 * as {theme?, lang?, steps?} (those given and valid: theme one of auto, light,
 * dark; lang a non-empty string, a BCP 47 tag; steps a string of names or an
 * array of them, as a space-separated string); null for any other message.
 * An unknown step name is the element's to report (its steps attribute).
 */
export function readSetMessage(data) {
  if (data === null || typeof data !== 'object' || data.type !== SET_MESSAGE) return null;
  const set = {};
  if (THEMES.has(data.theme)) set.theme = data.theme;
  if (typeof data.lang === 'string' && data.lang.trim() !== '') set.lang = data.lang.trim();
  if (typeof data.steps === 'string') set.steps = data.steps.trim();
  else if (Array.isArray(data.steps) && data.steps.every((name) => typeof name === 'string'))
    set.steps = data.steps.join(' ');
  return set;
}
