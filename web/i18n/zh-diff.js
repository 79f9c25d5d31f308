// Chinese strings of differential attention's steps (view/steps/diff-*.js): registered by
// steps/diff-steps.js, loaded with the first run that has differential attention, so they travel with the steps' code.
export default {
  'step.diffmaps.title': '差分注意力：每个头两张图',
  'step.diffmaps.meaning':
    '差分注意力（Diff Transformer）让每个头算两张注意力图而不是一张：把头的查询列和键列各分成两半，每一半单独给键打分，各做一次 softmax。下一步用第一张图减去第二张。',
  'step.diffmaps.short': '差分：两张图',
  'step.diffmaps.narration':
    '头 {head} 把它的 {dk} 个查询列和键列分成两半，每半 {d} 个，两半各自给键打分（与 Diff Transformer 一样，先把 q 乘以 1/√d 再做乘积）。对“{token}”，第一张图把最大的权重给了“{top1}”（{w1}），第二张给了“{top2}”（{w2}）。',
  'diff.off': '本次运行没有差分注意力：在设置中填写“差分注意力：层深度”，每个头就会有两张图，A = A₁ − λ·A₂。',
  'step.diffweights.title': '差分注意力：A = A₁ − λ·A₂',
  'step.diffweights.meaning':
    '两张图都会把一些权重分给无关的键。用第一张图减去 λ 乘第二张，就抵消了两者共有的部分，就像差分放大器抵消两个输入上相同的噪声。λ 由四个向量学出来，起点在 λ_init 附近。',
  'step.diffweights.short': '差分：A₁ − λ·A₂',
  'step.diffweights.narration':
    'λ = exp({dot1}) − exp({dot2}) + λ_init = {exp1} − {exp2} + {init} = {lambda}，其中深度为 {depth} 的层 λ_init = {init}。对“{token}”，第二张图最看重“{key}”；A 在那里保留 {w1} − {lambda} × {w2} = {a}。A 的每一行之和是 1 − λ = {rest}，而不是一；头 {head} 的 {cells} 个权重中有 {negatives} 个是负数。',
  'diff.noise': 'λ·A₂：减去的部分（{head}）',
  'step.diffnorm.title': '差分注意力：RMSNorm 与 1 − λ_init',
  'step.diffnorm.meaning':
    '每个头的输出 A·V 逐行做 RMSNorm（再逐列乘以学到的 RMSNorm 权重），再乘以 1 − λ_init，这样不论 λ 多大，各头都以相同的尺度进入 W_O。',
  'step.diffnorm.short': '差分：RMSNorm',
  'step.diffnorm.narration':
    '头 {head} 的上下文中“{token}”这一行的均方根是 {rms}：RMSNorm 把这一行除以它，再逐列乘以学到的 RMSNorm 权重，然后每个数再乘以 1 − λ_init = {scale}。它的第一个数依次变为 {c} → {n} → {o}。',
};
