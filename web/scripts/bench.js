// npm run bench: the engine against onnxruntime-web and native Eigen on the
// same attention, against the wasm SIMD128 peak, and the page's figures,
// each with its target (TARGETS below). Prints figures; asserts nothing but
// that every contestant computes the same output.
//
//   node web/scripts/bench.js          the full run (a few minutes)
//   node web/scripts/bench.js --tiny   every section on tiny sizes, in seconds (BENCH_TINY=1 too)
//
// Needs: build.sh native-bench wasm wasm-bench, and the built dist/ (vite build).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as ort from 'onnxruntime-web';
import { encodeConfig, loadAttentionLab } from '../api/index.js';
import { PreparedRuns } from '../api/prepared-runs.js';
import { editsFromJson, withEdits } from '../model/edits.js';
import { attentionModel } from './onnx-attention.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tiny = process.argv.includes('--tiny') || process.env.BENCH_TINY === '1';

// [S, D, H]: the issue's sizes, or tiny ones that still cover both target rules.
const CASES = tiny
  ? [
      [5, 4, 1],
      [16, 32, 2],
    ]
  : [
      [5, 4, 1],
      [32, 64, 4],
      [128, 512, 8],
      [512, 768, 12],
    ];
const ROUNDS = tiny ? 2 : 7; // alternating blocks per contestant
const BLOCK_MS = tiny ? 20 : 200; // calls per block: at least this long (and 3 calls)
const RELATIVE_TOLERANCE = 1e-4; // of the outputs' largest magnitude

// The targets (issue "Speed, round two"), each printed with holds or MISSED.
const TARGETS = {
  ortPrepared: 1.5, // × onnxruntime-web at S ≤ 32: prepared runs, a new X every call
  ortLarge: 1.45, // × onnxruntime-web at S 512 / D 768, the plain call
  peakLarge: 0.88, // of the wasm SIMD128 mul+add peak measured in the same run, S 512 / D 768
  sse: 0.85, // × plain Eigen -msse4.2 at D 768 (the first speed issue's, kept)
  coldLoadMs: 150, // the page's cold load to the first result, median
  editMs: 8, // a weight edit to the laid-out page, median
  keystrokeMs: 100, // a keystroke at 512 tokens × dModel 768 × 12 heads to the rendered page
  longestTaskMs: 50, // no main-thread task longer, until the page is idle
  startBytes: 160_000, // what the main page fetches at start, gzip -9
};
const isLarge = ([S, D]) => S === 512 && D === 768;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmtMs = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const verdict = (holds) => (holds ? 'holds' : 'MISSED');
const fmtRatio = (r) => `${r >= 0.1 ? r.toFixed(2) : r.toPrecision(2)}×`;

// ---- the wasm SIMD128 peak -------------------------------------------------
const peakRun = JSON.parse(
  execFileSync(process.execPath, [`${root}build/wasm/simd_peak.js`, tiny ? '0.2' : '2'], { encoding: 'utf8' }),
);
const peak = peakRun.gflops;

console.log(`Attention Lab benchmark${tiny ? ' (--tiny: tiny sizes, few repeats)' : ''}`);
console.log(`  ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores; Node ${process.version}; single thread`);
console.log(
  `\nwasm SIMD128 mul+add peak: ${peak.toFixed(1)} GFLOP/s (${peakRun.chains} independent f32x4 mul+add chains)`,
);

// ---- the contest -------------------------------------------------------------
// Our engine, onnxruntime-web (wasm backend, 1 thread, files from
// node_modules) and the natives on the same attention:
//   output = softmax(X·W_Q (X·W_K)ᵀ / sqrt(dk)) X·W_V per head, concatenated, ·W_O + b_O
ort.env.wasm.numThreads = 1;
ort.env.wasm.wasmPaths = pathToFileURL(`${root}node_modules/onnxruntime-web/dist/`).href;
ort.env.logLevel = 'error';

const lab = await loadAttentionLab();
const flopsOf = ([S, D, H]) => 2 * S * D * 3 * D + 2 * H * S * S * (D / H) * 2 + 2 * S * D * D;
const configOf = ([S, D, H]) => ({
  text: Array.from({ length: S }, (_, i) => `w${i}`).join(' '),
  dModel: D,
  numHeads: H,
  weights: { qkvBias: true }, // the ONNX graph and the Eigen program add b_Q, b_K, b_V too
});
const WEIGHT_NAMES = ['W_Q', 'W_K', 'W_V', 'b_Q', 'b_K', 'b_V', 'W_O', 'b_O'];

function worstDifference(actual, expected) {
  let worst = 0;
  let largest = 0;
  for (let i = 0; i < expected.length; i++) {
    worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
    largest = Math.max(largest, Math.abs(expected[i]));
  }
  return { worst, relative: worst / largest };
}

// The case file of cpp/bench/eigen_attention.cpp: S, D, H, X, the weights, our output.
function writeCaseFile(path, [S, D, H], tensors) {
  const parts = [Int32Array.of(S, D, H), tensors.X.data, ...WEIGHT_NAMES.map((n) => tensors[n].data)];
  parts.push(tensors.output.data);
  writeFileSync(path, Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
}

const NATIVES = [
  ['Eigen -msse4.2', 'bench_eigen_attention_sse42'],
  ['Eigen -march=native', 'bench_eigen_attention_march_native'],
  ['engine -msse4.2', 'attention_lab_bench_sse42'],
  ['engine -march=native', 'attention_lab_bench_march_native'],
];
const nativeBlock = (program, args) =>
  JSON.parse(execFileSync(`${root}build/native/${program}`, args, { encoding: 'utf8' }));

// The median ms per call of one block: calls for at least BLOCK_MS (and 3 calls).
async function timeBlock(call) {
  const times = [];
  const start = performance.now();
  while (times.length < 3 || performance.now() - start < BLOCK_MS) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return median(times);
}

const scratch = mkdtempSync(join(tmpdir(), 'attention-lab-bench-'));
const results = [];
try {
  console.log(
    "\nCorrectness first: every contestant on our engine's X and weights, worst |difference| from our output",
  );
  for (const size of CASES) {
    const [S, D, H] = size;
    const config = configOf(size);
    const { tensors } = lab.run(config);
    const expected = tensors.output.data;

    const session = await ort.InferenceSession.create(
      attentionModel({ S, D, H }, Object.fromEntries(WEIGHT_NAMES.map((n) => [n, tensors[n].data]))),
      { executionProviders: ['wasm'], graphOptimizationLevel: 'all' },
    );
    const feeds = { X: new ort.Tensor('float32', tensors.X.data, [1, S, D]) };
    const ortDiff = worstDifference((await session.run(feeds)).output.data, expected);
    // The prepared run gets a new X on every call, as onnxruntime-web does: the config's X and a second one,
    // alternately (a result kept for an X seen before would be no run). Both checked against onnxruntime-web.
    const prepared = lab.prepare(config);
    const xs = [tensors.X.data, tensors.X.data.map((v, i) => 0.5 * v + Math.sin(i))];
    const xFeeds = xs.map((x) => ({ X: new ort.Tensor('float32', x, [1, S, D]) }));
    const preparedOptions = xs.map((x) => ({ tensors: ['output'], x }));
    const preparedDiffs = [];
    for (let k = 0; k < 2; k++) {
      const ortOutput = (await session.run(xFeeds[k])).output.data;
      preparedDiffs.push(worstDifference(prepared.run(preparedOptions[k]).tensors.output.data, ortOutput));
    }
    const preparedSame = prepared.run({ tensors: ['output'] }).tensors.output.data.every((v, i) => v === expected[i]);
    const casePath = join(scratch, `case-${S}-${D}-${H}.bin`);
    writeCaseFile(casePath, size, tensors);
    const eigenDiffs = NATIVES.slice(0, 2).map(([, program]) => nativeBlock(program, [casePath, '0']).worstDiff);
    const largest = expected.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    console.log(
      `  ${`${S}/${D}/${H}`.padEnd(11)} onnxruntime-web ${ortDiff.worst.toExponential(2)} (relative ${ortDiff.relative.toExponential(2)})` +
        `; Eigen -msse4.2 ${eigenDiffs[0].toExponential(2)}, -march=native ${eigenDiffs[1].toExponential(2)}` +
        `; prepared, 2 new X vs onnxruntime-web ${preparedDiffs.map((d) => d.worst.toExponential(2)).join(', ')}`,
    );
    if (!preparedSame) {
      console.error(`bench: the prepared run differs from lab.run at S/D/H ${S}/${D}/${H}; stopping`);
      process.exit(1);
    }
    const worstRelative = Math.max(
      ortDiff.relative,
      ...eigenDiffs.map((d) => d / largest),
      ...preparedDiffs.map((d) => d.relative),
    );
    if (!(worstRelative <= RELATIVE_TOLERANCE)) {
      console.error(`bench: the contestants disagree at S/D/H ${S}/${D}/${H} (relative ${worstRelative}); stopping`);
      process.exit(1);
    }

    // Alternating blocks, the median of each contestant's block medians: first the wasm contestants in this
    // process, each round in another order (ours, prepared, onnxruntime-web; prepared, onnxruntime-web, ours;
    // ...), then the native programs. The natives run apart: a wasm block right after a native program's
    // process measured up to 1.5x slower (32/64/4 prepared: 45 µs blocks became 64-69 µs), which no wasm
    // contestant should pay for another.
    const times = { ours: [], prepared: [], ort: [] };
    for (const [name] of NATIVES) times[name] = [];
    const configJson = JSON.stringify(config);
    const outputOnly = { tensors: ['output'] };
    let call = 0; // prepared and onnxruntime-web alternate between the two X
    const wasmContestants = [
      ['ours', () => lab.run(config, outputOnly)],
      ['prepared', () => prepared.run(preparedOptions[call++ & 1])],
      ['ort', () => session.run(xFeeds[call++ & 1])],
    ];
    for (let round = 0; round < ROUNDS; round++)
      for (let k = 0; k < wasmContestants.length; k++) {
        const [name, run] = wasmContestants[(round + k) % wasmContestants.length];
        times[name].push(await timeBlock(run));
      }
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, program] of NATIVES) {
        const args = program.startsWith('bench_eigen') ? [casePath, String(BLOCK_MS)] : [configJson, String(BLOCK_MS)];
        times[name].push(nativeBlock(program, args).median);
      }
    await session.release();
    prepared.dispose();
    results.push({ size, ms: Object.fromEntries(Object.entries(times).map(([name, ts]) => [name, median(ts)])) });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const CONTESTANTS = [
  ['ours (wasm, output)', 'ours'],
  ['ours prepared, new X', 'prepared'],
  ['onnxruntime-web', 'ort'],
  ...NATIVES.map(([name]) => [name, name]),
];
console.log(
  `\nAttention, B 1, float32, 1 thread: median ms per call | GFLOP/s | % of the wasm peak (${ROUNDS} alternating rounds)`,
);
console.log('  engine -*: our C++ engine natively, all intermediates (it has no output-only mode);');
console.log("  the natives' % is of the wasm peak too, for scale (their own SSE/AVX2 peak is higher)");
console.log(
  `  ${'S/D/H'.padEnd(12)}${'GFLOP'.padStart(9)}  ${CONTESTANTS.map(([label]) => label.padEnd(27))
    .join('')
    .trimEnd()}`,
);
for (const { size, ms } of results) {
  const flops = flopsOf(size);
  const cells = CONTESTANTS.map(([, key]) => {
    const gflops = flops / ms[key] / 1e6;
    return `${fmtMs(ms[key]).padStart(9)} ${gflops.toFixed(2).padStart(6)} ${`${((100 * gflops) / peak).toFixed(0)}%`.padStart(4)}     `;
  });
  console.log(`  ${size.join('/').padEnd(12)}${(flops / 1e9).toFixed(4).padStart(9)}  ${cells.join('').trimEnd()}`);
}

console.log(
  `\nSpeed ratios, ours (wasm) / theirs; targets: ≥ ${TARGETS.ortPrepared}× onnxruntime-web at S ≤ 32 for prepared runs (a new X every call),`,
);
console.log(
  `≥ ${TARGETS.ortLarge}× onnxruntime-web and ≥ ${100 * TARGETS.peakLarge}% of the SIMD peak at 512/768, ≥ ${TARGETS.sse}× plain Eigen -msse4.2 at D 768`,
);
for (const { size, ms } of results) {
  const [S, D] = size;
  const vsOrt = ms.ort / ms.ours;
  const preparedVsOrt = ms.ort / ms.prepared;
  const vsSse = ms['Eigen -msse4.2'] / ms.ours;
  const vsNative = ms['Eigen -march=native'] / ms.ours;
  const ofPeak = flopsOf(size) / ms.ours / 1e6 / peak;
  const ortText = isLarge(size)
    ? ` (target ≥ ${TARGETS.ortLarge}×: ${verdict(vsOrt >= TARGETS.ortLarge)}); ${(100 * ofPeak).toFixed(0)}% of the peak (target ≥ ${100 * TARGETS.peakLarge}%: ${verdict(ofPeak >= TARGETS.peakLarge)})`
    : '';
  const preparedText =
    S <= 32 ? ` (target ≥ ${TARGETS.ortPrepared}×: ${verdict(preparedVsOrt >= TARGETS.ortPrepared)})` : ' (no target)';
  const sseText = D === 768 ? ` (target ≥ ${TARGETS.sse}×: ${verdict(vsSse >= TARGETS.sse)})` : '';
  console.log(
    `  ${size.join('/').padEnd(12)} vs onnxruntime-web ${fmtRatio(vsOrt)}${ortText}; prepared vs onnxruntime-web ${fmtRatio(preparedVsOrt)}${preparedText};`,
  );
  console.log(
    `  ${''.padEnd(12)} vs Eigen -msse4.2 ${fmtRatio(vsSse)}${sseText}; vs Eigen -march=native ${fmtRatio(vsNative)}; prepared / plain call ${fmtRatio(ms.ours / ms.prepared)}`,
  );
}
console.log(`  wasm memory after the runs: ${(lab.memoryBytes / 2 ** 20).toFixed(0)} MiB`);

// ---- the matrix product alone ----------------------------------------------
console.log('');
console.log(
  execFileSync(process.execPath, [`${root}build/wasm/gemm_bench.js`, tiny ? '0.05' : '1'], {
    encoding: 'utf8',
  }).trimEnd(),
);

// ---- one weight edit -----------------------------------------------------------
// It travels as [row, col, value], so the config stays small and the run costs
// what a run without the edit costs.
{
  const config = { text: 'He sat by the bank of the river', dModel: tiny ? 64 : 768, numHeads: tiny ? 4 : 12 };
  const edited = withEdits(config, editsFromJson({ weights: { W_Q: [[0, 5, 0.5]] } }));
  // Each once first (the draws cached, the code warm), then alternating blocks: timed cold, the first block
  // came out 12× slower than the second.
  lab.run(config);
  lab.run(edited);
  const blocks = { plain: [], withEdit: [] };
  for (let round = 0; round < 3; round++) {
    blocks.plain.push(await timeBlock(() => lab.run(config)));
    blocks.withEdit.push(await timeBlock(() => lab.run(edited)));
  }
  const [plain, withEdit] = [median(blocks.plain), median(blocks.withEdit)];
  const bytes = (c) => encodeConfig(c).json.length;
  console.log(`\nOne weight edit, dModel ${config.dModel}, ${config.numHeads} heads, default sentence, all tensors`);
  console.log(
    `  config ${bytes(edited)} bytes (without the edit ${bytes(config)}); run ${fmtMs(withEdit)} vs ${fmtMs(plain)} without: ratio ${(withEdit / plain).toFixed(2)}`,
  );
}

// ---- a stream of weight edits, as the page runs them -----------------------------
// The page's and the element's runs go through PreparedRuns: an edit updates the prepared state and
// recomputes from Q on (W_Q), against lab.run on the edited config (parse, draw, every projection). Each
// call edits the cell to a new value, so every call computes; both give the same numbers (checked).
{
  const [S, D, H] = tiny ? [32, 64, 4] : [512, 768, 12];
  const config = { text: Array.from({ length: S }, (_, i) => `w${i}`).join(' '), dModel: D, numHeads: H };
  const runs = new PreparedRuns(lab);
  const options = { tensors: ['output'] };
  let value = 0;
  const nextEdit = () => withEdits(config, editsFromJson({ weights: { W_Q: [[0, 5, (value += 0.125)]] } }));
  const same = runs.run(nextEdit(), options).tensors.output.data;
  const plainOutput = lab.run(withEdits(config, editsFromJson({ weights: { W_Q: [[0, 5, value]] } })), options);
  if (!same.every((v, i) => Object.is(v, plainOutput.tensors.output.data[i]))) {
    console.error('bench: an edit through the prepared state differs from lab.run; stopping');
    process.exit(1);
  }
  const times = { prepared: [], plain: [] };
  for (let round = 0; round < 3; round++) {
    times.prepared.push(await timeBlock(() => runs.run(nextEdit(), options)));
    times.plain.push(await timeBlock(() => lab.run(nextEdit(), options)));
  }
  runs.release();
  const [prepared, plain] = [median(times.prepared), median(times.plain)];
  console.log(`
A stream of W_Q edits at S ${S}, dModel ${D}, ${H} heads (the output; medians of 3 alternating blocks)`);
  console.log(
    `  through the prepared state (the page's path) ${fmtMs(prepared)} vs lab.run on the edited config ${fmtMs(plain)}: ${(plain / prepared).toFixed(2)}× faster`,
  );
}

// ---- the page, in headless Chromium --------------------------------------------
const { benchColdLoad, benchPageEdit, benchLargeKeystroke } = await import('./bench-page.js');
console.log('\nPage (dist/, Vite preview server, headless Chromium)');
const cold = await benchColdLoad({ loads: tiny ? 2 : 10 });
console.log(
  `  cold load to the first result: median ${cold.median.toFixed(0)} ms of ${cold.loads} (min ${cold.min.toFixed(0)}, max ${cold.max.toFixed(0)}); target < ${TARGETS.coldLoadMs} ms: ${verdict(cold.median < TARGETS.coldLoadMs)}`,
);
const edit = await benchPageEdit({ edits: tiny ? 5 : 40 });
console.log(
  `  edit W_Q[0][0] to layout, default example: median ${edit.median.toFixed(2)} ms of ${edit.edits} (target < ${TARGETS.editMs} ms: ${verdict(edit.median < TARGETS.editMs)}), ` +
    `p90 ${edit.p90.toFixed(2)} ms`,
);
console.log(
  `    of which: engine ${edit.computeMedian.toFixed(2)} ms, DOM render ${edit.renderMedian.toFixed(2)} ms (medians)`,
);
const large = await benchLargeKeystroke({ keystrokes: tiny ? 1 : 5 });
console.log(
  `  keystroke at 512 tokens × dModel 768 × 12 heads, median of ${large.keystrokes}: ${large.total.toFixed(0)} ms to the rendered page (target < ${TARGETS.keystrokeMs} ms: ${verdict(large.total < TARGETS.keystrokeMs)}); ` +
    `longest main-thread task of them all ${large.longestTask.toFixed(0)} ms until the page is idle, ${large.longTasks} over 50 ms (target ≤ ${TARGETS.longestTaskMs} ms: ${verdict(large.longestTask <= TARGETS.longestTaskMs)})`,
);
console.log(`    of which: engine ${large.computeMs.toFixed(0)} ms, render ${large.renderMs.toFixed(0)} ms`);

// ---- weight: what a visitor downloads ----------------------------------------
const { pageWeights } = await import('./bench-size.js');
const weights = pageWeights();
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
console.log('\nWeight (gzip -9)');
console.log(
  `  main page JS + wasm + CSS: ${kb(weights.mainPage)} (${weights.mainPageFiles.length} files); target ≤ ${TARGETS.startBytes / 1000} KB: ${verdict(weights.mainPage <= TARGETS.startBytes)}`,
);
if (weights.workerChunk) console.log(`  + the worker chunk, fetched only for large inputs: ${kb(weights.workerChunk)}`);
if (weights.singleFile) console.log(`  dist/attention-lab.html, the single file: ${kb(weights.singleFile)}`);
