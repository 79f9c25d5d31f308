// Runs the engine off the main thread, so a 512-token run never freezes the
// page. Messages: {id, config, options} -> {id, ok, result | error}.
// Tensor buffers are transferred, not copied.
import { loadAttentionLab } from '../api/index.js';

const labPromise = loadAttentionLab();

self.onmessage = async ({ data: { id, config, options } }) => {
  try {
    const lab = await labPromise;
    const result = lab.run(config, options);
    const buffers = Object.values(result.tensors).map((t) => t.data.buffer);
    self.postMessage({ id, ok: true, result }, buffers);
  } catch (error) {
    self.postMessage({ id, ok: false, error: { field: error.field ?? 'config', message: error.message } });
  }
};
