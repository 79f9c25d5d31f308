// The settings form: one control per config field, each with a label and a
// slot for an inline error. The form state is plain strings/numbers/booleans;
// formToConfig() turns it into the engine's config. Values that are not
// numbers are passed on as typed, so the engine's error names the field.
import { t } from './i18n.js';

export const DEFAULT_FORM = Object.freeze({
  text: 'He sat by the bank of the river',
  contextText: '',
  dModel: 8,
  numHeads: 2,
  seed: 0,
  init: 'torch-linear',
  layout: 'fused',
  qkvBias: false,
  outProj: true,
  weightsSeed: '',
  scale: 'head-dim',
  scaleValue: 0.125,
  mask: 'none',
  maskFill: '-inf',
  dropoutP: 0,
  dropoutSeed: '',
  positional: 'none',
  maxLen: '',
});

/** A form from a preset: the defaults, then the preset's fields. */
export function presetForm(preset) {
  const form = { ...DEFAULT_FORM, ...preset.form };
  if (preset.form.init === 'torch-mha' && preset.form.qkvBias === undefined) form.qkvBias = true;
  return form;
}

// "8" -> 8, "" -> undefined, "abc" -> "abc" (the engine reports it).
const numberOrText = (value) => {
  if (typeof value === 'number') return value;
  const s = String(value).trim();
  if (s === '') return undefined;
  return Number.isFinite(Number(s)) ? Number(s) : s;
};

/** The sentences of a text box: one per non-blank line. */
export const sentencesOf = (text) => text.split('\n').filter((line) => line.trim() !== '');

export function formToConfig(form) {
  const config = {};
  const lines = sentencesOf(form.text);
  if (lines.length > 1) config.texts = lines;
  else config.text = lines[0] ?? form.text;
  const contextLines = sentencesOf(form.contextText);
  if (contextLines.length > 1) config.contextTexts = contextLines;
  else if (contextLines.length === 1) config.contextText = contextLines[0];
  config.dModel = numberOrText(form.dModel);
  config.numHeads = numberOrText(form.numHeads);
  config.seed = numberOrText(form.seed);
  const maxLen = numberOrText(form.maxLen);
  if (maxLen !== undefined) config.maxLen = maxLen;
  config.embedding = { positional: form.positional };
  config.weights = { init: form.init, layout: form.layout, qkvBias: form.qkvBias, outProj: form.outProj };
  const weightsSeed = numberOrText(form.weightsSeed);
  if (weightsSeed !== undefined) config.weights.seed = weightsSeed;
  config.scale = form.scale === 'custom' ? numberOrText(form.scaleValue) : form.scale;
  config.mask = form.mask;
  config.maskFill = form.maskFill === '-inf' ? '-inf' : numberOrText(form.maskFill);
  config.dropout = { p: numberOrText(form.dropoutP) ?? 0 };
  const dropoutSeed = numberOrText(form.dropoutSeed);
  if (dropoutSeed !== undefined) config.dropout.seed = dropoutSeed;
  return config;
}

// Config field (as the engine names it) -> the form control that sets it.
const FIELD_CONTROLS = [
  [/^(text|texts)/, 'text'],
  [/^(contextText|contextTexts)/, 'contextText'],
  [/^dModel/, 'dModel'],
  [/^numHeads/, 'numHeads'],
  [/^seed/, 'seed'],
  [/^maxLen/, 'maxLen'],
  [/^weights\.init/, 'init'],
  [/^weights\.layout/, 'layout'],
  [/^weights\.seed/, 'weightsSeed'],
  [/^weights\.qkvBias/, 'qkvBias'],
  [/^weights\.outProj/, 'outProj'],
  [/^scale/, 'scale'],
  [/^maskFill/, 'maskFill'],
  [/^mask/, 'mask'],
  [/^dropout\.p/, 'dropoutP'],
  [/^dropout\.seed/, 'dropoutSeed'],
  [/^embedding\.positional/, 'positional'],
];

/** The form control a config field belongs to (null if none, e.g. an edited weight). */
export function controlForField(field) {
  for (const [pattern, control] of FIELD_CONTROLS) if (pattern.test(field)) return control;
  return null;
}

const SELECTS = {
  init: ['torch-linear', 'torch-rand', 'torch-mha', 'identity'],
  layout: ['fused', 'per-head'],
  scale: ['head-dim', 'd-model', 'none', 'custom'],
  mask: ['none', 'causal', 'padding', 'causal+padding'],
  positional: ['none', 'sinusoidal'],
};

const optionLabel = (name, value) => {
  const key = `opt.${name}.${value}`;
  const label = t(key);
  return label === key ? value : label;
};

/**
 * Builds the settings controls into `container`. onChange(name, value) is
 * called on every input; returns {sync(form), showError(control, message)}.
 */
export function buildControls(container, onChange) {
  container.replaceChildren();
  const inputs = {};
  const errors = {};

  const field = (name, labelKey, control) => {
    const wrapper = document.createElement('div');
    wrapper.className = `field ${control.tagName === 'SELECT' ? 'select' : control.type === 'checkbox' ? 'checkbox' : ''}`;
    wrapper.dataset.field = name;
    const label = document.createElement('label');
    label.htmlFor = `control-${name}`;
    label.textContent = t(labelKey);
    control.id = `control-${name}`;
    control.name = name;
    const error = document.createElement('p');
    error.className = 'field-error';
    error.id = `error-${name}`;
    error.setAttribute('role', 'alert');
    error.hidden = true;
    control.setAttribute('aria-describedby', error.id);
    if (control.type === 'checkbox') {
      label.prepend(control);
      wrapper.append(label, error);
    } else {
      wrapper.append(label, control, error);
    }
    inputs[name] = control;
    errors[name] = error;
    container.append(wrapper);
  };

  const number = (name, labelKey, attrs = {}) => {
    const input = document.createElement('input');
    input.type = 'text';
    input.inputMode = 'decimal';
    input.autocomplete = 'off';
    for (const [k, v] of Object.entries(attrs)) input.setAttribute(k, v);
    input.addEventListener('input', () => onChange(name, input.value));
    field(name, labelKey, input);
  };
  const select = (name, labelKey) => {
    const el = document.createElement('select');
    for (const value of SELECTS[name]) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = optionLabel(name, value);
      el.append(option);
    }
    el.addEventListener('change', () => onChange(name, el.value));
    field(name, labelKey, el);
  };
  const checkbox = (name, labelKey) => {
    const el = document.createElement('input');
    el.type = 'checkbox';
    el.addEventListener('change', () => onChange(name, el.checked));
    field(name, labelKey, el);
  };

  number('dModel', 'controls.dModel');
  number('numHeads', 'controls.numHeads');
  number('seed', 'controls.seed');
  select('init', 'controls.init');
  select('layout', 'controls.layout');
  checkbox('qkvBias', 'controls.qkvBias');
  checkbox('outProj', 'controls.outProj');
  number('weightsSeed', 'controls.weightsSeed');
  select('scale', 'controls.scale');
  number('scaleValue', 'controls.scaleValue');
  select('mask', 'controls.mask');
  number('maskFill', 'controls.maskFill');
  number('dropoutP', 'controls.dropout');
  number('dropoutSeed', 'controls.dropoutSeed');
  select('positional', 'controls.positional');
  number('maxLen', 'controls.maxLen');

  return {
    inputs,
    sync(form) {
      for (const [name, el] of Object.entries(inputs)) {
        if (el.type === 'checkbox') el.checked = Boolean(form[name]);
        else if (document.activeElement !== el) el.value = String(form[name] ?? '');
      }
      inputs.scaleValue.closest('.field').hidden = form.scale !== 'custom';
    },
    /** Shows `message` at `control` (clears every other error); null clears all. */
    showError(control, message) {
      for (const [name, el] of Object.entries(errors)) {
        const on = name === control;
        el.hidden = !on;
        el.textContent = on ? message : '';
        inputs[name].toggleAttribute('aria-invalid', on);
      }
    },
  };
}
