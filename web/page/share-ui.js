// The Share dialog (link, <iframe> snippet, <attention-lab> snippet) and
// their snippets.
import { elementAttributesOf } from '../model/element-config.js';
import { FRAME_CLASS, HEIGHT_MESSAGE, ORIGIN_PLACEHOLDER } from '../model/embed-messages.js';
import { elementMarkup } from '../model/settings.js';
import { encodeState } from '../model/share.js';
import { chaptersText } from '../view/steps/chapters.js';

/**
 * The Share dialog's <iframe> snippet: the frame of `src` (embed.html's URL, its
 * query and fragment; ?origin= is added, the placeholder) and the listener that
 * sizes every frame of this class on the page, to heights from `embedOrigin`
 * (where embed.html is served from, not the page's own origin) only, each from
 * its own frame (e.source).
 */
export function iframeSnippet(src, embedOrigin) {
  const url = new URL(src);
  const query = url.search ? `${url.search}&` : '?';
  const framed = `${url.origin}${url.pathname}${query}origin=${ORIGIN_PLACEHOLDER}${url.hash}`;
  return `<iframe class="${FRAME_CLASS}" src="${framed}" title="Attention Lab" style="width:100%;height:640px;border:0" loading="lazy"></iframe>
<script>
  addEventListener('message', (e) => {
    if (e.origin !== '${embedOrigin}' || e.data?.type !== '${HEIGHT_MESSAGE}') return;
    for (const frame of document.querySelectorAll('iframe.${FRAME_CLASS}'))
      if (frame.contentWindow === e.source) frame.style.height = e.data.height + 'px';
  });
</script>`;
}

/** The page's folder URL, so snippets point next to index.html wherever it is hosted. */
const baseFolder = () => new URL('.', location.href).href;

/**
 * The three things Share copies for {settings, edits, lang, chapters}: the link, the iframe (with the
 * listener that sizes it: iframeSnippet) and the element
 * speak the page's language (English, the default, is left to the reader's own choice) and open the
 * page's chapters (the link leaves out the plain path, the page's default; the element, whose default
 * is every chapter, names them all, the basics included).
 */
export async function shareSnippets(state) {
  const fragment = await encodeState(state);
  const base = baseFolder();
  // The page's ?chapters= leaves out the plain path; embed.html's is the element's attribute (all by default).
  const queryOf = (chapters) => {
    const params = new URLSearchParams();
    if (state.lang && state.lang !== 'en') params.set('lang', state.lang);
    if (chapters) params.set('chapters', chapters);
    const search = params.toString();
    return search ? `?${search}` : '';
  };
  const query = queryOf(state.chapters && chaptersText(state.chapters));
  const embedQuery = queryOf(state.chapters && chaptersText(state.chapters, ',', { basics: true }));
  const page = location.pathname.endsWith('.html') ? location.pathname.split('/').pop() : '';
  const link = `${base}${page}${query}#${fragment}`;
  // Its ?origin= is a placeholder for the page it is pasted in (this page's origin would be wrong there);
  // its listener takes heights from where embed.html is served: this page's origin.
  const iframe = iframeSnippet(`${base}embed.html${embedQuery}#${fragment}`, new URL(base).origin);
  const attributes = elementAttributesOf(state);
  attributes.push(['editable', '']);
  if (state.lang && state.lang !== 'en') attributes.push(['lang', state.lang]);
  if (state.chapters) attributes.push(['chapters', chaptersText(state.chapters, ' ', { basics: true })]);
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
