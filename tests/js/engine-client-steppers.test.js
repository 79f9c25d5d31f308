// The page's engine client passes lab.decode and lab.flash through: on this
// thread for small configs, in the worker (here a stand-in that answers as
// engine-worker.js does) for large ones.
import { describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { createEngineClient } from '../../web/view/host/engine-client.js';

/** A worker stand-in: runs the call it is sent on the same engine and posts the answer back. */
function fakeWorkerFactory(calls) {
  return () => {
    const worker = {
      postMessage({ id, config, options, method = 'run' }) {
        calls.push(method);
        loadAttentionLab().then((lab) => {
          try {
            worker.onmessage({ data: { id, ok: true, result: lab[method](config, options) } });
          } catch ({ field, code, params, message }) {
            worker.onmessage({ data: { id, ok: false, error: { field, code, params, message } } });
          }
        });
      },
      terminate() {},
    };
    return worker;
  };
}

describe('engine client steppers', () => {
  test('small configs run here, large ones in the worker, with the same results', async () => {
    const calls = [];
    const client = createEngineClient({ workerFactory: fakeWorkerFactory(calls) });
    const lab = await loadAttentionLab();
    const small = { text: 'the cat sat', dModel: 8, numHeads: 2, mask: 'causal' };
    expect((await client.stepper('decode', small)).identicalRows).toBe(6);
    expect(calls).toEqual([]);
    const large = { text: 'the cat sat', dModel: 512, numHeads: 8, mask: 'causal' };
    const viaWorker = await client.stepper('flash', large, { tileQueries: 1, tileKeys: 2, head: 3 });
    expect(calls).toEqual(['flash']);
    expect(viaWorker.output).toEqual(lab.flash(large, { tileQueries: 1, tileKeys: 2, head: 3 }).output);
    const decoded = await client.stepper('decode', large);
    expect(calls).toEqual(['flash', 'decode']);
    expect(decoded.identicalRows).toBe(decoded.rows);
  });

  test('errors reject as {field, code, params, message}', async () => {
    const client = createEngineClient({ workerFactory: null });
    await expect(client.stepper('decode', { text: 'a b' })).rejects.toMatchObject({
      field: 'mask',
      code: 'decode-needs-causal',
    });
    await expect(client.stepper('flash', { text: 'a b' }, { tileKeys: 0 })).rejects.toMatchObject({
      field: 'options.tileKeys',
      code: 'tile-size',
    });
  });
});
