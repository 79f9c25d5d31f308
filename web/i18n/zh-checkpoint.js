// 简体中文 strings of the checkpoint view (view/checkpoint/*.js) and of model/checkpoint-heads.js's
// sentences, registered by the view with the English ones (addStrings), so they load with the mode.
export default {
  // ---- 打开的检查点（view/checkpoint/*.js，model/checkpoint-heads.js 的句子） ----
  'checkpoint.title': '打开一个检查点：每个头算了什么',
  'checkpoint.intro':
    '从文件打开一个 Hugging Face 检查点（GPT-2、Llama 或 Qwen2）。文件留在你的电脑上：只读取前向计算需要的张量，下面每个数都是这个模型算出的、与 PyTorch 一致的结果。',
  'checkpoint.open.label': '打开模型（选择它的文件）',
  'checkpoint.open.needs':
    '把模型文件夹里的这些文件一起选中或拖进来：`config.json`、权重（`model.safetensors`，或全部 `model-0000N-of-0000M.safetensors`），想输入文字的话还要 `tokenizer.json`。',
  'checkpoint.open.choose': '选择文件…',
  'checkpoint.open.nothing': '未选择文件',
  'checkpoint.open.drop': '把文件夹里的文件拖到这里',
  'checkpoint.open.reading': '正在读取权重',
  'checkpoint.open.progress': '已读取 {read}，共 {total}',
  'checkpoint.open.none': '还没有打开模型。',
  'checkpoint.open.name': '文件',
  'checkpoint.family.gpt2': 'GPT-2',
  'checkpoint.family.llama': 'Llama',
  'checkpoint.family.qwen2': 'Qwen2',
  'checkpoint.summary':
    '{family}：{layers} 层，{heads} 个头，{kvHeads} 个 KV 头，头维度 {headDim}，d_model {dModel}，词表 {vocab}；权重文件共 {total}，读取了 {read}。',
  'checkpoint.text.label': '文本（由模型的 tokenizer.json 分词）',
  'checkpoint.text.name': '文本',
  'checkpoint.ids.label': '词元编号（没有 tokenizer.json：JSON 数组，或用空格分隔的数）',
  'checkpoint.ids.name': '词元编号',
  'checkpoint.tokens': '模型读取的词元',
  'checkpoint.tokens.count': '{count} 个词元（最多 {max} 个）',
  'checkpoint.tokenizer.failed': '无法读取 tokenizer.json，请输入词元编号：{message}',
  'checkpoint.error.idsSyntax': '词元编号：请给出数字的 JSON 数组（[24, 15]），或用空格分隔的数。',
  'checkpoint.error.empty': '{label}：请至少输入一个词元。',
  'checkpoint.error.at': '{label}：{message}',
  'checkpoint.pick.layer': '层',
  'checkpoint.pick.head': '头',
  'checkpoint.pick.query': '跟随词元',
  'checkpoint.layer': '第 {layer} 层',
  'checkpoint.head': '第 {head} 个头',
  'checkpoint.kvHead': '第 {kv} 个 KV 头',
  'checkpoint.token': '词元 {i}（{label}）',
  'checkpoint.then': '{first}{second}',
  'checkpoint.heads.title': '每个头：前一词元分数与归纳分数',
  'checkpoint.heads.how':
    '每个方块是一个头在这些词元上的注意力权重（行：查询，列：键）。前一词元分数：位置 i ≥ 1 上 `weights[i, i−1]` 的平均值。归纳分数：在查询词元之前出现过的位置上，对“先前那次出现的下一个词元”所给权重的平均值（没有这样的位置时为 —）。选一个头，看它的每一步。',
  'checkpoint.heads.naming':
    '只有当分数几乎不可能出于偶然时，才按分数给头命名：前一词元头要求分数不低于 {previous}，且至少是注意力在查询可见的键上平均分配时在这些词元上所得的 {factor} 倍（{previousChance}）；归纳头要求分数不低于 {induction}，至少是平均分配的 {factor} 倍（{inductionChance}），并且至少有 {minimum} 个位置在前文出现过（这些词元有 {positions} 个）。',
  'checkpoint.steps.title': '第 {layer} 层第 {head} 个头，一步一步',
  'checkpoint.step.Q.title': '查询 Q',
  'checkpoint.step.K.title': '键 K',
  'checkpoint.step.V.title': '值 V',
  'checkpoint.step.scores.title': '分数 Q·Kᵀ',
  'checkpoint.step.scaled.title': '缩放：÷√head_dim',
  'checkpoint.step.mask.title': '因果掩码',
  'checkpoint.step.weights.title': '权重：每行做 softmax',
  'checkpoint.step.headOutputs.title': '这个头的输出：weights·V',
  'checkpoint.step.Q.text': '{T} 个查询，每个词元一个，各有 {hd} 个数；{token} 的查询长度 ‖q‖ = {norm}。',
  'checkpoint.step.rope': '这些是经过 RoPE 之后的值：每一对数按随位置增大的角度旋转，所以分数取决于两个词元相隔多远。',
  'checkpoint.step.K.text': '来自第 {kv} 个 KV 头的 {T} 个键，各有 {hd} 个数；它们的长度 ‖k‖ 从 {min} 到 {max}。',
  'checkpoint.step.K.shared': '分组查询注意力：查询头 {heads}（共 {count} 个）读取同一组键和值。',
  'checkpoint.step.V.text':
    '来自第 {kv} 个 KV 头的 {T} 个值，各有 {hd} 个数：第 {head} 个头把它们混合进每个词元的输出。',
  'checkpoint.step.scores.text':
    '每个查询与每个键做点积：在{token}处，它能看到的键中最大的分数是 {value}，落在{key}上。',
  'checkpoint.step.scaled.text': '每个分数除以 √{hd} = {divisor}，让 softmax 不至于饱和：{before} 变成 {value}。',
  'checkpoint.step.mask.text':
    '{token}的查询能看到 {seen} 个词元：它自己和它之前的；它之后的 {hidden} 个得到 float32 的最小值（−3.4×10³⁸，显示为 −∞：Hugging Face 用它做遮盖），所以权重恰好为 0，与 −∞ 相同。',
  'checkpoint.step.mask.last': '{token}是最后一个词元，它的查询能看到全部 {seen} 个词元。',
  'checkpoint.step.mask.all': '{T}×{T} 的分数中，对角线以上共 {masked} 格被遮住。',
  'checkpoint.step.weights.text':
    'softmax 逐行把缩放后的分数变成和为 1 的权重：{token}这一行的和是 {sum}；最大的权重 {value} 落在{key}上。',
  'checkpoint.step.headOutputs.text':
    '每个词元的输出是它那一行权重乘以 V：{token}的第一个数是 {terms} 个加权值之和，{value}。',
  'checkpoint.next.title': '最后一个词元之后的下一个词元',
  'checkpoint.next.caption': '{token}之后最可能的 5 个词元',
  'checkpoint.next.token': '词元',
  'checkpoint.next.probability': '概率',
};
