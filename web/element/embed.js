// embed.html: one <attention-lab> configured from the URL fragment (the same
// versioned encoding as share links), in the language of ?lang= (en or zh;
// errors and the link notice too), reporting its height to the parent so
// the iframe can be sized to fit:
//   window.addEventListener('message', (e) => { if (e.data?.type === 'attention-lab:height') iframe.style.height = e.data.height + 'px'; });
// The language is ?lang=zh (the Share dialog adds the page's), else the browser's.
import { loadLanguage, resolveLanguage, translator } from '../i18n/index.js';
import { withEdits } from '../model/edits.js';
import { defaultSettings } from '../model/presets.js';
import { readFragment, shareErrorText } from '../model/share.js';
import { attributesFromSettings } from '../model/settings.js';
import { FIELDS } from '../model/schema.js';
import './attention-lab-element.js';
import './embed.css';

const element = document.getElementById('embedded');
const notice = document.getElementById('notice');
const lang = resolveLanguage(new URLSearchParams(location.search).get('lang') ?? navigator.language);
document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
element.setAttribute('lang', lang); // before the strings arrive: the element waits for them itself
const strings = loadLanguage(lang).catch(() => translator('en')); // English if they cannot load

async function apply() {
  const t = await strings;
  document.getElementById('embed-title').textContent = t('app.title');
  // No link, or one that cannot be read: the default example, in the embed's language.
  const link = await readFragment(location.hash);
  const { settings, edits, error } =
    link && !link.error ? link : { settings: defaultSettings(t.lang), edits: null, error: link?.error ?? null };
  notice.hidden = !error;
  notice.textContent = error ? shareErrorText(error, t) : '';
  for (const field of FIELDS) element.removeAttribute(field.name);
  for (const [name, value] of attributesFromSettings(settings)) element.setAttribute(name, value);
  const config = edits ? withEdits({}, edits) : {};
  if (Object.keys(config).length) element.setAttribute('config', JSON.stringify(config));
  else element.removeAttribute('config');
}

const postHeight = () =>
  parent.postMessage({ type: 'attention-lab:height', height: document.documentElement.scrollHeight }, '*');
new ResizeObserver(postHeight).observe(document.body);
window.addEventListener('hashchange', apply);
apply();
