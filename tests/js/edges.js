// Bad values for the bad-input tests of the API and the CLI: numbers at the
// edges of a range, and near misses of a field's choices.
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** The next double above x (x finite). */
export function nextUp(x) {
  if (x === 0) return Number.MIN_VALUE;
  f64[0] = x;
  u64[0] += x > 0 ? 1n : -1n;
  return f64[0];
}
export const nextDown = (x) => -nextUp(-x);
/** The smallest number above max that is not max once it is a double (max + 1 rounds to max above 2^53). */
export const above = (max) => (max + 1 > max ? max + 1 : nextUp(max));
export const below = (min) => (min - 1 < min ? min - 1 : nextDown(min));

/**
 * A config whose scores overflow: scale 1e30 makes them ±inf, and softmax of a
 * row holding +inf is NaN (as in PyTorch), with a "nan-rows" warning.
 */
export const OVERFLOWING_SCORES = {
  text: 'big numbers here',
  scale: 1e30,
  dModel: 4,
  numHeads: 1,
  weights: { init: 'identity' },
  embedding: {
    values: [
      [1e10, 1e10, 1e10, 1e10],
      [1e10, 0, 0, 0],
      [0, 0, 0, 1e10],
    ],
  },
};

/** A number in (min, max] that is not whole. */
export function fractionNear(min, max) {
  for (let x = max; x > min; x /= 2) {
    const v = x - 0.5;
    if (!Number.isInteger(v) && v > min) return v;
  }
  return min + 0.5;
}

/** A choice of an enum|number field may spell a number ("-inf" is -Infinity): that number is valid there. */
export const choiceNumbers = (field) =>
  (field.choices ?? []).map((c) => Number(c.replace(/inf$/i, 'Infinity'))).filter((n) => !Number.isNaN(n));

/** A case variant of `choice` that no choice of the field equals ("none" -> "NONE"), or undefined. */
export function caseVariant(field, choice) {
  for (const variant of [choice.toUpperCase(), choice[0].toUpperCase() + choice.slice(1)]) {
    if (variant !== choice && !field.choices.includes(variant)) return variant;
  }
  return undefined;
}
