// Opening a Hugging Face checkpoint folder (config.json, model.safetensors or
// its shards, tokenizer.json when present) from its files, reading only what
// the model needs: each shard's header, then each wanted tensor's byte range,
// handed to the checkpoint wasm as it arrives (cpp/core/checkpoint_loader.h).
//
//   const model = await openCheckpoint(files.map(fileSource));   // the page: File objects
//   const model = await openCheckpoint(await directorySources(dir));  // Node: node-files.js
//   model.sizes      // {family, layers, heads, kvHeads, dModel, headDim, vocab, maxTokens, qkvBias}
//   model.run([15496, 995]).layers[0].weights   // {shape: [H, T, T], data: Float32Array}
import { AttentionConfigError, AttentionEngineError, parseEngineJson } from '../errors.js';
import { copyArrays } from '../wasm-arrays.js';
import { createCheckpointInstance } from './engine.js';

/**
 * One file of a checkpoint folder; readInto(begin, end, target) is optional (it reads into target()'s bytes).
 * @typedef {{ name: string, size: number, read(begin: number, end: number): Promise<Uint8Array>,
 *   readInto?(begin: number, end: number, target: () => Uint8Array): Promise<void> }} CheckpointSource
 */

/**
 * A Blob or File (the page's file picker, a drop) as a CheckpointSource: each range read by slice().
 * A weights range is streamed into wasm memory a chunk at a time, so the page never holds a range
 * twice (a GPT-2 small's token embeddings alone are 147 MiB) beside the weights it fills.
 */
export const fileSource = (file) => ({
  name: file.name,
  size: file.size,
  read: async (begin, end) => new Uint8Array(await file.slice(begin, end).arrayBuffer()),
  async readInto(begin, end, target) {
    const reader = file.slice(begin, end).stream().getReader();
    let at = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      target().set(chunk.value, at);
      at += chunk.value.length;
    }
    // The file is shorter than its header said (it changed since): the piece would be partly unread.
    if (at !== end - begin)
      throw AttentionConfigError.of(file.name, 'weights-file-too-short', {
        bytes: String(begin + at),
        need: String(end),
      });
  },
});

const WEIGHTS = /\.safetensors$/;
// The safetensors format's limit on a header's length.
const MAX_HEADER = 100_000_000;
const baseName = (name) => name.split(/[\\/]/).pop();

/** A wasm call's JSON outcome, its error thrown as the AttentionConfigError it names. */
function checked(text) {
  const outcome = parseEngineJson(text);
  if (!outcome.ok) {
    const { field, message, code, params } = outcome.error;
    throw new AttentionConfigError(field, message, code, params);
  }
  return outcome;
}

/** A safetensors file's first 8 + N bytes: its length and its JSON header. */
async function readHeader(source) {
  if (source.size < 8) return source.read(0, source.size);
  const length = new DataView((await source.read(0, 8)).buffer).getBigUint64(0, true);
  // A header longer than the format allows (100 MB) is not read whole: the engine then says the file is short.
  const end = Math.min(source.size, 8 + Number(length > BigInt(MAX_HEADER) ? BigInt(MAX_HEADER) : length));
  return source.read(0, end);
}

/**
 * Bytes [begin, end) of `source` into the Uint8Array `target()` gives: by the source's own
 * readInto when it has one (a file on disk read straight into wasm memory), else read, then copied.
 */
async function readInto(source, begin, end, target) {
  if (source.readInto) return source.readInto(begin, end, target);
  const bytes = await source.read(begin, end);
  target().set(bytes);
}

/** The sources' config.json as text, or an error naming it. */
async function configText(sources) {
  const config = sources.find((s) => baseName(s.name) === 'config.json');
  if (!config) throw AttentionConfigError.of('config.json', 'checkpoint-no-config');
  return new TextDecoder().decode(await config.read(0, config.size));
}

/**
 * Opens the checkpoint whose folder's files are `sources` (CheckpointSource[];
 * other files than config.json, tokenizer.json and *.safetensors are ignored).
 * `onProgress({read, total})` is told the bytes read so far of the weights planned.
 */
export async function openCheckpoint(sources, { onProgress = () => {} } = {}) {
  const text = await configText(sources);
  const shards = sources.filter((s) => WEIGHTS.test(s.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  const tokenizer = sources.find((s) => baseName(s.name) === 'tokenizer.json');
  const wasm = await createCheckpointInstance();
  let bytesRead = 0;
  try {
    checked(wasm.setConfig(text));
    for (const shard of shards) {
      const head = await readHeader(shard);
      bytesRead += head.length;
      checked(wasm.addShard(baseName(shard.name), head, shard.size));
    }
    const { sizes, pieces } = checked(wasm.plan());
    const total = pieces.reduce((sum, [, begin, end]) => sum + end - begin, 0);
    let weightBytes = 0;
    for (const [k, [shard, begin, end]] of pieces.entries()) {
      const { offset, length } = checked(wasm.stage(k));
      // The view is made after the read: wasm memory does not grow meanwhile, but a view made
      // before an earlier growth would be detached.
      await readInto(shards[shard], begin, end, () => new Uint8Array(wasm.HEAPU8.buffer, offset, length));
      checked(wasm.commit(k));
      weightBytes += end - begin;
      onProgress({ read: weightBytes, total });
    }
    checked(wasm.finish());
    bytesRead += weightBytes;
    const fileBytes = shards.reduce((sum, s) => sum + s.size, 0);
    return new CheckpointModel(wasm, sizes, {
      bytesRead,
      fileBytes,
      tokenizerJson: tokenizer ? new TextDecoder().decode(await tokenizer.read(0, tokenizer.size)) : null,
    });
  } catch (error) {
    if (error instanceof AttentionConfigError) throw error;
    throw AttentionEngineError.of('checkpoint-failed', error); // a trap: the instance is dropped with this function
  }
}

/** An opened checkpoint: its sizes, and its forward on token ids. */
class CheckpointModel {
  #wasm;

  constructor(wasm, sizes, { bytesRead, fileBytes, tokenizerJson }) {
    this.#wasm = wasm;
    /** {family, layers, heads, kvHeads, dModel, headDim, vocab, maxTokens} */
    this.sizes = Object.freeze(sizes);
    /** Bytes read from the files (headers and the wanted tensors), and the weights files' bytes. */
    this.bytesRead = bytesRead;
    this.fileBytes = fileBytes;
    /** tokenizer.json's text, when the folder has one. */
    this.tokenizerJson = tokenizerJson;
  }

  /**
   * The forward of `ids` (whole numbers in [0, vocab), 1 to maxTokens of them):
   * {ids, tensors: {name: {shape, data}}, layers: [{name: {shape, data}}, ...], headScores}, where
   * headScores is {previousToken, induction} (per layer, per head; null where undefined on these ids) and
   * inductionTargets (per position, the earlier position an induction head would attend to, or −1).
   * options.tensors: the names to return, of the run's tensors and of each layer's (default: all); the logits of
   * every position are computed only when "logits" is among them (probs needs the last position's alone).
   */
  run(ids, options = {}) {
    if (!this.#wasm) throw AttentionConfigError.of('checkpoint', 'checkpoint-step-order', { step: 'run' });
    if (!Array.isArray(ids) && !ArrayBuffer.isView(ids)) {
      throw AttentionConfigError.of('ids', 'wrong-type', { field: 'ids', expected: 'an array', got: typeof ids });
    }
    const list = Array.from(ids);
    const bad = list.findIndex((id) => !Number.isInteger(id));
    if (bad >= 0)
      throw AttentionConfigError.of(`ids[${bad}]`, 'not-whole', { field: `ids[${bad}]`, got: String(list[bad]) });
    const names = options?.tensors;
    if (names !== undefined && names !== null && (!Array.isArray(names) || !names.every((n) => typeof n === 'string')))
      throw AttentionConfigError.of('options.tensors', 'tensors-not-array', { field: 'options.tensors' });
    let outcome;
    try {
      outcome = parseEngineJson(this.#wasm.run(list, names ? names.join(',') : '*'));
    } catch (error) {
      this.#wasm = null; // a trap leaves the instance unusable: open the model again
      throw AttentionEngineError.of('checkpoint-failed', error);
    }
    if (!outcome.ok) return checked(JSON.stringify(outcome));
    const { ids: read, tensors, layers, headScores } = copyArrays(outcome, this.#wasm);
    return { ids: read, tensors, layers, headScores };
  }

  /** Lets the weights go (the instance and its memory). */
  close() {
    this.#wasm = null;
  }
}
