// What the KV-cache stepper says at decode step t of head h, as sentences
// (model/words.js) read off lab.decode's result: the row appended, the
// verdict against the full causal run, and the cache's size.
import { say, whole } from '../../model/words.js';
import { count } from './quotes.js';

const KEYS_TITLE = { K: 'kv.keys', K_norm: 'kv.keys.norm', K_rope: 'kv.keys.rope' };

/**
 * tensors: the full run's (its K, K_norm, K_rope say which keys the cache holds);
 * decoded: lab.decode's result; at: decodeStep(decoded, step, h) (model/stepper-runs.js); token: the query's label.
 * Returns {appended, keysTitle, valuesTitle, verdict, bytes, noGqa (or null)}.
 */
export function kvCacheWords(decoded, at, step, token, t, tensors) {
  // The cache keeps the keys as the scores use them: after QK-norm and RoPE, when the run has them.
  const cached = tensors.K_rope ? 'K_rope' : tensors.K_norm ? 'K_norm' : 'K';
  const { H, H_kv: Hkv, headDim: dk } = decoded.sizes;
  const length = count(step + 1, 'kvLength', { step });
  return {
    appended: say(t, 'kv.appended', { t: count(step, 'kvPosition', { step }), token, n: length, computed: length }),
    keysTitle: say(t, KEYS_TITLE[cached], {}, { claims: [{ kvCacheHolds: cached, step }] }),
    valuesTitle: say(t, 'kv.values', {}, { claims: [{ kvCacheHolds: 'V', step }] }),
    verdict: [
      say(t, at.identical ? 'kv.identical' : 'kv.notIdentical', { t: count(step, 'kvPosition', { step }), token }),
      say(t, 'kv.identicalCount', {
        n: count(decoded.identicalRows, 'kvIdenticalRows'),
        count: count(decoded.rows, 'kvRows'),
      }),
    ],
    bytes: say(
      t,
      'kv.bytes.formula',
      { n: length, dk: whole(dk, { size: 'd_k' }) },
      { claims: [{ kvCacheBytes: true, step, states: ['2', '4'] }] },
    ),
    noGqa: Hkv === H ? say(t, 'kv.bytes.noGqa') : null,
  };
}
