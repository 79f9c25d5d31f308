// Every language has the same keys with the same placeholders, every key is
// used, and every schema field and enum value has a label in every language.
// The engine's errors are the exception: English shows the engine's own
// message, and every other language has a template error.<code> for each code
// of SCHEMA.errors, with exactly that code's parameters.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import authorsStrings from '../../web/i18n/authors.js';
import cliStrings from '../../web/i18n/cli.js';
import checkpointStrings from '../../web/i18n/checkpoint.js';
import headsStrings from '../../web/i18n/heads.js';
import explainStrings from '../../web/i18n/explain.js';
import trainedStrings from '../../web/i18n/trained.js';
import presetNotesStrings from '../../web/i18n/preset-notes.js';
import mlaStrings from '../../web/i18n/mla.js';
import diffStrings from '../../web/i18n/diff.js';
import variantStrings from '../../web/i18n/variants.js';
import {
  LANGUAGES,
  STRINGS,
  addStrings,
  errorText,
  fieldErrorText,
  loadLanguage,
  translator,
} from '../../web/i18n/index.js';
import { FIELDS, SCHEMA } from '../../web/model/schema.js';
import { PRESETS } from '../../web/model/presets.js';
import { SHARE_ERROR_CODES } from '../../web/model/share.js';
import { STEP_NAMES } from '../../web/view/steps/registry.js';
import { VIEW_OPTIONS } from '../../web/model/view-options.js';
import { MATRIX_FORMATS } from '../../web/model/matrix-formats.js';

const web = fileURLToPath(new URL('../../web/', import.meta.url));
const LAYERS = ['api', 'i18n', 'model', 'view', 'page', 'element', 'cli'];
// Only English is there at first; the others load on demand.
const languages = Object.keys(LANGUAGES);
await Promise.all(languages.map(loadLanguage));
// Every language in full: the page's strings and those of the command line, the authors' page and the views.
const AREAS = {
  cliStrings,
  authorsStrings,
  trainedStrings,
  headsStrings,
  checkpointStrings,
  explainStrings,
  presetNotesStrings,
  mlaStrings,
  diffStrings,
  variantStrings,
};
for (const strings of Object.values(AREAS)) addStrings(strings);
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** The keys of the engine's error templates, which only the languages other than English have. */
const ERROR_KEYS = new Set(SCHEMA.errors.map(({ code }) => `error.${code}`));
const ownKeys = (lang) => Object.keys(STRINGS[lang]).filter((key) => !ERROR_KEYS.has(key));

/** Every key the code builds from data: field labels and help, enum labels, steps, presets, view options. */
function dynamicKeys() {
  const keys = [];
  for (const field of FIELDS) {
    keys.push(`field.${field.path}`, `help.${field.path}`);
    if (field.type === 'enum' || field.type === 'enum|number')
      for (const value of field.choices) keys.push(`enum.${field.path}.${value}`);
  }
  for (const step of Object.keys(STEP_NAMES))
    keys.push(`step.${step}.title`, `step.${step}.meaning`, `step.${step}.short`, `step.${step}.narration`);
  for (const preset of PRESETS) keys.push(`preset.${preset.key}`, `preset.${preset.key}.note`);
  for (const option of VIEW_OPTIONS) keys.push(option.help);
  for (const format of MATRIX_FORMATS) keys.push(`export.${format}`);
  for (const code of SHARE_ERROR_CODES) keys.push(`share.error.${code}`);
  keys.push(...ERROR_KEYS);
  return keys;
}

/** The text of every source file and page of the web layers. */
function sources() {
  const texts = readdirSync(web)
    .filter((f) => f.endsWith('.html'))
    .map((f) => readFileSync(web + f, 'utf8'));
  for (const layer of LAYERS)
    for (const f of readdirSync(web + layer, { recursive: true }))
      // Not the string tables themselves (i18n/en.js, en-cli.js, …, zh.js): there every key is written once.
      if (/\.(js|html)$/.test(f) && !f.startsWith('generated') && !(layer === 'i18n' && f !== 'index.js'))
        texts.push(readFileSync(`${web}${layer}/${f}`, 'utf8'));
  return texts.join('\n');
}

describe('i18n', () => {
  test('every language has the same keys', () => {
    for (const lang of languages) expect(ownKeys(lang).sort(), lang).toEqual(Object.keys(STRINGS.en).sort());
  });

  test("each tool's or view's strings have the same keys in every language, so each language's own file is complete alone", () => {
    for (const [area, byLanguage] of Object.entries(AREAS))
      for (const lang of languages)
        expect(Object.keys(byLanguage[lang]).sort(), `${area} in ${lang}`).toEqual(Object.keys(byLanguage.en).sort());
  });

  test("every language but English has a template for every engine error, with exactly the code's parameters", () => {
    expect(SCHEMA.errors.length).toBeGreaterThan(60);
    expect(ownKeys('en')).toEqual(Object.keys(STRINGS.en)); // English shows the engine's message
    for (const lang of languages.filter((l) => l !== 'en')) {
      for (const { code, params } of SCHEMA.errors) {
        const template = STRINGS[lang][`error.${code}`];
        expect(template, `${lang} error.${code}`).toBeTypeOf('string');
        expect(placeholders(template), `${lang} error.${code}`).toEqual([...params].sort());
      }
    }
  });

  test('errorText: English is the engine message; Chinese fills the template, type words translated', () => {
    const error = {
      code: 'wrong-type',
      params: { field: 'text', expected: 'a string', got: 'an array' },
      message: 'text must be a string, got an array',
    };
    expect(errorText(error, translator('en'))).toBe('text must be a string, got an array');
    expect(errorText(error, translator('zh'))).toBe('text 应为字符串，实际为 数组');
    // No code (an error made outside the engine): the message, in every language.
    expect(errorText({ message: 'plain' }, translator('zh'))).toBe('plain');
  });

  test('fieldErrorText says the field once: in front, unless the message starts with it', () => {
    const en = translator('en');
    const of = (field, message) => fieldErrorText({ field, message }, en);
    expect(of('options.tensors', 'options.tensors must be an array of tensor names')).toBe(
      'options.tensors must be an array of tensor names',
    );
    expect(of('numHeads', 'dModel (6) must be divisible by numHeads (4)')).toBe(
      'numHeads: dModel (6) must be divisible by numHeads (4)',
    );
    expect(of('tokens', 'tokens[0][0] ("a b") contains whitespace')).toBe('tokens[0][0] ("a b") contains whitespace');
    expect(of('text', 'texts must not be empty')).toBe('text: texts must not be empty'); // another word
    expect(of(undefined, 'plain')).toBe('plain');
  });

  test('placeholders match in every language', () => {
    for (const key of Object.keys(STRINGS.en))
      for (const lang of languages)
        expect(placeholders(STRINGS[lang][key]), `${lang} ${key}`).toEqual(placeholders(STRINGS.en[key]));
  });

  test('every schema field has a label and help, and every enum value a label, in every language', () => {
    const needed = dynamicKeys().filter((key) => /^(field|help|enum)\./.test(key));
    for (const lang of languages) {
      const missing = needed.filter((key) => !(key in STRINGS[lang]));
      expect(missing, lang).toEqual([]);
    }
  });

  test('every step has an overview name and a step-by-step narration in every language', () => {
    const needed = Object.keys(STEP_NAMES).flatMap((step) => [`step.${step}.short`, `step.${step}.narration`]);
    for (const lang of languages)
      expect(
        needed.filter((key) => !(key in STRINGS[lang])),
        lang,
      ).toEqual([]);
  });

  test('no unused keys: each is written in the code or built from the schema, steps, presets or view options', () => {
    const code = sources();
    const dynamic = new Set(dynamicKeys());
    // Keys the code builds from a template (`cli.option.${name}`): their prefix counts as written.
    const builtPrefixes = [...code.matchAll(/`([\w.]+\.)\$\{/g)].map((match) => match[1]);
    const unused = Object.keys(STRINGS.en).filter(
      (key) =>
        !dynamic.has(key) &&
        !code.includes(`'${key}'`) &&
        !code.includes(`"${key}"`) &&
        !builtPrefixes.some((prefix) => key.startsWith(prefix)),
    );
    expect(unused).toEqual([]);
  });

  test('the page names in its markup only keys of each language’s own table', async () => {
    // Their texts are filled in at start, before a view's strings (explanations, heads, …) are registered.
    const own = {
      en: (await import('../../web/i18n/en.js')).default,
      zh: (await import('../../web/i18n/zh.js')).default,
    };
    for (const page of ['index.html']) {
      const keys = [...readFileSync(web + page, 'utf8').matchAll(/data-i18n[\w-]*="([\w.]+)"/g)].map((m) => m[1]);
      expect(keys.length, page).toBeGreaterThan(3);
      for (const lang of languages)
        expect(
          keys.filter((key) => !Object.hasOwn(own[lang], key)),
          `${page}: keys missing from i18n/${lang}.js`,
        ).toEqual([]);
    }
  });

  test('strings set as markup (data-i18n-html) hold only <code> and <em>, in every language', () => {
    const keys = [...sources().matchAll(/data-i18n-html="([\w.]+)"/g)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(5);
    for (const lang of languages)
      for (const key of keys) {
        const tags = [...STRINGS[lang][key].matchAll(/<\/?([a-z]+)[^>]*>/g)].map((m) => m[1]);
        expect(
          tags.filter((tag) => !['code', 'em'].includes(tag)),
          `${lang} ${key}`,
        ).toEqual([]);
        expect(STRINGS[lang][key], `${lang} ${key}`).not.toMatch(/<[a-z]+\s/); // no attributes
      }
  });

  test('every reason a share link is refused has its message', () => {
    for (const lang of languages)
      for (const code of SHARE_ERROR_CODES)
        expect(STRINGS[lang][`share.error.${code}`], `${lang} ${code}`).toBeTruthy();
  });
});
