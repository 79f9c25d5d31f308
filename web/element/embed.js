// embed.html: one <attention-lab> configured from the URL. The fragment holds
// the setup (the same versioned encoding as share links); the query says how
// it is shown: ?lang= (a BCP 47 tag; else the browser's) and the element's
// view options (steps=, theme=, head=, compact, decimals=, mode=, editable=false),
// passed to it as its attributes. With
// ?origin=https://blog.example it posts its height to its parent, and to that
// origin only (the message is {type, height}, nothing of the setup), so the
// iframe can be sized to fit; and it takes {type: 'attention-lab:set', theme?,
// lang?, steps?} from its parent at that origin only, applied without a reload
// (model/embed-messages.js has the protocol and the listener authors paste).
// Without an origin it posts nothing and takes nothing: a parent it does not
// know learns nothing and changes nothing.
import { loadLanguage, resolveLanguage, translator } from '../i18n/index.js';
import { CONFIG_ATTRIBUTE, elementAttributesOf } from '../model/element-config.js';
import { HEIGHT_MESSAGE, readSetMessage } from '../model/embed-messages.js';
import { defaultSettings } from '../model/presets.js';
import { readFragment, shareErrorText } from '../model/share.js';
import { FIELDS } from '../model/schema.js';
import { VIEW_OPTIONS } from '../model/view-options.js';
import './attention-lab-element.js';
import './embed.css';

// The query parameters that become the element's attributes of the same name: its view options
// (steps, theme, head, compact, decimals, mode, editable); lang is read below.
const VIEW_PARAMS = VIEW_OPTIONS.filter((option) => option.name !== 'lang');

const params = new URLSearchParams(location.search);
const element = document.getElementById('embedded');
const notice = document.getElementById('notice');
let strings;
/** The language of the page and the element (a BCP 47 tag); its strings start loading. */
function useLanguage(tag) {
  const lang = resolveLanguage(tag);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  element.setAttribute('lang', lang); // before the strings arrive: the element waits for them itself
  strings = loadLanguage(lang).catch(() => translator('en')); // English if they cannot load
}
useLanguage(params.get('lang') ?? navigator.language);
for (const { name, type } of VIEW_PARAMS) {
  const value = params.get(name);
  if (value === null) continue;
  // A boolean: ?compact, ?compact=1 or ?compact=true sets it; ?editable=false or =0 clears it.
  if (type !== 'boolean') element.setAttribute(name, value);
  else if (value === 'false' || value === '0') element.removeAttribute(name);
  else element.setAttribute(name, '');
}
// The page around the element takes the theme's colour scheme too (auto: the reader's).
function useTheme(theme) {
  document.documentElement.style.colorScheme = theme === 'light' || theme === 'dark' ? theme : '';
}
useTheme(params.get('theme'));

/** The parent's origin from ?origin= (scheme, host and port only), null when absent; invalid: an error. */
function parentOrigin(text) {
  if (text === null || text === '') return null;
  let url;
  try {
    url = new URL(text);
  } catch {
    return { invalid: text };
  }
  const web = url.protocol === 'https:' || url.protocol === 'http:';
  const originOnly = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return web && originOnly ? url.origin : { invalid: text };
}
const origin = parentOrigin(params.get('origin'));
const targetOrigin = typeof origin === 'string' ? origin : null;

/**
 * The page's texts in its language, and the element's setup from the fragment; with `keepSetup` (a
 * language set by the parent, the fragment unchanged) a setup from a link stays as it is, a reader's
 * edits too (the default example is the language's own).
 */
async function apply({ keepSetup = false } = {}) {
  const t = await strings;
  document.getElementById('embed-title').textContent = t('app.title');
  document.title = t('embed.title');
  // No link, or one that cannot be read: the default example, in the embed's language.
  const link = await readFragment(location.hash);
  const { settings, edits, error } =
    link && !link.error ? link : { settings: defaultSettings(t.lang), edits: null, error: link?.error ?? null };
  const notices = [];
  if (error) notices.push(shareErrorText(error, t));
  if (origin?.invalid !== undefined) notices.push(t('embed.origin-invalid', { origin: origin.invalid }));
  notice.hidden = notices.length === 0;
  notice.textContent = notices.join(' ');
  if (keepSetup && link && !link.error) return;
  for (const field of FIELDS) element.removeAttribute(field.name);
  element.removeAttribute(CONFIG_ATTRIBUTE);
  for (const [name, value] of elementAttributesOf({ settings, edits })) element.setAttribute(name, value);
}

// The page's own height (the html element's box: not the frame's, which the parent sets).
let lastHeight = 0;
function postHeight() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === lastHeight || parent === window) return;
  lastHeight = height;
  parent.postMessage({ type: HEIGHT_MESSAGE, height }, targetOrigin);
}
if (targetOrigin) new ResizeObserver(postHeight).observe(document.body);

// The parent at ?origin= sets the theme, the language or the steps shown; any other window or origin is
// ignored, and so is everything without ?origin=.
window.addEventListener('message', (event) => {
  if (!targetOrigin || event.origin !== targetOrigin || event.source !== parent || parent === window) return;
  const set = readSetMessage(event.data);
  if (!set) return;
  if (set.theme) {
    element.setAttribute('theme', set.theme);
    useTheme(set.theme);
  }
  if (set.steps !== undefined) {
    if (set.steps === '') element.removeAttribute('steps');
    else element.setAttribute('steps', set.steps);
  }
  if (set.lang) {
    useLanguage(set.lang);
    apply({ keepSetup: true }); // the title, a notice, and the default example (no fragment) in the new language
  }
});
window.addEventListener('hashchange', apply);
apply();
