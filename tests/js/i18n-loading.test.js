// Only English is bundled with the code that uses the strings; every other
// language is a module of its own, loaded when asked for, so a page in English
// never downloads the Chinese strings.
import { expect, test } from 'vitest';
import { STRINGS, isLanguageLoaded, loadLanguage, translator } from '../../web/i18n/index.js';

test('Chinese loads on demand; English is there at once', async () => {
  expect(Object.keys(STRINGS)).toEqual(['en']);
  expect(isLanguageLoaded('en')).toBe(true);
  expect(isLanguageLoaded('zh')).toBe(false);
  expect(() => translator('zh')).toThrow(/not loaded.*loadLanguage/);

  const loads = [loadLanguage('zh-CN'), loadLanguage('zh')];
  const [zh, again] = await Promise.all(loads);
  expect(zh.lang).toBe('zh');
  expect(again.lang).toBe('zh');
  expect(isLanguageLoaded('zh-Hans')).toBe(true);
  expect(zh('app.title')).toBe(translator('zh')('app.title'));
  expect(zh('controls.language')).not.toBe(translator('en')('controls.language'));

  const en = await loadLanguage('fr'); // unknown languages are English
  expect(en.lang).toBe('en');
});
