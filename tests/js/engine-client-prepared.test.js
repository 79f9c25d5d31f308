// The page's and each element's engine client run the edits of the config
// they show from one prepared state (lab.prepare), on this thread and in the
// worker (its message handling, engine-calls.js, run as the worker runs it),
// with lab.run's numbers; what a client no longer shows is released.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { createEngineCalls } from '../../web/view/host/engine-calls.js';
import { createEngineClient } from '../../web/view/host/engine-client.js';

let lab;
let prepares = 0;
beforeAll(async () => {
  lab = await loadAttentionLab();
  const prepare = lab.prepare;
  lab.prepare = (config) => {
    prepares++;
    return prepare.call(lab, config);
  };
});
afterEach(() => {
  prepares = 0;
});

/** A worker stand-in that handles its messages with engine-calls.js, the answers cloned as postMessage clones them. */
function workerOf(calls, sent = []) {
  return () => {
    const worker = {
      postMessage(data) {
        sent.push(data.method ?? 'run');
        calls.answer(structuredClone(data), (message) => worker.onmessage({ data: structuredClone(message) }));
      },
      terminate() {},
    };
    return worker;
  };
}

const edited = (config, value) => ({ ...config, weights: { edits: { W_V: [[1, 2, value]] } } });
const outputOf = (result) => Array.from(result.tensors.output.data);

describe('engine client: prepared runs', () => {
  test('on this thread: a run, two edits and the steppers prepare once, with lab.run’s numbers', async () => {
    const client = createEngineClient({ workerFactory: null });
    const config = { text: 'the cat sat on the mat', dModel: 8, numHeads: 2, mask: 'causal' };
    for (const shown of [config, edited(config, 0.5), edited(config, -2)])
      expect(outputOf(await client.run(shown))).toEqual(outputOf(lab.run(shown)));
    expect(await client.stepper('decode', edited(config, -2))).toEqual(lab.decode(edited(config, -2)));
    expect(prepares).toBe(1);
    // Another sentence prepares again.
    const retyped = { ...edited(config, -2), text: 'the cat sat on the red mat' };
    expect(outputOf(await client.run(retyped))).toEqual(outputOf(lab.run(retyped)));
    expect(prepares).toBe(2);
    client.release();
  });

  test('in the worker: each client its own prepared state, released when the client releases or runs here', async () => {
    const calls = createEngineCalls();
    const sent = [];
    const factory = workerOf(calls, sent);
    const [first, second] = [
      createEngineClient({ workerFactory: factory }),
      createEngineClient({ workerFactory: factory }),
    ];
    const large = { text: 'the cat sat on the mat', dModel: 512, numHeads: 8, mask: 'causal' };
    for (const shown of [large, edited(large, 0.5), edited(large, 3)])
      expect(outputOf(await first.run(shown))).toEqual(outputOf(lab.run(shown)));
    const flashOptions = { head: 2, tileQueries: 2, tileKeys: 2 };
    expect((await first.stepper('flash', edited(large, 3), flashOptions)).output).toEqual(
      lab.flash(edited(large, 3), flashOptions).output,
    );
    expect(prepares).toBe(1);
    expect(calls.sessions).toBe(1);
    await second.run(large);
    expect(calls.sessions).toBe(2);
    expect(prepares).toBe(2);
    // The first client goes small (this thread): its worker state is released; the second releases its own.
    const small = { ...large, dModel: 8, numHeads: 2 };
    expect(outputOf(await first.run(small))).toEqual(outputOf(lab.run(small)));
    expect(calls.sessions).toBe(1);
    second.release();
    expect(calls.sessions).toBe(0);
    expect(sent.filter((method) => method === 'release')).toHaveLength(2);
    first.release();
  });

  test('errors are lab.run’s in both places', async () => {
    const client = createEngineClient({ workerFactory: workerOf(createEngineCalls()) });
    const bad = (config) => ({ ...config, weights: { edits: { W_V: [[9999, 0, 1]] } } });
    for (const config of [
      { text: 'a b c', dModel: 8, numHeads: 2 },
      { text: 'a b c', dModel: 512, numHeads: 8 },
    ]) {
      await client.run(config);
      await expect(client.run(bad(config))).rejects.toMatchObject({
        field: 'weights.edits.W_V[0]',
        code: 'edit-row-outside',
      });
      expect(outputOf(await client.run(config))).toEqual(outputOf(lab.run(config)));
    }
    client.release();
  });
});
