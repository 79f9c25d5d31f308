// What the engine worker (engine-worker.js) does with a message, apart from
// the worker itself, so that tests run it as the worker does.
// Messages: {id, method (run, decode or flash; default run), config, options,
// session} -> {id, ok, result | error}; fatal when the engine cannot load, so
// the page runs it itself instead. With `session` (a client's), run, decode
// and flash go through that client's prepared runs (api/prepared-runs.js);
// {method: "release", session} frees them, with no answer.
// {method: "loadTinyModel", config: checkpoint, options: bytes (optional)} loads
// the tiny model's weights into this engine (lab.loadTinyModel).
import { loadAttentionLab } from '../../api/index.js';
import { preparedRunsOn } from '../../api/prepared-runs.js';

const METHODS = new Set(['run', 'decode', 'flash', 'loadTinyModel']);
const PREPARED = new Set(['run', 'decode', 'flash']);

/** The buffers of every typed array in a result (a run's tensors, a stepper's figures), each once. */
function buffersOf(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value && typeof value === 'object') for (const child of Object.values(value)) buffersOf(child, found);
  return found;
}

/**
 * A handler of the worker's messages: answer(data, post) calls post(message,
 * transfer) once with the answer (not for a release). Each client's prepared
 * runs are kept by its session; a new lab (the engine reloaded) gets new ones.
 */
export function createEngineCalls() {
  const sessions = new Map(); // session -> its PreparedRuns
  const preparedRuns = (session, lab) => {
    const runs = preparedRunsOn(sessions.get(session), lab);
    sessions.set(session, runs);
    return runs;
  };

  return {
    /** The number of clients whose prepared state is kept (for tests). */
    get sessions() {
      return sessions.size;
    },
    async answer({ id, method = 'run', config, options, session }, post) {
      if (method === 'release') {
        sessions.get(session)?.release();
        sessions.delete(session);
        return;
      }
      let lab;
      try {
        lab = await loadAttentionLab(); // the same instance each time, or its fresh replacement
      } catch (error) {
        post({ id, ok: false, fatal: true, error: { field: 'engine', message: error.message } });
        return;
      }
      try {
        if (!METHODS.has(method)) throw new Error(`unknown method ${method}`);
        const target = PREPARED.has(method) && session !== undefined ? preparedRuns(session, lab) : lab;
        const result = await target[method](config, options); // loadTinyModel resolves; the others return at once
        // An alias (dropped = weights when p = 0) shares its buffer: list each once.
        post({ id, ok: true, result }, [...buffersOf(result)]);
      } catch (error) {
        const { field = 'engine', code, params, message } = error;
        post({ id, ok: false, error: { field, code, params, message } });
      }
    },
  };
}
