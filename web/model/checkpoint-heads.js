// What one head of an opened checkpoint computes (web/api/checkpoint/open.js
// run(ids)), as the numbers its sentences state: each picked from the
// result's tensors, none computed twice. A layer holds Q [nh, T, hd], K and
// V [nkv, T, hd] (GPT-2: nkv = nh), scores, scaled and weights [nh, T, T],
// headOutputs [nh, T, hd]; query head h reads KV head ⌊h / (nh / nkv)⌋
// (grouped-query attention). The sentences themselves are built in the
// reader's language by checkpointStepTexts below, so a test reads the same
// text the page shows.
import { byteSize, formatNumber } from './format.js';
import { headLabels } from './tiny.js';

/** The KV head that query head `h` reads: ⌊h / (heads / kvHeads)⌋. */
export const kvHeadOf = (sizes, h) => Math.floor(h / (sizes.heads / sizes.kvHeads));

/** The query heads that share `h`'s KV head (h among them), from 0. */
export function sharingHeads(sizes, h) {
  const g = kvHeadOf(sizes, h);
  return Array.from({ length: sizes.heads }, (_, k) => k).filter((k) => kvHeadOf(sizes, k) === g);
}

/** Row i of head h of a [heads, rows, cols] tensor ({shape, data}), as a subarray. */
export function headRow(tensor, h, i) {
  const [, rows, cols] = tensor.shape;
  const start = (h * rows + i) * cols;
  return tensor.data.subarray(start, start + cols);
}

/** The position of the largest of values[0 … end) (the first of equals). */
function argmax(values, end = values.length) {
  let best = 0;
  for (let k = 1; k < end; k++) if (values[k] > values[best]) best = k;
  return best;
}

const norm = (row) => Math.hypot(...row);

/** Whether the family rotates Q and K by position (RoPE) before the scores: Llama and Qwen2 do, GPT-2 does not. */
export const usesRope = (sizes) => sizes.family !== 'gpt2';

/**
 * The facts of head `head` of layer `layer` at query position `query` of
 * `result` (open.js run): {T, hd, kv, sharing, rope, q: {norm}, k: {min, max}
 * (the keys' lengths), scores: {key, value}, scaled: {divisor, value},
 * mask: {seen, hidden, masked}, weights: {key, value, sum}, output: {value,
 * terms}}, where key is the position the query scores highest among those it
 * may see (0 … query), and output.value is headOutputs[query, 0], the sum of
 * weights[query, j] · V[j, 0] (terms: j's count).
 */
export function headFacts(result, sizes, { layer, head, query }) {
  const tensors = result.layers[layer];
  const T = result.ids.length;
  const hd = sizes.headDim;
  const kv = kvHeadOf(sizes, head);
  const keyNorms = Array.from({ length: T }, (_, j) => norm(headRow(tensors.K, kv, j)));
  const scores = headRow(tensors.scores, head, query);
  const scaled = headRow(tensors.scaled, head, query);
  const weights = headRow(tensors.weights, head, query);
  const best = argmax(scores, query + 1); // the causal mask hides keys after the query
  const heaviest = argmax(weights, query + 1);
  return {
    T,
    hd,
    kv,
    sharing: sharingHeads(sizes, head),
    rope: usesRope(sizes),
    q: { norm: norm(headRow(tensors.Q, head, query)) },
    k: { min: Math.min(...keyNorms), max: Math.max(...keyNorms) },
    scores: { key: best, value: scores[best] },
    scaled: { divisor: Math.sqrt(hd), value: scaled[best] },
    mask: { seen: query + 1, hidden: T - query - 1, masked: (T * (T - 1)) / 2 },
    weights: { key: heaviest, value: weights[heaviest], sum: weights.reduce((s, w) => s + w, 0) },
    output: { value: headRow(tensors.headOutputs, head, query)[0], terms: query + 1 },
  };
}

/**
 * The k most likely next tokens after the last one, from probs [vocab] (or
 * [T, vocab]: its last row): [{id, p}], most likely first, equal ones by id.
 */
export function topNextTokens(probs, k = 5) {
  const V = probs.shape.at(-1);
  const row = probs.data.subarray(probs.data.length - V);
  // One pass keeping the k best, highest first (a vocabulary of 50k sorted whole took 20 ms): ids come in
  // ascending order and a tie goes after its equals, so ties keep the lower id first.
  const top = [];
  for (let id = 0; id < V; id++) {
    const p = row[id];
    if (top.length === k && !(p > top[k - 1].p)) continue;
    let at = top.length;
    while (at > 0 && p > top[at - 1].p) at--;
    top.splice(at, 0, { id, p });
    if (top.length > k) top.pop();
  }
  return top;
}

/** The steps of a head in pipeline order: their keys name their strings (checkpoint.step.<key>.*) and tensors. */
export const HEAD_STEPS = ['Q', 'K', 'V', 'scores', 'scaled', 'mask', 'weights', 'headOutputs'];

/**
 * The tensors the checkpoint view reads of a run (open.js run's options.tensors): each layer's of
 * HEAD_STEPS (the mask is drawn, not read) and the next token's probs. The rest (the MLP's, the
 * residuals, every position's logits) are neither copied out nor, for the logits, computed.
 */
export const VIEW_TENSORS = ['probs', ...HEAD_STEPS.filter((key) => key !== 'mask')];

/**
 * Each step's sentence about `facts` (headFacts) in the language of `t`, keyed
 * by HEAD_STEPS: labels[j] names token j (its text, or its id), numbers are
 * written with `decimals` as the matrices show them.
 */
export function checkpointStepTexts({ facts, query, head, labels, t, decimals }) {
  const n = (v) => formatNumber(v, decimals);
  const token = (j) => t('checkpoint.token', { i: j, label: labels[j] });
  const shared = facts.sharing.length > 1;
  // Two sentences as the language joins them (a space in English, none in Chinese); '' leaves the first alone.
  const both = (first, second) => (second ? t('checkpoint.then', { first, second }) : first);
  // One token: its own words, not "1 queries" (the plural is English's; Chinese reads the same).
  const one = facts.T === 1;
  return {
    Q: both(
      t(one ? 'checkpoint.step.Q.one' : 'checkpoint.step.Q.text', {
        T: facts.T,
        hd: facts.hd,
        token: token(query),
        norm: n(facts.q.norm),
      }),
      facts.rope ? t('checkpoint.step.rope') : '',
    ),
    K: both(
      t(one ? 'checkpoint.step.K.one' : 'checkpoint.step.K.text', {
        T: facts.T,
        hd: facts.hd,
        kv: facts.kv + 1,
        min: n(facts.k.min),
        max: n(facts.k.max),
      }),
      shared
        ? t('checkpoint.step.K.shared', {
            heads: facts.sharing.map((h) => h + 1).join(', '),
            count: facts.sharing.length,
          })
        : '',
    ),
    V: t(one ? 'checkpoint.step.V.one' : 'checkpoint.step.V.text', {
      T: facts.T,
      hd: facts.hd,
      kv: facts.kv + 1,
      head: head + 1,
    }),
    scores: t('checkpoint.step.scores.text', {
      token: token(query),
      value: n(facts.scores.value),
      key: token(facts.scores.key),
    }),
    scaled: t('checkpoint.step.scaled.text', {
      hd: facts.hd,
      divisor: n(facts.scaled.divisor),
      before: n(facts.scores.value),
      value: n(facts.scaled.value),
    }),
    mask: both(
      t(
        facts.mask.hidden
          ? 'checkpoint.step.mask.text'
          : one
            ? 'checkpoint.step.mask.one'
            : 'checkpoint.step.mask.last',
        {
          token: token(query),
          seen: facts.mask.seen,
          hidden: facts.mask.hidden,
        },
      ),
      one ? '' : t('checkpoint.step.mask.all', { masked: facts.mask.masked, T: facts.T }),
    ),
    weights: t('checkpoint.step.weights.text', {
      token: token(query),
      sum: n(facts.weights.sum),
      value: n(facts.weights.value),
      key: token(facts.weights.key),
    }),
    headOutputs: t(one ? 'checkpoint.step.headOutputs.one' : 'checkpoint.step.headOutputs.text', {
      token: token(query),
      terms: facts.output.terms,
      value: n(facts.output.value),
    }),
  };
}

/**
 * The summary of an opened model (open.js: sizes, bytesRead, fileBytes) in the
 * language of `t`: family, layers, heads, KV heads, head dim, d_model, vocab,
 * and how much of the weights files was read.
 */
export function checkpointSummary(model, t) {
  const { family, layers, heads, kvHeads, headDim, dModel, vocab } = model.sizes;
  return t('checkpoint.summary', {
    family: t(`checkpoint.family.${family}`),
    layers,
    heads,
    kvHeads,
    headDim,
    dModel,
    vocab,
    read: byteSize(model.bytesRead),
    total: byteSize(model.fileBytes),
  });
}

/**
 * Token ids typed in the ids box: a JSON array ("[24, 15]") or numbers split
 * by spaces or commas ("24 15"). Returns the numbers as typed (the model
 * checks their range and wholeness, naming the culprit); throws a
 * SyntaxError-like {code: 'ids-syntax'} for anything else.
 */
export function parseIds(text) {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) {
    try {
      const value = JSON.parse(trimmed);
      if (Array.isArray(value) && value.every((v) => typeof v === 'number')) return value;
    } catch {}
    throw Object.assign(new Error('ids-syntax'), { code: 'ids-syntax' });
  }
  const parts = trimmed.split(/[\s,]+/);
  const ids = parts.map(Number);
  if (parts.some((p, k) => p === '' || !Number.isFinite(ids[k])))
    throw Object.assign(new Error('ids-syntax'), { code: 'ids-syntax' });
  return ids;
}

// An opened checkpoint's head is named by its score only when the score could
// hardly be chance: at least twice what attention spread evenly over the keys
// a query may see (1 / (i + 1) at position i) would give, and, for an
// induction head, measured over at least this many positions.
export const CHANCE_FACTOR = 2;
export const MIN_INDUCTION_POSITIONS = 4;

/**
 * The heads grid's labels (model/tiny.js headLabels) for a checkpoint's run,
 * with floors from the text itself: previous-token CHANCE_FACTOR × the mean
 * of 1 / (i + 1) over i ≥ 1, induction CHANCE_FACTOR × its mean over the
 * positions with a target (no induction head named with fewer than
 * MIN_INDUCTION_POSITIONS of them). Also {positions, previousChance,
 * inductionChance}: what the note under the grid says.
 */
export function checkpointHeadLabels(result, sizes) {
  const T = result.ids.length;
  const even = (positions) =>
    positions.length ? positions.reduce((sum, i) => sum + 1 / (i + 1), 0) / positions.length : null;
  const targets = result.headScores.inductionTargets.flatMap((target, i) => (target >= 0 ? [i] : []));
  const previousChance = even(Array.from({ length: Math.max(T - 1, 0) }, (_, k) => k + 1));
  const inductionChance = even(targets);
  const floors = {
    previousToken: CHANCE_FACTOR * (previousChance ?? 0),
    induction: targets.length >= MIN_INDUCTION_POSITIONS ? CHANCE_FACTOR * inductionChance : Infinity,
  };
  return {
    labels: headLabels(result.headScores, sizes.layers, sizes.heads, floors),
    positions: targets.length,
    previousChance,
    inductionChance,
  };
}
