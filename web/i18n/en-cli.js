// English strings of the command line (web/cli/), registered by it (addEnglish):
// no page carries them. Chinese has them in zh.js.
export default {
  'cli.usage':
    'Usage: attention-lab [SENTENCE...] [--config FILE|-] [flags]\n\nRuns scaled dot-product / multi-head attention on the sentence (several: a batch) and prints\nthe result as JSON: {"tokens", "ids", "vocab", ..., "tensors": {name: {"shape": [...], "data": [...]}}},\nor writes the tensors as a NumPy .npz (--format npz, or -o FILE.npz).\nNumbers are the shortest text that reads back as the same float32. JSON has no NaN or infinities:\nthey print as the strings "NaN", "Infinity", "-Infinity" (np.array(data, np.float32) reads them\nback), or as null with --nonfinite null.\nHelp and errors follow --lang, else LC_ALL, LC_MESSAGES or LANG (zh_CN.UTF-8: Chinese).',
  'cli.heading.options': 'Flags:',
  'cli.heading.tensors': 'Tensors (for --tensors; all by default, in pipeline order):',
  'cli.heading.examples': 'Examples:',
  'cli.heading.exit': 'Exit codes (the error on stderr):',
  'cli.option.config': 'the config as JSON (- reads stdin); flags and the sentence override it',
  'cli.option.preset':
    'start from the one-click example KEY (its English sentences); --config and the other flags override it',
  'cli.option.list-presets': 'print the preset keys, one a line',
  'cli.option.tensors': 'only these tensors, comma-separated (names below)',
  'cli.option.batch': 'only this sentence of the batch (from 0): tensors with a batch dimension get B = 1',
  'cli.option.head': 'only this head (from 0) of scores, scaled, masked, weights, dropped and context: H = 1',
  'cli.option.format': 'json (default) or npz: a NumPy .npz of float32 arrays, np.load(FILE)[name]; svg with --figure',
  'cli.option.figure':
    'write one figure as SVG (its numbers, colours and a caption, as the page exports it): a matrix (weights, Q, …), links or heads:weights; --batch and --head choose the sentence and head',
  'cli.option.decimals': "the figure's decimals (default 4)",
  'cli.option.output': 'write to FILE instead of stdout (FILE.npz implies --format npz)',
  'cli.option.nonfinite': 'NaN and ±infinity in JSON: strings "NaN"/"Infinity"/"-Infinity" (default) or null',
  'cli.option.pretty': 'indent the JSON',
  'cli.option.schema': "print the engine's config schema as JSON",
  'cli.option.lang': 'the language of help and errors',
  'cli.option.version': 'print the version',
  'cli.option.help': 'this text',
  'cli.example.1': 'every tensor of one sentence, as JSON',
  'cli.example.2': 'two sentences as a batch (padded), only the attention weights, indented',
  'cli.example.3': 'a causal mask, four heads, written as a NumPy .npz …',
  'cli.example.4': '… and read back in Python: (1, 4, 6, 6)',
  'cli.example.5': 'the masked scores of sentence 0, head 1, with -inf (where masked) printed as null',
  'cli.example.6': 'a config from stdin, a flag overriding it',
  'cli.example.7':
    'the tiny trained model on a text typed twice: its bytes, the head scores and how much of the second copy it predicts',
  'cli.example.8': "the preset of a tutorial's MultiHeadAttention: the context_vecs it prints",
  'cli.example.9':
    "a Hugging Face checkpoint's folder (GPT-2, Llama or Qwen2: config.json and its .safetensors; --text when it has its tokenizer.json): each head's scores and the next token",
  'cli.exit.ok': 'done',
  'cli.exit.engine': 'the engine stopped (out of memory)',
  'cli.exit.usage':
    'a bad command line: an unknown flag, a missing or bad value of a flag of the CLI, flags that cannot go together, an output file that cannot be written',
  'cli.exit.config':
    'a bad config: a field (from the file or a flag) out of its range or of the wrong type, an unreadable or malformed config file',
  'cli.tryHelp': 'Try --help.',
  'cli.error.unknown-option': 'unknown option {option}',
  'cli.error.option-value': 'option {option} needs a value',
  'cli.error.boolean-value':
    'option {option} is on or off: write {option} or --no-{name} (or {option}=true, {option}=false), got "{got}"',
  'cli.error.bad-choice': '{option} must be one of {choices}, got "{got}"',
  'cli.error.model-dir-input':
    '--model-dir runs one text (--text TEXT, or the sentence) or --ids JSON: give exactly one of them',
  'cli.error.positional-with': 'the sentence "{sentence}" and {option} cannot go together: give the sentence one way',
  'cli.error.npz-to-terminal': 'a .npz is binary: write it to a file with -o FILE.npz, or pipe it',
  'cli.error.cannot-read': 'cannot read {name}: {reason}',
  'cli.error.cannot-write': 'cannot write {name}: {reason}',
  'cli.error.not-object': 'the config must be a JSON object',
  'cli.error.unknown-preset': 'unknown preset "{got}" (known: {known})',
  'cli.error.unknown-figure': 'no figure "{got}" in this run (its figures: {known})',
  'cli.error.figure-format': '--figure writes SVG: give --format svg or leave --format out',
  'cli.reason.ENOENT': 'no such file',
  'cli.reason.EISDIR': 'it is a folder',
  'cli.reason.EACCES': 'permission denied',
  'cli.reason.ENOSPC': 'the disk is full (no space left on the device)',
  // attention-lab decode | flash (web/cli/steppers.js).
  'cli.steppers.usage':
    "attention-lab decode [SENTENCE...] [flags]   the KV cache, token by token: one query at a time against the cached keys\nattention-lab flash [SENTENCE...] --tile-queries N --tile-keys N [--head H] [flags]\n    FlashAttention-2's online softmax over one head, tile by tile\nBoth take the config flags above, --batch, --json (the whole result as JSON) and --lang.",
  'cli.option.json':
    'decode, flash, --model tiny and --model-dir: print the whole result as JSON instead of the tables',
  'cli.option.model-dir':
    'run a Hugging Face checkpoint (GPT-2) from folder DIR: config.json, model.safetensors (or its shards), tokenizer.json; with --text TEXT or --ids',
  'cli.option.ids': '--model-dir: the token ids to run, as JSON ([15496, 995]) instead of --text',
  'cli.option.tile-queries': 'flash: queries per tile (default 2)',
  'cli.option.tile-keys': 'flash: keys per tile (default 2)',
  'cli.steppers.step': 'step',
  'cli.steppers.token': 'token',
  'cli.steppers.cache': 'cached keys',
  'cli.steppers.weights': 'weights of head {head} over the cache',
  'cli.steppers.decodeTitle':
    'KV cache, token by token: {S} tokens, {H} query heads, {Hkv} key/value heads, headDim {headDim}',
  'cli.steppers.bytesNote':
    'MHA / GQA / MQA: the cache in bytes at this length, 2 (k and v) × length × heads × headDim × 4, with every query head, the key/value heads, and one head',
  'cli.steppers.identicalRows': 'Rows bit-identical to the full causal run: {identical} of {rows}',
  'cli.steppers.isCausal':
    'is_causal=True on one query (head 0): its causal mask is aligned top-left, so every step attends only to key 0 ("{token}")',
  'cli.steppers.isCausalSink':
    'is_causal=True on one query (head 0): its causal mask is aligned top-left, so every step sees only key 0 ("{token}") besides the sink',
  'cli.steppers.tile': 'tile',
  'cli.steppers.queries': 'queries',
  'cli.steppers.keys': 'keys',
  'cli.steppers.row': 'row',
  'cli.steppers.skipped': 'skipped: every logit in it is masked',
  'cli.steppers.flashTitle':
    'FlashAttention-2 online softmax, head {head}: tiles of {tileQueries} queries × {tileKeys} keys, {count} tiles (m: running max, ℓ: running sum, α = exp(m_old − m_new))',
  'cli.steppers.difference':
    'Output O / ℓ against the plain softmax: largest |difference| {difference}; {identical} of {total} entries bit-identical',
  'cli.steppers.why':
    'Not all are identical because the float operations come in another order: the plain softmax divides every weight by the whole sum before multiplying by v, the online softmax rescales partial sums by α and divides once by ℓ at the end.',
  // attention-lab --model tiny (web/cli/tiny.js).
  'cli.tiny.title': 'The tiny trained model at checkpoint {checkpoint} (training step), on {T} bytes of UTF-8:',
  'cli.tiny.bytes': 'bytes (the tokens; a character of several bytes is shown with its part, e.g. 春 1/3):',
  'cli.tiny.head': 'head',
  'cli.tiny.previousToken': 'previous-token',
  'cli.tiny.induction': 'induction',
  'cli.tiny.previousTokenHow':
    'previous-token score: the mean over positions i ≥ 1 of the weight of byte i on byte i − 1.',
  'cli.tiny.inductionHow':
    'induction score: {repeat} bytes are a second copy (a run of at least {min} bytes typed again); the mean over them of the weight of byte i on byte t(i), the one after its earlier copy.',
  'cli.tiny.noInduction':
    'induction score: type a run of at least {min} bytes again (twice in a row, or with a space between) to measure it.',
  'cli.tiny.secondCopy':
    'second copy: {correct} of {total} bytes predicted from the earlier copy ({percent}%), mean loss {loss} nats.',
  'cli.tiny.next': 'the next byte it predicts: {list}',
  'cli.checkpoint.title':
    'A {family} checkpoint: {layers} layers of {heads} heads ({kvHeads} of keys and values) of {headDim} dimensions, d_model {dModel}, a vocabulary of {vocab}; on {T} tokens:',
  'cli.checkpoint.read': 'read {read} of its {size} of weights files (only the tensors the forward needs)',
  'cli.checkpoint.tokens': 'tokens (by its tokenizer.json; ␣ is a space):',
  'cli.checkpoint.ids': 'token ids (no tokenizer.json: the ids as given):',
  'cli.checkpoint.previousTokenHow':
    'previous-token score: the mean over positions i ≥ 1 of the weight of token i on token i − 1.',
  'cli.checkpoint.inductionHow':
    'induction score: the mean, over the {count} positions whose tokens repeat an earlier run, of the weight on the token that followed that run last time.',
  'cli.checkpoint.noInduction':
    'induction score: no token repeats an earlier run that another token followed; type a text twice to measure it.',
  'cli.checkpoint.next': 'the next token it predicts (id, probability): {list}',
};
