// The authors' page gallery: every preset as a live <attention-lab>, with
// the snippet that produces it.
import '../element/attention-lab-element.js';
import { attributesFromForm, elementMarkup } from '../element/attributes.js';
import { presetForm } from './controls.js';
import { t } from './i18n.js';
import { PRESETS } from './presets.js';

const gallery = document.getElementById('gallery');
for (const preset of PRESETS) {
  const attributes = [...attributesFromForm(presetForm(preset)), ['steps', 'weights output'], ['compact', '']];
  const title = document.createElement('h3');
  title.textContent = t(`preset.${preset.key}`);
  const code = document.createElement('pre');
  code.textContent = elementMarkup(attributes);
  const element = document.createElement('attention-lab');
  for (const [name, value] of attributes) element.setAttribute(name, value);
  element.dataset.preset = preset.key;
  gallery.append(title, code, element);
}
