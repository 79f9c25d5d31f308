// A result of our wasm glues (JSON text) made into plain JS values: each
// {"$array": {offset, length}} (a range of the instance's memory, valid until
// its next call) copied into a Float32Array of its own, each
// {"$number": "NaN" | "Infinity" | "-Infinity"} made that number.

/** `outcome` with its arrays copied out of `module`'s memory; an outcome with ok false is returned as it is. */
export function copyArrays(outcome, module) {
  if (!outcome.ok) return outcome;
  const memory = module.HEAPU8.buffer;
  const copy = (value) => {
    if (Array.isArray(value)) return value.map(copy);
    if (value === null || typeof value !== 'object') return value;
    if (value.$array) return new Float32Array(memory, value.$array.offset, value.$array.length).slice();
    if (value.$number) return Number(value.$number);
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, copy(v)]));
  };
  return copy(outcome);
}
