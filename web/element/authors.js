// The authors' page: the attribute table, derived from the engine's schema
// and the view options, and every preset as a live <attention-lab preset="…">
// with the snippet that produces it; in English or Chinese (?lang=zh, the
// language menu, or the browser's language).
import authorsStrings from '../i18n/authors.js';
import { LANGUAGES, addStrings, loadLanguage, translator } from '../i18n/index.js';
import { PRESETS } from '../model/presets.js';
import { FIELDS } from '../model/schema.js';
import { elementMarkup } from '../model/settings.js';
import { withCode } from '../view/common/matrix.js';
import { VIEW_OPTIONS } from '../model/view-options.js';
import './attention-lab-element.js';
import { COLOR_PROPERTIES, ELEMENT_ATTRIBUTES, ELEMENT_PARTS, SURFACE_PROPERTIES } from './element-interface.js';

addStrings(authorsStrings);

const languageParam = new URLSearchParams(location.search).get('lang');
// English is there at once; Chinese is loaded first (English if it cannot be).
loadLanguage(languageParam ?? navigator.language)
  .catch(() => translator('en'))
  .then(renderPage);

/** A cell: code (a name, a type, a value), or a sentence with its code marked. */
function cell(text, code = false) {
  const td = document.createElement('td');
  if (code) {
    const c = document.createElement('code');
    c.textContent = text;
    td.append(c);
  } else {
    td.append(...withCode(text));
  }
  return td;
}

const showDefault = (value) =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

function renderPage(t) {
  document.documentElement.lang = t.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('authors.title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  // These strings are our own constant markup (only <code> and <em>; tests/js/i18n.test.js checks), never user text.
  for (const el of document.querySelectorAll('[data-i18n-html]')) el.innerHTML = t(el.dataset.i18nHtml);

  const languageMenu = document.getElementById('language');
  for (const [code, name] of Object.entries(LANGUAGES)) languageMenu.append(new Option(name, code));
  languageMenu.value = t.lang;
  languageMenu.addEventListener('change', () => {
    const url = new URL(location.href);
    url.searchParams.set('lang', languageMenu.value);
    location.assign(url.href);
  });

  const rows = document.getElementById('attribute-rows');
  for (const field of FIELDS) {
    const tr = document.createElement('tr');
    const type = field.choices?.length ? `${field.type}: ${field.choices.join(' | ')}` : field.type;
    const range = field.min !== undefined ? ` [${field.min}, ${field.max}]` : '';
    tr.append(
      cell(field.name, true),
      cell(field.path, true),
      cell(type + range, true),
      cell(showDefault(field.default), true),
      cell(t(`help.${field.path}`)),
    );
    rows.append(tr);
  }
  for (const option of VIEW_OPTIONS) {
    const tr = document.createElement('tr');
    const type = option.choices ? `${option.type}: ${option.choices.join(' | ')}` : option.type;
    tr.append(
      cell(option.name, true),
      cell('—'),
      cell(type, true),
      cell(showDefault(option.default), true),
      cell(t(option.help)),
    );
    rows.append(tr);
  }

  for (const attribute of ELEMENT_ATTRIBUTES) {
    const tr = document.createElement('tr');
    tr.append(
      cell(attribute.name, true),
      cell('—'),
      cell(attribute.type, true),
      cell('—', true),
      cell(t(attribute.help)),
    );
    rows.append(tr);
  }

  // The custom properties: the surface's (their defaults are in element.css), then the colours of the heatmaps and heads.
  const cssRows = document.getElementById('css-rows');
  for (const property of [...SURFACE_PROPERTIES, ...COLOR_PROPERTIES]) {
    const tr = document.createElement('tr');
    const h = property.slot === 'heads' ? property.index + 1 : undefined;
    tr.append(cell(property.name, true), cell(property.default ?? '—', true), cell(t(property.help, { h })));
    cssRows.append(tr);
  }
  document
    .getElementById('part-list')
    .replaceChildren(...withCode(ELEMENT_PARTS.map((part) => `\`${part}\``).join(', ')));

  const gallery = document.getElementById('gallery');
  for (const preset of PRESETS) {
    // The element shows the preset's note (the program it mirrors) itself.
    const attributes = [
      ['preset', preset.key],
      ['steps', 'weights output'],
      ['compact', ''],
    ];
    if (t.lang !== 'en') attributes.push(['lang', t.lang]);
    const title = document.createElement('h3');
    title.textContent = t(`preset.${preset.key}`);
    const code = document.createElement('pre');
    code.tabIndex = 0;
    code.textContent = elementMarkup(attributes);
    const element = document.createElement('attention-lab');
    for (const [name, value] of attributes) element.setAttribute(name, value);
    element.dataset.preset = preset.key;
    gallery.append(title, code, element);
  }
}
