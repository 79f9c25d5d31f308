// theme="auto" (the default): the reader's colour scheme, as the browser's
// prefers-color-scheme says it, followed live when it changes.

const darkQuery = () => globalThis.matchMedia?.('(prefers-color-scheme: dark)') ?? null;

/** "light" or "dark" for a theme option: "auto" is the reader's colour scheme now. */
export function resolveTheme(theme) {
  if (theme === 'light' || theme === 'dark') return theme;
  return darkQuery()?.matches ? 'dark' : 'light';
}

/** Calls onChange() whenever the reader's colour scheme changes; returns the function that stops it. */
export function watchColorScheme(onChange) {
  const query = darkQuery();
  if (!query) return () => {};
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
