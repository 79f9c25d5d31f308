// Runs the engine off the main thread, so a 512-token run never freezes the
// page. Messages: {id, config, options, call?} -> {id, ok, result | error}; fatal
// when the engine cannot load here, so the page runs it itself instead.
// Tensor buffers are transferred, not copied.
import { loadAttentionLab } from '../api/index.js';

// `call`: "run" (the default), or a stepper, "decode" or "flash" (plain data and typed arrays).
const CALLS = ['run', 'decode', 'flash'];

self.onmessage = async ({ data: { id, config, options, call = 'run' } }) => {
  let lab;
  try {
    lab = await loadAttentionLab(); // the same instance each time, or its fresh replacement
  } catch (error) {
    self.postMessage({ id, ok: false, fatal: true, error: { field: 'engine', message: error.message } });
    return;
  }
  try {
    const result = lab[CALLS.includes(call) ? call : 'run'](config, options);
    // An alias (dropped = weights when p = 0) shares its buffer: list each once.
    const arrays = result.tensors
      ? Object.values(result.tensors).map((t) => t.data)
      : Object.values(result).filter((v) => v instanceof Float32Array);
    const buffers = [...new Set(arrays.map((data) => data.buffer))];
    self.postMessage({ id, ok: true, result }, buffers);
  } catch (error) {
    const { field = 'engine', code, params, message } = error;
    self.postMessage({ id, ok: false, error: { field, code, params, message } });
  }
};
