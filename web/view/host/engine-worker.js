// Runs the engine off the main thread, so a 512-token run never freezes the
// page. Messages: {id, method (run, decode or flash; default run), config, options}
// -> {id, ok, result | error}; fatal when the engine cannot load here, so the
// page runs it itself instead. Tensor buffers are transferred, not copied.
// {method: "loadTinyModel", config: checkpoint, options: bytes (optional)} loads
// the tiny model's weights into this worker's engine (lab.loadTinyModel).
import { loadAttentionLab } from '../../api/index.js';

const METHODS = new Set(['run', 'decode', 'flash', 'loadTinyModel']);

/** The buffers of every typed array in a result (a run's tensors, a stepper's figures), each once. */
function buffersOf(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value && typeof value === 'object') for (const child of Object.values(value)) buffersOf(child, found);
  return found;
}

self.onmessage = async ({ data: { id, method = 'run', config, options } }) => {
  let lab;
  try {
    lab = await loadAttentionLab(); // the same instance each time, or its fresh replacement
  } catch (error) {
    self.postMessage({ id, ok: false, fatal: true, error: { field: 'engine', message: error.message } });
    return;
  }
  try {
    if (!METHODS.has(method)) throw new Error(`unknown method ${method}`);
    const result = await lab[method](config, options); // loadTinyModel resolves; the others return at once
    // An alias (dropped = weights when p = 0) shares its buffer: list each once.
    self.postMessage({ id, ok: true, result }, [...buffersOf(result)]);
  } catch (error) {
    const { field = 'engine', code, params, message } = error;
    self.postMessage({ id, ok: false, error: { field, code, params, message } });
  }
};
