// The links view without the DOM (like bertviz's head view): where each token
// stands and which lines are drawn, query i of head h to key j with opacity
// = weight. The page's diagram (steps/links-diagram.js) and the links figure
// (view/figures/links-svg.js) both draw from it.

// Above this many lines, only the selected head's strongest keys are drawn.
const MAX_LINES = 20000;
const TOP_KEYS = 3;
// A weight at most this is not drawn (a line no one could see).
const MIN_WEIGHT = 0.005;

/** Where S query tokens (left) and S_kv key tokens (right) stand: the diagram's size and the x and y of each. */
export function linksLayout(S, Skv) {
  const rowHeight = 26;
  const width = 420;
  return {
    width,
    height: Math.max(S, Skv) * rowHeight + 10,
    leftX: 120,
    rightX: width - 120,
    y: (k) => 18 + k * rowHeight,
  };
}

/** The indices of the k largest of weights[row … row + n), in one pass. */
function topKeys(weights, row, n, k) {
  const best = [];
  for (let j = 0; j < n; j++) {
    const w = weights[row + j];
    if (best.length < k || w > weights[row + best[best.length - 1]]) {
      best.push(j);
      best.sort((x, y) => weights[row + y] - weights[row + x]);
      if (best.length > k) best.pop();
    }
  }
  return new Set(best);
}

/**
 * Whether every line is drawn (else each query's TOP_KEYS strongest): at most MAX_LINES of them for
 * `heads` (a list) and a focus (a query row, or null: all).
 */
export const linksDense = (heads, S, Skv, focus) => heads.length * (focus === null ? S : 1) * Skv <= MAX_LINES;

/**
 * The lines of query i in head h of sentence b of weights [B, H, S, S_kv] as [j, w] (key, weight): the
 * keys it weighs more than MIN_WEIGHT, only its TOP_KEYS strongest unless `dense`.
 */
export function linksOfQuery(weights, { b, H, S, Skv }, h, i, dense) {
  const row = ((b * H + h) * S + i) * Skv;
  const keys = dense ? null : topKeys(weights, row, Skv, TOP_KEYS);
  const lines = [];
  for (let j = 0; j < Skv; j++) {
    const w = weights[row + j];
    if (w > MIN_WEIGHT && (!keys || keys.has(j))) lines.push([j, w]);
  }
  return lines;
}
