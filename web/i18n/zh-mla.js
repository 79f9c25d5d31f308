// Chinese strings of multi-head latent attention's steps (view/steps/mla-*.js): registered by
// steps/mla-steps.js, loaded with the first MLA run, so they travel with the steps' code.
export default {
  'step.mlalatent.title': '多头潜在注意力：每个词元一个潜向量',
  'step.mlalatent.meaning':
    'DeepSeek 的多头潜在注意力（MLA）把每个词元压成一个短短的潜向量 c：每个头的键和值都由它展开，所以生成文本时只需缓存 c，而不是每个头的 K 和 V。查询照常投影，每个头的那一段再分成两部分：一部分与潜向量展开的键相乘，一部分携带位置。',
  'step.mlalatent.short': 'MLA：潜向量',
  'step.mlalatent.narration':
    '“{token}”被压成一个 {kv} 个数的潜向量 X·W_DKV，再做归一化：RMSNorm 把这一行除以它的均方根 {rms}，再乘 kv_norm，于是第一个数 {a} → {c}（kv_norm 为 {w}）。每个头的键和值都将由这 {kv} 个数算出。携带位置的键部分 K_pe（{r} 个数）直接由 X 算出，所有头共用。',
  'mla.off':
    '本次运行没有多头潜在注意力：在设置中填写“MLA：潜向量大小 kvRank”和它后面的三个大小，并选一种 RoPE 方式，就能看到它。',
  'step.mlarope.title': '多头潜在注意力：解耦的 RoPE',
  'step.mlarope.meaning':
    '随位置变化的旋转没法并进展开潜向量的矩阵，所以 MLA 把位置单独放：每个头的查询只旋转最后 ropeDim 个数，键则只有一个旋转过的部分 X·W_KR，所有头共用。',
  'step.mlarope.short': 'MLA：RoPE',
  'step.mlarope.narration':
    '每个头的 {dk} 个查询数里，只有最后 {r} 个随位置旋转。对“{token}”，第 {head} 个头旋转后的部分以 {q} 开头，第一对转过的角度是 {angle}。键这一侧所有头共用一个旋转过的部分：“{token}”的是 {k}。潜向量本身不带位置。',
  'step.mlapaths.title': '多头潜在注意力：朴素路径与吸收路径，分数相同',
  'step.mlapaths.meaning':
    '同样的分数有两种算法。朴素路径：把每个键都从潜向量展开，k = [c·W_UK | k_pe]，再算 q·k。吸收路径（DeepSeek 解码时的做法）：因为 q·(c·W_UK) = (q·W_UKᵀ)·c，把 W_UK 一次性挪到查询一侧，直接对缓存的潜向量打分；V = c·W_UV 放到加权求和之后再乘。键和值始终不必算出来。',
  'step.mlapaths.short': 'MLA：两条路径',
  'step.mlapaths.narration':
    '第 {head} 个头，朴素路径：每个键是 [c·W_UK | k_pe]，共 {dk} 个数，“{token}”对自己的分数是 {naive}。吸收路径：查询变成 Q_absorbed，{kv} 个数，直接与缓存的潜向量相乘，得到同一个分数 {absorbed}。两条路径在第 {head} 个头的分数上最多相差 {scoresApart}，在输出上最多相差 {outputApart}：这是舍入误差，因为它们以另一种顺序加同样的乘积。',
  'mla.path.naive': '朴素路径：由潜向量展开键和值',
  'mla.path.absorbed': '吸收路径：W_UK 挪到查询一侧',
  'mla.path.naiveScores': '朴素路径：分数 q·k',
  'mla.path.absorbedScores': '吸收路径：分数 Q_absorbed·c + q_pe·k_pe',
  'step.mlacache.title': '多头潜在注意力：每个词元的缓存',
  'step.mlacache.meaning':
    '模型生成文本时，要为已有的每个词元保存后面的查询还会用到的东西。多头注意力保存每个头的键和值；MLA 只保存潜向量 c 和那一个旋转过的键部分，其余都由它们重新算出。',
  'step.mlacache.short': 'MLA：缓存',
  'step.mlacache.narration':
    'MLA 每个词元缓存 {perToken} 个数：潜向量 c（{kv} 个）和旋转过的键部分（{r} 个）。同样宽度的多头注意力要为 {H} 个头、每个头 {dk} 个数缓存 K 和 V：2 × {H} × {dk} = {mha} 个。到“{token}”为止（{n} 个词元），就是 {mlaTotal} 个数对 {mhaTotal} 个。按 DeepSeek-V3 的大小，每个词元每层是 {v3kv} + {v3r} = {v3mla} 个数，而多头注意力是 2 × {v3H} × {v3dk} = {v3mha} 个。',
  'mla.cache.latentNorm': '缓存：潜向量 c',
  'mla.cache.K_pe_rope': '缓存：旋转过的键部分',
  'step.mlapaths.apart':
    '朴素路径与吸收路径是同一个注意力：二者在第 {head} 个头的分数上最多相差 {scoresApart}，在输出上最多相差 {outputApart}（舍入误差）。',
  'step.mlacache.counts':
    '每个词元的缓存：MLA {perToken} 个数（c {kv} 个 + k_pe {r} 个），多头注意力 2 × {H} × {dk} = {mha} 个。按 DeepSeek-V3 的大小：{v3kv} + {v3r} = {v3mla} 个，对比 2 × {v3H} × {v3dk} = {v3mha} 个。',
};
