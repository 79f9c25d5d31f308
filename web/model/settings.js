// <attention-lab> attributes <-> the page's form state. One table, used by
// the element (attributes -> config) and by the page's Share button
// (state -> an <attention-lab> snippet).
import { DEFAULT_FORM } from '../page/controls.js';

// [attribute, form field, kind]; kind 'bool' is present/absent ("false" = off).
export const CONFIG_ATTRIBUTES = [
  ['text', 'text', 'string'],
  ['context-text', 'contextText', 'string'],
  ['d-model', 'dModel', 'string'],
  ['heads', 'numHeads', 'string'],
  ['seed', 'seed', 'string'],
  ['init', 'init', 'string'],
  ['layout', 'layout', 'string'],
  ['qkv-bias', 'qkvBias', 'bool'],
  ['out-proj', 'outProj', 'bool'],
  ['weights-seed', 'weightsSeed', 'string'],
  ['scale', 'scale', 'string'],
  ['mask', 'mask', 'string'],
  ['mask-fill', 'maskFill', 'string'],
  ['dropout', 'dropoutP', 'string'],
  ['dropout-seed', 'dropoutSeed', 'string'],
  ['positional', 'positional', 'string'],
  ['max-len', 'maxLen', 'string'],
];

// Display attributes, not part of the config.
export const VIEW_ATTRIBUTES = ['config', 'steps', 'lang', 'theme', 'decimals', 'compact', 'editable'];

const SCALE_WORDS = ['head-dim', 'd-model', 'none'];

/** The form state an element's attributes describe (defaults for the rest). */
export function formFromAttributes(getAttribute) {
  const form = { ...DEFAULT_FORM };
  for (const [attribute, field, kind] of CONFIG_ATTRIBUTES) {
    const value = getAttribute(attribute);
    if (value === null) continue;
    form[field] = kind === 'bool' ? value !== 'false' : value;
  }
  if (form.init === 'torch-mha' && getAttribute('qkv-bias') === null) form.qkvBias = true;
  if (!SCALE_WORDS.includes(form.scale)) {
    form.scaleValue = form.scale;
    form.scale = 'custom';
  }
  return form;
}

/** Attributes for a form state: only those that differ from the defaults. */
export function attributesFromForm(form) {
  const attributes = [];
  for (const [attribute, field, kind] of CONFIG_ATTRIBUTES) {
    let value = form[field];
    if (field === 'scale' && value === 'custom') value = form.scaleValue;
    const isDefault = value === DEFAULT_FORM[field] || (field === 'qkvBias' && form.init === 'torch-mha' && value === true);
    if (isDefault && !(attribute === 'text')) continue;
    if (kind === 'bool') attributes.push([attribute, value ? '' : 'false']);
    else attributes.push([attribute, String(value)]);
  }
  return attributes;
}

const escapeAttribute = (value) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '&#10;');

/** `<attention-lab …></attention-lab>` markup, every value escaped. */
export function elementMarkup(attributes) {
  const parts = attributes.map(([name, value]) => (value === '' ? name : `${name}="${escapeAttribute(value)}"`));
  return `<attention-lab ${parts.join(' ')}></attention-lab>`;
}
