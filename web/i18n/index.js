// The UI languages. Each language is a file of strings (en.js, zh.js); code
// gets a `t` for one language and passes it down, so two elements on a page
// can speak different languages at once. One language is inside the build
// (loaders.js: English; the Chinese standalone script's own, Chinese), and
// is what shows first; the others are loaded when asked for (loadLanguage),
// so a page in English never downloads Chinese, nor the Chinese script
// English. Strings that only one tool or view shows are files of their own
// per language, which it registers (addStrings): the command line's
// (en-cli.js, zh-cli.js), the authors' page's, the trained model's view's,
// the checkpoint view's and the heads grid's, so the page's start never
// carries them.
import { BUNDLED, LOADERS } from './loaders.js';

/** Language code -> its own name, for the language menu. */
export const LANGUAGES = { en: 'English', zh: '简体中文' };

/** The strings of each language loaded so far: the bundled one at first, then each once loaded. */
export const STRINGS = { ...BUNDLED };

/** The language inside this build: every host's t until its own language has loaded. */
export const BUNDLED_LANGUAGE = Object.keys(BUNDLED)[0];

// Strings registered by tools and views (addStrings), by language: merged into a language's table
// now if it is loaded, else when it loads.
const registered = {};

const loading = {};

/** Resolves with translator(lang) once that language's strings are loaded (at once for the bundled one). */
export function loadLanguage(lang) {
  const code = resolveLanguage(lang);
  if (STRINGS[code]) return Promise.resolve(translator(code));
  loading[code] ??= LOADERS[code]().then(
    (module) => {
      STRINGS[code] = Object.assign(module.default, registered[code]);
      return translator(code);
    },
    (error) => {
      delete loading[code]; // a later call tries again
      throw error;
    },
  );
  return loading[code];
}

/**
 * Adds the strings of one tool or view, {en: {...}, zh: {...}} (en-cli.js and
 * zh-cli.js, …), to each language's table.
 */
export function addStrings(byLanguage) {
  for (const [code, strings] of Object.entries(byLanguage)) {
    Object.assign((registered[code] ??= {}), strings);
    if (STRINGS[code]) Object.assign(STRINGS[code], strings);
  }
}

/** Whether translator(lang) can be had now, without awaiting loadLanguage(lang). */
export const isLanguageLoaded = (lang) => Boolean(STRINGS[resolveLanguage(lang)]);

/**
 * The UI language for a BCP 47 tag: "zh", "zh-CN", "zh-Hans", "zh-TW" -> "zh";
 * anything else -> "en".
 */
export function resolveLanguage(tag) {
  const primary = String(tag ?? '')
    .trim()
    .toLowerCase()
    .split(/[-_]/)[0];
  return Object.hasOwn(LANGUAGES, primary) ? primary : 'en';
}

/**
 * t(key, {name: value}) in `lang`: the string with its {name} placeholders
 * filled; English where the language lacks a key (if English is loaded);
 * the key itself if no language has it. A language other than the bundled
 * one must have been loaded first (await loadLanguage(lang)).
 */
export function translator(lang) {
  const table = STRINGS[resolveLanguage(lang)];
  if (!table) throw new Error(`translator: the "${resolveLanguage(lang)}" strings are not loaded (await loadLanguage)`);
  const t = (key, values = {}) => {
    const template = table[key] ?? STRINGS.en?.[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
  };
  t.lang = resolveLanguage(lang);
  /** Whether a key exists (so a label can fall back to the raw value). */
  t.has = (key) => key in table || key in (STRINGS.en ?? {});
  return t;
}

// The words of the engine's English messages that name a JSON type ("must be
// a string, got an array"), and the keys that say them in the UI language.
const TYPE_WORDS = {
  'a string': 'json.string',
  'a number': 'json.number',
  'a boolean': 'json.boolean',
  'an array': 'json.array',
  'an object': 'json.object',
};

/**
 * An engine error or warning ({code, params, message}, e.g. an
 * AttentionConfigError) as the UI language says it: English is the engine's
 * own message; another language fills its template error.<code> with the
 * params (a JSON type word translated), or falls back to the message when it
 * has no template for the code (or the error has no code).
 */
export function errorText(error, t) {
  const message = error?.message ?? String(error);
  const key = `error.${error?.code}`;
  if (t.lang === 'en' || !error?.code || !Object.hasOwn(STRINGS[t.lang], key)) return message;
  const values = {};
  for (const [name, value] of Object.entries(error.params ?? {}))
    values[name] = Object.hasOwn(TYPE_WORDS, value) ? t(TYPE_WORDS[value]) : value;
  return t(key, values);
}

/**
 * errorText with the field it is about in front ("numHeads: dModel (6) must
 * be divisible …"), unless the text already starts with it ("dModel must be …",
 * "options.tensors must be …"): the field is said once.
 */
export function fieldErrorText(error, t) {
  const text = errorText(error, t);
  const field = error?.field;
  if (!field) return text;
  const saysField = text.startsWith(field) && !/^\w/.test(text.slice(field.length)); // not "text" in "texts"
  return saysField ? text : `${field}: ${text}`;
}
