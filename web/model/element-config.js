// The config an <attention-lab> element's attributes describe, without the
// element: the page's share snippet and the tests read it in Node the way the
// element does in a browser.
import { AttentionConfigError } from '../api/index.js';
import { editsFromJson, emptyEdits, withEdits } from './edits.js';
import { PRESETS, defaultSettings, presetByKey, presetSettings } from './presets.js';
import { FIELDS } from './schema.js';
import { attributesFromSettings, configFromSettings, mergeConfig, settingsFromAttributes } from './settings.js';

/** The element's attribute holding a config (JSON) merged over the others. */
export const CONFIG_ATTRIBUTE = 'config';
/** The element's attribute naming a preset its other attributes start from. */
export const PRESET_ATTRIBUTE = 'preset';

/** The config attribute as an object; a malformed one is an error naming it. */
export function parseConfigAttribute(text) {
  if (text === null || text.trim() === '') return {};
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw AttentionConfigError.of(CONFIG_ATTRIBUTE, 'config-attribute-json', { reason: error.message });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw AttentionConfigError.of(CONFIG_ATTRIBUTE, 'config-attribute-not-object');
  }
  return parsed;
}

/** The config attribute as an object, {} when malformed (the run that reads it reports that). */
export function configAttributeOrNone(text) {
  try {
    return parseConfigAttribute(text);
  } catch {
    return {};
  }
}

/** The preset an attribute names (null when absent); an unknown key is an error naming the attribute. */
export function presetOf(key) {
  if (key === null || key.trim() === '') return null;
  const preset = presetByKey.get(key.trim());
  if (preset) return preset;
  const known = PRESETS.map((p) => p.key).join(', ');
  throw AttentionConfigError.of(PRESET_ATTRIBUTE, 'unknown-preset', { key, known });
}

/** The edits a config carries (weights.edits, embedding.edits), to mark them; none if malformed (the engine reports it). */
export function givenEditsOf(config) {
  try {
    return editsFromJson({ weights: config.weights?.edits ?? {}, embedding: config.embedding?.edits ?? [] });
  } catch {
    return emptyEdits();
  }
}

/**
 * The config the attributes describe (getAttribute(name): its text or null),
 * for an element in language `lang`: the preset's settings (or the default
 * example's), the attributes over them, the config attribute merged over all.
 */
export function configFromAttributes(getAttribute, lang) {
  const settings = settingsFromAttributes(getAttribute);
  const extra = parseConfigAttribute(getAttribute(CONFIG_ATTRIBUTE));
  const preset = presetOf(getAttribute(PRESET_ATTRIBUTE));
  const base = preset ? presetSettings(preset, lang) : defaultSettings(lang);
  // A field given for the input or the context replaces the base's choice there (text vs input).
  const given = (field) => settings[field.path] !== undefined || extra[field.path] !== undefined;
  const replaced = new Set(FIELDS.filter((field) => field.oneOf && given(field)).map((field) => field.oneOf));
  for (const field of FIELDS) if (replaced.has(field.oneOf)) delete base[field.path];
  return mergeConfig(configFromSettings({ ...base, ...settings }), extra);
}

/**
 * The attributes that make an element show {settings, edits} (a share link's
 * state): one per setting, and the edits, sparse (the embedding's by token),
 * in the config attribute. The share snippet and embed.html both write these.
 */
export function elementAttributesOf({ settings, edits }) {
  const attributes = attributesFromSettings(settings);
  const config = edits ? withEdits({}, edits) : {};
  if (Object.keys(config).length) attributes.push([CONFIG_ATTRIBUTE, JSON.stringify(config)]);
  return attributes;
}
