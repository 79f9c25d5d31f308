// embed.html: one <attention-lab> configured from the URL fragment (the same
// versioned encoding as share links), in the language of ?lang= (en or zh;
// errors and the link notice too), reporting its height to the parent so
// the iframe can be sized to fit:
//   window.addEventListener('message', (e) => { if (e.data?.type === 'attention-lab:height') iframe.style.height = e.data.height + 'px'; });
import { resolveLanguage, translator } from '../i18n/index.js';
import { withEdits } from '../model/edits.js';
import { DEFAULT_SETTINGS } from '../model/presets.js';
import { readFragment } from '../model/share.js';
import { attributesFromSettings } from '../model/settings.js';
import { FIELDS } from '../model/schema.js';
import './attention-lab-element.js';
import './embed.css';

const element = document.getElementById('embedded');
const notice = document.getElementById('notice');
const lang = resolveLanguage(new URLSearchParams(location.search).get('lang') ?? 'en');
const t = translator(lang);
document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
element.setAttribute('lang', lang);

async function apply() {
  const { settings, edits, error } = (await readFragment(location.hash)) ?? {
    settings: DEFAULT_SETTINGS,
    edits: null,
    error: null,
  };
  notice.hidden = !error;
  notice.textContent = error ? t('share.bad', { reason: error }) : '';
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
