// Chinese strings of the variants' steps (view/steps/qk-norm.js, rope.js, softcap.js, alibi.js, gate.js, and
// their figures): registered by steps/variant-steps.js, loaded with the first run that has one of them.
export default {
  'step.qkNorm.title': 'QK 归一化：q、k 的 RMSNorm',
  'step.qkNorm.meaning':
    '每个头的 q、k 的每一行除以它在 d_k 维上的均方根（ε = 1e-6，权重全为 1）：每行的均方根都变成 1，无论投影矩阵变得多大，注意力分数都有界。',
  'step.qkNorm.narration': 'q 和 k 的每一行在它所在的头里除以那 {dk} 个数的均方根，于是每行的均方根都是 1。',
  'step.rope.title': '旋转位置编码（RoPE）',
  'step.rope.meaning':
    'q 和 k 的特征两两一组，按词元的位置旋转一个角度：位置 m 把第 i 组转 m·θ_i。于是位置 m 的 q 与位置 n 的 k 的分数只取决于距离 m − n，与它们在句中的绝对位置无关。',
  'step.rope.narration':
    '第 {head} 个头的每个 q 和 k 两两一组地旋转，角度是位置乘以该组的频率。X 上没有加任何东西：位置信息在 q 与 k 之间的夹角里。',
  'step.softcap.title': '软上限（softcap）：c·tanh(scaled / c)',
  'step.gate.title': '输出门控：concat ⊙ σ(X·W_G)',
  'step.gate.meaning':
    '在 W_O 混合各头之前，每个数都乘以一个 0 到 1 之间、由该词元自己的输入决定的门：σ(X·W_G)。Qwen3-Next 就这样给注意力输出加门，让一个头可以关掉它要加进来的内容。',
  'step.gate.narration.off': '本次运行没有输出门控：在设置中打开“输出门控”，拼接后的各头输出就会乘以 σ(X·W_G)。',
  'step.gate.narration':
    '对“{token}”，拼接后的第一个数变成 {concat} × {gate} = {gated}：门几乎关上时，这个数被挡在 W_O 的混合之外；门几乎全开时，它原样通过。',
  'step.softcap.meaning':
    '缩放后的分数经过 c·tanh(x / c)：小的几乎不变，大的被压向 ±c，所以没有哪一个分数能独占 softmax。',
  'step.softcap.narration':
    '第 {head} 个头的每个缩放后分数 x 变成 c·tanh(x / c)：小的分数几乎不变，大的被压到 c 以下。',
  'step.alibi.title': 'ALiBi：按距离的线性偏置',
  'step.alibi.meaning':
    '不用位置编码：每个头给分数加上 −m_h·(i − j)，查询和键离得越远扣得越多；前面的头斜率陡，后面的头平缓。',
  'step.alibi.narration':
    '第 {head} 个头从每个分数里减去斜率乘以距离 i − j，越远的键扣得越多。{H} 个头各有自己的斜率。',
  'step.alibi.narration.one': '第 {head} 个头从每个分数里减去斜率乘以距离 i − j，越远的键扣得越多。',
  'rope.angles': '旋转角 θ[m, i] = m · 基数^(−2i/d_k)，基数为 {base}',
  'rope.angles.scaled': '旋转角 θ[m, i] = m · θ′_i，用的是 {type} 缩放之后的频率',
  'rope.scaling.caption': '{type} 缩放前后的频率，以及它们的波长 2π/θ（以位置计）',
  'rope.scaling.column.pair': '组',
  'rope.scaling.column.before': '缩放前 θ_i',
  'rope.scaling.column.after': '缩放后 θ′_i',
  'rope.scaling.column.ratio': 'θ′_i / θ_i',
  'rope.scaling.column.wavelengthBefore': '缩放前波长',
  'rope.scaling.column.wavelengthAfter': '缩放后波长',
  'rope.scaling.column.kind': '缩放做了什么',
  'rope.scaling.name.linear': '线性',
  'rope.scaling.name.dynamic': '动态 NTK',
  'rope.scaling.name.yarn': 'YaRN',
  'rope.scaling.kind.kept': '保留',
  'rope.scaling.kind.interpolated': '插值',
  'rope.scaling.kind.blended': '混合',
  'rope.scaling.kind.slowed': '变慢',
  'rope.scaling.linear': 'linear 缩放把每个频率除以 {factor}：位置 m 把每组转的角度，等于原来位置 m / {factor} 转的。',
  'rope.scaling.dynamic':
    '动态 NTK：S = {S} 超过原始的 {original} 个位置，所以基数从 {base} 增大到 {ntkBase}；第一组频率不变，其余各组都变慢。',
  'rope.scaling.dynamicShort':
    '动态 NTK：S = {S} 没有超过原始的 {original} 个位置，所以基数仍是 {ntkBase}，频率就是训练时的。',
  'rope.scaling.yarn':
    'YaRN 保留 {kept} 个快的组（在 {original} 个位置内转超过 β_fast = {betaFast} 圈），对 {interpolated} 个慢的组按 1/{factor} 插值（不到 β_slow = {betaSlow} 圈），中间的 {blended} 个组混合；cos 和 sin 乘以 {attentionFactor}。',
  'rope.scaling.wavelengths':
    '缩放改变了 {half} 个频率中的 {changed} 个；最长的波长从 {longestBefore} 变为 {longestAfter} 个位置。',
  'rope.pairs.rotate-half': '成对 (i, i + d_k/2)：x·cos θ + rotate_half(x)·sin θ（Hugging Face、GPT-NeoX）',
  'rope.pairs.interleaved': '成对 (2i, 2i + 1)，Meta 的原始写法',
  'rope.same.title': '距离相同，分数相同',
  'rope.same':
    '同一个 q（“{q}”的）和同一个 k（“{k}”的），分别放在位置 ({m1}, {n1}) 和 ({m2}, {n2})：两次的距离都是 {d}。',
  'rope.same.engine': '引擎在 ({m1}, {n1}) 处的分数：{engine}。',
  'rope.same.none': '只有 {S} 个位置，找不到与 ({m}, {n}) 距离相同的第二对位置，没有可比较的分数。',
  'alibi.slopes': '每个头的斜率 m_h',
  'alibi.slope': '第 {h} 个头：m = {m}',
  'alibi.heads': '每个头的偏置（−m_h·(i − j)）',
};
