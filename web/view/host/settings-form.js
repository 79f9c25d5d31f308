// The settings form, built from the schema: one control per scalar config
// field (the sentence boxes are the page's own), labelled and explained in
// the UI language. Controls report raw values (text as typed, checkbox
// states); model/settings.js turns them into a config, so a value that is not
// a number reaches the engine as typed and its error names the field.
import { FIELDS, fieldByPath, isScalar, isUsed } from '../../model/schema.js';

const CUSTOM = 'custom';

// The form's sections in reading order: the model's sizes first, the input's length last.
const GROUP_ORDER = ['model', 'attention', 'weights', 'embedding', 'dropout', 'modern', 'input'];

/** The fields the form shows: scalar ones (the sentence boxes are the page's own), by group, then in schema order. */
export const FORM_FIELDS = FIELDS.filter((field) => isScalar(field) && !field.oneOf).sort(
  (a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group),
);

const choiceLabel = (t, field, value) =>
  t.has(`enum.${field.path}.${value}`) ? t(`enum.${field.path}.${value}`) : value;

/** A setting's value: as the user set it, else as the engine resolved it in the last run, else the default. */
const valueReader = (settings, effective) => (path) =>
  settings[path] ?? effective[path] ?? fieldByPath.get(path)?.default;

const isChecked = (value) => value === true || value === 'true' || value === '';

/**
 * The form's settings in words, as the form would show them: each field used
 * in this setup, in the form's order, {path, label, value} (a choice by its
 * label, a switch on or off); for the printed handout.
 */
export function settingsSummary(t, settings, effective = {}) {
  const valueOf = valueReader(settings, effective);
  return FORM_FIELDS.filter((field) => isUsed(field, valueOf)).map((field) => {
    const value = valueOf(field.path);
    let text = String(value ?? '');
    if (field.type === 'boolean') text = t(isChecked(value) ? 'form.on' : 'form.off');
    else if (field.choices?.includes(text)) text = choiceLabel(t, field, text);
    return { path: field.path, label: t(`field.${field.path}`), value: text };
  });
}

/**
 * Builds the controls into `container`, except a field given a place of its own
 * in `places` ({path: element}, e.g. the tokenizer beside the sentence box).
 * onChange(path, raw) on every input. Returns {sync(settings, effective), showError(path, message)}; `effective`
 * holds the engine's resolved settings of the last run, shown where the user
 * set nothing.
 */
export function buildSettingsForm(container, { t, onChange, places = {} }) {
  container.replaceChildren();
  for (const place of Object.values(places)) place.replaceChildren();
  const controls = new Map(); // path -> {field, input, number?, error}

  /** Shows `message` at the control of `path` and clears every other; null clears all. */
  function showFieldError(path, message) {
    for (const [p, { input, number, error, wrapper }] of controls) {
      const on = p === path;
      if (on) wrapper.hidden = false; // an error is shown where it is, even on a field without effect
      error.hidden = !on;
      error.textContent = on ? message : '';
      input.toggleAttribute('aria-invalid', on);
      number?.toggleAttribute('aria-invalid', on);
    }
  }

  for (const field of FORM_FIELDS) {
    const id = `control-${field.name}`;
    const wrapper = document.createElement('div');
    wrapper.dataset.field = field.path;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = t(`field.${field.path}`);
    label.title = t(`help.${field.path}`);
    const error = document.createElement('p');
    error.className = 'field-error';
    error.id = `error-${field.name}`;
    error.setAttribute('role', 'alert');
    error.hidden = true;
    let input;
    let number;
    if (field.type === 'boolean') {
      wrapper.className = 'field checkbox';
      input = document.createElement('input');
      input.type = 'checkbox';
      input.addEventListener('change', () => onChange(field.path, input.checked));
      label.prepend(input);
      wrapper.append(label, error);
    } else if (field.type === 'enum' || field.type === 'enum|number') {
      wrapper.className = 'field select';
      input = document.createElement('select');
      for (const value of field.choices) input.append(new Option(choiceLabel(t, field, value), value));
      if (field.type === 'enum|number') {
        input.append(new Option(t('form.custom'), CUSTOM));
        number = document.createElement('input');
        number.type = 'text';
        number.inputMode = 'decimal';
        number.autocomplete = 'off';
        number.className = 'custom-number';
        number.setAttribute('aria-label', `${t(`field.${field.path}`)}: ${t('form.number')}`);
        number.setAttribute('aria-describedby', error.id);
        // An empty number box is said so at the field, not run as the default.
        const sendNumber = () => {
          if (number.value.trim() === '') return showFieldError(field.path, t('form.needNumber'));
          onChange(field.path, number.value);
        };
        number.addEventListener('input', sendNumber);
        input.addEventListener('change', () => {
          if (input.value !== CUSTOM) return onChange(field.path, input.value);
          number.hidden = false;
          number.focus();
          sendNumber();
        });
      } else {
        input.addEventListener('change', () => onChange(field.path, input.value));
      }
      wrapper.append(label, input, ...(number ? [number] : []), error);
    } else {
      wrapper.className = 'field';
      input = document.createElement('input');
      input.type = 'text';
      input.inputMode = 'decimal';
      input.autocomplete = 'off';
      input.addEventListener('input', () => onChange(field.path, input.value));
      wrapper.append(label, input, error);
    }
    input.id = id;
    input.name = field.name;
    input.title = t(`help.${field.path}`);
    input.setAttribute('aria-describedby', error.id);
    controls.set(field.path, { field, input, number, error, wrapper });
    (places[field.path] ?? container).append(wrapper);
  }

  return {
    sync(settings, effective = {}) {
      const valueOf = valueReader(settings, effective);
      for (const [path, { field, input, number, error, wrapper }] of controls) {
        // A field without effect in this setup (the mask fill without a mask) is not shown.
        wrapper.hidden = !isUsed(field, valueOf) && error.hidden;
        const value = valueOf(path);
        if (field.type === 'boolean') {
          input.checked = isChecked(value);
          continue;
        }
        if (document.activeElement === input || document.activeElement === number) continue;
        if (number) {
          const isChoice = field.choices.includes(String(value));
          input.value = isChoice ? String(value) : CUSTOM;
          number.hidden = isChoice;
          if (!isChoice) number.value = String(value ?? '');
        } else {
          input.value = Array.isArray(value) ? value.join(', ') : String(value ?? '');
        }
      }
    },
    showError: showFieldError,
    has: (path) => controls.has(path),
  };
}
