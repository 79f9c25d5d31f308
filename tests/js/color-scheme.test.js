// theme="auto": the site's signals (color-scheme.js SITE_SIGNALS) decide in
// their order, each only when it says exactly light or dark; when none does,
// the browser's canvas: the reader's prefers-color-scheme only where the page's
// color-scheme allows dark, else light.
import { describe, expect, test } from 'vitest';
import { SITE_SIGNALS, SITE_SIGNAL_ATTRIBUTES, resolveTheme, siteScheme } from '../../web/view/common/color-scheme.js';

/** A page reader over plain values: {colorScheme, html: {attr: value}, body: {attr: value} | null, dark}. */
function page({ colorScheme = 'normal', html = {}, body = {}, dark = false } = {}) {
  const TRANSPARENT = 'rgba(0, 0, 0, 0)';
  return {
    colorScheme: () => colorScheme,
    attribute: (on, name) => (on === 'html' ? html : body)?.[name] ?? null,
    background: (on) => (on === 'html' ? html : body)?.background ?? TRANSPARENT,
    prefersDark: () => dark,
  };
}

describe('siteScheme', () => {
  test('no signal: the canvas, dark only where color-scheme allows it and the OS prefers it', () => {
    // A plain page (color-scheme normal) is painted white on a dark OS too: light.
    expect(siteScheme(page({ dark: true }))).toBe('light');
    for (const colorScheme of ['light dark', 'dark light']) {
      expect(siteScheme(page({ colorScheme, dark: true }))).toBe('dark');
      expect(siteScheme(page({ colorScheme, dark: false }))).toBe('light');
    }
    // <body> not parsed yet: its signals say nothing.
    expect(siteScheme(page({ colorScheme: 'light dark', body: null, dark: true }))).toBe('dark');
  });

  test('a page that paints its own background: its luminance decides (body first, then html)', () => {
    expect(siteScheme(page({ body: { background: 'rgb(24, 24, 27)' }, dark: false }))).toBe('dark');
    expect(
      siteScheme(page({ html: { background: 'rgb(255, 255, 255)' }, colorScheme: 'light dark', dark: true })),
    ).toBe('light');
    expect(
      siteScheme(page({ body: { background: 'rgb(20, 20, 20)' }, html: { background: 'rgb(255, 255, 255)' } })),
    ).toBe('dark');
    // Transparent or almost: it paints nothing.
    expect(siteScheme(page({ body: { background: 'rgba(0, 0, 0, 0.2)' }, dark: true }))).toBe('light');
  });

  test('the OS dark and the site light (Docusaurus data-theme="light"): light', () => {
    expect(siteScheme(page({ html: { 'data-theme': 'light' }, dark: true }))).toBe('light');
  });

  test('each signal alone decides both ways, over the OS', () => {
    const cases = [
      [{ colorScheme: 'dark' }, { colorScheme: 'light' }],
      [{ colorScheme: 'only dark' }, { colorScheme: 'only light' }],
      [{ html: { 'data-theme': 'dark' } }, { html: { 'data-theme': 'light' } }],
      [{ html: { class: 'nav-open dark' } }, { html: { class: 'light js' } }],
      [{ body: { class: 'dark' } }, { body: { class: 'light' } }],
      [{ body: { 'data-md-color-scheme': 'slate' } }, { body: { 'data-md-color-scheme': 'default' } }],
      [{ body: { background: 'rgb(0, 0, 0)' } }, { body: { background: 'rgb(250, 250, 250)' } }],
    ];
    for (const [dark, light] of cases) {
      expect(siteScheme(page({ ...dark, dark: false })), JSON.stringify(dark)).toBe('dark');
      expect(siteScheme(page({ ...light, dark: true })), JSON.stringify(light)).toBe('light');
    }
  });

  test('undecided values fall through: normal, "light dark", other data-theme values and classes', () => {
    for (const colorScheme of ['light dark', 'dark light']) {
      expect(siteScheme(page({ colorScheme, dark: true }))).toBe('dark');
      expect(siteScheme(page({ colorScheme, dark: false }))).toBe('light');
    }
    expect(
      siteScheme(
        page({ html: { 'data-theme': 'solarized', class: 'darkish' }, colorScheme: 'light dark', dark: true }),
      ),
    ).toBe('dark');
    expect(siteScheme(page({ body: { 'data-md-color-scheme': 'custom' }, dark: false }))).toBe('light');
  });

  test('the first signal that decides wins, in the table’s order', () => {
    // Signal k says `scheme`, every later one (and the OS) the other scheme, the earlier ones nothing.
    const other = { dark: 'light', light: 'dark' };
    const mixed = (k, scheme) => {
      const say = (index, values) => (index === k ? values[scheme] : index > k ? values[other[scheme]] : undefined);
      return page({
        colorScheme: say(0, { dark: 'dark', light: 'light' }) ?? 'normal',
        html: {
          'data-theme': say(1, { dark: 'dark', light: 'light' }),
          class: say(2, { dark: 'dark', light: 'light' }),
        },
        body: {
          class: say(3, { dark: 'dark', light: 'light' }),
          'data-md-color-scheme': say(4, { dark: 'slate', light: 'default' }),
          background: say(5, { dark: 'rgb(0, 0, 0)', light: 'rgb(255, 255, 255)' }),
        },
        dark: scheme === 'light',
      });
    };
    expect(SITE_SIGNALS).toHaveLength(6);
    for (let k = 0; k < SITE_SIGNALS.length; k++)
      for (const scheme of ['dark', 'light'])
        expect(siteScheme(mixed(k, scheme)), SITE_SIGNALS[k].selector).toBe(scheme);
  });

  test('theme="light" or "dark" is taken as given; "auto" is the site’s; without a page, the OS only', () => {
    const darkSite = page({ html: { 'data-theme': 'dark' }, dark: false });
    expect(resolveTheme('light', darkSite)).toBe('light');
    expect(resolveTheme('dark', page({ html: { 'data-theme': 'light' } }))).toBe('dark');
    expect(resolveTheme('auto', darkSite)).toBe('dark');
    expect(resolveTheme('auto')).toBe('light'); // Node: no matchMedia, no preference
  });

  test('the attributes watched live are those the signals read, on <html> and <body>', () => {
    expect([...SITE_SIGNAL_ATTRIBUTES].sort()).toEqual(['class', 'data-md-color-scheme', 'data-theme', 'style']);
  });
});

test('the authors’ docs list every signal, in the table’s order', async () => {
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync(new URL('../../web/docs/authors.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  const places = SITE_SIGNALS.map((signal) => readme.indexOf(`\`${signal.selector}\``));
  expect(places.every((place) => place > 0)).toBe(true);
  expect([...places].sort((a, b) => a - b)).toEqual(places);
});
