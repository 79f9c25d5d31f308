// Types of the Attention Lab JS API (web/api/index.js). Written by hand (Debian's
// Emscripten 3.1.6 has no --emit-tsd), but for the config's types, which the build
// writes from the schema; `npm test` type-checks them.

// The types the schema defines (AttentionConfig, TensorName, WeightName) are written from it by the build
// (web/scripts/write-types.js, after the wasm build) into generated/schema-types.d.ts.
import type { AttentionConfig, TensorName, WeightName } from './generated/schema-types.js';
export type { AttentionConfig, TensorName, WeightName } from './generated/schema-types.js';

export declare const TENSOR_NAMES: readonly TensorName[];

/** One field of the engine's config schema (cpp/core/schema.cpp). */
export interface SchemaField {
  /** Dotted config path, e.g. "weights.init". */
  path: string;
  /** Short name: the CLI flag (--init) and the element attribute (init). */
  name: string;
  type:
    | 'string'
    | 'string[]'
    | 'string[][]'
    | 'integer'
    | 'seed'
    | 'number'
    | 'boolean'
    | 'enum'
    | 'enum|number'
    | 'number|number[]'
    | 'random-input'
    | 'matrix'
    | 'matrix-map'
    | 'edits'
    | 'edits-map';
  group: 'input' | 'model' | 'embedding' | 'weights' | 'attention' | 'dropout' | 'modern' | 'trained';
  /** The default, or null when the field is optional or decided by the engine (weights.qkvBias). */
  default: string | number | boolean | null;
  /** Enum values, or the names a map field takes. */
  choices?: string[];
  /** Per choice, the one-kind choices it combines (mask: "causal+padding" holds ["causal", "padding"]). */
  kinds?: Record<string, string[]>;
  min?: number;
  max?: number;
  /** Fields of one group exclude each other ("input": text, texts, tokens, input). */
  oneOf?: 'input' | 'context';
  /** When the field has an effect: another field's value equals, or differs from, this one. */
  usedWhen?: { path: string; equals?: string; differs?: string };
  /** i18n key of the field's help text. */
  help: string;
}

export interface Schema {
  version: number;
  fields: SchemaField[];
  limits: {
    tokensPerSequence: number;
    batch: number;
    dModel: number;
    heads: number;
    vocab: number;
    intermediateBytes: number;
    givenBytes: number;
    additiveTerms: number;
    configTextBytes: number;
    jsonValues: number;
  };
  /** The tiny trained model (model "tiny"): its shipped checkpoints and fixed sizes. */
  tinyModel: TinyModelFacts;
  tensors: TensorName[];
  /** The weights given as a vector (edits [[column, value]]): the biases, v_a, differential attention's five. */
  vectorWeights: WeightName[];
  /** Every error and warning code, with the parameters its message names and its English template. */
  errors: ErrorKind[];
}

/** One code of the error catalog (cpp/core/errors.cpp). */
export interface ErrorKind {
  /** "out-of-range", "json-duplicate-key", "nan-rows", ... */
  code: string;
  /** The names of the values the message holds: ["field", "got", "min", "max"]. */
  params: string[];
  /** The English template: "{field} ({got}) must be between {min} and {max}". */
  message: string;
}

/** The schema as the build wrote it: usable before the engine loads. */
export declare const SCHEMA: Schema;

/** torch.randn(B, S, dModel) or torch.rand(B, S, dModel) as the input instead of embedded tokens. */
export type RandomInput =
  | { randn: [batch: number, length: number, dModel: number] }
  | { rand: [batch: number, length: number, dModel: number] };
/** @deprecated the name of RandomInput before torch.rand inputs. */
export type RandnInput = RandomInput;

/** Explicit values: rows of numbers (null keeps the drawn number), or a typed array (a vector, or row-major). */
export type GivenValues = (null | (number | null)[])[] | (number | null)[] | Float32Array | Float64Array;

/** One edited number: [row, column, value]; a bias (and v_a) takes [column, value]. */
export type CellEdit = [row: number, column: number, value: number] | [column: number, value: number];

/** One edited number of the embedding table: [token or id, column, value]. */
export type EmbeddingEdit = [row: string | number, column: number, value: number];

/** A config of the tiny trained model: run() returns a TinyModelResult. */
export type TinyModelConfig = AttentionConfig & { model: 'tiny'; text: string };

/** The tiny trained model's facts (SCHEMA.tinyModel): 2 layers of 4 heads over UTF-8 bytes. */
export interface TinyModelFacts {
  /** The training steps whose weights ship (web/api/tiny/step-NNNN.safetensors). */
  checkpoints: number[];
  /** At most this many bytes of text. */
  context: 64;
  layers: 2;
  heads: 4;
  dModel: 64;
  headDim: 16;
  /** Byte values 0..255. */
  vocab: 256;
}

/** TINY_MODEL: the facts, and where each checkpoint's weights file is. */
export interface TinyModel extends TinyModelFacts {
  /** The URL of checkpoint `step`'s weights file (float16 safetensors, about 107 KB). */
  weightsUrl(step: number): URL;
}

export declare const TINY_MODEL: TinyModel;

/** A tensor of the tiny model: float32, row-major, a fresh copy owned by the caller. */
export interface TinyTensor {
  shape: number[];
  data: Float32Array;
}

/** One layer's intermediates (T bytes): as model.py's Attention keeps them. */
export interface TinyLayerTensors {
  /** [T, 64] each: x W_Qᵀ, x W_Kᵀ, x W_Vᵀ. */
  Q: TinyTensor;
  K: TinyTensor;
  V: TinyTensor;
  /** [4, T, T]: per head Q_h K_hᵀ, then / 4 (= √16), then softmax after the causal mask. */
  scores: TinyTensor;
  scaled: TinyTensor;
  weights: TinyTensor;
  /** [4, T, 16]: weights V_h per head. */
  headOutputs: TinyTensor;
  /** [T, 64]: the heads side by side; concat W_Oᵀ; the residual stream after the layer (x + attnOut). */
  concat: TinyTensor;
  attnOut: TinyTensor;
  residual: TinyTensor;
}

/** The result of run() with model "tiny". */
export interface TinyModelResult {
  model: 'tiny';
  checkpoint: number;
  text: string;
  /** The text's UTF-8 bytes: the token ids. */
  ids: number[];
  sizes: { T: number; layers: 2; heads: 4; dModel: 64; headDim: 16; vocab: 256 };
  tensors: {
    /** [T, 64]: tok_emb[ids], pos_emb[0..T), and their sum x0. */
    tokenEmbeddings: TinyTensor;
    positionEmbeddings: TinyTensor;
    residual0: TinyTensor;
    /** [T, 256]: the last residual stream times tok_embᵀ (tied unembedding), and its softmax. */
    logits: TinyTensor;
    probs: TinyTensor;
  };
  layers: TinyLayerTensors[];
  /** The heads measured on this text (tests/reference/tiny/scores.py), [layer][head]. */
  headScores: {
    /** Mean over i ≥ 1 of weights[h, i, i−1]; null for a text of one byte. */
    previousToken: number[][] | null;
    /** Over the positions i of the repeat: mean of weights[h, i, t(i)]; null when the text has no repeat. */
    induction: number[][] | null;
    /**
     * Per position: t(i), the byte after its earlier copy, for the positions of the repeat (the later
     * copy of a run of at least SCHEMA.tinyModel.minRepeat bytes typed before, anywhere); −1 elsewhere.
     */
    repeatTargets: number[];
  };
  /**
   * Over the repeat's positions i before the last byte: how often argmax(logits[i]) is byte i + 1,
   * and the mean cross-entropy (nats). Null when there are none.
   */
  secondCopy: { correct: number; total: number; loss: number } | null;
  /** E.g. "model-ignores-fields": settings of the attention layer that the tiny model does not read. */
  warnings: AttentionWarning[];
}

export interface Tensor {
  /** Row-major sizes, e.g. [B, H, S, S_kv]. */
  shape: number[];
  /**
   * float32 values, row-major; a fresh copy owned by the caller (shared by two
   * names when they are equal: see AttentionResult.tensors).
   */
  data: Float32Array;
  /** The one sentence this tensor holds (RunOptions.batch): its shape has B = 1. Absent when it holds the whole batch. */
  batch?: number;
  /** The one head this tensor holds (RunOptions.head): its shape has H = 1. Absent when it holds every head. */
  head?: number;
}

export interface AttentionResult {
  /** [B][S] tokens after padding/truncation ("<pad>" where padded); [] for a random input. */
  tokens: string[][];
  /** [B][S] token ids. */
  ids: number[][];
  /** Cross-attention with context text or tokens only. */
  contextTokens?: string[][];
  contextIds?: number[][];
  vocab: string[];
  unknownTokens: string[];
  /**
   * The run's sizes, whatever part of them the tensors hold (RunOptions.batch
   * and head): B sentences, H heads, S queries, S_kv keys, D = dModel, H_kv key/value heads (H without
   * grouped-query attention).
   */
  sizes: { B: number; H: number; S: number; S_kv: number; D: number; H_kv: number };
  headDim: number;
  /** The multiplier applied to the scores (1/√headDim by default). */
  scaleFactor: number;
  /** Things worth telling the user, e.g. rows of weights that are NaN. */
  warnings: AttentionWarning[];
  /**
   * The scalar settings the run used, by config path, with what the engine
   * decided filled in: {"dModel": 8, "weights.qkvBias": true, "maskFill": "-inf", ...}.
   */
  settings: Record<string, string | number | boolean>;
  /**
   * The tensors asked for (RunOptions.tensors; all by default) that the run has.
   * Two stages that are equal element for element are one object under both
   * names when both are asked for: `masked` is `scaled` without a mask (mask
   * "none" with maskConvention "blocked" or "keep"), and `dropped` is `weights`
   * when dropout.p is 0 (`tensors.dropped === tensors.weights`). Copy a tensor's
   * data before changing it in place.
   */
  tensors: Partial<Record<TensorName, Tensor>>;
}

/** A warning of a run: a code of SCHEMA.errors ("nan-rows"), its values, its English text. */
export interface AttentionWarning {
  code: string;
  params: Record<string, string>;
  message: string;
}

export interface RunOptions {
  /**
   * Return only these tensors; the engine computes and stores only what they
   * need (asking for `output` alone keeps no [B, H, S, S_kv] tensor at all),
   * and its memory budget (SCHEMA.limits.intermediateBytes) counts only that:
   * what it keeps, and the scratch it works in.
   * With nothing asked for past Q, K and V the heads are not computed, so a
   * "nan-rows" warning cannot appear. Default: every tensor.
   */
  tensors?: TensorName[];
  /**
   * Keep only this sentence of the batch (0-based): every tensor with a batch
   * dimension comes back with B = 1 and `batch` set. Out of range: an
   * AttentionConfigError on "options.batch". Default: every sentence.
   */
  batch?: number;
  /**
   * Keep only this head (0-based) of the per-head tensors (scores, scaled,
   * masked, weights, dropped, context): they come back with H = 1 and `head`
   * set, and the other heads are computed but never stored. Out of range: an
   * AttentionConfigError on "options.head". Default: every head.
   */
  head?: number;
  /**
   * Per-head tensors that keep every head even when `head` is given (a view of
   * all heads side by side). Two names that are one tensor (see
   * AttentionResult.tensors) share one choice.
   */
  allHeads?: TensorName[];
}

/** A prepared run's options: lab.run's, plus a new X for this call. */
export interface PreparedRunOptions extends RunOptions {
  /**
   * A new X for this call only (as an inference session takes new inputs):
   * B·S·dModel numbers, row-major [B, S, dModel] (PreparedRun.xShape), the X
   * the projections read (after the positional encoding, when the config adds
   * one). Cross-attention keeps the context's X_context. Not a Float32Array of
   * that length: an AttentionConfigError on "x" (prepared-x-type,
   * prepared-x-length); a number that is not finite: "x[i]" (not-a-number).
   */
  x?: Float32Array;
}

/** PreparedRun.update's edits, in the page's form (web/model/edits.js editsToJson). */
export interface PreparedEdits {
  /** Weight edits by name: [row, column, value] for a matrix, [column, value] for a vector (b_Q, v_a). */
  weights?: Record<string, Array<[number, number, number] | [number, number]>>;
  /** Embedding edits: [token (or row), column, value]. */
  embedding?: Array<[string | number, number, number]>;
}

/**
 * lab.prepare's handle: a config parsed, validated, tokenized, embedded and
 * drawn once. Each run computes from the projections on; the engine state
 * lives in wasm memory until dispose() (or until the handle is garbage
 * collected). After the engine restarts the handle prepares again by itself.
 */
export interface PreparedRun {
  /** X's shape [B, S, dModel]: PreparedRunOptions.x holds B·S·dModel numbers. */
  readonly xShape: [number, number, number];
  /**
   * lab.run(config, options)'s result, bit for bit (without `x`); with `x`,
   * the same run on that X. The fields every run shares (tokens, ids, vocab,
   * unknownTokens, sizes, settings, ...) are the same frozen objects from call
   * to call; warnings and tensors are new. Throws AttentionConfigError like run.
   */
  run(options?: PreparedRunOptions): AttentionResult;
  /**
   * Applies `edits` after those applied so far, without drawing again: the
   * handle then runs as lab.run(withEdits(config, edits)) would; an embedding
   * edit rebuilds X. The next run without `x` projects again only what the
   * edits feed (W_Q: Q alone; W_O: nothing; an embedding edit: Q, K and V). Checked as lab.run checks them (an error names
   * "weights.edits.W_Q[0]", "embedding.edits[0]", or "edits" when `edits` is
   * not of this form); on an error nothing changes.
   */
  update(edits: PreparedEdits): void;
  /** lab.decode on the prepared config with its edits (X and weights drawn once): the same numbers. */
  decode(options?: DecodeOptions): DecodeResult;
  /** lab.flash on the prepared config with its edits (X and weights drawn once): the same numbers. */
  flash(options?: FlashOptions): FlashResult;
  /** Frees the engine state; run, update, decode and flash then throw (prepared-disposed). Again: nothing. */
  dispose(): void;
}

/** lab.decode's options. */
export interface DecodeOptions {
  /** The sentence to decode (0-based). Out of range: an AttentionConfigError on "options.batch". Default 0. */
  batch?: number;
}

/**
 * The KV cache, token by token: the sequence decoded one query at a time, each
 * step appending its k and v to the cache and scoring its one query against
 * every cached key. Arrays are fresh copies, row-major.
 */
export interface DecodeResult {
  /** The decoded sentence's tokens (S of them). */
  tokens: string[];
  /** S queries, H query heads, H_kv key/value heads (H without GQA), dk = headDim, D = dModel. */
  sizes: { S: number; H: number; H_kv: number; headDim: number; D: number };
  /** [S, H_kv, dk]: step t appends k_t (after qkNorm and RoPE) to the cache. */
  newKeys: Float32Array;
  /** [S, H_kv, dk]: and v_t. */
  newValues: Float32Array;
  /** [S, H, S]: step t's q_t · k_j for j <= t (the cache, before scaling); NaN for j > t. */
  scores: Float32Array;
  /** [S, H, S]: step t's softmax over its t + 1 keys (and the sink); NaN for j > t. */
  weights: Float32Array;
  /** [S, H, S]: the full causal run's weights (0 where its causal mask blocks), for the comparison. */
  fullWeights: Float32Array;
  /** Rows of `weights` bit-identical to the full run's (all of them, `rows`, is what the engine guarantees). */
  identicalRows: number;
  /** S · H. */
  rows: number;
  /**
   * [S, S]: step t's weights (head 0) when the one query is given a top-left aligned causal mask
   * (`is_causal=True` on one query): only key 0 is visible, so row t is 1 at key 0 and 0 elsewhere (NaN past t).
   */
  isCausalOneQuery: Float32Array;
  /** The cache's bytes at length t + 1 (index t): 2 · (t + 1) · heads · dk · 4 for H, H_kv and 1 KV heads. */
  cacheBytes: { mha: number[]; gqa: number[]; mqa: number[] };
}

/** lab.flash's options. */
export interface FlashOptions {
  /** The sentence (0-based), "options.batch". Default 0. */
  batch?: number;
  /** The query head (0-based), "options.head". Default 0. */
  head?: number;
  /** Queries per tile (≥ 1; more than S is S: one tile of all the queries), "options.tileQueries". Default 2. */
  tileQueries?: number;
  /** Keys per tile (≥ 1; more than S_kv is S_kv), "options.tileKeys". Default 2. */
  tileKeys?: number;
}

/** One tile of FlashAttention-2's loop: queries [queryStart, queryEnd) against keys [keyStart, keyEnd). */
export interface FlashTile {
  queryStart: number;
  queryEnd: number;
  keyStart: number;
  keyEnd: number;
  /** Every logit in the tile is masked (-inf): the loop skips it, as FlashAttention does above the diagonal. */
  skipped: boolean;
}

/**
 * FlashAttention-2's online softmax over one head, tile by tile (query tiles
 * outer, key tiles inner). T = tiles.length; per tile, one value per row of
 * its query tile (NaN for rows past S).
 */
export interface FlashResult {
  tiles: FlashTile[];
  /** dk = headDim, S queries, S_kv keys. */
  /** The tile sizes as used: the options', clamped to S and S_kv. */
  sizes: { S: number; S_kv: number; headDim: number; tileQueries: number; tileKeys: number };
  /** [T, tileQueries]: the running max m after tile t. */
  runningMax: Float32Array;
  /** [T, tileQueries]: the running sum ℓ after tile t. */
  runningSum: Float32Array;
  /** [T, tileQueries]: α = exp(m_old − m_new) applied to the partial output in tile t (0 when m_old = −inf; 1 in a skipped tile: nothing is rescaled). */
  rescale: Float32Array;
  /** [T, tileQueries, dk]: the unnormalised output after tile t. */
  partialOutput: Float32Array;
  /** [S, dk]: O / ℓ at the end. */
  output: Float32Array;
  /** [S, dk]: the plain softmax's context of that head (weights · v, before dropout). */
  plain: Float32Array;
  /** The largest |output − plain|. */
  maxAbsDifference: number;
  /** Entries of `output` bit-identical to `plain`, of `total` (S · dk). */
  identical: number;
  total: number;
}

/**
 * The engine stopped while running (out of memory, or a bug). The instance
 * was discarded and a fresh one is starting: await loadAttentionLab() (or
 * lab.ready) and run again.
 */
export declare class AttentionEngineError extends Error {
  readonly name: 'AttentionEngineError';
  readonly field: 'engine';
  /** "engine-out-of-memory", "engine-failed", "engine-restarting" or "engine-blocked-by-csp" (SCHEMA.errors). */
  readonly code: string | undefined;
  readonly params: Record<string, string>;
  constructor(message: string, cause?: unknown, code?: string);
  /** The error of `code`, its message from the code's English template. */
  static of(code: string, cause?: unknown): AttentionEngineError;
}

export declare class AttentionConfigError extends Error {
  readonly name: 'AttentionConfigError';
  /** The config field at fault, e.g. "numHeads" or "weights.values.W_Q[0][1]". */
  readonly field: string;
  /** What is wrong: a code of SCHEMA.errors, e.g. "out-of-range" (undefined for an error made without one). */
  readonly code: string | undefined;
  /** The values the message names, e.g. {field: "dModel", got: "0", min: "1", max: "4096"}. */
  readonly params: Record<string, string>;
  constructor(field: string, message: string, code?: string, params?: Record<string, string>);
  /** The error `code` on `field`, its message the code's English template filled with `params`. */
  static of(field: string, code: string, params?: Record<string, string>): AttentionConfigError;
}

export interface AttentionLab {
  /**
   * The tiny trained model (its weights loaded first with loadTinyModel); the options are ignored: every
   * tensor of every layer and head comes back. Throws AttentionConfigError (checkpoint-not-loaded, …).
   */
  run(config: TinyModelConfig, options?: RunOptions): TinyModelResult;
  /** Throws AttentionConfigError on a bad config; the instance keeps working. */
  run(config: AttentionConfig | string, options?: RunOptions): AttentionResult;
  /**
   * Prepares `config` for many runs (parsed, validated, tokenized, embedded and
   * drawn once): see PreparedRun. Throws AttentionConfigError as run does;
   * model "tiny" is refused (prepare-needs-attention-model).
   */
  prepare(config: AttentionConfig | string): PreparedRun;
  /**
   * Loads the tiny model's weights of `checkpoint` (default 3000): the shipped file (TINY_MODEL.weightsUrl,
   * fetched in browsers, read from disk in Node), or `bytes` (a safetensors file); the first call also loads the
   * model's own wasm (its forward). Again without bytes: nothing to do. They stay loaded when the engine restarts. Rejects with AttentionConfigError on "checkpoint" (not a
   * shipped step), "weights file" (unreadable or not the model's; model-not-fetched when the model's wasm is unreadable) or "bytes" (not a Uint8Array).
   */
  loadTinyModel(checkpoint?: number, bytes?: Uint8Array): Promise<{ step: number; bytes: number }>;
  /**
   * The KV cache, token by token (self-attention with a causal mask). Throws
   * AttentionConfigError like run (field-named, translated by code).
   */
  decode(config: AttentionConfig | string, options?: DecodeOptions): DecodeResult;
  /** FlashAttention-2's online softmax over one head, tile by tile. Throws AttentionConfigError like run. */
  flash(config: AttentionConfig | string, options?: FlashOptions): FlashResult;
  /** The config schema, from the engine itself. */
  readonly schema: Schema;
  /**
   * The engine's rules on config text as JSON (size, duplicate keys, number grammar, depth): the error
   * (field "config", or the repeated key's path), or null when the text is valid.
   */
  jsonError(text: string): AttentionConfigError | null;
  /** Resolves when the instance can run (at once, unless it is restarting after the engine stopped). */
  readonly ready: Promise<AttentionLab>;
  /** Bytes of wasm linear memory. */
  readonly memoryBytes: number;
}

/**
 * JSON text for the engine, with NaN/±Infinity as strings so errors can name
 * them, and the typed arrays that {"$tensor": k} entries in it refer to.
 */
export declare function encodeConfig(config: AttentionConfig | string): {
  json: string;
  tensors: (Float32Array | Float64Array)[];
};

/** Loads the engine once and shares it between callers. */
export declare function loadAttentionLab(): Promise<AttentionLab>;

/**
 * One token of a BPE encoding as a page shows it: `text` its characters as a reader sees them (" world"; a byte
 * of a character the token holds only part of as "<0xE6>"), `bytes` its UTF-8 bytes, `special` whether it is an
 * added special token (<|endoftext|>, <|im_start|>).
 */
export interface TokenPiece {
  id: number;
  text: string;
  bytes: number[];
  special: boolean;
}

/** A byte-level BPE tokenizer read from a Hugging Face tokenizer.json (GPT-2, Llama 3, Qwen2). */
export interface Tokenizer {
  /** How many ids there are: the vocab's and the added tokens' (GPT-2: 50257). */
  readonly vocabSize: number;
  /**
   * The ids of `text` with each token's readable text and its piece. Adds no BOS: addSpecialTokens applies the
   * post_processor's TemplateProcessing (Llama 3's <|begin_of_text|>). Throws AttentionConfigError on "text".
   */
  encode(
    text: string,
    options?: { addSpecialTokens?: boolean },
  ): { ids: number[]; tokens: string[]; pieces: TokenPiece[] };
  /** The text of `ids` (an incomplete character as U+FFFD). Throws AttentionConfigError on "ids[i]" for an unknown id. */
  decode(ids: number[], options?: { skipSpecialTokens?: boolean }): string;
  /** Each id as a TokenPiece. */
  pieces(ids: number[]): TokenPiece[];
}

/**
 * A tokenizer from a tokenizer.json's text (or its parsed object). Throws AttentionConfigError whose field is the
 * JSON path it cannot read ("tokenizer.json.model.type": tokenizer-unsupported, tokenizer-missing,
 * tokenizer-bad-merge, tokenizer-merge-unknown, tokenizer-bad-pattern; "tokenizer.json": tokenizer-not-json).
 */
export declare function loadTokenizer(source: string | object): Tokenizer;

/** One file of a checkpoint folder: its name, its size and a way to read a byte range of it. */
export interface CheckpointSource {
  name: string;
  size: number;
  read(begin: number, end: number): Promise<Uint8Array>;
}

/** A tensor of a checkpoint's run: its shape and its float32 values, row-major. */
export interface CheckpointTensor {
  shape: number[];
  data: Float32Array;
}

/** The sizes of an opened checkpoint, from its config.json. */
export interface CheckpointSizes {
  family: 'gpt2' | 'llama' | 'qwen2';
  layers: number;
  heads: number;
  /** Key-value heads (grouped-query attention); GPT-2: the same as heads. */
  kvHeads: number;
  dModel: number;
  headDim: number;
  vocab: number;
  /** The most tokens a run reads (n_positions, max_position_embeddings). */
  maxTokens: number;
  /** Whether the q, k and v projections add a bias: GPT-2 and Qwen2 always, Llama with attention_bias. */
  qkvBias: boolean;
}

/** A checkpoint's forward on token ids, every intermediate kept. */
export interface CheckpointRun {
  ids: number[];
  /**
   * The run's own tensors. GPT-2: tokenEmbeddings, positionEmbeddings, residual0, lnF, logits [T, V],
   * probs [V]; Llama and Qwen2: tokenEmbeddings, ropeCos, ropeSin [T, headDim], normF, logits, probs.
   */
  tensors: Record<string, CheckpointTensor>;
  /**
   * Each layer's tensors. Both families: Q [H, T, hd], K and V [H_kv, T, hd] (Q and K after RoPE in Llama and
   * Qwen2), scores, scaled, weights [H, T, T], headOutputs, concat, attnOut, residual, mlpAct, mlpOut, output;
   * GPT-2: ln1, ln2; Llama and Qwen2: norm1, qBeforeRope, kBeforeRope, norm2, mlpGate, mlpUp, mlpGated.
   */
  layers: Record<string, CheckpointTensor>[];
  headScores: {
    /** [layer][head]: the mean over i ≥ 1 of weights[h, i, i − 1]; null for one token. */
    previousToken: number[][] | null;
    /** [layer][head]: the mean over positions with an induction target of weights[h, i, target]; null without one. */
    induction: number[][] | null;
    /** Per position: the token after the earlier run that best matches the tokens ending here, or −1. */
    inductionTargets: number[];
  };
}

/** An opened checkpoint (openCheckpoint): its weights live in a wasm instance of its own. */
export interface CheckpointModel {
  readonly sizes: CheckpointSizes;
  /** Bytes read from the files (the headers and the tensors the forward needs), and the weights files' size. */
  readonly bytesRead: number;
  readonly fileBytes: number;
  /** The folder's tokenizer.json, or null (load it with loadTokenizer). */
  readonly tokenizerJson: string | null;
  /**
   * The forward of `ids`. Throws AttentionConfigError on "ids" / "ids[i]" (out of range, too many, not whole).
   * `options.tensors` names the tensors to return, the run's and each layer's (default: all; an unknown name
   * throws on "options.tensors"); the logits of every position are computed only when "logits" is among them.
   */
  run(ids: number[], options?: { tensors?: string[] }): CheckpointRun;
  /** Lets the weights go. */
  close(): void;
}

/**
 * Opens a Hugging Face checkpoint folder (config.json, model.safetensors or its shards, tokenizer.json) from its
 * files, reading each shard's header and then only the tensors the forward needs. GPT-2, Llama and Qwen2, in
 * float32, float16 or bfloat16. Throws AttentionConfigError naming the file or the config.json key at fault.
 */
export declare function openCheckpoint(
  sources: CheckpointSource[],
  options?: { onProgress?: (progress: { read: number; total: number }) => void },
): Promise<CheckpointModel>;

/** A File or Blob (a file picker's, a drop's) as a CheckpointSource. */
export declare function fileSource(file: Blob & { name: string }): CheckpointSource;
