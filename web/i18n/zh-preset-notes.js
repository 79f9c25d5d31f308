// 预设的说明（中文）：对应哪个程序、有何不同。单独成块，首次显示说明时加载（view/common/preset-note.js）。
export default {
  'preset.tutorial.note':
    '对应 tests/reference/programs/tutorial.py，经典的单头自注意力演示：torch.manual_seed(123)，按词元首次出现的顺序建词表，nn.Embedding(5, 4) 给出词嵌入；再次 torch.manual_seed(123)，用 torch.rand(4, 4) 生成 W_q、W_k、W_v。注意力分数除以 √d_model（单头时等于 √d_k）。没有输出投影 W_O：输出就是注意力权重 · V。这是中文教程《Understand Attention in an Intuitive Way》中的逐步演示；使数字一致的设置：种子 123，权重种子 123，torch.rand 权重，缩放 1/√dModel，不要 W_O。中文界面也使用教程原文的五个英文词元，行与教程逐行对应。有两个打印出的权重与教程的最后一位不同，因为教程所用的 PyTorch 版本舍入不同：`torch 1.13` 打印 2.5677e-03，教程为 2.5676e-03；4.0539e-07，教程为 4.0538e-07（矩阵下的“PyTorch 打印”按钮按 PyTorch 的格式写出）。',
  'preset.tutorial-causal.note':
    '对应 tests/reference/programs/tutorial-causal.py：在“Once upon a time there”的演示上加前瞻掩码 `torch.triu(torch.ones(5, 5), diagonal=1)`（被掩码的分数填 `−inf`），并在 torch.manual_seed(123) 之后对注意力权重做 nn.Dropout(0.2)。新建的模块处于训练模式，保留下来的权重要乘以 1/0.8。这是中文教程《Understand Attention in an Intuitive Way》中加掩码和 dropout 的演示；使数字一致的设置：在上一预设的基础上加因果掩码、dropout 0.2、dropout 种子 123。dropout 之后有一个打印出的权重与教程的最后一位不同（教程所用的 PyTorch 版本舍入不同）：`torch 1.13` 打印 9.4805e-02，教程为 9.4804e-02。',
  'preset.tutorial-self-attention.note':
    '对应 tests/reference/programs/tutorial-self-attention.py，中文教程《Understand Attention in an Intuitive Way》中的自注意力类：先用演示中的 nn.Embedding 词嵌入（torch.manual_seed(123)），再次 torch.manual_seed(123) 后依次创建 W_Q、W_K、W_V = nn.Linear(4, 4, bias=False)；注意力分数除以 K.shape[-1] ** 0.5，没有输出投影。使数字一致的设置：种子 123，权重种子 123，默认的 nn.Linear 初始化，不要 W_O。nn.Linear 计算 `x · weightᵀ`，所以页面显示 W = `weight.T`。',
  'preset.tutorial-causal-attention.note':
    '对应 tests/reference/programs/tutorial-causal-attention.py，中文教程《Understand Attention in an Intuitive Way》中的 CausalAttention：torch.manual_seed(123) 之后 `batch = torch.randn(2, 5, 4)`，创建模块前没有重新设种子，所以它的 nn.Linear(4, 4, bias=False) 从生成器在输入之后的状态继续抽取。使数字一致的设置：种子 123，不设权重种子（权重接着输入继续抽取），因果掩码，不要 W_O，缩放选 1/√dModel，因为教程除以脚本中的 d_out（这里两者都是 4）。',
  'preset.tutorial-two-heads.note':
    '对应 tests/reference/programs/tutorial-two-heads.py，中文教程《Understand Attention in an Intuitive Way》中的多头包装器：两个 CausalAttention(6, 3) 头，用 torch.cat(…, dim=-1) 拼接；在 `batch = torch.randn(2, 5, 6)` 之后创建，没有重新设种子，先抽头 0 的 Q、K、V，再抽头 1 的。每个头除以脚本中的 d_out = 6，而不是自己的 3。使数字一致的设置：种子 123，不设权重种子（接着输入继续抽取），逐头布局，因果掩码，不要 W_O，缩放选 1/√dModel。',
  'preset.tutorial-multi-head.note':
    '对应 tests/reference/programs/tutorial-multi-head.py，中文教程《Understand Attention in an Intuitive Way》中的 MultiHeadAttention：Q、K、V 各用 nn.Linear(6, 6, bias=False)，切成 2 个 3 维的头，因果掩码，再接带偏置的 W_O = nn.Linear(6, 6)；全部在 `batch = torch.randn(2, 5, 6)` 之后创建，没有重新设种子。注意力分数除以 d_out ** 0.5 = √6，而不是 √3。使数字一致的设置：种子 123，不设权重种子（接着输入继续抽取），因果掩码，缩放选 1/√dModel。',
  'preset.notes-dot.note':
    '对应 tests/reference/programs/notes-dot.py，中文笔记《Transformer Study Notes 2: Self-Attention》中不缩放的点积分数：笔记的单头例子，批大小 1、seq_len 4、d_model 6（所以 d_k = 6），α*ᵢⱼ = qᵢ·kⱼ 不缩放，每行做 softmax，再与 V 加权求和。笔记只用图画出这个例子，没有数字、代码和种子，由程序来定：先 `torch.manual_seed(0)`，再 `X = torch.randn(1, 4, 6)`，再依次 `W_Q, W_K, W_V = torch.rand(6, 6)`（接着生成器抽取），Q = X · W_Q。种子放在这个位置，运行程序就得到这些数字。使数字一致的设置：种子 0，随机输入 `torch.randn(1, 4, 6)`，torch.rand 权重，不要 W_O，缩放选“不缩放”。',
  'preset.notes-scaled.note':
    '对应 tests/reference/programs/notes-scaled.py，中文笔记《Transformer Study Notes 2: Self-Attention》沿用 Transformer 论文的缩放点积分数：与点积预设相同的例子，softmax 之前把分数除以 √d_k = √6。数字来源相同：`torch.manual_seed(0)`，然后 `X = torch.randn(1, 4, 6)`，再 `W_Q, W_K, W_V = torch.rand(6, 6)`。使数字一致的设置：点积预设的设置，缩放改为 1/√d_k。',
  'preset.notes-additive.note':
    '对应 tests/reference/programs/notes-additive.py，中文笔记《Transformer Study Notes 2: Self-Attention》与点积并列的另一种分数，加性分数：查询经过 W_a = nn.Linear(6, 6, bias=False)，键经过 U_a = nn.Linear(6, 6, bias=False)，两者相加取 tanh，再由 v_a = nn.Linear(6, 1, bias=False) 得到一个分数；不缩放。笔记没有给出尺寸：隐藏层大小 6，以及紧接 W_Q、W_K、W_V 之后依次抽取 W_a、U_a、v_a，都是程序的选择。例子和种子与点积预设相同（`torch.manual_seed(0)`、`X = torch.randn(1, 4, 6)`、`W_Q, W_K, W_V = torch.rand(6, 6)`）。使数字一致的设置：点积预设的设置，分数选加性，加性注意力隐藏维度 6。',
  'preset.notes-mask.note':
    '对应 tests/reference/programs/notes-mask.py，中文笔记《Transformer Study Notes 2: Self-Attention》中的掩码注意力：MASK 矩阵在词元不能看的位置（它右边的键）为 1，在对角线及其下方为 0；缩放后的分数在 1 处替换为 −1e9，在 0 处保留，所以 softmax 之后每个词元只给自己和左边的词元权重。例子和种子与缩放预设相同（`torch.manual_seed(0)`、`X = torch.randn(1, 4, 6)`、`W_Q, W_K, W_V = torch.rand(6, 6)`）。使数字一致的设置：缩放预设的设置，因果掩码，掩码约定 1 = 遮蔽，填充值 −1e9。',
  'preset.notes-heads.note':
    '对应 tests/reference/programs/notes-heads.py，中文笔记《Transformer Study Notes 2: Self-Attention》中按头查看的视图：在笔记可视化的句子上，画出其多头模块每个头的分数图（笔记原文把 `street` 拼错了，后文说的就是 `street`）。模块：一个带偏置的 nn.Linear(8, 8) 深拷贝四份作为 W_Q、W_K、W_V、W_O，2 个 k_dim 为 4 的头，分数除以 √4，不用掩码；调用 `eval()`，所以分数图就是不经 dropout 的 softmax 权重。因为 W_Q = W_K，每个头的分数 qᵢ·qⱼ 在 softmax 之前是对称的。笔记展示的是训练好的模型的分数图；这里是新建的模型，数字来自程序的种子：在 nn.Embedding(11, 8) 之前 `torch.manual_seed(0)`（词按首次出现的顺序编号，`The` 和 `the` 是两个词），然后创建模块，接着生成器抽取。使数字一致的设置：每种语言都用这个句子，dModel 8，2 个头，种子 0，`clones` 初始化。',
  'preset.notes-clones.note':
    '对应 tests/reference/programs/notes-clones.py，中文笔记《Transformer Study Notes 2: Self-Attention》自己的程序：MultiHeadedAttention(num_heads=2, d_model=8)，其 clones() 把同一个 nn.Linear(8, 8) 深拷贝四份（W_Q = W_K = W_V = W_O，偏置也相同），输入 torch.rand(6, 3, 8)，掩码 `torch.tril(torch.ones(3, 3)).unsqueeze(0)` 按 `masked_fill(mask == 0, −1e10)` 使用（1 表示可以关注），dropout 0.1 生效，因为新建的模块处于训练模式。它只打印输出的形状 torch.Size([6, 3, 8])。这就是《The Annotated Transformer》的模块：本预设就是 `annotated` 预设的设置，换成笔记的名字。笔记没有设种子：把 `torch.manual_seed(0)` 放在 `torch.rand(6, 3, 8)` 之前，运行笔记的程序就得到这些数字（nn.Linear 和 dropout 接着生成器抽取）。使数字一致的设置：种子 0，`clones` 初始化，2 个头，因果掩码，掩码约定 1 = 保留，填充值 −1e10，dropout 0.1。',
  'preset.handwritten-mha.note':
    '对应 tests/reference/programs/handwritten-mha.py，中文教程《Multi-Head Attention Written by Hand in Python》中的模块：它的分词器（`{"this": 1, "is": 2, "an": 3, "example": 4, "sentence": 5}`，其他词都是 0；句子转小写、按空格切分，再用 0 填充到 max_len 10），nn.Embedding(6, 512)，然后依次创建带偏置的 `self.query`、`self.key`、`self.value`、`self.out` = nn.Linear(512, 512)，8 个 64 维的头，分数除以 `64 ** 0.5`。它不传掩码，所以五个填充词元（编号 0，显示为 <pad>）和词一样既是查询也是键：每个词也会关注它们。教程没有设种子：把 `torch.manual_seed(0)` 放在 nn.Embedding 之前，运行教程的程序就得到这些数字（四个 nn.Linear 接着生成器抽取）。使数字一致的设置：每种语言都用教程的英文句子（本来就是小写），词表 <pad> this is an example sentence，最大长度 10，dModel 512，8 个头，种子 0，不设权重种子，Q/K/V 偏置，不用掩码。',
  'preset.handwritten-torch-mha.note':
    '对应 tests/reference/programs/handwritten-torch-mha.py，中文教程《Multi-Head Attention Written by Hand in Python》的第二个程序：相同的词元和 nn.Embedding(6, 512)，然后调用 `nn.MultiheadAttention(512, 8, batch_first=True)`，不传掩码，所以和手写模块一样，填充词元也被关注。它返回输出，以及 8 个头平均后的注意力权重（引擎中的 averagedWeights）。教程没有设种子：把 `torch.manual_seed(0)` 放在 nn.Embedding 之前，运行教程的程序就得到这些数字（模块先抽 out_proj，再抽 in_proj，接着生成器抽取）。使数字一致的设置：手写预设的设置，初始化选 nn.MultiheadAttention。',
  'preset.mha-512.note':
    '对应 tests/reference/programs/mha-512.py，中文教程《Multi-Head Attention》（线性投影、缩放点积注意力、拼接与线性层）中的模块：w_q、w_k、w_v、w_o = 带偏置的 nn.Linear(512, 512)，8 个 64 维的头，分数除以 √d_k；传入的掩码在 `mask == 0` 处填 −1e9（这里掩码约定为 `keep`、填充值 −1e9，选用掩码时效果相同）。教程的测试先创建模块，再抽 x = torch.randn(2, 5, 512)，不传掩码，只打印形状：输入和输出都是 (2, 5, 512)。教程没有设种子：本预设两次抽取都用种子 0（种子 0，权重种子 0）。',
  'preset.simple-self-attention.note':
    '对应 tests/reference/programs/simple-self-attention.py，即《从零构建大模型》一书中带可训练权重的自注意力模块（SelfAttention_v2）：在 torch.manual_seed(789) 之后依次创建 W_query、W_key、W_value = nn.Linear(4, 4, bias=False)；注意力分数除以 keys.shape[-1] ** 0.5；没有输出投影。nn.Linear 计算 x · linear.weightᵀ，所以页面显示的是 W = linear.weight.T。书中的输入是固定的 6 × 3 张量；这里的输入是 nn.Embedding 的行（torch.manual_seed(123)），d_in = d_out = 4。“路从脚下开始”的六个汉字各是一个词元，互不相同，与英文句子的词元 ID 相同。',
  'preset.causal-head.note':
    '对应 tests/reference/programs/causal-head.py，书中的 CausalAttention 模块：torch.manual_seed(123) 之后 `batch = torch.randn(2, 5, 4)`，再次 torch.manual_seed(123) 之后创建模块；查询/键/值各用 nn.Linear(4, 4, bias=False)，用上三角（`triu`）掩码缓冲区把未来位置填成 `−inf`，注意力分数除以 keys.shape[-1] ** 0.5，dropout 为 0.0。书中先掩码再缩放；先缩放得到的注意力权重完全相同。',
  'preset.two-heads.note':
    '对应 tests/reference/programs/two-heads.py，书中的 MultiHeadAttentionWrapper：在 torch.randn(2, 5, 6) 上运行两个 CausalAttention(6, 3) 头，再用 torch.cat(…, dim=-1) 拼接。每个头有自己的 nn.Linear，逐头生成（逐头布局），并按自己的 d_out = 3（也就是 d_k）缩放。没有输出投影。',
  'preset.multi-head.note':
    '对应 tests/reference/programs/multi-head.py，书中的 MultiHeadAttention：查询、键、值各用一个 nn.Linear(6, 6, bias=False)，用 `.view(b, t, heads, head_dim).transpose(1, 2)` 拆成 2 个头，最后是带偏置的 out_proj = nn.Linear(6, 6)；输入与包装类相同，都是 torch.randn(2, 5, 6)。书中按 keys.shape[-1] ** 0.5 = √head_dim 缩放；有些抄写版本写成 self.d_out ** 0.5，每个头都按 √d_out 缩放（把“缩放”设为 1/√dModel 即可复现）。',
  'preset.mha.note':
    '对应 tests/reference/programs/mha.py：`word_to_index` 含六个词和 <pad> = 0，两个句子都填充到长度 10；torch.manual_seed(0) 之后依次创建 nn.Embedding(7, 512) 和 nn.MultiheadAttention(512, 8)（`batch_first=False`，形状为 (L, N, E)），调用时传入 `key_padding_mask = ids == <pad>`。该模块返回 8 个头平均后的注意力权重（`average_attn_weights=True`，默认值），引擎以张量 averagedWeights 返回。只有 <pad> 键被掩码，<pad> 查询仍会关注其他词。中文词表的六个汉字与英文的六个词一一对应，词元 ID 相同。',
  'preset.annotated.note':
    '对应 tests/reference/programs/annotated.py，即《The Annotated Transformer》中的 MultiHeadedAttention(h=2, d_model=8)，输入为 torch.manual_seed(0) 之后的 torch.rand(6, 3, 8)。保留了它的特点：clones() 把同一个 nn.Linear(8, 8) 深拷贝四份，所以 W_Q、W_K、W_V、W_O 初始时完全相同，偏置也相同；subsequent_mask 中 1 表示可以关注，用法是 `masked_fill(mask == 0, -1e10)`（掩码中保留的键显示为 1）；新建的模块处于训练模式，所以 dropout 0.1 会作用在注意力权重上。原文填的是 -1e9：掩码后的分数不同，注意力权重相同。',
  'preset.xxt.note':
    '对应 tests/reference/programs/xxt.py，最基本的自注意力（如博客文章《从零实现 Transformer》所写）：`raw_weights = torch.bmm(x, x.transpose(1, 2))`，在最后一维上做 softmax，`y = torch.bmm(weights, x)`。这里 W_Q = W_K = W_V = I，不缩放，也没有 W_O；x 是 torch.manual_seed(5) 之后句子的 nn.Embedding 行。“我爱小猫”的四个汉字各是一个词元，与英文句子的词元 ID 相同。',
  'preset.cross.note':
    '对应 tests/reference/programs/cross.py，用 torch.rand 参数的 CrossAttention 模块（如文章《理解并实现大语言模型中的自注意力、多头注意力、交叉注意力和因果注意力》所写）：查询来自解码器的句子，键和值来自编码器的句子。两句共用一个 nn.Embedding（torch.manual_seed(123)），torch.manual_seed(123) 之后 W_query、W_key、W_value = torch.rand(4, 4)，注意力分数除以 d_out_kq ** 0.5，没有输出投影。原文的第二个输入是 torch.rand(8, d_in)；这里是嵌入后的法语句子。“我是学生”的四个汉字各是一个词元，与英文句子的词元 ID 相同。',
  'preset.additive.note':
    '对应 tests/reference/programs/additive.py，即《动手学深度学习》中的 `AdditiveAttention`：分数 = w_vᵀ tanh(W_q q + W_k k)，三个 nn.LazyLinear(…, bias=False) 层（num_hiddens = 8，在第一次调用时依次生成 W_q、W_k、w_v）；查询来自解码器，键来自编码器，值就是键；不缩放。这里 W_Q = W_K = W_V = I，没有 W_O，所以 W_a、U_a、v_a 就是程序中的 W_q、W_k、w_v。PyTorch 的 seq2seq 教程中的 `BahdanauAttention` 各层带偏置，本引擎不生成这些偏置。“我爱你”的三个汉字各是一个词元，与英文句子的词元 ID 相同。',
  'preset.llama.note':
    '对应 tests/reference/programs/llama.py，把 Hugging Face 的 LlamaAttention 展开写出：q_proj = nn.Linear(32, 32, bias=False)，k_proj 和 v_proj = nn.Linear(32, 8, bias=False)（2 个键值头，每头 4 维）；旋转位置编码用 rotate_half（频率在前后两半重复，基数 10000）；repeat_kv 把每个键值头连续重复（查询头 0–3 读键值头 0，4–7 读键值头 1，与 repeat_interleave 相同；用 .repeat 会交错分组）；注意力分数除以 √4，加因果掩码。Llama 的 o_proj 没有偏置；这里保留 nn.Linear 的偏置，与引擎的输出投影一致。',
  'preset.mistral.note':
    '对应 tests/reference/programs/mistral.py，把 Hugging Face 的 MistralAttention 展开写出：与 Llama 相同的注意力（RoPE rotate-half，4 个查询头共用 2 个键值头），再加滑动窗口：查询 i 只能看到满足 0 ≤ i − j < 3 的键 j，即因果掩码与 torch.tril(ones, diagonal=−3) 取并集。输出投影保留 nn.Linear 的偏置。',
  'preset.streaming-llm.note':
    '对应 tests/reference/programs/streaming-llm.py：StreamingLLM 的注意力模式（Xiao 等人，注意力汇聚）。每个查询看到最近的 4 个键（窗口），并且无论窗口在哪里，都能看到开头的 4 个词元——模型把用不上的注意力放在这些词元上。三个 nn.Linear(16, 16, bias=False)，2 个头，因果掩码；这里缓存中的位置不重新编号。',
  'preset.alibi-bloom.note':
    '对应 tests/reference/programs/alibi-bloom.py：不用位置编码；第 h 个头在缩放后的注意力分数上加 −m_h·(i − j)，斜率 m_h = 2^(−8h/8) = 1/2 … 1/256（论文的 get_slopes），再加因果掩码。BLOOM 的 build_alibi_tensor 加的是 m_h·j，每行相差常数 m_h·i：softmax 不受影响，程序中检查了两者的注意力权重相同。BLOOM 把查询、键、值合成一个 nn.Linear(32, 96)；这里用三个带偏置的 nn.Linear(32, 32)，随机数的生成顺序与引擎一致。',
  'preset.multi-query.note':
    '对应 tests/reference/programs/multi-query.py，即 Shazeer 的多查询注意力：q_proj = nn.Linear(16, 16, bias=False) 给出 4 个查询头，k_proj 和 v_proj = nn.Linear(16, 4, bias=False) 只给出一个共享的键头和值头，通过 unsqueeze(1) 广播到所有查询头。KV 缓存是多头注意力的四分之一。',
  'preset.gemma2-softcap.note':
    '对应 tests/reference/programs/gemma2-softcap.py，把 Hugging Face 的 Gemma2Attention 展开写出：RoPE rotate-half，4 个查询头共用 2 个键值头，缩放后的注意力分数在掩码前做软上限 50·tanh(scaled / 50)。这么小的分数几乎不变（tanh 在 0 附近近似线性）；很大的分数会被限制在 50 以内。输出投影保留 nn.Linear 的偏置。',
};
