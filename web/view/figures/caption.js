// A figure's caption (under its title, which says what it shows): the sentence's tokens and
// the settings its numbers depend on (d_model, heads, the mask, the seed), in
// the UI language (figure.caption in en.js / zh.js). Every number is read
// from the result, none typed.

/** t: the language's translator; result: a run's ({tokens, sizes, settings}); b: the sentence shown. */
export function figureCaption(t, result, { b = 0 } = {}) {
  const tokens = result.tokens?.[b] ?? [];
  const { settings, sizes } = result;
  return t('figure.caption', {
    tokens: tokens.length ? tokens.join(' · ') : t('figure.randomInput'),
    S: sizes.S,
    dModel: settings.dModel,
    heads: settings.numHeads,
    mask: settings.mask,
    seed: settings.seed,
  });
}
