// npm run bench: time per call of the engine, native (C++) vs wasm (Node),
// on the cases in cpp/bench/cases.json. Prints figures; asserts nothing.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encodeConfig, loadAttentionLab } from '../api/index.js';
import { editsFromJson, withEdits } from '../model/edits.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const casesPath = `${root}cpp/bench/cases.json`;
const cases = JSON.parse(readFileSync(casesPath, 'utf8'));

const configOf = (benchCase) => {
  const config = { ...benchCase.config };
  if (benchCase.tokens) config.text = Array.from({ length: benchCase.tokens }, (_, i) => `w${i}`).join(' ');
  return config;
};

// Median time per call, repeating for at least 0.5 s (and 3 calls).
function millisecondsPerCall(fn) {
  const times = [];
  const start = performance.now();
  while (times.length < 3 || performance.now() - start < 500) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const native = JSON.parse(execFileSync(`${root}build/native/attention_lab_bench`, [casesPath], { encoding: 'utf8' }));
const lab = await loadAttentionLab();

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
console.log('Engine time per call (median), native C++ vs WebAssembly in Node');
console.log('case     what                                  native      wasm (all tensors)  wasm (output only)');
for (const benchCase of cases) {
  const config = configOf(benchCase);
  const all = millisecondsPerCall(() => lab.run(config));
  const outputOnly = millisecondsPerCall(() => lab.run(config, { tensors: ['output'] }));
  console.log(
    `${benchCase.name.padEnd(8)} ${benchCase.about.padEnd(37)} ${fmt(native[benchCase.name].msPerCall).padStart(9)}  ` +
      `${fmt(all).padStart(18)}  ${fmt(outputOnly).padStart(18)}`,
  );
}
console.log(`wasm memory after the large case: ${(lab.memoryBytes / 2 ** 20).toFixed(0)} MiB`);

// The matrix product alone: the SIMD128 gemm vs Eigen's, in GFLOP/s
// (build/wasm/gemm_bench.js, built by build.sh wasm-bench).
console.log('');
console.log(execFileSync(process.execPath, [`${root}build/wasm/gemm_bench.js`], { encoding: 'utf8' }).trimEnd());

// One edited weight at dModel 768: it travels as [row, col, value], so the
// config stays small and the run costs what a run without the edit costs.
{
  const config = { text: 'He sat by the bank of the river', dModel: 768, numHeads: 12 };
  const edited = withEdits(config, editsFromJson({ weights: { W_Q: [[0, 5, 0.5]] } }));
  const plain = millisecondsPerCall(() => lab.run(config));
  const withEdit = millisecondsPerCall(() => lab.run(edited));
  const bytes = (c) => encodeConfig(c).json.length;
  console.log('\nOne weight edit, dModel 768, 12 heads, default sentence, all tensors');
  console.log(
    `  config ${bytes(edited)} bytes (without the edit ${bytes(config)}); run ${fmt(withEdit)} vs ${fmt(plain)} without: ratio ${(withEdit / plain).toFixed(2)}`,
  );
}

// The page: edit -> recompute in the worker -> re-render, default example.
const { benchPageEdit } = await import('./bench-page.js');
const page = await benchPageEdit();
console.log(`\nPage, default example, headless Chromium: edit W_Q[0][0] -> re-rendered pipeline`);
console.log(
  `  median ${page.median.toFixed(2)} ms over ${page.edits} edits (min ${page.min.toFixed(2)}, max ${page.max.toFixed(2)}; target < 16 ms)`,
);
console.log(
  `  of which: engine (main thread at this size) ${page.computeMedian.toFixed(2)} ms, DOM render ${page.renderMedian.toFixed(2)} ms`,
);

// Weight: what a visitor downloads.
const { pageWeights } = await import('./bench-size.js');
const weights = pageWeights();
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log('\nWeight (gzip -9):');
console.log(
  `  main page JS + wasm + CSS: ${kb(weights.mainPage)} (target <= 200 KB; ${weights.mainPageFiles.length} files)`,
);
if (weights.workerChunk) console.log(`  + the worker chunk, fetched only for large inputs: ${kb(weights.workerChunk)}`);
console.log(`  dist/attention-lab.html, single file: ${kb(weights.singleFile)} (target <= 300 KB)`);

const { benchLargeKeystroke } = await import('./bench-page.js');
const large = await benchLargeKeystroke();
console.log('\nPage, 512 tokens × dModel 768 × 12 heads: one keystroke');
console.log(
  `  ${large.total.toFixed(0)} ms to the re-rendered page (engine in the worker ${large.computeMs.toFixed(0)} ms, render ${large.renderMs.toFixed(0)} ms); longest main-thread task ${large.longestTask.toFixed(0)} ms`,
);
