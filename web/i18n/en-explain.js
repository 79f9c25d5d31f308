// English strings of the cell explanations (view/explain/): registered by explain/cells.js, which the
// page and the element load once a first result is shown, so the explanations' words travel with their code.
export default {
  'explain.dot': 'score[{i},{j}] = q_{i} · k_{j} = Σ q·k',
  'explain.softmax': 'weights[{i},{j}] = exp(s_{j} − max) / Σ exp(s − max)',
  'explain.sum': 'row sum = {sum}',
  'explain.weighted': 'context[{i},{c}] = Σ_j weight[{i},j] · v_j[{c}]',
  'explain.output': 'output[{i},{c}] = Σ_k {input}[{i},k] · W_O[k,{c}] + b_O[{c}]',
  'explain.gate': 'gate[{i},{c}] = σ(Σ_k X[{i},k] · W_G[k,{c}])',
  'explain.gated':
    'The joined heads’ number at [{i},{c}] times its gate: a gate almost closed shuts it out of W_O’s mix, one almost open lets it through.',
  'explain.more': '… ({count} more)',
  'explain.masked': 'blocked by the mask',
  'explain.weights.overflow':
    'A score of this row overflowed float32 to ∞: softmax subtracts the row’s largest score, ∞ − ∞ = NaN, exactly as PyTorch does.',
  'explain.dropped.nan': 'The weight is NaN (see the attention weights): dropout keeps NaN as NaN.',
  'explain.X.randn': 'A draw of torch.randn({shape}) after torch.manual_seed({seed}).',
  'explain.X.rand': 'A draw of torch.rand({shape}) after torch.manual_seed({seed}).',
  'explain.X.embedding':
    'The token “{token}” has id {id}: this is the embedding table’s row {id}, column {c}: {value}.',
  'explain.X.positional': 'Plus the sinusoidal position term PE (sin for even columns, cos for odd ones).',
  'explain.edited': 'You edited this number.',
  'explain.W.linear':
    'nn.Linear keeps weight as [out, in] and computes x·weightᵀ; W shows weight transposed: W[i][j] = weight[j][i].',
  'explain.W.perHead':
    'Head {h}’s own nn.Linear(D, d_k), transposed: W[i][j] = weight[j − h·d_k][i], since head h fills columns h·d_k … of W.',
  'explain.W.mha':
    'nn.MultiheadAttention stacks W_Q, W_K, W_V transposed in in_proj_weight [3D, D], drawn by xavier_uniform_.',
  'explain.W.rand': 'A draw of torch.rand (uniform in [0, 1)), used as is: no transpose.',
  'explain.W.randHead': 'A draw of torch.rand(D, d_k) for head {h} (uniform in [0, 1)), placed at its columns.',
  'explain.W.identity': 'W = I: 1 on the diagonal, 0 elsewhere.',
  'explain.W.clones':
    'Q, K, V and O start as copies (clones) of one nn.Linear: the same number in W_Q, W_K, W_V and W_O, transposed.',
  'explain.W.role': 'It weighs feature {i} of {x} in column {j} of {out}.',
  'explain.W.given': 'This run’s config gives weight values (weights.values): a given number replaces the drawn one.',
  'explain.b.linear': 'nn.Linear draws its bias from U(−1/√D, 1/√D).',
  'explain.b.mhaZero': 'nn.MultiheadAttention starts its biases at 0.',
  'explain.b.clones': 'The bias of the one nn.Linear that Q, K, V and O start as copies of.',
  'explain.b.role': 'It is added to column {j} of every row of {out}.',
  'explain.additiveParam':
    '{name}: a parameter of the additive score v_aᵀ tanh(q·W_a + k·U_a), drawn with the weights.',
  'explain.qkv': 'Row “{i}” of {x} times column {c} of W_{name}, term by term, summed.',
  'explain.qkv.bias': 'Row “{i}” of {x} times column {c} of W_{name}, term by term, summed, plus b_{name}[{c}].',
  'explain.split': 'Head {h} takes columns {from}…{to} of {name}: the same number, nothing computed (a view).',
  'explain.additive': 'score[{i},{j}] = Σ_m v_a[m] · tanh((q_{i}·W_a)[m] + (k_{j}·U_a)[m])',
  'explain.scaled': 'The scale: {factor}.',
  'explain.mask.blocked.blocked': 'M = 1: blocked (in this mask, 1 = blocked).',
  'explain.mask.blocked.kept': 'M = 0: kept (in this mask, 0 = kept).',
  'explain.mask.keep.blocked': 'M = 0: blocked (in this mask, 1 = kept and 0 = blocked, like torch.tril).',
  'explain.mask.keep.kept': 'M = 1: kept (in this mask, 1 = kept, like torch.tril).',
  'explain.mask.additive.blocked': 'M = {fill}: blocked (added to the score, it makes it {fill}).',
  'explain.mask.additive.kept': 'M = 0: kept (adding 0 changes nothing).',
  'explain.mask.future':
    'Causal mask: key “{key}” is at position {j}, after the query’s position {i} (j > i): a future token.',
  'explain.mask.pad': 'Padding mask: key “{key}” is a <pad> token.',
  'explain.mask.kept': 'Nothing blocks it: {reasons}.',
  'explain.mask.notFuture': 'position {j} is not after {i} (j ≤ i)',
  'explain.mask.notPad': '“{key}” is not <pad>',
  'explain.mask.noMask': 'There is no mask: every key is kept.',
  'explain.masked.blocked': 'Blocked by the mask: filled with {fill}.',
  'explain.masked.kept': 'Kept by the mask: the scaled score as it is, {value}.',
  'explain.weights.nan':
    'Every key of this row is masked with −∞: softmax computes exp(−∞) / Σ exp(−∞) = 0/0 = NaN, exactly as PyTorch does. A finite mask fill (such as −1e9) gives equal weights instead.',
  'explain.weights.allFilled':
    'Every key of this row is masked with {fill}: all its scores are equal, so every weight is 1/{n}.',
  'explain.keep.kept': 'm = 1: this weight survived dropout and was multiplied by 1/(1 − p) = {factor}.',
  'explain.keep.zeroed': 'm = 0: dropout zeroed this weight (each is zeroed with probability p = {p}).',
  'explain.keep.unknown':
    'The weight is 0 already (a masked key), so it stays 0 whatever m is: m cannot be read from the result.',
  'explain.keep.unknown.softmax':
    'The weight is 0 already (softmax gave it 0: its score is far below its row’s largest), so it stays 0 whatever m is: m cannot be read from the result.',
  'explain.keep.nan': 'The weight is NaN, so its dropped value is NaN whatever m is: m cannot be read from the result.',
  'explain.dropped.kept': 'Kept by dropout (m = 1) and scaled up by 1/(1 − p).',
  'explain.dropped.zeroed': 'Zeroed by dropout (m = 0, probability p = {p}): not a small weight, a dropped one.',
  'explain.dropped.zeroWeight': 'The weight is 0 already (a masked key): it stays 0.',
  'explain.dropped.zeroWeight.softmax':
    'The weight is 0 already (softmax gave it 0: its score is far below its row’s largest): it stays 0.',
  'explain.diff.score': 'Map {s}: q·d^−½ times k over the half-head’s d = d_k/2 columns (q is scaled by {scale} first)',
  'explain.diff.softmax': 'A_{s}[{i},{j}] = exp(s_{j} − max) / Σ exp(s − max), over this map’s row',
  'explain.diff.weight':
    'The first map’s weight for “{i}” → “{j}” minus λ times the second’s: where both maps attend, the shared part cancels.',
  'explain.diff.noise': 'What A loses at “{j}”: λ times the second map’s weight.',
  'explain.diff.norm':
    'RMSNorm divides “{i}”’s row of the head’s context by its root mean square (ε = 1e-5), times the learned subln.',
  'explain.concat.diff':
    'Head {h}’s output (RMSNorm, × (1 − λ_init)) of “{i}”, its column {c}: head {h} fills columns {from}…{to} of concat.',
  'explain.concat': 'Head {h}’s context of “{i}”, its column {c}: head {h} fills columns {from}…{to} of concat.',
  'explain.output.noBias': 'output[{i},{c}] = Σ_k {input}[{i},k] · W_O[k,{c}]',
  'explain.output.noProj': 'Without an output projection, output = {input}: the same number.',
  'explain.averaged': 'The mean of the {H} heads’ weights at this cell:',
  'explain.averaged.dropout':
    'The mean of the {H} heads’ weights at this cell, after dropout (as nn.MultiheadAttention returns them):',
  'explain.mask.window':
    'Sliding window: key “{key}” at position {j} is {d} positions before query {i}, not fewer than the window {window}.',
  'explain.mask.inWindow': 'key {j} is inside the window (i − j = {d} < {window})',
  'explain.mask.sink': 'key {j} is one of the first {n} (a sink token), kept whatever the window',
  'explain.qkNorm': 'The row’s value divided by its RMS over head {h}’s {dk} numbers: RMS = √(mean(x²) + 1e-6).',
  'explain.rope': 'Feature {c} is in pair ({a}, {b}) of head {h}; position {m} turns that pair by θ = {angle}.',
  'explain.ropeAngle': 'Position {m} times pair {i}’s frequency base^(−2·{i}/{dk}) = {freq}.',
  'explain.ropeAngle.scaled':
    'Position {m} times pair {i}’s frequency after {type} scaling, {freq} (it was {before} before the scaling).',
  'explain.rope.attentionFactor':
    'YaRN multiplies cos and sin by its attention factor {factor}, so the pair grows by it too.',
  'explain.capped': 'c·tanh(scaled / c) with c = {c}: small scores pass almost unchanged, large ones stay below c.',
  'explain.alibi': 'Head {h}’s slope {m} times the distance i − j = {d}, negated.',
  'explain.biased': 'The score plus head {h}’s ALiBi bias for distance {d}.',
  'explain.softmax.sink': 'The sink logit {logit} is in every row’s sum too (it carries no value).',
  'explain.sink': 'The sink’s share of row “{i}”: exp(sink − max) / Σ exp over the row and the sink.',
  'explain.masked.keptInput': 'Kept by the mask: {input} as it is, {value}.',
  'explain.kvHead': 'Head {h} reads K/V head {g} (h // {group}).',
  'explain.kv.cacheNew': '{kind}_{t} of “{token}”, computed at this step and appended to the cache (KV head {g}).',
  'explain.kv.cacheOld':
    '{kind}_{j} of “{token}”, computed at step {j} and read from the cache at step {t}: never computed again.',
  'explain.kv.score':
    'Query {t} against cached key {j}: one of the {n} dot products of this step (before the scale; the softmax takes them scaled).',
  'explain.kv.weight': 'The softmax of this step’s {n} scores (and the sink, if any).',
  'explain.kv.full': 'Row {t} of the weights of the full run with a causal mask, for comparison.',
  'explain.kv.same': 'Bit-identical to the other ({other}).',
  'explain.kv.differs': 'Differs from the other ({other}) in its last bits.',
  'explain.kv.causalKept':
    'Key 0: the only key the top-left causal mask leaves to a single query, so it takes weight 1.',
  'explain.kv.causalKeptSink':
    'Key 0: the only key the top-left causal mask leaves to a single query; the sink logit {logit} shares its row, so it takes weight {weight}, not 1.',
  'explain.kv.causalBlocked':
    'Key {j}: masked by the top-left-aligned mask (row 0 of tril keeps column 0 only), so weight 0, although it is a past token.',
  'explain.flash.logit': 'In tile {n} (queries {q0}–{q1}, keys {k0}–{k1}).',
  'explain.flash.logitSkipped':
    'In tile {n} (queries {q0}–{q1}, keys {k0}–{k1}): every logit there is masked, so the tile is skipped.',
  'explain.flash.mOld': 'Query {i}’s running max before this tile (−∞ before its first tile).',
  'explain.flash.m': 'Query {i}’s running max after this tile: max(m_old, the largest logit of the row in this tile).',
  'explain.flash.alpha':
    'The rescale factor α = exp(m_old − m): ℓ and O so far are multiplied by it (0 when m_old = −∞, as there was nothing yet).',
  'explain.flash.l': 'Query {i}’s running sum: ℓ = α·ℓ_old + Σ exp(x − m) over this tile’s keys.',
  'explain.flash.partial': 'Query {i}’s unnormalised output: O = α·O_old + Σ exp(x − m)·v over this tile’s keys.',
  'explain.flash.output': 'The online softmax’s result: O divided by ℓ once, at the end.',
  'explain.flash.plain': 'The plain softmax’s context of this head: softmax over the whole row, then · V.',
  'explain.flash.same': 'Bit-identical to the other.',
  'explain.flash.differs': 'Differs from the other by {diff}: float32 rounding, in another order.',
  'explain.mla.norm':
    'RMSNorm over the latent’s {kv} numbers: the row divided by its root mean square, then times kv_norm.',
  'explain.mla.rope':
    'This number is in pair ({a}, {b}) of {x}’s rope part; position {m} turns that pair by θ = {angle}.',
  'explain.mla.ropeAngle':
    'Position {m} times pair {i}’s frequency base^(−2·{i}/{r}) = {freq}, over the rope part’s {r} numbers.',
  'explain.mla.keyRope': 'The key’s rope part: number {c} of K_pe_rope, the same in head {h} and every other head.',
  'explain.mla.expand': 'Row “{i}” of the latent c times column {c} of {w}: head {h}’s {name}, term by term, summed.',
  'explain.mla.absorbQuery':
    'Head {h}’s q_nope of “{i}” times row {c} of W_UK (its columns for head {h}): W_UK moved to the query side.',
  'explain.mla.naiveScore':
    'Naive: head {h}’s q of “{i}” ([q_nope | q_pe rotated]) times the key of “{j}” ([c·W_UK | k_pe]), term by term.',
  'explain.mla.absorbedScore':
    'Absorbed, head {h}: Q_absorbed of “{i}” times the cached latent of “{j}” (Σ₁), plus the rotated parts q_pe · k_pe (Σ₂).',
  'explain.mla.scale':
    'MLA multiplies by self.softmax_scale = (nopeDim + ropeDim)^(−1/2), with nopeDim + ropeDim = {qk}.',
  'explain.mla.absorbedContext':
    'Absorbed: head {h}’s weighted sum of the cached latents for “{i}” (latentContext) times column {c} of its W_UV.',
  'explain.mla.kvNorm': 'RMSNorm’s learned weight for column {j} of the latent (model.py’s kv_norm, ones when drawn).',
  'explain.mla.weight':
    'model.py’s nn.Linear keeps weight as [out, in]; W shows it transposed, wkv_a split into W_DKV | W_KR and wkv_b into each head’s W_UK | W_UV columns.',
};
