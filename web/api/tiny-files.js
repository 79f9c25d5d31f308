// The tiny model's files (weights, wasm), wherever they are read from (tiny-weights.js
// in Node and the site, tiny-weights.single.js in the one-file builds).

/** "step-0500.safetensors": checkpoint `step`'s weights file, as tests/reference/tiny/train.py names it. */
export const weightsFileName = (step) => `step-${String(step).padStart(4, '0')}.safetensors`;

/** The bytes of the file at `url`, fetched. */
export async function fetchTinyFile(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  return new Uint8Array(await response.arrayBuffer());
}
