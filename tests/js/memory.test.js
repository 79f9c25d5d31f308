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
