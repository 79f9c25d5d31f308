// English strings of the KV-cache and online-softmax steppers (view/steps/stepper-panels.js, kv-cache-words.js):
// registered by steps/stepper-strings.js, which their code loads, so they travel with it (a part of its own in the
// standalone scripts).
export default {
  'stepper.computing': 'Computing…',
  'kv.needsCausal':
    'The KV cache decodes one token at a time, each query seeing only the keys before it, so it needs a causal mask: set “{field}” to “{value}” in the settings, or pick a preset such as Llama-style.',
  'kv.control': 'Decode step',
  'kv.said': 'Step {n} of {count}: query “{token}” (position {t})',
  'kv.kvHead': 'KV head {g}, read by head {h}',
  'kv.keys': 'Key cache K_cache',
  'kv.keys.rope': 'Key cache K_cache (the keys after RoPE, as the RoPE step shows them)',
  'kv.keys.norm': 'Key cache K_cache (the keys after QK-norm)',
  'kv.values': 'Value cache V_cache',
  'kv.scores': 'Scores q_t · k_j (one row)',
  'kv.weights': 'Weights of this step',
  'kv.full': 'The full causal run’s row',
  'kv.appended':
    '“{token}” (position {t}) computes its k and v once, and they are appended to the cache (the highlighted row); the cache’s length is now {n}. The query is scored against every cached key ({computed} in all): one row, not the whole matrix again.',
  'kv.identical': 'This row is bit-identical to row {t} (“{token}”) of the full causal run.',
  'kv.notIdentical': 'This row differs from row {t} (“{token}”) of the full causal run in its last bits.',
  'kv.identicalCount': 'The engine compared every step of every head: {n} of {count} rows are bit-identical.',
  'kv.bytes.title': 'Cache size at length {n} (one layer, one sentence, float32)',
  'kv.bytes.layout': 'Attention',
  'kv.bytes.heads': 'K/V heads',
  'kv.bytes.size': 'Bytes',
  'kv.bytes.mha': 'Multi-head (MHA)',
  'kv.bytes.gqa': 'Grouped-query (GQA)',
  'kv.bytes.mqa': 'Multi-query (MQA)',
  'kv.bytes.formula': 'bytes = 2 (k and v) · {n} tokens · K/V heads · d_k ({dk}) · 4 bytes.',
  'kv.bytes.noGqa':
    'This run has as many K/V heads as query heads, so its GQA row is plain MHA; set “KV heads” lower (the Llama-style preset) to share them.',
  'kv.trap.title': 'The trap: is_causal=True on one decode query',
  'kv.trap.why':
    'Passing `is_causal=True` for the single query of a decode step gives the wrong row: PyTorch builds that mask as `torch.ones(L, S).tril()`, aligned to the top-left corner of the [L, S] score matrix. Here L = 1 query and S = {n} cached keys, so its one row is [1, 0, 0, …]: the query sees key 0 only and gives it all the weight.',
  'kv.trap.why.first':
    'At the first step there is 1 cached key: with `is_causal=True`, the top-left mask `torch.ones(L, S).tril()` keeps key 0, the only key, so this row is still right. From the second step on it hides every key but key 0.',
  'kv.trap.why.sink':
    'With `is_causal=True`, PyTorch’s mask `torch.ones(L, S).tril()` is aligned to the top-left corner: here L = 1 and S = {n}, so the query sees key 0 only, which gets {w} of the weight; the sink logit takes the rest.',
  'kv.trap.wrong': 'Weights with is_causal=True (top-left mask)',
  'kv.trap.wrong.head1': 'Weights with is_causal=True (top-left mask), head 1',
  'kv.trap.fix':
    'The fix: pass no mask at all (the cache holds only past tokens, so nothing needs hiding), or a mask aligned to the bottom-right corner, `torch.ones(L, S).tril(diagonal=S - L)`, given explicitly as attn_mask.',
  'flash.control': 'Online softmax step',
  'flash.said': 'Step {n} of {count}: the tile of queries {q0}–{q1} and keys {k0}–{k1}',
  'flash.saidSkipped': 'Step {n} of {count}: the tile of queries {q0}–{q1} and keys {k0}–{k1}, skipped (all masked)',
  'flash.saidEnd': 'Step {n} of {count}: the division by ℓ',
  'flash.tileQueries': 'Query tile (rows)',
  'flash.tileKeys': 'Key tile (columns)',
  'flash.logits': 'Logits x of the head, by tile (outlined: this tile)',
  'flash.skipped':
    'Every logit in this tile is masked, so FlashAttention skips it: nothing is read, m, ℓ and O stay as they were.',
  'flash.first':
    'The first key tile of these rows: m is the tile’s row max, ℓ = Σ exp(x − m), O = Σ exp(x − m)·v (α does not apply: there was nothing to rescale).',
  'flash.update':
    'A later key tile: the new max m = max(m_old, the tile’s row max); what was summed so far is rescaled by α = exp(m_old − m) (1 when the max did not grow), then the tile’s exp(x − m) are added to ℓ and exp(x − m)·v to O.',
  'flash.stats': 'Per query row: m_old, m, α, ℓ',
  'flash.partial': 'Partial output O (not yet divided by ℓ)',
  'flash.rowDone': 'These rows have seen every key tile: their O is divided by ℓ at the end.',
  'flash.divide':
    'At the end every row’s O is divided by its ℓ: o_i = O_i / ℓ_i. Cells that differ from the plain softmax are outlined.',
  'flash.output': 'Online softmax: O / ℓ',
  'flash.plain': 'Plain softmax: softmax(x) · V',
  'flash.summary':
    'Largest difference from the plain softmax: {diff}. Bit-identical entries: {identical} of {total} ({percent}%).',
  'flash.why':
    'Not 100%, and it should not be: exp(x − m_old)·α is rounded differently from exp(x − m_new) computed directly, and ℓ and O are summed tile by tile, in a different order from one softmax over the whole row. float32 addition is not associative, so the last bits differ; the values agree within float32 rounding.',
  'flash.whyAll':
    'Every entry matches bit for bit here (e.g. one key tile per row, or no rescaling); in general exp(x − m_old)·α rounds differently from exp(x − m_new), and tile-by-tile sums add in a different order, so a few last bits differ.',
};
