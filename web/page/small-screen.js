// Small screens: the sentence and the result come first; the presets and the
// settings are folded away (a <details>), open on wider screens.
const NARROW = '(max-width: 760px)';

/** Keeps `details` (the presets and settings) closed on narrow screens, open on wide ones. */
export function wireNarrowScreen(details) {
  const narrow = matchMedia(NARROW);
  const apply = () => {
    details.open = !narrow.matches;
  };
  apply();
  narrow.addEventListener('change', apply);
}
