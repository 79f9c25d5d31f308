// Chinese strings of the KV-cache and online-softmax steppers (view/steps/stepper-panels.js, kv-cache-words.js):
// registered by steps/stepper-strings.js, which their code loads, so they travel with it (a part of its own in the
// standalone scripts).
export default {
  'stepper.computing': '计算中…',
  'kv.needsCausal':
    'KV 缓存一次解码一个词元，每个查询只看得到它之前的键，所以需要因果掩码：在设置中把“{field}”设为“{value}”，或选用 Llama 风格等预设。',
  'kv.control': '解码步',
  'kv.said': '第 {n} 步，共 {count} 步：查询“{token}”（位置 {t}）',
  'kv.kvHead': 'KV 头 {g}，供第 {h} 个头读取',
  'kv.keys': '键缓存 K_cache',
  'kv.keys.rope': '键缓存 K_cache（经过 RoPE 旋转后的键，与 RoPE 一步所示相同）',
  'kv.keys.norm': '键缓存 K_cache（经过 QK-norm 后的键）',
  'kv.values': '值缓存 V_cache',
  'kv.scores': '注意力分数 q_t · k_j（一行）',
  'kv.weights': '这一步的注意力权重',
  'kv.full': '完整因果运行的对应行',
  'kv.appended':
    '“{token}”（位置 {t}）只计算一次自己的 k 和 v，并追加到缓存（高亮的行）；缓存长度现在是 {n}。查询与缓存中的每个键（共 {computed} 个）计算分数：只算一行，而不是重算整个矩阵。',
  'kv.identical': '这一行与完整因果运行的第 {t} 行（“{token}”）逐位相同。',
  'kv.notIdentical': '这一行与完整因果运行的第 {t} 行（“{token}”）在最后几位上不同。',
  'kv.identicalCount': '引擎比较了每个头的每一步：{count} 行中有 {n} 行逐位相同。',
  'kv.bytes.title': '长度为 {n} 时的缓存大小（一层、一个句子、float32）',
  'kv.bytes.layout': '注意力类型',
  'kv.bytes.heads': 'K/V 头数',
  'kv.bytes.size': '字节数',
  'kv.bytes.mha': '多头注意力（MHA）',
  'kv.bytes.gqa': '分组查询注意力（GQA）',
  'kv.bytes.mqa': '多查询注意力（MQA）',
  'kv.bytes.formula': '字节数 = 2（k 和 v）· {n} 个词元 · K/V 头数 · d_k（{dk}）· 4 字节。',
  'kv.bytes.noGqa':
    '本次运行的 K/V 头数与查询头数相同，所以 GQA 一行就是普通 MHA；把“KV 头数”调小（如 Llama 风格预设）即可让多个头共享。',
  'kv.trap.title': '陷阱：对单个解码查询使用 is_causal=True',
  'kv.trap.why':
    '在解码步中对唯一的查询传入 `is_causal=True` 会得到错误的一行：PyTorch 用 `torch.ones(L, S).tril()` 构造这个掩码，它对齐 [L, S] 分数矩阵的左上角。这里 L = 1 个查询、S = {n} 个缓存的键，所以掩码唯一的一行是 [1, 0, 0, …]：查询只能看到键 0，并把全部权重给它。',
  'kv.trap.why.first':
    '第一步只有 1 个缓存的键：传 `is_causal=True` 时，左上角掩码 `torch.ones(L, S).tril()` 保留的正是这个唯一的键，所以这一行仍然正确；从第二步起，它会挡住键 0 以外的所有键。',
  'kv.trap.why.sink':
    '传 `is_causal=True` 时，PyTorch 的掩码 `torch.ones(L, S).tril()` 对齐左上角：这里 L = 1、S = {n}，查询只看到键 0，它得到 {w} 的权重，其余归汇聚 logit。',
  'kv.trap.wrong.head1': '使用 is_causal=True（左上角掩码）的权重，第 1 个头',
  'kv.trap.wrong': 'is_causal=True（左上角对齐的掩码）下的注意力权重',
  'kv.trap.fix':
    '修正方法：不传掩码（缓存里只有过去的词元，没有需要遮住的），或者传入对齐右下角的掩码 `torch.ones(L, S).tril(diagonal=S - L)`，作为显式的 attn_mask。',
  'flash.control': '在线 softmax 的步骤',
  'flash.said': '第 {n} 步，共 {count} 步：查询 {q0}–{q1} 与键 {k0}–{k1} 的分块',
  'flash.saidSkipped': '第 {n} 步，共 {count} 步：查询 {q0}–{q1} 与键 {k0}–{k1} 的分块，已跳过（全部被掩码）',
  'flash.saidEnd': '第 {n} 步，共 {count} 步：除以 ℓ',
  'flash.tileQueries': '查询分块（行数）',
  'flash.tileKeys': '键分块（列数）',
  'flash.logits': '这个头的 logits x，按分块划分（加框：当前分块）',
  'flash.skipped': '这个分块中的 logits 全部被掩码，FlashAttention 直接跳过它：不读取任何数据，m、ℓ 和 O 保持不变。',
  'flash.first':
    '这些行的第一个键分块：m 是分块内该行的最大值，ℓ = Σ exp(x − m)，O = Σ exp(x − m)·v（没有需要重缩放的内容，α 不起作用）。',
  'flash.update':
    '后续的键分块：新的最大值 m = max(m_old, 分块内该行的最大值)；之前累加的结果乘以 α = exp(m_old − m)（最大值没有变大时为 1），再把分块的 exp(x − m) 加到 ℓ 上，把 exp(x − m)·v 加到 O 上。',
  'flash.stats': '每个查询行：m_old、m、α、ℓ',
  'flash.partial': '部分输出 O（尚未除以 ℓ）',
  'flash.rowDone': '这些行已经看过所有键分块：最后把它们的 O 除以 ℓ。',
  'flash.divide': '最后，每一行的 O 除以它的 ℓ：o_i = O_i / ℓ_i。与普通 softmax 不同的单元格加框显示。',
  'flash.output': '在线 softmax：O / ℓ',
  'flash.plain': '普通 softmax：softmax(x) · V',
  'flash.summary': '与普通 softmax 的最大差值：{diff}。逐位相同的元素：{total} 个中有 {identical} 个（{percent}%）。',
  'flash.why':
    '不是 100%，这是正常的：exp(x − m_old)·α 的舍入与直接计算 exp(x − m_new) 不同，而且 ℓ 和 O 是逐块累加的，顺序与对整行做一次 softmax 不同。float32 加法不满足结合律，所以最后几位会不同；数值在 float32 舍入误差之内一致。',
  'flash.whyAll':
    '这里每个元素都逐位相同（例如每行只有一个键分块，或没有发生重缩放）；一般情况下 exp(x − m_old)·α 与 exp(x − m_new) 的舍入不同，逐块求和的顺序也不同，所以会有少数最后几位不同。',
};
