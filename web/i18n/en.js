// English strings. Keys: field.<config path> (a setting's label), help.<config path>
// (its one-line help), enum.<config path>.<value> (a choice), then by where they appear.
export default {
  'app.title': 'Attention Lab',
  'app.tagline': 'Every step of scaled dot-product and multi-head attention, with the numbers PyTorch prints.',
  'field.text': 'Sentence (one per line for a batch)',
  'field.contextText': 'Context sentence for cross-attention (optional; one per line)',
  'input.tokens': 'Tokens',
  'input.contextTokens': 'Context tokens',
  'input.source': 'Input',
  'input.contextSource': 'Keys and values',
  'input.source.text': 'the sentence’s tokens (nn.Embedding)',
  'input.source.contextText': 'a sentence (none: self-attention)',
  'input.source.randn': 'torch.randn(B, {S}, dModel)',
  'input.source.rand': 'torch.rand(B, {S}, dModel)',
  'input.tokenId': 'token id {id}',
  'controls.heading': 'Settings',
  'field.dModel': 'dModel',
  'field.numHeads': 'Heads',
  'field.seed': 'Seed',
  'field.weights.init': 'Weight init',
  'field.weights.layout': 'Head layout',
  'field.weights.qkvBias': 'Q/K/V bias',
  'field.weights.outProj': 'Output projection W_O',
  'field.weights.seed': 'Weights seed (optional)',
  'field.scale': 'Scale',
  'form.number': 'Value',
  'field.mask': 'Mask',
  'field.maskFill': 'Mask fill',
  'field.dropout.p': 'Dropout p',
  'field.dropout.seed': 'Dropout seed (optional)',
  'field.embedding.positional': 'Positional encoding',
  'field.maxLen': 'maxLen (optional)',
  'controls.decimals': 'Decimals',
  'controls.theme': 'Theme',
  'controls.language': 'Language',
  'controls.presets': 'Presets',
  'controls.reset': 'Reset edits',
  'controls.batch': 'Sentence',
  'controls.head': 'Head',
  'theme.light': 'Light',
  'theme.dark': 'Dark',
  'enum.scale.head-dim': '1/√d_k (head dim)',
  'enum.scale.d-model': '1/√dModel',
  'enum.scale.none': 'none',
  'form.needNumber': 'Type a number.',
  'form.custom': 'custom number',
  'enum.mask.none': 'none',
  'enum.mask.causal': 'causal (look-ahead)',
  'enum.mask.padding': 'padding',
  'enum.mask.causal+padding': 'causal + padding',
  'enum.weights.layout.fused': 'fused (one matrix, split)',
  'enum.weights.layout.per-head': 'per-head (separate Linear per head)',
  'enum.embedding.positional.none': 'none',
  'enum.embedding.positional.sinusoidal': 'sinusoidal',
  'preset.tutorial': 'Self-attention from scratch: “Once upon a time there”',
  'preset.tutorial-causal': 'The same, with a causal mask and dropout',
  'preset.tutorial-self-attention': 'Its self-attention module: three nn.Linear(4, 4) on “Once upon a time there”',
  'preset.tutorial-causal-attention': 'Its CausalAttention: one causal head on torch.randn(2, 5, 4)',
  'preset.tutorial-two-heads': 'Its two stacked causal heads on torch.randn(2, 5, 6)',
  'preset.tutorial-multi-head': 'Its MultiHeadAttention: weight splits and W_O',
  'preset.notes-dot': 'Self-attention notes: the dot-product score q·k (batch 1, 4 × 6, one head)',
  'preset.notes-scaled': 'Self-attention notes: the scaled score q·k / √d_k',
  'preset.notes-additive': 'Self-attention notes: the additive score vₐᵀ tanh(q·W_a + k·U_a)',
  'preset.notes-mask': 'Self-attention notes: the mask (1 = blocked, filled with −1e9)',
  'preset.notes-heads': 'Self-attention notes: each head’s score map on the sentence they visualise',
  'preset.notes-clones': 'Self-attention notes: their program, clones() on torch.rand(6, 3, 8)',
  'preset.handwritten-mha': 'Hand-written multi-head attention: “this is an example sentence”, 512 wide, 8 heads',
  'preset.handwritten-torch-mha': 'The same sentence through nn.MultiheadAttention(512, 8, batch_first=True)',
  'preset.mha-512': 'Multi-head attention, d_model 512, 8 heads, with a mask argument',
  'preset.simple-self-attention': 'SimpleSelfAttention: three nn.Linear(4, 4)',
  'preset.causal-head': 'CausalAttention: one causal head on torch.randn(2, 5, 4)',
  'preset.two-heads': 'Two stacked causal heads (a wrapper)',
  'preset.multi-head': 'MultiHeadAttention with weight splits and out_proj',
  'preset.mha': 'nn.MultiheadAttention(512, 8) on a padded batch',
  'preset.annotated': 'The Annotated Transformer: MultiHeadedAttention',
  'preset.xxt': 'softmax(XXᵀ)X: attention without weights',
  'preset.cross': 'Cross-attention: decoder queries, encoder keys and values',
  'preset.additive': 'Additive (Bahdanau) attention',
  'preset.llama': 'Llama-style: RoPE (rotate-half), GQA 8 → 2, causal',
  'preset.mistral': 'Mistral-style: sliding window 3, GQA 4 → 2',
  'preset.streaming-llm': 'StreamingLLM: window 4 + 4 attention sinks',
  'preset.alibi-bloom': 'ALiBi (BLOOM): linear position biases, 8 heads',
  'preset.multi-query': 'Multi-query attention: 4 query heads, 1 KV head',
  'preset.gemma2-softcap': 'Gemma 2: logit soft-capping at 50, GQA 4 → 2',
  'status.computing': 'Computing…',
  'status.loading': 'Loading the engine…',
  'status.error': 'Not updated: {message}',
  'status.edited': '{count} edited value(s)',
  'status.unknown': 'Unknown tokens (id 0): {tokens}',
  'view.head': 'head {h}',
  'shape.label': 'Shape',
  'legend.masked': 'masked',
  'legend.nan': 'NaN',
  'matrix.heatmap': 'heatmap',
  'matrix.zoomIn': 'Zoom in',
  'matrix.zoomOut': 'Zoom out',
  'matrix.canvasNote':
    'Large matrix drawn as a heatmap; hover for values. Accessible table below shows the top-left corner.',
  'matrix.nanNote':
    'NaN in row {rows}: every key of the row is masked with −∞, so softmax computes 0/0 = NaN, exactly as PyTorch gives it. A finite mask fill (such as −1e9) avoids it.',
  'step.X.title': 'Embeddings X',
  'step.X.meaning':
    'Each token id looks up one row of the embedding table (nn.Embedding). Rows are tokens, columns are features.',
  'step.X_context.title': 'Context embeddings X_context',
  'step.X_context.meaning': 'The sequence that keys and values come from in cross-attention (e.g. the encoder output).',
  'step.weights.title': 'Projection weights W_Q, W_K, W_V',
  'step.weights.meaning':
    'Learned matrices that turn each embedding into a query, a key and a value. Editable: click a number.',
  'step.qkv.title': 'Queries, keys and values',
  'step.qkv.meaning':
    'Q = X·W_Q asks “what am I looking for?”, K = X·W_K says “what do I contain?”, V = X·W_V is what gets passed on.',
  'step.split.title': 'Head split',
  'step.split.meaning':
    'The feature axis is cut into H slices of d_k = dModel / H, one per head: a view and a transpose, no arithmetic.',
  'step.scores.title': 'Raw scores QKᵀ',
  'step.scores.meaning':
    'Row i, column j is the dot product of query i with key j: how well they match. Hover a cell to see the sum.',
  'step.scaled.title': 'Scaled scores',
  'step.scaled.meaning': 'The scores are multiplied by the scale s before softmax.',
  'step.mask.title': 'Mask',
  'step.mask.meaning': '1 = blocked. Causal blocks future keys (j > i); padding blocks <pad> keys.',
  'step.masked.title': 'Masked scores',
  'step.masked.meaning': 'Blocked cells are filled with the mask fill, {fill}, so softmax gives them weight 0.',
  'step.masked.meaning.leaky':
    'Blocked cells are filled with the mask fill, {fill}. That is not negative enough to block them: softmax still gives a blocked cell up to {largest}.',
  'step.attnweights.title': 'Attention weights',
  'step.attnweights.meaning':
    'Softmax along each row: every query’s weights over the keys are non-negative and sum to 1.',
  'step.attnweights.meaning.sink':
    'Softmax along each row, with the sink logit as one more column: every query’s weights over the keys are non-negative and sum to 1 minus what the sink takes.',
  'step.scaling.title': 'What scaling does',
  'step.scaling.meaning':
    'Why the scores are scaled: the variance of q·k grows with d_k, and softmax saturates when scores are far apart. The table: per query row, the largest weight and the entropy of the weights, with and without the scale (without it, large d_k makes softmax peaky: max → 1, entropy → 0).',
  'step.scaling.meaning.unscaled':
    'Why scores are usually scaled: the variance of q·k grows with d_k, and softmax saturates when scores are far apart. This run multiplies its scores by {factor}, so the table’s two columns show no flattening: only a factor below one flattens the weights.',
  'step.links.title': 'Who attends to whom',
  'step.links.meaning':
    'Lines from each query token (left) to every key token (right), one colour per head; opacity is the weight. Click a token to focus on it. For long inputs: the selected head, three strongest keys per query.',
  'step.dropped.title': 'Dropout',
  'step.dropped.meaning':
    'In training, nn.Dropout zeroes each weight with probability p and scales the rest by 1/(1−p).',
  'step.context.title': 'Weighted sum (per head)',
  'step.context.meaning': 'Each query’s output is the weighted sum of the value rows: context = weights · V_h.',
  'step.concat.title': 'Concatenated heads',
  'step.concat.meaning': 'The heads’ outputs side by side again: [B,H,S,d_k] → [B,S,H,d_k] → [B,S,dModel].',
  'step.wo.title': 'Output projection W_O',
  'step.wo.meaning': 'Mixes the heads’ outputs. Editable.',
  'step.output.title': 'Output',
  'step.output.meaning': 'The attention layer’s result for each token: the concatenated heads, mixed by W_O.',
  'step.output.meaning.gated':
    'The attention layer’s result for each token: the concatenated heads after their gate (the output gate), mixed by W_O when there is one.',
  'scaling.row': 'query',
  'scaling.maxWith': 'max weight (scaled)',
  'scaling.maxWithout': 'max weight (unscaled)',
  'scaling.entWith': 'entropy (scaled)',
  'scaling.entWithout': 'entropy (unscaled)',
  'explain.title': 'How this number is computed',
  'explain.close': 'Close',
  'explain.hint': 'Hover, focus or tap any number in the matrices to see where it comes from and how it is computed.',
  'error.field': 'Check {field}',
  'share.button': 'Share',
  'share.title': 'Share this setup',
  'share.link': 'Link (restores everything, edits included)',
  'share.iframe': '<iframe> snippet',
  'share.iframeNote':
    'In ?origin=, replace https://your-site.example with the origin of the page you paste it into (https://, host and port): the frame sends its height to that origin only, and the script sizes every such frame on the page. This page’s own origin would be wrong there: the frame’s parent is your page.',
  'share.element': '<attention-lab> snippet',
  'share.copy': 'Copy',
  'share.copied': 'Copied.',
  'share.copyManually': 'Selected: press Ctrl+C to copy.',
  'share.close': 'Close',
  'share.bad': 'This link could not be read ({reason}). Showing the default example instead.',
  'share.error.not-base64url': 'the link contains characters that are not base64url',
  'share.error.too-long': 'the link is too long',
  'share.error.not-a-state': 'the link does not hold an Attention Lab state',
  'share.error.unknown-setting': 'the link has an unknown setting "{setting}"',
  'share.error.wrong-type': 'the link\'s setting "{setting}" has the wrong type',
  'share.error.setting-too-long': 'the link\'s setting "{setting}" is too long',
  'share.error.bad-edits': 'the link has invalid edits',
  'share.error.unknown-weight': 'the link edits an unknown weight "{name}"',
  'share.error.bad-weight-edit': "the link's edit of {name} is invalid",
  'share.error.bad-embedding-edit': 'the link has an invalid embedding edit',
  'share.error.version': 'the link has version "{version}", this page reads {known}',
  'share.error.damaged': 'the link is damaged (it does not decompress to JSON)',

  'export.copyMatrix': 'Copy matrix',
  'export.csv': 'CSV',
  'export.json': 'JSON',
  'export.latex': 'LaTeX',
  'export.numpy': 'NumPy',
  'export.torch': 'PyTorch print',
  'export.torchTitle': 'As PyTorch 1.13 prints it:',
  'export.pytorch': 'Copy as PyTorch',
  'export.pytorchTitle': 'The same computation in PyTorch',
  'export.downloadJson': 'Download JSON',
  'export.downloadNpy': 'Download NumPy (.npz)',
  'export.copied': 'Copied {name} as {format}.',
  'export.figure': 'Download figure',
  'export.svg': 'SVG',
  'export.png': 'PNG {scale}×',
  'export.saved': 'Saved {name} as {format}.',
  'figure.caption':
    'Tokens (S = {S}): {tokens}. Settings: d_model = {dModel}, heads = {heads}, mask = {mask}, seed = {seed}.',
  'figure.randomInput': 'random inputs',
  'docs.link': 'For tutorial authors',
  'field.texts': 'Sentences (a batch)',
  'field.input': 'Random input',
  'field.contextTexts': 'Context sentences',
  'field.contextInput': 'Random context',
  'field.vocab': 'Vocabulary',
  'field.embedding.values': 'Embedding table',
  'field.embedding.edits': 'Edited embedding numbers',
  'field.weights.values': 'Explicit weights',
  'field.weights.edits': 'Edited weight numbers',
  'help.text': 'One sentence, split into tokens by the tokenizer.',
  'help.texts': 'A batch: one sentence per row, padded with <pad> to the longest.',
  'help.input':
    'torch.randn(B, S, dModel) or torch.rand(B, S, dModel) as the input instead of embedded tokens: {"randn": [B, S, dModel]} or {"rand": [B, S, dModel]}.',
  'help.contextText':
    'Keys and values come from this sentence (cross-attention); without it, from the input (self-attention).',
  'help.contextTexts': 'One context sentence per batch row (cross-attention).',
  'help.contextInput':
    'torch.randn(B, S_kv, dModel) or torch.rand(B, S_kv, dModel) as the keys and values (cross-attention).',
  'help.vocab':
    'Token id = index in this list; unknown tokens get id 0. Default: <pad> (if padding), then tokens in order of first appearance.',
  'help.maxLen': 'Pad with <pad> or truncate every sentence to this many tokens.',
  'help.dModel': 'The width of every embedding and projection.',
  'help.numHeads': 'How many heads; dModel must be divisible by it (headDim = dModel / heads).',
  'help.seed': 'torch.manual_seed(seed) before the first random draw.',
  'help.embedding.positional': 'Add the sinusoidal positional encoding of “Attention Is All You Need” to X.',
  'help.embedding.values': 'The embedding table [len(vocab), dModel]; null entries keep the drawn number.',
  'help.embedding.edits': 'Single edited numbers of the embedding table: [token or id, column, value].',
  'help.weights.init':
    'How W_Q, W_K, W_V and W_O are drawn: like nn.Linear, one nn.Linear(dModel, dModel) copied for all four (the Annotated Transformer’s clones), torch.rand, nn.MultiheadAttention, or the identity.',
  'help.weights.layout': 'One fused [dModel, dModel] projection split into heads, or a separate nn.Linear per head.',
  'help.weights.qkvBias':
    'Biases on the Q, K and V projections (default: on for nn.MultiheadAttention and the cloned nn.Linear, off otherwise).',
  'help.weights.outProj': 'Apply the output projection W_O (and b_O) after concatenating the heads.',
  'help.weights.seed': 'torch.manual_seed(seed) again right before the weights are drawn.',
  'help.weights.values':
    'Explicit W_Q … b_O (and the additive score’s W_a, U_a, v_a) in the x·W convention; null entries keep the drawn number.',
  'help.weights.edits': 'Single edited numbers: {"W_Q": [[row, column, value]], "b_Q": [[column, value]]}.',
  'help.scale': 'The factor the scores (of either kind) are multiplied by: 1/√headDim, 1/√dModel, none, or a number.',
  'help.mask': 'Which keys each query may not see: future tokens (causal), <pad> tokens (padding), or both.',
  'help.maskFill': 'The value masked scores are filled with before softmax: −∞ or a number such as −1e9.',
  'help.dropout.p': 'nn.Dropout(p) in train mode on the attention weights.',
  'help.dropout.seed': 'torch.manual_seed(seed) again right before the dropout mask is drawn.',
  'enum.weights.init.torch-linear': 'nn.Linear (kaiming uniform)',
  'enum.weights.init.torch-rand': 'torch.rand',
  'enum.weights.init.torch-mha': 'nn.MultiheadAttention',
  'enum.weights.init.identity': 'identity (W = I)',
  'enum.maskFill.-inf': '−∞',
  'view.steps':
    'Which steps to show, by name: X X_context projections qkv split scores scaled mask masked weights averaged scaling links dropped context concat W_O output (default: all).',
  'view.lang':
    'The language of the element: en or zh (any BCP 47 tag such as zh-CN, zh-Hans, en-US); unset, the nearest `lang` around it, `<html lang>` included, followed when it changes.',
  'view.theme':
    "auto (the default) follows the site's own light/dark switch (html's color-scheme, data-theme, a dark or light class on html or body, MkDocs' data-md-color-scheme, the page's own background colour), else as the browser paints the page: the reader's colour scheme (`prefers-color-scheme`) where the page allows dark, light otherwise; live; light or dark force it.",
  'view.decimals': 'Digits after the decimal point (0 to 8).',
  'view.compact': 'Smaller, without formulas and meanings.',
  'view.editable': 'Numbers in X and in the weights can be edited.',
  'view.exportable':
    'Each matrix and figure has its menu: copy as CSV, JSON, LaTeX or NumPy, download as SVG or PNG (1×, 2×, 4×).',
  // <attention-lab>: the head attribute, its own attributes, events and custom properties; the embed's notices.
  'theme.auto': 'Auto',
  'view.headShown':
    'The head shown first, counted from 1 as its tab (1 to heads); one the setup does not have is an inline error. `el.head` reads the head shown now.',
  'embed.title': 'Attention Lab (embedded)',
  'embed.origin-invalid':
    'The origin parameter ("{origin}") is not an origin such as https://blog.example: the height is not sent, and the page around it cannot set its theme, language or steps.',
  // The pipeline view's step contents: formulas, meanings per setting, explanations of every number, charts.
  'step.averaged.title': 'Weights averaged over the heads',
  'step.averaged.meaning':
    'The mean of the H heads’ weights: the weights nn.MultiheadAttention(..., need_weights=True, average_attn_weights=True) returns as its second output (PyTorch 1.13 averages them after dropout).',
  'meaning.X.randn':
    'The input is torch.randn(B, S, D): standard-normal numbers from the seed instead of embedded tokens.',
  'meaning.X.rand':
    'The input is torch.rand(B, S, D): numbers uniform in [0, 1) from the seed instead of embedded tokens.',
  'meaning.X.positional':
    'The sinusoidal positional encoding PE is added, so the same token at two positions gets two rows.',
  'meaning.init.torch-linear':
    'Drawn as nn.Linear(D, D) draws them (kaiming uniform, U(−1/√D, 1/√D)). nn.Linear keeps weight as [out, in] and computes x·weightᵀ; W is shown transposed, W[i][j] = weight[j][i], so that Q = X·W_Q.',
  'meaning.init.mla':
    'Drawn as DeepSeek’s model.py draws its nn.Linear layers, each uniform within ±1/√(its inputs): W_Q, W_DKV and W_KR over dModel inputs, W_UK and W_UV over kvRank, W_O over H·valueDim. W_DKV and W_KR are the columns of one drawn wkv_a, W_UK and W_UV of one drawn wkv_b. Each W is shown transposed, as x·W.',
  'meaning.init.torch-linear.perHead':
    'Each head has its own nn.Linear(D, d_k) (kaiming uniform); head h’s weight, transposed, fills columns h·d_k … h·d_k + d_k − 1 of W.',
  'meaning.init.torch-rand': 'Drawn with torch.rand: uniform in [0, 1), used directly as x·W (no transpose).',
  'meaning.init.torch-mha':
    'Drawn as nn.MultiheadAttention draws them: in_proj_weight [3D, D] by xavier_uniform_; W_Q, W_K, W_V are its three [D, D] blocks, transposed (W_Q[i][j] = in_proj_weight[j][i]); in_proj_bias starts at 0.',
  'meaning.init.identity': 'W = I (the identity matrix): Q, K and V equal X.',
  'meaning.init.torch-linear-clones':
    'clones(nn.Linear(D, D), 4): Q, K, V and O start as copies of one Linear, so W_Q = W_K = W_V = W_O; each is weight transposed, W[i][j] = weight[j][i].',
  'meaning.init.given': 'The weight values are given in the config (weights.values).',
  'notice.untrained':
    'The projection weights are random and untrained, so the patterns of these weights carry no meaning yet.',
  'meaning.scores.additive':
    'Additive (Bahdanau) scores: each query and key pass through W_a and U_a, tanh, then v_a weighs the hidden units. Hover a cell to see the tanh terms.',
  'meaning.scaled.headDim':
    'The scores are divided by √d_k = √{n}, that is multiplied by {factor}. This keeps their variance from growing with d_k, so softmax does not saturate (see “What scaling does”).',
  'meaning.scaled.dModel':
    'The scores are divided by √dModel = √{n}, that is multiplied by {factor}. With several heads that is √H times smaller than the usual 1/√d_k (the same with a single head).',
  'meaning.scaled.none':
    'No scaling (× {factor}): the scores reach softmax as they are. Their variance grows with d_k, and softmax saturates (see “What scaling does”).',
  'meaning.scaled.custom': 'The scores are multiplied by your number, {factor}.',
  'meaning.mask.blocked':
    '1 = blocked, 0 = kept: masked_fill(M, {fill}) fills the 1s. Causal blocks future keys (j > i); padding blocks <pad> keys.',
  'meaning.mask.keep':
    '1 = kept, 0 = blocked, like torch.tril(torch.ones(S, S)): masked_fill(M == 0, {fill}) fills the 0s. Causal blocks future keys (j > i); padding blocks <pad> keys.',
  'meaning.mask.additive':
    '0 = kept, {fill} = blocked: the mask is added to the scores (scaled + M), like a float attn_mask. Causal blocks future keys (j > i); padding blocks <pad> keys.',
  'meaning.mask.none': 'No mask: every query may attend to every key.',
  'meaning.masked.additive':
    'The mask is added: kept cells get + 0 and stay, blocked cells get {fill}, so softmax gives them weight 0.',
  'meaning.masked.additive.leaky':
    'The mask is added: kept cells get + 0 and stay, blocked cells get {fill}. That is not negative enough to block them: softmax still gives a blocked cell up to {largest}.',
  'meaning.masked.none': 'No mask: the masked scores equal the scaled scores.',
  'meaning.dropped.off': 'Dropout is off (eval mode, or p = {p}): the weights pass on unchanged.',
  'meaning.output.noProj': 'Without an output projection, the output is the concatenated heads as they are.',
  'formula.clones': 'clones(nn.Linear(D, D), 4)',
  'formula.mask.blocked': 'M_{ij} = 1 «if query i may not see key j, else» 0',
  'formula.mask.keep': 'M_{ij} = 1 «if query i may see key j, else» 0 (torch.tril)',
  'formula.mask.additive': 'M_{ij} = {fill} «if query i may not see key j, else» 0',
  'formula.mask.none': 'M: «nothing blocked»',
  'formula.scaling': 'Var(q·k) = d_{k} «for» q, k ~ N(0, I);  σ(x) = softmax([x, 0])_{0}',
  'formula.links': 'A_{ij} → «line opacity»',
  'scale.factor.headDim': '÷√{n} = ×{factor} (1/√d_k)',
  'scale.factor.dModel': '÷√{n} = ×{factor} (1/√dModel)',
  'scale.factor.none': 'none: × 1',
  'scale.factor.custom': '× {factor} (custom)',
  'scaling.factor': 'This run multiplies the scores by {factor}.',
  'scaling.leftOut':
    'The table isolates the scale: it takes softmax of the scores with and without it, under the mask alone, and leaves out {names}, which the weights include. So its largest weights are not those of the weights matrix.',
  'scaling.sinkLogit': 'the sink logit',
  'scaling.varianceTitle': 'Variance of q·k against d_k, log–log, for q and k with independent standard-normal entries',
  'scaling.varianceCaption':
    'Each of the d_k products q_m·k_m has variance 1, so their sum q·k has variance d_k: the dots, measured on {pairs} random pairs per d_k, follow the line d_k. Dividing by √d_k brings the variance back to 1 (hollow dots).',
  'scaling.yoursHeadDim': 'With this run’s scale: Var = d_k · s² = {dk} · {s2} = {v}.',
  'scaling.yoursDModel': 'With this run’s scale (1/√dModel, dModel = {D}): Var = d_k · s² = {dk} · {s2} = {v}.',
  'scaling.yoursNone': 'This run does not scale: Var = d_k = {v}.',
  'scaling.yoursCustom': 'With this run’s scale: Var = d_k · s² = {dk} · {s2} = {v}.',
  'scaling.measured': 'measured Var(q·k)',
  'scaling.theory': 'the line d_k',
  'scaling.measuredScaled': 'measured Var(q·k/√d_k)',
  'scaling.axisVariance': 'variance',
  'scaling.axisX': 'x (difference of two scores)',
  'scaling.gradient': 'gradient s(1 − s)',
  'scaling.saturationTitle': 'softmax([x, 0])₀ = σ(x) and its gradient s(1 − s), for x from −10 to 10',
  'scaling.saturationCaption':
    'Two scores x apart get the weights σ(x) and 1 − σ(x). Once |x| passes about 5, the larger weight is nearly 1 and the gradient s(1 − s) nearly 0: softmax saturates and learning stalls.',
  'scaling.rowSpread':
    'Row “{row}”: its visible scores spread over x = {scaled} with the scale (σ = {s1}, gradient {g1}) and x = {unscaled} without it (σ = {s2}, gradient {g2}).',
  'scaling.markScaled': 'scaled {x}',
  'scaling.markUnscaled': 'unscaled {x}',
  'scaling.data': 'Data',
  'split.columns': '{name}_h: head {h} = {name} columns {from}…{to}',
  'heads.multiples': '{name} of all {count} heads',
  'heads.select': 'Show head {h} ({name})',
  'heads.scale': 'Colours from {range}, the same for every head.',
  'heads.pooled': 'Each square is the mean of {n}×{n} numbers.',
  'links.show': 'Heads to draw',
  'links.allHeads': 'All heads',
  'links.oneHead': 'Head {h} only',
  'dropout.summary': '{zeroed} of {total} weights zeroed; the other {kept} are multiplied by 1/(1 − p) = {factor}.',
  'dropout.summary.all': 'All {total} weights zeroed: dropout kept none of them.',
  'dropout.zeroWeights.masked': '({n} more weights were 0 already, at masked keys; they are not counted.)',
  'dropout.zeroWeights.softmax':
    '({n} more weights were 0 already: their scores are so far below their row’s largest that softmax gave them 0. They are not counted.)',
  'dropout.zeroWeights.nan': '({n} more weights were 0 or NaN already; they are not counted.)',
  'dropout.keepCaption': 'keep mask m (1 = kept)',
  'dropout.zeroLabel': 'zeroed by dropout',
  'matrix.nanCarried':
    'NaN in row {rows}: carried over from attention weights of a row whose keys are all masked with −∞.',
  'matrix.nanCarried.overflow':
    'NaN in row {rows}: carried over from a row of attention weights that is NaN because one of its scores overflowed float32 to ∞.',
  'matrix.nanOverflow':
    'NaN in row {rows}: a score overflowed float32 to ∞, so softmax computes ∞ − ∞ = NaN, exactly as PyTorch gives it. A smaller scale avoids it.',
  // The teaching frame: overview, follow a token, step by step (web/view/teach.js).
  'view.mode':
    'scroll: every step one below the other; steps: one step at a time with a short narration, moved with ← → (for a class).',
  // Chapters (web/view/steps/chapters.js, chapter-bar.js): the plain path first, the rest opened by the learner.
  'view.chapters':
    'Which chapters are open, by name: heads variants inference (the basics always are; default: all). A closed chapter’s steps that the run has stand as one bar at their place, with a button that opens it.',
  'chapter.basics.name': 'The basics',
  'chapter.heads.name': 'Multi-head attention',
  'chapter.variants.name': 'Modern variants',
  'chapter.inference.name': 'Inference: KV cache and online softmax',
  'chapter.trained.name': 'A trained model',
  'chapter.gap': ' ',
  'chapter.list': ', ',
  'chapter.basis': 'Chapter {n}, builds on chapter {basis} ({basisName}).',
  'chapter.heads.here':
    'This run splits Q, K and V into {H} heads of {dk} numbers each, and joins them back into {D} numbers per token.',
  'chapter.heads.here.gqa':
    'This run splits Q into {H} heads of {dk} numbers each and K and V into {Hkv} heads that the query heads share, and joins the heads’ outputs back into {D} numbers per token.',
  'chapter.variants.gqa': 'grouped-query attention',
  'chapter.variants.window': 'a sliding window',
  'chapter.variants.sinks': 'sink tokens',
  'chapter.variants.sinkLogit': 'a sink logit',
  'chapter.variants.diff': 'differential attention',
  'chapter.variants.sinkLogitPerHead': 'a learned sink logit per head',
  'chapter.heads.here.one': 'This run has one head of {dk} numbers: splitting it and joining it back change no number.',
  'chapter.variants.here': 'This run turns on {names}.',
  'chapter.variants.none':
    'No variant is on in this run. {names} each add a step: turn one on in the settings, or pick a preset of a modern model.',
  'chapter.inference.here':
    'The same attention computed as a model generating text computes it: one new token at a time from a cache of K and V, and the softmax one block of keys at a time.',
  'chapter.inference.about':
    'The same attention computed one token at a time from a cache of K and V, and one block of keys at a time; this view cannot run them.',
  'chapter.inference.diff':
    'The KV cache and the online softmax step one softmax per head; differential attention’s two maps are not stepped: leave “Differential attention: layer depth” empty to step the run.',
  'chapter.trained.about':
    'A tiny transformer of two layers trained on text, with attention inside: what its heads learned. Opening it switches the Model setting to the trained model.',
  'chapter.steps.one': '{count} step here: {names}.',
  'chapter.steps': '{count} steps here: {names}.',
  'chapter.open': 'Open chapter {n}',
  'chapter.switch': 'Open chapter {n}: the trained model',
  'chapter.close': 'Close chapter {n}',
  'chapter.next': 'Next chapters',
  'overview.chapterStep': '{count} step',
  'overview.chapterSteps': '{count} steps',
  'overview.chapterBox': '{n} {names} — chapter {n}, {name}, closed here: go to its bar',
  'chapter.nextSaid': 'The next chapters, each opened with its button below: {names}.',
  'overview.chapters': 'Chapters',
  'overview.openChapter': '{n} {name} {count}: {action}',
  'overview.openChapterNone': '{n} {name}: {action}',
  'overview.nextBox': 'Next chapters: go to them',
  'overview.chapterOpen': '(open)',
  'overview.chapterOpenCurrent': '(open; the step being read is in it)',
  'overview.chapterClosed': '(closed)',
  'overview.chapterClosedCurrent': '(closed; its bar is being read)',
  'overview.label': 'Pipeline overview: the steps in order, with their shapes',
  'overview.box': 'Step {n} {short} {sizes} — {title}, shape {shape}',
  'overview.boxNoShape': 'Step {n} {short} — {title}',
  'follow.label': 'Follow token',
  'follow.none': '— none —',
  'follow.clear': 'Stop following (Esc)',
  'follow.rowHint': 'Click to follow this token through every step',
  'follow.announce': 'Following “{token}”: its row is marked in every step, and its column where it is a key.',
  'steps.enter': 'Step by step',
  'steps.label': 'Step by step',
  'steps.previous': 'Previous',
  'steps.next': 'Next',
  'steps.exit': 'Show all steps',
  'steps.counter': 'Step {n} of {count}',
  'steps.counterBar': 'Chapter {chapter}, after step {n} of {count}',
  'steps.counterNext': 'Next chapters, after step {n} of {count}',
  'steps.keys': '← → or PageUp/PageDown: previous or next step · Home/End: first or last step',
  'steps.keysExit':
    '← → or PageUp/PageDown: previous or next step · Home/End: first or last step · Esc: show all steps',
  'step.X.short': 'X',
  'step.X_context.short': 'X_context',
  'step.weights.short': 'W_Q W_K W_V',
  'step.qkv.short': 'Q K V',
  'step.split.short': 'split',
  'step.scores.short': 'scores',
  'step.scaled.short': 'scaled',
  'step.mask.short': 'mask',
  'step.masked.short': 'masked',
  'step.attnweights.short': 'weights',
  'step.averaged.short': 'averaged',
  'step.scaling.short': 'scaling',
  'step.links.short': 'links',
  'step.dropped.short': 'dropout',
  'step.context.short': 'context',
  'step.concat.short': 'concat',
  'step.wo.short': 'W_O',
  'step.output.short': 'output',
  'step.X.narration':
    'Each of the {S} tokens looks up its row in the embedding table, so the sentence becomes {S} rows of {D} numbers. Everything below is computed from this one matrix.',
  'step.X_context.narration':
    'The context sentence is embedded the same way: {Skv} rows of {D} numbers. The keys and values come from here; the queries still come from X.',
  'step.weights.narration':
    'Three learned {D}×{D} matrices. Multiplying a token’s row by them gives its query, its key and its value; training is what makes these numbers useful.',
  'step.weights.narration.gqa':
    'Three learned matrices: W_Q is {D}×{D}, W_K and W_V are {D}×{kvWidth}, one band of d_k columns per K/V head. Multiplying a token’s row by them gives its query, its key and its value; training is what makes these numbers useful.',
  'step.qkv.narration':
    'Each row of X is multiplied by W_Q, W_K and W_V: Q has {S} rows, K and V have {Skv}, each {D} numbers wide. The same token now has three different descriptions.',
  'step.qkv.narration.gqa':
    'Each row of X is multiplied by W_Q, W_K and W_V: Q has {S} rows of {qWidth} numbers, K and V have {Skv} rows of {kvWidth}, as the K/V heads are fewer. The same token now has three different descriptions.',
  'step.split.narration':
    'The {D} columns are cut into {H} heads of {dk} columns each. Nothing is computed: each head works on its own {dk} columns (head {head} is shown).',
  'step.scores.narration':
    'Every query is compared with every key by a dot product of {dk} numbers, giving a {S}×{Skv} table for each of the {H} heads. A large score means a good match.',
  'step.scores.narration.one':
    'Every query is compared with every key by a dot product of {dk} numbers, giving a {S}×{Skv} table for the single head. A large score means a good match.',
  'step.scaled.narration':
    'Every score is multiplied by {scale}. Without this, scores grow with d_k and softmax would give almost all the weight to a single key.',
  'step.mask.narration':
    '{blocked} of the {pairs} query–key pairs of this sentence are blocked: M holds {blockedMark} there, and they will get weight {zero}. The other {kept} pairs, marked {keptMark}, pass unchanged.',
  'step.mask.narration.leaky':
    '{blocked} of the {pairs} query–key pairs of this sentence are blocked: M holds {blockedMark} there. With this fill they still get some weight, up to {largest}. The other {kept} pairs, marked {keptMark}, pass unchanged.',
  'step.mask.narration.none': 'No mask: all {pairs} query–key pairs of this sentence pass unchanged.',
  'step.mask.narration.nothing':
    'The mask blocks none of the {pairs} query–key pairs of this sentence: M holds {keptMark} at each, and all pass unchanged.',
  'step.masked.narration':
    'Blocked scores are replaced by {fill}, so that softmax turns them into exactly 0. Scores that are not blocked are unchanged.',
  'step.masked.narration.leaky':
    'Blocked scores are replaced by {fill}, which is not negative enough: after softmax a blocked cell still gets up to {largest}. A fill of −∞ blocks them completely. Scores that are not blocked are unchanged.',
  'step.attnweights.narration':
    'Softmax turns each row of scores into {Skv} weights between 0 and 1 that add up to 1. For example, “{token}” gives its largest weight, {weight}, to “{top}”.',
  'step.attnweights.narration.sink':
    'Softmax turns each row of scores, with the sink logit beside them, into {Skv} weights between 0 and 1 that add up to 1 minus the sink’s share. For example, “{token}” gives its largest weight, {weight}, to “{top}”.',
  'step.averaged.narration':
    'nn.MultiheadAttention returns one weight matrix, not H: the heads’ weights averaged (average_attn_weights=True). It shows where the layer looks on the whole, but the output never used this average: each head used its own.',
  'step.scaling.narration':
    'For each query: its largest weight and how spread out its weights are (the entropy), with and without the scale. Without scaling, the largest weight moves towards 1 and the entropy towards 0.',
  'step.scaling.narration.unscaled':
    'This run multiplies its scores by {factor}: the table shows each query’s largest weight and entropy, which scaling by 1/√d_k would flatten.',
  'step.links.narration':
    'The same weights as lines: the darker a line, the more the query on the left takes from the key on the right. Click a token to see only its lines.',
  'step.dropped.narration':
    'With p = {p}, dropout sets each weight to 0 with probability {p} and multiplies the others by 1/(1−p) = {keep}. It happens only in training; in evaluation the weights pass unchanged.',
  'step.dropped.narration.off': 'Dropout is off (p = {p}): every weight passes on unchanged, as in evaluation.',
  'step.context.narration':
    'Each query’s new row is a weighted average of the {Skv} value rows: {S} rows of {dk} numbers per head. “{token}” now carries mostly what “{top}” offered.',
  'step.context.narration.zeroed':
    'Each query’s new row is a weighted sum of the {Skv} value rows, with the weights dropout left: {S} rows of {dk} numbers per head. Dropout zeroed every weight of “{token}”, so its new row is all zeros.',
  'step.context.narration.sum':
    'Each query’s new row is a weighted sum of the {Skv} value rows, with the weights as the steps above left them (they no longer add up to one): {S} rows of {dk} numbers per head. “{token}” now carries mostly what “{top}” offered.',
  'step.concat.narration':
    'The {H} heads’ results are put side by side again: {H} × {dk} = {D} columns per token. Each coloured group of columns is one head.',
  'step.concat.narration.one':
    'With a single head there is nothing to put side by side: its {dk} columns are the {D} columns of each token.',
  'step.wo.narration':
    'One more learned {D}×{D} matrix mixes the heads, so every output number can use what all {H} heads found.',
  'step.wo.narration.one': 'One more learned {D}×{D} matrix mixes the single head’s {D} features into the output.',
  'step.output.narration':
    'The result: one row of {D} numbers for each of the {S} tokens, the same shape as X. In a Transformer it is added to X and passed on to the next layer.',
  // Tokenizer, pre-split tokens, cloned Linear, additive scores, mask conventions; JSON type words in errors.
  'field.tokens': 'Tokens (pre-split)',
  'help.tokens':
    'Pre-split tokens, one list per sentence: [["自然", "语言", "处理"]] (e.g. from a word segmenter), used as given; no token may be empty or hold whitespace.',
  'field.contextTokens': 'Context tokens (pre-split)',
  'help.contextTokens': 'Pre-split context tokens for cross-attention, one list per query sentence.',
  'field.tokenizer': 'Tokenizer',
  'help.tokenizer':
    'How sentences become tokens: auto splits on spaces and makes every Chinese, Japanese kana and Korean character and CJK punctuation mark a token of its own, like list(sentence) (我爱NLP → 我 爱 NLP); whitespace is str.split(); chars makes every character a token; words (page, element and CLI) segments words with Intl.Segmenter (自然|语言|处理) and sends them as pre-split tokens.',
  'enum.tokenizer.auto': 'auto (spaces, and each CJK character alone)',
  'enum.tokenizer.whitespace': 'whitespace (str.split())',
  'enum.tokenizer.chars': 'characters',
  'enum.tokenizer.words': 'words (the browser’s Intl.Segmenter: 自然|语言|处理)',
  'enum.weights.init.torch-linear-clones': 'one nn.Linear copied for Q, K, V, O (clones)',
  'field.score': 'Score',
  'help.score':
    'How a query and a key make a score: the dot product q·k, or additive (Bahdanau) attention vₐᵀ tanh(q·W_a + k·U_a), whose W_a, U_a (nn.Linear(headDim, hidden)) and v_a (nn.Linear(hidden, 1)) are shared by the heads and drawn right after W_Q, W_K, W_V. The scale still applies; additive attention usually has none.',
  'enum.score.dot': 'dot product q·k',
  'enum.score.additive': 'additive (Bahdanau)',
  'field.additiveHidden': 'Additive hidden size',
  'help.additiveHidden':
    'The hidden size of the additive score: W_a and U_a map a head’s query and key rows to this many numbers.',
  'field.maskConvention': 'Mask convention',
  'help.maskConvention':
    'What the mask’s numbers mean: 1 = blocked (masked_fill(mask.bool(), fill), as nn.MultiheadAttention), 1 = keep (masked_fill(mask == 0, fill), as torch.tril masks), or additive (0 or the fill value, added to the scores).',
  'enum.maskConvention.blocked': '1 = blocked',
  'enum.maskConvention.keep': '1 = keep',
  'enum.maskConvention.additive': 'additive (0 or fill, added)',
  // Matrix captions and headings: {term} (what the tensor is, in words) and {name} (the tensor's own name,
  // never translated). English names a tensor by its name alone, so its terms are empty.
  'label.caption': '{term}{name}',
  'label.caption.head': '{term}{name} {head}',
  'label.heading': '{term}{name}',
  'label.heading.head': '{term}{name} ({head})',
  'term.X': '',
  'term.X_context': '',
  'term.W_Q': '',
  'term.W_K': '',
  'term.W_V': '',
  'term.W_O': '',
  'term.b_Q': '',
  'term.b_K': '',
  'term.b_V': '',
  'term.b_O': '',
  'term.Q': '',
  'term.K': '',
  'term.V': '',
  'term.scores': '',
  'term.scaled': '',
  'term.mask': '',
  'term.masked': '',
  'term.weights': '',
  'term.averagedWeights': '',
  'term.dropped': '',
  'term.context': '',
  'term.concat': '',
  'term.output': '',
  'term.additive': '',
  'json.string': 'a string',
  'json.number': 'a number',
  'json.boolean': 'a boolean',
  'json.array': 'an array',
  'json.object': 'an object',
  // Accessibility: skip links and tab names.
  'a11y.skipPipeline': 'Skip to the calculation',
  'a11y.skipSteps': 'Skip to the steps',
  // Teachers and small screens: text size, presentation mode, the folded settings, touch wording (touch.*).
  'controls.textSize': 'Text size',
  'controls.more': 'Presets and settings',
  'present.enter': 'Present',
  'present.keys': 'Presenting: → or Space next · ← previous · F full screen · Esc leaves',
  'present.page': 'Figures, part {n} of {count} (→ for the next)',
  'form.on': 'on',
  'form.off': 'off',
  'print.sentence': 'Sentence',
  'print.preset': 'Preset',
  'print.defaultPreset': 'the default example',
  'print.noPreset': 'none (settings of one’s own)',
  'touch.explain.hint': 'Tap any number in the matrices to see where it comes from and how it is computed.',
  'touch.matrix.canvasNote':
    'Large matrix drawn as a heatmap; tap it for values. Accessible table below shows the top-left corner.',
  'touch.step.scores.meaning':
    'Row i, column j is the dot product of query i with key j: how well they match. Tap a cell to see the sum.',
  'touch.meaning.scores.additive':
    'Additive (Bahdanau) scores: each query and key pass through W_a and U_a, tanh, then v_a weighs the hidden units. Tap a cell to see the tanh terms.',
  // Modern attention variants: the form's fields, the steps qkNorm, rope, softcap, alibi, and what GQA,
  // the window, sink tokens and the sink logit show in the qkv, split, mask and weights steps.
  'field.qkNorm': 'QK-norm (RMSNorm of q and k)',
  'help.qkNorm':
    'RMSNorm over each head’s q and k (eps 1e-6, weight ones) before RoPE, as OLMo 2 and Qwen 3 do: the scores cannot blow up.',
  'field.rope.style': 'RoPE (rotary positions)',
  'help.rope.style':
    'Rotary position embedding of each head’s q and k: rotate-half (Hugging Face, GPT-NeoX) or interleaved pairs (2i, 2i+1; Meta’s original). headDim must be even.',
  'enum.rope.style.none': 'none',
  'enum.rope.style.rotate-half': 'rotate-half (Hugging Face, GPT-NeoX)',
  'enum.rope.style.interleaved': 'interleaved pairs (Meta)',
  'field.rope.base': 'RoPE base',
  'help.rope.base': 'The frequencies θ_i = base^(−2i/d_k) (10000 in the paper and in Llama 2).',
  'field.rope.scaling.type': 'RoPE scaling (long context)',
  'help.rope.scaling.type':
    'Stretches RoPE past the length it was trained on, as transformers’ rope_scaling does: linear divides every frequency by the factor; dynamic NTK grows the base once the text is longer than originalMaxPositions; YaRN interpolates the slow pairs, keeps the fast ones and multiplies cos and sin by 0.1·ln(factor) + 1.',
  'enum.rope.scaling.type.none': 'none',
  'enum.rope.scaling.type.linear': 'linear (position interpolation)',
  'enum.rope.scaling.type.dynamic': 'dynamic NTK',
  'enum.rope.scaling.type.yarn': 'YaRN',
  'field.rope.scaling.factor': 'RoPE scaling factor',
  'help.rope.scaling.factor': 'How many times longer the context gets (rope_scaling.factor; YaRN needs at least 1).',
  'field.rope.scaling.originalMaxPositions': 'Original context length',
  'help.rope.scaling.originalMaxPositions':
    'The length the model was trained on (original_max_position_embeddings): dynamic NTK changes nothing up to it; YaRN counts each pair’s turns over it.',
  'field.rope.scaling.betaFast': 'YaRN β_fast',
  'help.rope.scaling.betaFast':
    'A pair that turns more than β_fast times over the original length is kept as trained (32 by default).',
  'field.rope.scaling.betaSlow': 'YaRN β_slow',
  'help.rope.scaling.betaSlow':
    'A pair that turns fewer than β_slow times over the original length is interpolated (1 by default).',
  'field.rope.scaling.truncate': 'YaRN: round the ramp’s ends',
  'help.rope.scaling.truncate':
    'transformers’ truncate: the pairs where the ramp starts and ends are rounded down and up to whole pairs (on by default); gpt-oss turns it off, so its ramp starts and ends between pairs.',
  'field.numKVHeads': 'K/V heads (GQA; optional)',
  'help.numKVHeads':
    'Grouped-query attention: K and V get this many heads, each shared by numHeads / numKVHeads query heads (repeat_interleave). 1 = multi-query attention; empty = numHeads.',
  'field.window': 'Sliding window (optional)',
  'help.window': 'Query i sees key j only when 0 ≤ i − j < window, as Mistral does. Needs a causal mask.',
  'field.sinkTokens': 'Sink tokens',
  'help.sinkTokens': 'StreamingLLM: the first n keys stay visible to every later query, whatever the window size.',
  'field.sinkLogit': 'Sink logit (optional)',
  'help.sinkLogit':
    'One extra logit per row that takes weight in the softmax and carries no value, so a row’s weights can sum to less than 1. 0 is nn.MultiheadAttention(add_zero_attn=True). A list (“0.5, -1”) gives each head its own, as gpt-oss learns them.',
  'field.alibi': 'ALiBi (linear distance bias)',
  'help.alibi': 'Each head adds −m_h·(i − j) to its scores before the mask, with slopes m_h = 2^(−8h/H) (BLOOM).',
  'field.softcap': 'Softcap (optional)',
  'help.softcap': 'Logit soft-capping: capped = c·tanh(scaled / c), before ALiBi and the mask (Gemma 2 uses 50).',
  'field.diff.depth': 'Differential attention: layer depth (optional)',
  'help.diff.depth':
    'Diff Transformer: each head splits q and k into two halves, takes two softmaxes and subtracts the second, times λ, from the first, to cancel the attention both give to the same keys. λ_init = 0.8 − 0.6·exp(−0.3·depth); empty: off.',
  'field.mla.kvRank': 'MLA: latent size kvRank (optional)',
  'help.mla.kvRank':
    'Multi-head latent attention (DeepSeek-V2/V3): every token keeps one latent vector c = RMSNorm(X·W_DKV) of this size, and each head’s keys and values are made from it. Empty: off; then give the three sizes below and a rope.style.',
  'field.mla.nopeDim': 'MLA: key part without RoPE (nopeDim)',
  'help.mla.nopeDim': 'The numbers of each head’s query and key that come from the latent and are not rotated.',
  'field.mla.ropeDim': 'MLA: key part with RoPE (ropeDim)',
  'help.mla.ropeDim':
    'The numbers of each head’s query that are rotated, against one rotated key part X·W_KR shared by every head. Even.',
  'field.mla.valueDim': 'MLA: value size per head (valueDim)',
  'help.mla.valueDim': 'Each head’s value c·W_UV has this many numbers; W_O maps the heads’ H·valueDim back to dModel.',
  'field.mla.absorb': 'MLA: absorbed path',
  'help.mla.absorb':
    'Compute the same attention the way DeepSeek decodes: q_nope·W_UKᵀ against the cached latents, and W_UV after the weighted sum, so keys and values are never formed.',
  'field.outputGate': 'Output gate (Qwen3-Next)',
  'help.outputGate':
    'Each number of the joined heads is multiplied by sigmoid(X·W_G) before W_O: a gate between 0 and 1 that the input opens or closes. W_G is one more [dModel, dModel] weight, drawn after the others.',
  // The tiny trained model's fields (group "trained").
  'field.model': 'Model',
  'help.model':
    'The one configurable attention layer; the tiny trained model: 2 layers of 4 heads over UTF-8 bytes, which reads only the text and the checkpoint; or a checkpoint you open from its files (GPT-2, Llama, Qwen2).',
  'enum.model.attention': 'One attention layer',
  'enum.model.tiny': 'Tiny trained model',
  'enum.model.checkpoint': 'A checkpoint you open',
  'field.checkpoint': 'Checkpoint (training step)',
  'help.checkpoint':
    'The training step whose weights the tiny model runs: 0, 500, 750, 1000, 1250, 1500, 3000 or 11000.',
  'step.qkNorm.title': 'QK-norm: RMSNorm of q and k',
  'step.qkNorm.meaning':
    'Each head’s q and k rows are divided by their root mean square over d_k (eps 1e-6, weight ones): every row then has RMS 1, so the scores stay bounded however large the projections grow.',
  'step.qkNorm.short': 'QK-norm',
  'step.qkNorm.narration':
    'Each row of q and of k is divided by the root mean square of its {dk} numbers in its head, so every row now has RMS 1.',
  'step.rope.title': 'RoPE: rotary position embedding',
  'step.rope.meaning':
    'Each pair of q’s and k’s features is turned by an angle that grows with the token’s position: position m turns pair i by m·θ_i. The score of q at m with k at n then depends only on the distance m − n, not on where the pair sits.',
  'step.rope.short': 'RoPE',
  'step.rope.narration':
    'Every q and k of head {head} is rotated pair by pair, by its position times each pair’s frequency. Nothing is added to X: the position lives in the angle between q and k.',
  'step.diffmaps.title': 'Differential attention: two maps per head',
  'step.diffmaps.meaning':
    'The Diff Transformer gives each head two attention maps instead of one: it splits the head’s query and key columns into two halves, scores the keys with each half on its own and takes a softmax of each. The next step subtracts the second map from the first.',
  'step.diffmaps.short': 'diff: two maps',
  'step.diffmaps.narration':
    'Head {head} splits its {dk} query and key columns into two halves of {d}, and each half scores the keys on its own (q is multiplied by 1/√d before the product, as the Diff Transformer does). For “{token}”, the first map gives its largest weight to “{top1}” ({w1}), the second to “{top2}” ({w2}).',
  'diff.map': '{head}, map {s}',
  'diff.off':
    'This run has no differential attention: set “Differential attention: layer depth” in the settings to give each head two maps, A = A₁ − λ·A₂.',
  'step.diffweights.title': 'Differential attention: A = A₁ − λ·A₂',
  'step.diffweights.meaning':
    'Both maps give some weight to keys that do not matter. Subtracting λ times the second map from the first cancels what they share, as a differential amplifier cancels the noise common to its two inputs. λ is learned through four vectors and starts near λ_init.',
  'step.diffweights.short': 'diff: A₁ − λ·A₂',
  'step.diffweights.narration':
    'λ = exp({dot1}) − exp({dot2}) + λ_init = {exp1} − {exp2} + {init} = {lambda}, with λ_init = {init} for a layer at depth {depth}. For “{token}”, the second map weighs “{key}” most; there A keeps {w1} − {lambda} × {w2} = {a}. Each row of A sums to 1 − λ = {rest}, not to one, and {negatives} of head {head}’s {cells} weights are negative.',
  'diff.noise': 'λ·A₂: what the subtraction removes ({head})',
  'step.diffnorm.title': 'Differential attention: RMSNorm and 1 − λ_init',
  'step.diffnorm.meaning':
    'Each head’s output A·V is normalized row by row (RMSNorm, with the learned weight subln), then multiplied by 1 − λ_init, so that every head reaches W_O on the same scale whatever λ is.',
  'step.diffnorm.short': 'diff: RMSNorm',
  'step.diffnorm.narration':
    'Row “{token}” of head {head}’s context has a root mean square of {rms}: RMSNorm divides the row by it and multiplies it by subln, then every number is multiplied by 1 − λ_init = {scale}. Its first number goes {c} → {n} → {o}.',
  'term.halfScores': '',
  'term.halfScaled': '',
  'term.halfMasked': '',
  'term.halfWeights': '',
  'term.lambdaFull': '',
  'term.lambda_q1': '',
  'term.lambda_k1': '',
  'term.lambda_q2': '',
  'term.lambda_k2': '',
  'term.subln': '',
  'term.contextNorm': '',
  'term.contextScaled': '',
  'step.weights.meaning.mla':
    'MLA’s learned matrices: W_Q makes the queries; W_DKV squeezes each token into the latent and W_KR makes the one key part that carries the position; W_UK and W_UV expand the latent into each head’s keys and values (one band of columns per head). Editable: click a number.',
  'step.weights.narration.mla':
    'W_Q turns a token’s {D} numbers into {q} query numbers, W_DKV into a latent of {kv}, W_KR into a rotated key part of {r}. From the latent’s {kv} numbers, W_UK makes {k} key numbers and W_UV {v} value numbers, split among the heads. kv_norm is RMSNorm’s learned weight, which starts as all ones.',
  'stepper.unavailable': 'This stepper’s code could not be loaded here (a page with no address to load it from).',
  'chapter.variants.mla': 'multi-head latent attention',
  'chapter.heads.here.mla':
    'This run gives each of its {H} heads queries and keys of {dk} numbers and values of {dv}, all made from one latent per token, and joins the heads back into {Dv} numbers per token before W_O.',
  'chapter.inference.mla':
    'What a model generating text keeps per token: with multi-head latent attention, one latent and one rotated key part instead of every head’s K and V. The KV-cache and online-softmax steppers step a plain K and V per head, which this run never forms for its cache.',
  'step.wo.narration.mla':
    'One more learned {rows}×{D} matrix maps the heads’ {rows} numbers back to the token’s {D}, so every output number can use what all the heads found.',
  'term.latent': '',
  'term.latentNorm': '',
  'term.K_pe': '',
  'term.Q_pe_rope': '',
  'term.K_pe_rope': '',
  'term.Q_absorbed': '',
  'term.latentContext': '',
  'term.otherPathScores': '',
  'term.otherPathOutput': '',
  'term.W_DKV': '',
  'term.W_KR': '',
  'term.kv_norm': '',
  'term.W_UK': '',
  'term.W_UV': '',
  'step.gate.title': 'Output gate: concat ⊙ σ(X·W_G)',
  'step.gate.meaning':
    'Before W_O mixes the heads, each of their numbers is multiplied by a gate between 0 and 1 that the token’s own input sets: σ(X·W_G). Qwen3-Next gates its attention output this way, so a head can shut off what it would add.',
  'step.gate.short': 'gate',
  'step.gate.narration.off':
    'This run has no output gate: turn on “Output gate” in the settings to multiply the joined heads by σ(X·W_G).',
  'step.gate.narration':
    'For “{token}”, the first number of the joined heads becomes {concat} × {gate} = {gated}: a gate almost closed shuts a number out of W_O’s mix, one almost open lets it through.',
  'term.W_G': '',
  'term.gate': '',
  'term.gated': '',
  'step.softcap.title': 'Softcap: c·tanh(scaled / c)',
  'step.softcap.meaning':
    'The scaled scores pass through c·tanh(x / c): almost unchanged when small, squeezed towards ±c when large, so no single score can take over the softmax.',
  'step.softcap.short': 'softcap',
  'step.softcap.narration':
    'Each scaled score x of head {head} becomes c·tanh(x / c): small scores pass almost unchanged, large ones are squeezed below c.',
  'step.alibi.title': 'ALiBi: a linear bias by distance',
  'step.alibi.meaning':
    'No position embedding: each head adds −m_h·(i − j) to its scores, a penalty that grows with the distance between query and key, steep in the first heads and gentle in the last.',
  'step.alibi.short': 'ALiBi',
  'step.alibi.narration':
    'Head {head} subtracts its slope times the distance i − j from every score, so far keys lose more. Each of the {H} heads has its own slope.',
  'step.alibi.narration.one':
    'Head {head} subtracts its slope times the distance i − j from every score, so far keys lose more.',
  'term.Q_norm': '',
  'term.K_norm': '',
  'term.Q_rope': '',
  'term.K_rope': '',
  'term.ropeAngles': '',
  'term.capped': '',
  'term.alibiBias': '',
  'term.biased': '',
  'term.sinkWeights': '',
  'view.kvHead': 'K/V head {g}',
  'rope.angles': 'Angles θ[m, i] = m · base^(−2i/d_k), base {base}',
  'rope.angles.scaled': 'Angles θ[m, i] = m · θ′_i, the frequencies after {type} scaling',
  'rope.scaling.caption': 'The frequencies before and after {type} scaling, and their wavelengths 2π/θ (in positions)',
  'rope.scaling.column.pair': 'pair',
  'rope.scaling.column.before': 'θ_i before',
  'rope.scaling.column.after': 'θ′_i after',
  'rope.scaling.column.ratio': 'θ′_i / θ_i',
  'rope.scaling.column.wavelengthBefore': 'wavelength before',
  'rope.scaling.column.wavelengthAfter': 'wavelength after',
  'rope.scaling.column.kind': 'what scaling did',
  'rope.scaling.name.linear': 'linear',
  'rope.scaling.name.dynamic': 'dynamic NTK',
  'rope.scaling.name.yarn': 'YaRN',
  'rope.scaling.kind.kept': 'kept',
  'rope.scaling.kind.interpolated': 'interpolated',
  'rope.scaling.kind.blended': 'blended',
  'rope.scaling.kind.slowed': 'slowed',
  'rope.scaling.linear':
    'Linear scaling divides every frequency by {factor}: position m turns each pair as far as position m / {factor} did before.',
  'rope.scaling.dynamic':
    'Dynamic NTK: S = {S} is more than the original {original} positions, so the base grows from {base} to {ntkBase}; the first pair keeps its frequency, the others slow down.',
  'rope.scaling.dynamicShort':
    'Dynamic NTK: S = {S} is within the original {original} positions, so the base stays {ntkBase} and the frequencies are the trained ones.',
  'rope.scaling.yarn':
    'YaRN keeps the fast pairs as trained (over β_fast = {betaFast} turns in {original} positions: {kept} here), interpolates the slow ones by 1/{factor} (under β_slow = {betaSlow}: {interpolated}) and blends those in between ({blended}); cos and sin are multiplied by {attentionFactor}.',
  'rope.scaling.wavelengths':
    'The scaling changes {changed} of the {half} frequencies; the longest wavelength goes from {longestBefore} to {longestAfter} positions.',
  'rope.pairs.rotate-half': 'Pairs (i, i + d_k/2): x·cos θ + rotate_half(x)·sin θ (Hugging Face, GPT-NeoX)',
  'rope.pairs.interleaved': 'Pairs (2i, 2i + 1), Meta’s original form',
  'rope.same.title': 'Same distance, same score',
  'rope.same':
    'The same q (of “{q}”) and k (of “{k}”), placed at positions ({m1}, {n1}) and at ({m2}, {n2}): the distance is {d} both times.',
  'rope.same.engine': 'The engine’s score at ({m1}, {n1}): {engine}.',
  'rope.same.none':
    'With {S} position(s) there is no second pair at the distance of ({m}, {n}): it is the only one, so there is nothing to compare its score with.',
  'gqa.title': 'Which K/V head each query head reads',
  'gqa.note':
    '{H} query heads share {Hkv} K/V heads, {group} each: K and V have {Hkv}·d_k = {width} columns. Head h reads K/V head h // {group} (repeat_interleave).',
  'gqa.mqa': 'Multi-query attention: all {H} query heads share the one K/V head: K and V have d_k = {width} columns.',
  'gqa.right': 'repeat_interleave (right): h // {group}',
  'gqa.wrong': '.repeat (wrong): h % {Hkv}',
  'gqa.queryHead': 'Query head',
  'gqa.wrongNote':
    '.repeat tiles the K/V heads ({tiled} …) instead of repeating each in place ({interleaved} …): the marked query heads would read another head’s keys, and the model’s trained grouping breaks.',
  'split.kvColumns': '{name}_g: K/V head {g} (read by head {h}) = {name} columns {from}…{to}',
  'alibi.slopes': 'Each head’s slope m_h',
  'alibi.slope': 'head {h}: m = {m}',
  'alibi.heads': 'The bias of every head (−m_h·(i − j))',
  'mask.window':
    'Sliding window {window}: query i sees key j only when 0 ≤ i − j < {window}. {n} cells are blocked by the window alone (marked ⌧).',
  'mask.sinks': 'The first {n} keys are attention sinks: {kept} cells the window would block stay visible (marked ★).',
  'mask.legend.window': '⌧ blocked by the window',
  'mask.legend.sink': '★ kept as a sink token',
  'sink.caption': 'The sink’s weight and each row’s sum ({head})',
  'sink.column': 'sink',
  'sink.rowSum': 'Σ_j A',
  'sink.note.perHead':
    'Each head has its own learned sink logit (as in gpt-oss); head {head}’s is {logit}. It takes part in every row’s softmax and carries no value: each row of weights sums to 1 minus its sink weight (here from {min} to {max}).',
  'sink.note':
    'The sink logit {logit} takes part in every row’s softmax and carries no value: each row of weights sums to 1 minus its sink weight (here from {min} to {max}).',
  // The two steppers: KV cache, token by token (lab.decode), and FlashAttention's online softmax (lab.flash).
  'step.kvcache.title': 'KV cache, token by token',
  'step.kvcache.meaning':
    'A decoder generates one token at a time. It keeps the keys and values of the tokens so far (the KV cache) and, at step t, computes only the new token’s q_t, k_t, v_t: k_t and v_t are appended to the cache, and q_t is scored against every cached key. Step through the sentence: each row equals the full causal run’s row.',
  'step.kvcache.short': 'KV cache',
  'step.kvcache.narration':
    'Decoding one token at a time: each step appends one key and one value to the cache and computes one row of scores against the cache. The rows are the full causal run’s rows, bit for bit.',
  'step.flash.title': 'FlashAttention’s online softmax',
  'step.flash.meaning':
    'FlashAttention never holds a whole row of scores: it walks over tiles of keys and keeps, per query, a running max m, a running sum ℓ and an unnormalised output O. When a tile raises the max, the old sum and output are rescaled by α = exp(m_old − m), and at the end O is divided by ℓ. Choose the tile sizes and step through the tiles of the selected head.',
  'step.flash.short': 'online softmax',
  'step.flash.narration':
    'The online softmax goes over the scores tile by tile, keeping a running max, a running sum and a partial output per query, rescaled whenever the max grows; one division by ℓ at the end gives the same context as the plain softmax, up to float32 rounding.',
};
