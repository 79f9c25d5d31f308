// The UI languages. Each language is one file of strings (en.js, zh.js);
// code gets a `t` for one language and passes it down, so two elements on a
// page can speak different languages at once. English is always here (the
// default, and every language's fallback); the others are loaded when asked
// for (loadLanguage), so a page in English never downloads them. English
// strings that only one tool or view shows are files of their own, which it
// registers (addEnglish): the command line's (en-cli.js), the authors' page's
// (en-authors.js) and the trained model's view's (en-trained.js), so the main
// page never carries them.
import en from './en.js';
import { LOADERS } from './loaders.js';

/** Language code -> its own name, for the language menu. */
export const LANGUAGES = { en: 'English', zh: '简体中文' };

/** The strings of each language loaded so far: {en} at first, {en, zh} once zh is loaded. */
export const STRINGS = { en };

const loading = {};

/** Resolves with translator(lang) once that language's strings are loaded (at once for English). */
export function loadLanguage(lang) {
  const code = resolveLanguage(lang);
  if (STRINGS[code]) return Promise.resolve(translator(code));
  loading[code] ??= LOADERS[code]().then(
    (module) => {
      STRINGS[code] = module.default;
      return translator(code);
    },
    (error) => {
      delete loading[code]; // a later call tries again
      throw error;
    },
  );
  return loading[code];
}

/** Adds English strings of one tool or view (en-cli.js, en-authors.js, en-trained.js) to the English table. */
export function addEnglish(strings) {
  Object.assign(en, strings);
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
 * filled; English where the language lacks a key; the key itself if no
 * language has it. A language other than English must have been loaded
 * first (await loadLanguage(lang)).
 */
export function translator(lang) {
  const table = STRINGS[resolveLanguage(lang)];
  if (!table) throw new Error(`translator: the "${resolveLanguage(lang)}" strings are not loaded (await loadLanguage)`);
  const t = (key, values = {}) => {
    const template = table[key] ?? en[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
  };
  t.lang = resolveLanguage(lang);
  /** Whether a key exists (so a label can fall back to the raw value). */
  t.has = (key) => key in table || key in en;
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
