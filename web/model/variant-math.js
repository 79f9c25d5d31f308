// The arithmetic of the modern attention variants that the view shows beside
// the engine's numbers: which K/V head a query head reads (and which .repeat
// would give it), ALiBi's slopes, RoPE's rotation of one vector, the
// same-distance-same-score check, and why the mask blocks or keeps a cell
// under a sliding window with sink tokens. Pure functions, no DOM.

/** GQA: the K/V head query head h reads, as repeat_interleave groups them: h // (H / H_kv). */
export const kvHeadOf = (h, H, Hkv) => Math.floor(h / (H / Hkv));

/** The K/V head `k.repeat(1, H // H_kv, 1, 1)` would pair query head h with (the wrong grouping): h % H_kv. */
export const repeatKvHeadOf = (h, Hkv) => h % Hkv;

/**
 * ALiBi's slopes m_1 … m_H (Press et al.): 2^(−8h/H) for h = 1…H when H is a power of two; otherwise the
 * n = 2^⌊log2 H⌋ slopes of n heads, then every other slope of 2n heads, as many as are missing.
 * torch: get_slopes(n) + get_slopes(2 * n)[0::2][: H - n]
 */
export function alibiSlopes(H) {
  const powerOfTwo = (n) => Array.from({ length: n }, (_, k) => 2 ** ((-8 * (k + 1)) / n));
  const n = 2 ** Math.floor(Math.log2(H));
  if (n === H) return powerOfTwo(H);
  return [...powerOfTwo(n), ...powerOfTwo(2 * n).filter((_, k) => k % 2 === 0)].slice(0, H);
}

/**
 * The two features RoPE rotates together, for pair i of a d_k-wide head: rotate-half pairs (i, i + d_k/2)
 * (Hugging Face, GPT-NeoX), interleaved pairs (2i, 2i + 1) (Meta).
 */
export const ropePair = (i, dk, style) => (style === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + dk / 2]);

/** The pair a feature c belongs to: its index i and the two features [a, b]. */
export function ropePairOf(c, dk, style) {
  const i = style === 'interleaved' ? Math.floor(c / 2) : c % (dk / 2);
  return { i, pair: ropePair(i, dk, style) };
}

/**
 * One head's vector x (d_k numbers) rotated by the angles of one position (d_k/2 numbers, θ_i = m·freq_i):
 * [a, b] -> [a·cos θ − b·sin θ, a·sin θ + b·cos θ] for each pair.
 * torch (rotate-half): x * cos(cat(θ, θ)) + cat(-x[dk/2:], x[:dk/2]) * sin(cat(θ, θ))
 */
export function ropeRotate(x, angles, style, scale = 1) {
  const dk = x.length;
  const out = new Float64Array(dk);
  for (let i = 0; i < dk / 2; i++) {
    const [a, b] = ropePair(i, dk, style);
    const cos = Math.cos(angles[i]) * scale;
    const sin = Math.sin(angles[i]) * scale;
    out[a] = x[a] * cos - x[b] * sin;
    out[b] = x[a] * sin + x[b] * cos;
  }
  return out;
}

const dot = (a, b) => a.reduce((sum, v, k) => sum + v * b[k], 0);

/**
 * q·k after rotating q to position m and k to position n; anglesAt(p): position p's d_k/2 angles; scale:
 * what cos and sin are multiplied by (YaRN's attention factor; 1 otherwise).
 */
export const ropeScore = (q, k, m, n, anglesAt, style, scale = 1) =>
  dot(ropeRotate(q, anglesAt(m), style, scale), ropeRotate(k, anglesAt(n), style, scale));

/**
 * A second pair of positions, within 0…S−1, at the same distance as (m, n): moved to start at 0, or, if
 * (m, n) already does, moved as far right as S allows. null when there is none (S too short).
 */
export function samePairAtDistance(m, n, S) {
  const shift = Math.min(m, n) > 0 ? -Math.min(m, n) : S - 1 - Math.max(m, n);
  return shift === 0 ? null : [m + shift, n + shift];
}

/**
 * RoPE's promise, checked on one q and one k: placed at (m1, n1) and at (m2, n2) with m1 − n1 = m2 − n2,
 * they give the same score. Returns {first: [m1, n1, score], second: [m2, n2, score] | null}.
 */
export function ropeEqualDistance(q, k, [m, n], S, anglesAt, style, scale = 1) {
  const second = samePairAtDistance(m, n, S);
  return {
    first: [m, n, ropeScore(q, k, m, n, anglesAt, style, scale)],
    second: second && [...second, ropeScore(q, k, second[0], second[1], anglesAt, style, scale)],
  };
}

/**
 * What a sliding window with sink tokens does to query i and key j (causality apart): 'window' when the
 * window blocks it, 'sink' when the window would block it but j is a sink token, null otherwise.
 * window: null for none.
 */
export function windowEffect(i, j, window, sinkTokens = 0) {
  if (!window || j > i || i - j < window) return null;
  return j < sinkTokens ? 'sink' : 'window';
}

/** Differential attention's λ_init for a layer at `depth` (multihead_diffattn.py lambda_init_fn): 0.8 − 0.6·e^(−0.3·depth). */
export const lambdaInitOf = (depth) => 0.8 - 0.6 * Math.exp(-0.3 * depth);

// DeepSeek-V3's attention sizes (inference/configs/config_671B.json: n_heads, kv_lora_rank, qk_nope_head_dim,
// qk_rope_head_dim, v_head_dim): the real-size line of MLA's cache.
export const DEEPSEEK_V3 = { numHeads: 128, kvRank: 512, nopeDim: 128, ropeDim: 64, valueDim: 128 };

/**
 * Numbers cached per token and layer: MLA's latent and rotated key part (kvRank + ropeDim), against the K and V
 * of multi-head attention with H heads of `headDim` (2·H·headDim).
 */
export const mlaCachePerToken = ({ kvRank, ropeDim }) => kvRank + ropeDim;
export const mhaCachePerToken = (H, headDim) => 2 * H * headDim;

/** MLA's tensors of each path's scores, for a run's settings (run-settings.js): the chosen path's are `scores`. */
export const pathScores = ({ rs }) =>
  rs.mla.absorb ? { naive: 'otherPathScores', absorbed: 'scores' } : { naive: 'scores', absorbed: 'otherPathScores' };
