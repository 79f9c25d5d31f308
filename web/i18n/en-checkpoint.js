// English strings of the checkpoint view (view/checkpoint/*.js) and of the
// sentences model/checkpoint-heads.js builds, registered by the view
// (addEnglish), so they load with the mode. Chinese has them in zh.js.
export default {
  'checkpoint.title': 'A checkpoint you open: what each head computes',
  'checkpoint.intro':
    'Open a Hugging Face checkpoint (GPT-2, Llama or Qwen2) from its files. They stay on your computer: only the tensors the forward needs are read, and every number below is the model’s, as PyTorch computes it.',
  'checkpoint.open.label': 'Open a model (its files)',
  'checkpoint.open.needs':
    'Pick or drop the files of the model’s folder together: `config.json`, the weights (`model.safetensors`, or every `model-0000N-of-0000M.safetensors`) and, to type text, `tokenizer.json`.',
  'checkpoint.open.choose': 'Choose files…',
  'checkpoint.open.nothing': 'No files chosen',
  'checkpoint.open.drop': 'Drop the folder’s files here',
  'checkpoint.open.reading': 'Reading the weights',
  'checkpoint.open.progress': '{read} of {total} read',
  'checkpoint.open.none': 'No model is open yet.',
  'checkpoint.open.name': 'Files',
  'checkpoint.family.gpt2': 'GPT-2',
  'checkpoint.family.llama': 'Llama',
  'checkpoint.family.qwen2': 'Qwen2',
  'checkpoint.summary':
    '{family}: {layers} layers, {heads} heads, {kvHeads} KV heads, head dim {headDim}, d_model {dModel}, vocab {vocab}; read {read} of the {total} of weights files.',
  'checkpoint.text.label': 'Text (tokenized by the model’s tokenizer.json)',
  'checkpoint.text.name': 'Text',
  'checkpoint.ids.label': 'Token ids (no tokenizer.json: a JSON array or numbers split by spaces)',
  'checkpoint.ids.name': 'Token ids',
  'checkpoint.tokens': 'The tokens the model reads',
  'checkpoint.tokens.count': '{count} tokens (at most {max})',
  'checkpoint.tokens.one': '1 token (at most {max})',
  'checkpoint.tokenizer.failed': 'tokenizer.json could not be read, so type token ids: {message}',
  'checkpoint.error.idsSyntax': 'Token ids: give a JSON array of numbers ([24, 15]) or numbers split by spaces.',
  'checkpoint.error.empty': '{label}: type at least one token.',
  'checkpoint.error.at': '{label}: {message}',
  'checkpoint.pick.layer': 'Layer',
  'checkpoint.pick.head': 'Head',
  'checkpoint.pick.query': 'Follow the token',
  'checkpoint.layer': 'layer {layer}',
  'checkpoint.head': 'head {head}',
  'checkpoint.kvHead': 'KV head {kv}',
  'checkpoint.token': 'token {i} ({label})',
  'checkpoint.then': '{first} {second}',
  'checkpoint.heads.title': 'Every head: previous-token and induction scores',
  'checkpoint.heads.how':
    'Each square is a head’s attention weights on these tokens (row: the query, column: the key). Previous-token score: the mean over positions i ≥ 1 of `weights[i, i−1]`. Induction score: the mean of the weight on the token that followed an earlier copy of the query’s token, over the positions that have one (— when none has). Pick a head to see its steps.',
  'checkpoint.heads.naming':
    'A head is named by a score only when chance could hardly give it: a previous-token head at {previous} or more and at least {factor}× what attention spread evenly over the keys a query may see would give on these tokens ({previousChance}); an induction head at {induction} or more, at least {factor}× the even spread ({inductionChance}), over at least {minimum} positions with an earlier copy (these tokens have {positions}).',
  'checkpoint.steps.title': 'Layer {layer}, head {head}, step by step',
  'checkpoint.step.Q.title': 'Queries Q',
  'checkpoint.step.K.title': 'Keys K',
  'checkpoint.step.V.title': 'Values V',
  'checkpoint.step.scores.title': 'Scores Q·Kᵀ',
  'checkpoint.step.scaled.title': 'Scaled ÷√head_dim',
  'checkpoint.step.mask.title': 'The causal mask',
  'checkpoint.step.weights.title': 'Weights: softmax of each row',
  'checkpoint.step.headOutputs.title': 'The head’s output: weights·V',
  'checkpoint.step.Q.text': '{T} queries of {hd} numbers, one per token; the query of {token} has length ‖q‖ = {norm}.',
  'checkpoint.step.Q.one': 'One query of {hd} numbers, for the one token {token}: its length is ‖q‖ = {norm}.',
  'checkpoint.step.K.one': 'One key of {hd} numbers from KV head {kv}: its length ‖k‖ is {min}.',
  'checkpoint.step.V.one':
    'One value of {hd} numbers from KV head {kv}: what head {head} mixes into the token’s output.',
  'checkpoint.step.mask.one': 'The query of {token}, the only token, may look at itself alone.',
  'checkpoint.step.headOutputs.one':
    'With one token, its output is its value times its one weight: for {token}, the first number is {value}.',
  'checkpoint.step.rope':
    'These are after RoPE: each pair of numbers is rotated by an angle that grows with the token’s position, so the scores depend on how far apart two tokens are.',
  'checkpoint.step.K.text': '{T} keys of {hd} numbers from KV head {kv}; their lengths ‖k‖ go from {min} to {max}.',
  'checkpoint.step.K.shared':
    'Grouped-query attention: query heads {heads} ({count} of them) read these same keys and values.',
  'checkpoint.step.V.text':
    '{T} values of {hd} numbers from KV head {kv}: what head {head} mixes into each token’s output.',
  'checkpoint.step.scores.text':
    'Each query against every key: at {token}, the largest score among the keys it may see is {value}, on {key}.',
  'checkpoint.step.scaled.text':
    'Every score divided by √{hd} = {divisor}, so that softmax does not saturate: {before} becomes {value}.',
  'checkpoint.step.mask.text':
    'The query of {token} may look at {seen} tokens, itself and those before it; the {hidden} after it get float32’s lowest number (−3.4×10³⁸, shown −∞: Hugging Face masks with it), so their weight is exactly 0, as with −∞.',
  'checkpoint.step.mask.last': 'The query of {token}, the last token, may look at all {seen} tokens.',
  'checkpoint.step.mask.all': 'In all, the {masked} cells above the diagonal of the {T}×{T} scores are masked.',
  'checkpoint.step.weights.text':
    'Row by row, softmax turns the scaled scores into weights that sum to 1: the row of {token} sums to {sum}; its largest weight, {value}, is on {key}.',
  'checkpoint.step.headOutputs.text':
    'Each token’s output is its row of weights times V: for {token}, the first number is the sum of {terms} weighted values, {value}.',
  'checkpoint.next.title': 'The next token, after the last one',
  'checkpoint.next.caption': 'The 5 most likely next tokens after {token}',
  'checkpoint.next.token': 'Token',
  'checkpoint.next.probability': 'Probability',
};
