// Settings: what a user set, keyed by config path ({"dModel": "16",
// "weights.init": "torch-mha"}), as typed in the form, given as element
// attributes or read from a share link. A path that is absent is not sent,
// so the engine's default (and its rules, such as qkvBias following init)
// applies. configFromSettings() turns settings into an engine config;
// attributes and element markup are derived from the same schema rows.
import { FIELDS, batchFieldOf, fieldByPath, getPath, isScalar, setPath } from './schema.js';
import { resolveWordTokenizer } from './segment.js';

/** The sentences of a text box: one per non-blank line. */
export const sentencesOf = (text) => text.split('\n').filter((line) => line.trim() !== '');

// "8" -> 8, "−1e9" -> -1e9, "" -> undefined, "abc" -> "abc" (the engine names the field).
function numberOrText(raw) {
  if (typeof raw === 'number') return raw;
  const text = String(raw).trim().replace(/^−/, '-');
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

// "0.5", "0.5, -1" or "[0.5, -1]": one number, or a list of them (one per head); an array as it is.
function numberOrList(raw) {
  if (Array.isArray(raw)) return raw.map(numberOrText);
  const text = String(raw).trim();
  if (!/[\s,[]/.test(text)) return numberOrText(text);
  return text
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(numberOrText);
}

function jsonOrText(raw) {
  if (typeof raw !== 'string') return raw;
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw; // the engine reports the wrong type, naming the field
  }
}

/**
 * The config value of `raw` for `field`: numbers from number text, booleans
 * from checkboxes and attributes ("false" is false, present is true), JSON
 * for arrays and objects. undefined means "not set".
 */
export function coerce(field, raw) {
  if (raw === undefined || raw === null) return undefined;
  switch (field.type) {
    case 'boolean':
      return typeof raw === 'boolean' ? raw : String(raw).trim().toLowerCase() !== 'false';
    case 'integer':
    case 'seed':
    case 'number':
    case 'enum|number':
      return numberOrText(raw);
    case 'number|number[]':
      return numberOrList(raw);
    case 'enum':
      return String(raw).trim() === '' ? undefined : String(raw).trim();
    case 'string':
      return String(raw);
    default:
      return jsonOrText(raw);
  }
}

/**
 * An engine config from settings. A multi-line text becomes a batch (texts);
 * the tokenizer "words" becomes pre-split tokens (model/segment.js).
 */
export function configFromSettings(settings) {
  const config = {};
  for (const field of FIELDS) {
    let value = coerce(field, settings[field.path]);
    if (value === undefined) continue;
    const batch = batchFieldOf(field);
    if (batch && typeof value === 'string') {
      const lines = sentencesOf(value);
      if (lines.length === 0) continue; // an empty box: not given
      if (lines.length > 1) {
        setPath(config, batch.path, lines);
        continue;
      }
      value = lines[0];
    }
    setPath(config, field.path, value);
  }
  return resolveWordTokenizer(config);
}

/**
 * `settings` with `path` set to `value`. A value for one field of an
 * exclusive group (the sentence box while a preset gave a randn input) drops
 * the group's other fields, so the config gives only one of them.
 */
export function withSetting(settings, path, value) {
  const next = { ...settings, [path]: value };
  const group = fieldByPath.get(path)?.oneOf;
  const given = value !== undefined && value !== null && String(value).trim() !== '';
  if (group && given)
    for (const field of FIELDS) if (field.oneOf === group && field.path !== path) delete next[field.path];
  return next;
}

/** Settings from a config (the inverse of configFromSettings for the fields it holds). */
export function settingsFromConfig(config) {
  const settings = {};
  for (const field of FIELDS) {
    const value = getPath(config, field.path);
    if (value === undefined) continue;
    const batch = batchFieldOf(field);
    if (batch && getPath(config, batch.path) !== undefined) continue;
    if (field.type === 'string[]' && fieldByPath.get(field.path.slice(0, -1))?.type === 'string') {
      settings[field.path.slice(0, -1)] = value.join('\n');
    } else {
      settings[field.path] = value;
    }
  }
  return settings;
}

/** Settings from element attributes: getAttribute(field.name) for every field. */
export function settingsFromAttributes(getAttribute) {
  const settings = {};
  for (const field of FIELDS) {
    const value = getAttribute(field.name);
    if (value !== null) settings[field.path] = value;
  }
  return settings;
}

/** The attribute text of a setting: booleans present ('') or "false", objects and lists as JSON. */
export function attributeValue(field, value) {
  if (field.type === 'boolean') return coerce(field, value) ? '' : 'false';
  if ((!isScalar(field) || Array.isArray(value)) && typeof value !== 'string') return JSON.stringify(value);
  return String(value);
}

/** [[attribute, text], ...] for the settings that are set, in schema order. */
export function attributesFromSettings(settings) {
  const attributes = [];
  for (const field of FIELDS) {
    const value = settings[field.path];
    if (value === undefined || value === null || value === '') continue;
    attributes.push([field.name, attributeValue(field, value)]);
  }
  return attributes;
}

const escapeAttribute = (value) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n/g, '&#10;');

/** `<attention-lab …></attention-lab>` markup, every value escaped. */
export function elementMarkup(attributes) {
  const parts = attributes.map(([name, value]) => (value === '' ? name : `${name}="${escapeAttribute(value)}"`));
  return `<attention-lab ${parts.join(' ')}></attention-lab>`;
}

const isPlainObject = (value) =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/**
 * Deep merge of plain objects: `extra` over `base` (the element's config attribute over its other
 * attributes). Anything else (an array, a typed array, a class's instance) is a value that replaces.
 */
export function mergeConfig(base, extra) {
  const out = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const both = isPlainObject(value) && Object.hasOwn(base, key) && isPlainObject(base[key]);
    // Defined, not assigned: a key "__proto__" (JSON.parse makes it an own key) stays a key, for the engine to
    // refuse as an unknown field, instead of silently becoming the object's prototype.
    Object.defineProperty(out, key, {
      value: both ? mergeConfig(base[key], value) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * The setting an engine error belongs to: "weights.init" -> "weights.init",
 * "texts[1]" -> "text" (the box that holds the batch), "input.randn[1]" ->
 * "input"; undefined when none does.
 */
export function settingOfError(errorField) {
  // An error of no field (a bug's TypeError reaching the page) belongs to no setting.
  if (typeof errorField !== 'string') return undefined;
  let best;
  for (const field of FIELDS) {
    const p = field.path;
    const matches = errorField === p || errorField.startsWith(`${p}.`) || errorField.startsWith(`${p}[`);
    if (matches && (!best || p.length > best.path.length)) best = field;
  }
  if (!best) return undefined;
  const singular = fieldByPath.get(best.path.slice(0, -1));
  return best.type === 'string[]' && singular && batchFieldOf(singular) === best ? singular.path : best.path;
}
