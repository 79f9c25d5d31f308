// The Share dialog (link, <iframe> snippet, <attention-lab> snippet) and
// their snippets.
import { elementAttributesOf } from '../model/element-config.js';
import { elementMarkup } from '../model/settings.js';
import { encodeState } from '../model/share.js';

/** The page's folder URL, so snippets point next to index.html wherever it is hosted. */
const baseFolder = () => new URL('.', location.href).href;

/**
 * The three things Share copies for {settings, edits, lang}: the link, the iframe and the element speak the
 * page's language (English, the default, is left to the reader's own choice).
 */
export async function shareSnippets(state) {
  const fragment = await encodeState(state);
  const base = baseFolder();
  const query = state.lang && state.lang !== 'en' ? `?lang=${state.lang}` : '';
  const page = location.pathname.endsWith('.html') ? location.pathname.split('/').pop() : '';
  const link = `${base}${page}${query}#${fragment}`;
  const iframe = `<iframe src="${base}embed.html${query}#${fragment}" title="Attention Lab" style="width:100%;height:640px;border:0" loading="lazy"></iframe>`;
  const attributes = elementAttributesOf(state);
  attributes.push(['editable', '']);
  if (state.lang && state.lang !== 'en') attributes.push(['lang', state.lang]);
  const element = `<script type="module" src="${base}attention-lab-element.js"></script>\n${elementMarkup(attributes)}`;
  return { link, iframe, element };
}

export async function openShareDialog(state) {
  const dialog = document.getElementById('share-dialog');
  const snippets = await shareSnippets(state);
  for (const [key, value] of Object.entries(snippets)) dialog.querySelector(`[data-share="${key}"]`).value = value;
  dialog.querySelector('.share-status').textContent = '';
  dialog.showModal();
}

/** Copy buttons of a dialog: data-copy="key" copies the field data-share="key". */
export function wireShareDialog(dialog, getT) {
  dialog.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-copy]');
    if (!button) return;
    const field = dialog.querySelector(`[data-share="${button.dataset.copy}"]`);
    const status = dialog.querySelector('.share-status');
    try {
      await navigator.clipboard.writeText(field.value);
      status.textContent = getT()('share.copied');
    } catch {
      field.select();
      status.textContent = getT()('share.copyManually');
    }
  });
}
