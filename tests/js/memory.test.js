// 10,000 runs must not grow wasm memory: every run frees what it allocated
// and nothing Embind-owned is left for JS to delete.
import { expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';

test('no growth of wasm memory over 10,000 runs', async () => {
  const lab = await loadAttentionLab();
  const config = {
    texts: ['the cat sat on the mat', 'a dog'],
    numHeads: 2,
    mask: 'causal+padding',
    dropout: { p: 0.1 },
  };
  for (let i = 0; i < 100; i++) lab.run(config); // warm up: the allocator reaches its steady size
  const before = lab.memoryBytes;
  for (let i = 0; i < 10_000; i++) {
    lab.run({ ...config, seed: i });
    if (i % 1000 === 0) {
      try {
        lab.run({ text: '' }); // errors must not leak either
      } catch {}
    }
  }
  const after = lab.memoryBytes;
  console.log(`wasm memory: ${before} bytes before, ${after} bytes after 10,000 runs`);
  expect(after).toBe(before);
});

// Prepared runs: each prepare holds the config, X, the weights and its last
// result in wasm memory until dispose() frees them. 10,000 cycles of a state
// of about 20 KB (D 32) would take 200 MB if any of it stayed.
test('no growth of wasm memory over 10,000 prepare, run, update, dispose cycles', async () => {
  const lab = await loadAttentionLab();
  const config = { texts: ['the cat sat on the mat', 'a dog'], dModel: 32, numHeads: 4, mask: 'causal+padding' };
  const x = new Float32Array(2 * 6 * 32).map((_, i) => Math.cos(i));
  const cycle = (i) => {
    const prepared = lab.prepare({ ...config, seed: i });
    prepared.run({ tensors: ['output'], x });
    prepared.update({ weights: { W_Q: [[0, 1, i]] }, embedding: [['cat', 0, 1]] });
    prepared.run();
    try {
      prepared.update({ weights: { W_Q: [[0, 99, 1]] } }); // errors must not leak either
    } catch {}
    prepared.dispose();
  };
  for (let i = 0; i < 100; i++) cycle(i); // warm up: the allocator reaches its steady size
  const before = lab.memoryBytes;
  for (let i = 0; i < 10_000; i++) cycle(i);
  const after = lab.memoryBytes;
  console.log(`wasm memory: ${before} bytes before, ${after} bytes after 10,000 prepared cycles`);
  expect(after).toBe(before);
});
