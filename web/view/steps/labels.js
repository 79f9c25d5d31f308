// The words around a tensor's name in headings and captions ("Attention
// weights {name} (head 1)"): the steps' kit and the figures built from a
// result (view/figures/result-figures.js) both make them here.

// What each tensor is, in words, for the captions and headings around its name: the i18n key term.<name>.
const TERMED = new Set(
  'X X_context W_Q W_K W_V W_O b_Q b_K b_V b_O Q K V Q_norm K_norm ropeAngles Q_rope K_rope capped alibiBias biased sinkWeights scores scaled mask masked weights averagedWeights dropped context concat W_G gate gated output halfScores halfScaled halfMasked halfWeights lambdaFull lambda_q1 lambda_k1 lambda_q2 lambda_k2 subln contextNorm contextScaled latent latentNorm K_pe Q_pe_rope K_pe_rope Q_absorbed latentContext otherPathScores otherPathOutput W_DKV W_KR kv_norm W_UK W_UV'.split(
    ' ',
  ),
);

/** A label template for tensor `name` (key: its layout, label.caption or label.caption.head), {name} left for the name. */
export const tensorLabel = (t, key, name, head) =>
  t(key, { term: t(TERMED.has(name) ? `term.${name}` : 'term.additive'), head, name: '{name}' });
