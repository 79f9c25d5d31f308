// The page's engine client and the tiny trained model: loadTinyModel loads the
// weights into this thread's engine, and a run with model "tiny" goes there,
// never to the worker, whatever the other (ignored) fields say.
import { describe, expect, test } from 'vitest';
import index from '../../web/api/tiny/index.json';
import { createEngineClient, estimateWork } from '../../web/view/host/engine-client.js';

describe('engine client and the tiny model', () => {
  test('loadTinyModel, then a run here; the errors come back as {field, code, params, message}', async () => {
    const posted = [];
    const client = createEngineClient({
      workerFactory: () => ({ postMessage: (message) => posted.push(message), terminate() {} }),
    });
    await expect(client.loadTinyModel(1000)).resolves.toEqual({ step: 1000, bytes: index.checkpoints[0].bytes });
    // dModel 512 would send an attention run to the worker; the tiny model ignores it and runs here.
    const config = { model: 'tiny', checkpoint: 1000, text: 'abcd abcd', dModel: 512, numHeads: 8 };
    expect(estimateWork(config)).toBe(0);
    const result = await client.run(config);
    expect(result.model).toBe('tiny');
    // "abcd abcd": the copy after the space, 5 … 8, looks at the byte after its earlier copy, 1 … 4.
    expect(result.headScores.repeatTargets).toEqual([-1, -1, -1, -1, -1, 1, 2, 3, 4]);
    expect(result.warnings.map((w) => w.code)).toEqual(['model-ignores-fields']);
    expect(posted).toEqual([]);
    await expect(client.loadTinyModel(999)).rejects.toMatchObject({ field: 'checkpoint', code: 'checkpoint-unknown' });
    await expect(client.run({ model: 'tiny', checkpoint: 1250, text: 'ab' })).rejects.toMatchObject({
      field: 'checkpoint',
      code: 'checkpoint-not-loaded',
      params: { step: '1250' },
    });
  });
});
