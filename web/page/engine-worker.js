// Runs the engine off the main thread, so a 512-token run never freezes the
// page. Messages: {id, config, options} -> {id, ok, result | error}; fatal
// when the engine cannot load here, so the page runs it itself instead.
// Tensor buffers are transferred, not copied.
import { loadAttentionLab } from '../api/index.js';

self.onmessage = async ({ data: { id, config, options } }) => {
  let lab;
  try {
    lab = await loadAttentionLab(); // the same instance each time, or its fresh replacement
  } catch (error) {
    self.postMessage({ id, ok: false, fatal: true, error: { field: 'engine', message: error.message } });
    return;
  }
  try {
    const result = lab.run(config, options);
    // An alias (dropped = weights when p = 0) shares its buffer: list each once.
    const buffers = [...new Set(Object.values(result.tensors).map((t) => t.data.buffer))];
    self.postMessage({ id, ok: true, result }, buffers);
  } catch (error) {
    const { field = 'engine', code, params, message } = error;
    self.postMessage({ id, ok: false, error: { field, code, params, message } });
  }
};
