// theme="auto" (the element's default): light or dark as the page around it
// says, read from the signals of SITE_SIGNALS in order (the first that says
// light or dark decides), else as the browser paints a page that paints no
// background: dark only where its color-scheme lets it follow the reader's
// prefers-color-scheme ("light dark"), light otherwise (a plain page is white
// on a dark OS too); followed live. The page (index.html) has its own theme control: its "auto" is the
// reader's colour scheme only (it sets data-theme on its <html> itself).

const darkQuery = () => globalThis.matchMedia?.('(prefers-color-scheme: dark)') ?? null;

/** "light" or "dark" when `words` (a color-scheme value) is exactly one of them ("only dark" too); else null. */
function onlyScheme(words) {
  const schemes = String(words ?? '')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== 'only');
  return schemes.length === 1 && (schemes[0] === 'light' || schemes[0] === 'dark') ? schemes[0] : null;
}

/** "dark" or "light" for a computed background colour that paints (alpha over one half); else null. */
function fromBackground(color) {
  const channels = String(color ?? '')
    .match(/^rgba?\(([^)]*)\)$/)?.[1]
    .split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number);
  if (!channels || channels.length < 3 || (channels[3] ?? 1) <= 0.5) return null;
  // Relative luminance (sRGB, WCAG): under one half reads as a dark page.
  const linear = channels
    .slice(0, 3)
    .map((c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
  return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2] < 0.5 ? 'dark' : 'light';
}

/** The scheme `values` maps the attribute's value to (by its tokens when `tokens`: a class list); else null. */
function fromAttribute(text, values, tokens) {
  if (text === null || text === undefined) return null;
  const words = tokens ? text.split(/\s+/) : [text.trim()];
  for (const [value, scheme] of Object.entries(values)) if (words.includes(value)) return scheme;
  return null;
}

/**
 * The host page's signals of its colour scheme, in the order theme="auto"
 * reads them (the README lists their `selector`s in this order, with the
 * sites that set each; a test checks it). `attributes`: those whose changes
 * may change it (observed live on <html> and <body>); read(page): "light",
 * "dark" or null (it says nothing).
 */
export const SITE_SIGNALS = [
  {
    selector: 'html { color-scheme: dark | light }',
    attributes: ['style', 'class'],
    read: (page) => onlyScheme(page.colorScheme()),
  },
  {
    selector: 'html[data-theme="dark" | "light"]',
    attributes: ['data-theme'],
    read: (page) => fromAttribute(page.attribute('html', 'data-theme'), { dark: 'dark', light: 'light' }, false),
  },
  {
    selector: 'html.dark | html.light',
    attributes: ['class'],
    read: (page) => fromAttribute(page.attribute('html', 'class'), { dark: 'dark', light: 'light' }, true),
  },
  {
    selector: 'body.dark | body.light',
    attributes: ['class'],
    read: (page) => fromAttribute(page.attribute('body', 'class'), { dark: 'dark', light: 'light' }, true),
  },
  {
    selector: 'body[data-md-color-scheme="slate" | "default"]',
    attributes: ['data-md-color-scheme'],
    read: (page) =>
      fromAttribute(page.attribute('body', 'data-md-color-scheme'), { slate: 'dark', default: 'light' }, false),
  },
  {
    // A site without any of the above that paints its own background (its CSS may follow the OS).
    selector: 'body, html { background-color }',
    attributes: ['style', 'class'],
    read: (page) => fromBackground(page.background('body')) ?? fromBackground(page.background('html')),
  },
];

/** The attributes of <html> and <body> whose changes may change the site's scheme (observed on both). */
export const SITE_SIGNAL_ATTRIBUTES = [...new Set(SITE_SIGNALS.flatMap((signal) => signal.attributes))];

/**
 * "light" or "dark" for the page that `page` reads: the first of SITE_SIGNALS
 * that says one, else the browser's canvas: dark when the page's color-scheme
 * allows dark and the reader prefers it, else light. page: {colorScheme() ->
 * <html>'s computed color-scheme, attribute('html' | 'body', name) -> its
 * value or null (no <body> yet: null), background('html' | 'body') -> its
 * computed background-color or null, prefersDark() -> boolean}.
 */
export function siteScheme(page) {
  for (const signal of SITE_SIGNALS) {
    const scheme = signal.read(page);
    if (scheme) return scheme;
  }
  const allowsDark = String(page.colorScheme() ?? '')
    .split(/\s+/)
    .includes('dark');
  return allowsDark && page.prefersDark() ? 'dark' : 'light';
}

/** The reader of siteScheme for document `doc`. */
export function documentSignals(doc) {
  const elementOf = (on) => (on === 'html' ? doc.documentElement : doc.body);
  return {
    // The property on <html>, else the page's <meta name="color-scheme"> (which the property does not show).
    colorScheme: () => {
      const property = getComputedStyle(doc.documentElement).colorScheme;
      if (property && property !== 'normal') return property;
      return doc.querySelector('meta[name="color-scheme"]')?.getAttribute('content') ?? property;
    },
    attribute: (on, name) => elementOf(on)?.getAttribute(name) ?? null,
    background: (on) => (elementOf(on) ? getComputedStyle(elementOf(on)).backgroundColor : null),
    prefersDark: () => Boolean(darkQuery()?.matches),
  };
}

/**
 * "light" or "dark" for a theme option: "auto" is `page`'s scheme (siteScheme;
 * without `page`, the reader's colour scheme only, as the page's own control has it).
 */
export function resolveTheme(theme, page = null) {
  if (theme === 'light' || theme === 'dark') return theme;
  if (page) return siteScheme(page);
  return darkQuery()?.matches ? 'dark' : 'light';
}

/** Calls onChange() whenever the reader's colour scheme changes; returns the function that stops it. */
export function watchColorScheme(onChange) {
  const query = darkQuery();
  if (!query) return () => {};
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Calls onChange() whenever an attribute of <html> or <body> of `doc` that
 * may change its scheme (SITE_SIGNAL_ATTRIBUTES, and `extra` on <html>)
 * changes; a <body> that is not there yet (a script in <head>) is watched
 * once it is. Returns the function that stops it.
 */
export function watchSiteSignals(doc, onChange, extra = []) {
  if (typeof MutationObserver === 'undefined') return () => {};
  const attributeFilter = [...new Set([...SITE_SIGNAL_ATTRIBUTES, ...extra])];
  let body = null;
  const observer = new MutationObserver((records) => {
    // <body> arrived (or was replaced): watch it, and its attributes may already say a scheme.
    if (doc.body && doc.body !== body) watchBody();
    if (records.some((record) => record.type === 'attributes' || record.target === doc.documentElement)) onChange();
  });
  const watchBody = () => {
    body = doc.body;
    observer.observe(body, { attributes: true, attributeFilter: SITE_SIGNAL_ATTRIBUTES });
  };
  observer.observe(doc.documentElement, { attributes: true, attributeFilter, childList: true });
  if (doc.body) watchBody();
  return () => observer.disconnect();
}
