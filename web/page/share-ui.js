// The Share dialog (link, <iframe> snippet, <attention-lab> snippet) and
// restoring a shared state from the URL fragment.
import { attributesFromForm, elementMarkup } from '../element/attributes.js';
import { DEFAULT_FORM } from './controls.js';
import { applyEdits, emptyEdits } from './edits.js';
import { t } from './i18n.js';
import { decodeState, encodeState } from './share.js';

/** The page's folder URL, so snippets point next to index.html wherever it is hosted. */
const baseFolder = () => new URL('.', location.href).href;

/**
 * null when the URL has no fragment; otherwise {form, edits, error}: the
 * decoded state, or the default example plus the reason it could not be read.
 */
export async function restoreFromLocation() {
  if (!location.hash || location.hash === '#') return null;
  try {
    return { ...(await decodeState(location.hash)), error: null };
  } catch (error) {
    return { form: { ...DEFAULT_FORM }, edits: emptyEdits(), error: error.message };
  }
}

/** The three things Share copies for a state. */
export async function shareSnippets(state) {
  const fragment = await encodeState(state);
  const base = baseFolder();
  const link = `${base}${location.pathname.endsWith('.html') ? location.pathname.split('/').pop() : ''}#${fragment}`;
  const iframe = `<iframe src="${base}embed.html#${fragment}" title="Attention Lab" style="width:100%;height:640px;border:0" loading="lazy"></iframe>`;
  const attributes = attributesFromForm(state.form);
  const withEdits = applyEdits({}, state.edits, state.result?.vocab);
  const extra = {};
  if (withEdits.weights) extra.weights = { values: withEdits.weights.values };
  if (withEdits.embedding) extra.embedding = { values: withEdits.embedding.values };
  if (Object.keys(extra).length) attributes.push(['config', JSON.stringify(extra)]);
  attributes.push(['editable', '']);
  const element = `<script type="module" src="${base}attention-lab-element.js"></script>\n${elementMarkup(attributes)}`;
  return { link, iframe, element };
}

export async function openShareDialog(state) {
  const dialog = document.getElementById('share-dialog');
  const snippets = await shareSnippets(state);
  for (const [key, value] of Object.entries(snippets)) {
    const box = dialog.querySelector(`[data-share="${key}"]`);
    box.value = value;
  }
  dialog.querySelector('.share-status').textContent = '';
  dialog.showModal();
}

/** Copy buttons of a dialog: data-copy="key" copies the field data-share="key". */
export function wireShareDialog(dialog) {
  dialog.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-copy]');
    if (!button) return;
    const text = dialog.querySelector(`[data-share="${button.dataset.copy}"]`).value;
    const status = dialog.querySelector('.share-status');
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = t('share.copied');
    } catch {
      dialog.querySelector(`[data-share="${button.dataset.copy}"]`).select();
      status.textContent = t('share.copyManually');
    }
  });
}
