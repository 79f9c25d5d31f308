// The authors' page: the attribute table, derived from the engine's schema
// and the view options, and every preset as a live <attention-lab preset="…">
// with the snippet that produces it.
import { translator } from '../i18n/index.js';
import { PRESETS } from '../model/presets.js';
import { FIELDS } from '../model/schema.js';
import { elementMarkup } from '../model/settings.js';
import { VIEW_OPTIONS } from '../view/view-options.js';
import './attention-lab-element.js';

const t = translator(document.documentElement.lang);

function cell(text, code = false) {
  const td = document.createElement('td');
  if (code) {
    const c = document.createElement('code');
    c.textContent = text;
    td.append(c);
  } else {
    td.textContent = text;
  }
  return td;
}

const showDefault = (value) =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

const rows = document.getElementById('attribute-rows');
for (const field of FIELDS) {
  const tr = document.createElement('tr');
  const type = field.choices?.length ? `${field.type}: ${field.choices.join(' | ')}` : field.type;
  const range = field.min !== undefined ? ` [${field.min}, ${field.max}]` : '';
  tr.append(
    cell(field.name, true),
    cell(field.path, true),
    cell(type + range),
    cell(showDefault(field.default)),
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
    cell(type),
    cell(showDefault(option.default)),
    cell(t(`view.${option.name}`)),
  );
  rows.append(tr);
}

const gallery = document.getElementById('gallery');
for (const preset of PRESETS) {
  // The element shows the preset's note (the program it mirrors) itself.
  const attributes = [
    ['preset', preset.key],
    ['steps', 'weights output'],
    ['compact', ''],
  ];
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
