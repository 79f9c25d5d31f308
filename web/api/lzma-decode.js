// Runs the LZMA decoder (cpp/wasm/lzma_decode.cpp, built alone as
// generated/lzma-decode.wasm: no glue, no imports) on an .lzma stream. The
// single-file builds carry the engine's wasm this way (wasm-binary.single.js):
// 115 KB where deflate, which browsers inflate themselves, is 144 KB.
//
// Memory: the decoder's stack and static data fill its first 64 KiB page; the
// input, the output and the probabilities go in pages grown past it, and the
// instance is dropped with them once the output is copied out.

const PAGE = 65536;
const STATUS = ['', 'a bad header', 'a corrupt stream', 'a stream that ends early'];

/** The uncompressed size an .lzma header states (bytes 5-12, little-endian). */
function statedSize(input) {
  let size = 0;
  for (let i = 12; i >= 5; i--) size = size * 256 + input[i];
  return size;
}

/**
 * The bytes of the .lzma stream `input` (a Uint8Array whose header states its
 * size), decoded by the decoder wasm whose bytes are `decoderBytes`.
 */
export async function lzmaDecode(decoderBytes, input) {
  if (input.length < 18) throw new Error('lzma: shorter than its header');
  const size = statedSize(input);
  if (size > 2 ** 31) throw new Error('lzma: the header states no size');
  const { instance } = await WebAssembly.instantiate(decoderBytes);
  const { memory, lzma_decode: decode, lzma_probs_count: probsCount } = instance.exports;
  const inputAt = memory.buffer.byteLength;
  const outAt = inputAt + input.length;
  const probsAt = (outAt + size + 1) & ~1; // Uint16 probabilities, 2-byte aligned
  const end = probsAt + 2 * probsCount(input[0]);
  memory.grow(Math.ceil((end - inputAt) / PAGE));
  new Uint8Array(memory.buffer, inputAt, input.length).set(input);
  const status = decode(inputAt, input.length, outAt, size, probsAt);
  if (status !== 0) throw new Error(`lzma: ${STATUS[status] ?? `status ${status}`}`);
  return new Uint8Array(memory.buffer, outAt, size).slice();
}

/** The bytes a base64 text stands for. */
export const base64Bytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
