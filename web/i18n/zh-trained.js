// 简体中文 strings of the trained model's view (view/trained/*.js), registered by it with the English
// ones (addStrings), so they load with the mode.
export default {
  // ---- 训练好的模型（view/trained.js） ----
  'trained.title': '训练好的模型：2 层，每层 4 个头，以字节为词元',
  'trained.intro':
    '一个由 `tests/reference/tiny/train.py` 训练的微型模型（只有注意力：没有前馈层，没有层归一化），共 {parameters} 个参数，最多读 {context} 个字节。它的头按此刻在你的文本上测得的分数命名。',
  'trained.bytesNote':
    '每个词元是一个 UTF-8 字节：␣ 是空格，↵ 是换行；多字节的字符每个字节显示一次，并注明是第几部分（一个汉字占 3 个字节：春 1/3、春 2/3、春 3/3）。',
  'trained.text.label': '文本（1 到 {max} 个 UTF-8 字节）',
  'trained.text.name': '文本',
  'trained.text.count': '{bytes} / {max} 字节',
  'trained.twice.button': '输入两遍',
  'trained.twice.title': '输入两遍：由第一遍预测第二遍',
  'trained.twice.accuracy': '第二遍：{correct}/{total} 个下一字节预测正确（{percent}%），平均损失 {loss} 奈特。',
  'trained.twice.notTwice':
    '这段文本里没有重复出现的连续 {min} 个以上字节：点“输入两遍”（或自己把一段再打一遍），看模型如何预测第二遍。',
  'trained.twice.bytes': '文本的字节；选一个，下面跟着它',
  'trained.twice.byte': '第 {i} 个字节：{label}',
  'trained.twice.right': '预测正确',
  'trained.twice.wrong': '预测错误（模型给出的是 {predicted}）',
  'trained.twice.how':
    '✓：模型在前一个字节处最可能的下一字节正是它；✗：是另一个（已标出）。第二遍共 {repeat} 个字节：无论在哪里，只要一段至少 {min} 个字节的内容又打了一遍（接连两遍、中间隔一个空格或“. ”、或者打第三遍），后出现的那一遍就是第二遍；它的第一个字节不计入，因为没有什么能预示它。',
  'trained.heads.title': '各个头，按它们做的事命名',
  'trained.heads.how':
    '每个方块是一个头的注意力权重（行：查询字节，列：键字节；颜色越深权重越大）。前一词元分数：对所有位置 i ≥ 1 求 `weights[i, i−1]` 的平均；达到 0.5 即称为前一词元头。归纳分数，针对含有第二遍的文本（一段至少 {min} 个字节的内容又打了一遍）：对第二遍的每个字节 i 求 `weights[i, t(i)]` 的平均，t(i) 是前一遍中紧跟同样内容之后的那个字节（取最长匹配中最靠后的一处）；达到 0.3 即称为归纳头（毫无偏好时约为 1/(i+1)）。虚线带在第 2 层归纳分数最高的头上框出了这些格子。',
  'trained.measured.start': '在这段文本上、第 {step} 步测得：',
  'trained.measured.induction': '{head} 是归纳头（{value}）',
  'trained.measured.previousToken': '{head} 是前一词元头（{value}）',
  'trained.measured.none': '没有哪个头的分数高到可以命名。',
  'trained.measured.and': '；',
  'trained.composition.title': '第 1 层为第 2 层铺路',
  'trained.composition.pickSecondCopy':
    '在上面选第二遍（又打了一遍的那段，标着 ✓ 或 ✗）的一个字节，看两层如何一起找到下一个字节。',
  'trained.composition.layer1':
    '第 1 层，{head}（前一词元分数最高）：在字节 {key} 处它看向前一个字节 {match}，权重 {weight}；从此字节 {key} 处的残差流就带着“它前面是哪个字节”。',
  'trained.composition.layer2':
    '第 2 层，{head}（归纳分数最高）：字节 {query} 处的查询寻找“前一个字节与自己相同”的键；这个键就是字节 {key}，它给它的权重是 {weight}。',
  'trained.composition.row': '{head} 的权重，第 {i} 行',
  'trained.composition.elsewhere': '{head} 的最大权重却给了字节 {best}。',
  'trained.composition.copies': '它把读到的字节 {key} 复制到位置 {i}：模型在这里最可能的下一字节见下表。',
  'trained.next.caption': '字节 {i}（{label}）之后最可能的下一字节',
  'trained.next.byte': '字节',
  'trained.next.probability': '概率',
  'trained.checkpoint.label': '训练步数',
  'trained.checkpoint.step': '第 {step} 步',
  'trained.curve.steps': '训练步数',
  'trained.curve.induction': '训练过程中最高的归纳分数',
  'trained.curve.score': '分数',
  'trained.curve.loss': '训练过程中第二遍的损失',
  'trained.curve.nats': '损失（奈特）',
  'trained.curve.saved': '保存的检查点（滑块的各档）',
  'trained.curve.note':
    '曲线来自训练报告，每 {every} 步在 {texts} 个输入两遍的随机字符串上测得（其中 {separated} 个中间有分隔符或打了第三遍）；下面各个头的分数则是此刻在你的文本上测得的。在第 {from} 步到第 {to} 步之间，归纳头形成：最高的归纳分数从 {fromScore} 升到 {toScore}，第二遍的损失从 {fromLoss} 降到 {toLoss} 奈特。',
  'trained.tensors.title': '每个张量及其形状',
  'trained.tensors.pick': '张量',
  'trained.tensors.input': '嵌入',
  'trained.tensors.output': '输出',
  'trained.download': '下载权重（{file}，{size} KB）',
  'trained.copied': '已复制：它会下载权重文件，并打印出同样的数字。',
  'trained.copyShown': '程序在下方：请从那里复制。',
  'trained.error.twiceEmpty': '文本：请先输入一些内容，才能输入两遍。',
  'trained.error.at': '{label}：{message}',
};
