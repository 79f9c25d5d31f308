// npm run bench:checkpoint: opening a GPT-2-small-shaped checkpoint (124M
// random weights, ~520 MB as float32, written by tests/reference/gpt2/random_small.py
// with the real GPT-2 tokenizer.json beside it) and running 30 tokens through
// it: the CLI (the engine's wasm under Node) against PyTorch 1.13 reading the
// same file (tests/reference/gpt2/run_folder.py, the reference model.py),
// alternating, with the median wall time and peak memory (RSS) of each and
// their ratio. Both must predict the same next token. Prints figures; asserts
// nothing else.
//
//   node web/scripts/bench-checkpoint.js [ROUNDS]     (default 3)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const folder = join(root, 'build', 'bench-gpt2-small');
const rounds = Number(process.argv[2] ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!existsSync(join(folder, 'model.safetensors'))) {
  mkdirSync(folder, { recursive: true });
  console.log(`writing a GPT-2-small-shaped random checkpoint into ${folder} …`);
  execFileSync('/usr/bin/python3', ['random_small.py', folder], { cwd: join(root, 'tests/reference/gpt2') });
  execFileSync(process.execPath, [join(root, 'tests/reference/gpt2/gpt2-tokenizer.js'), folder]);
}

const ids = JSON.stringify(Array.from({ length: 30 }, (_, i) => (i * 997) % 50257));
const contestants = {
  'attention-lab CLI (wasm)': {
    command: [process.execPath, join(root, 'web/cli/attention-lab.js'), '--model-dir', folder, '--ids', ids],
    cwd: root,
    next: (out) => /\(id, probability\): (\d+) /.exec(out)?.[1],
  },
  'PyTorch 1.13 (model.py)': {
    command: ['/usr/bin/python3', 'run_folder.py', folder, ids],
    cwd: join(root, 'tests/reference/gpt2'),
    next: (out) => out.trim(),
  },
};

/** One timed run: wall seconds and peak RSS (MiB) from /usr/bin/time, and the predicted next id. */
function timed({ command, cwd, next }) {
  const out = spawnSync('/usr/bin/time', ['-f', '@@ %e %M', ...command], { cwd, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`${command.join(' ')}: ${out.stderr}`);
  const [, seconds, kib] = /@@ (\S+) (\d+)/.exec(out.stderr);
  return { seconds: Number(seconds), mib: Number(kib) / 1024, next: next(out.stdout) };
}

const results = Object.fromEntries(Object.keys(contestants).map((name) => [name, []]));
for (let round = 0; round < rounds; round++)
  for (const [name, contestant] of Object.entries(contestants)) results[name].push(timed(contestant));

console.log(`\nOpen a 124M-parameter GPT-2 (${folder}) and run 30 tokens; median of ${rounds}, alternating:`);
for (const [name, runs] of Object.entries(results))
  console.log(
    `  ${name.padEnd(26)} ${median(runs.map((r) => r.seconds)).toFixed(2)} s   peak RSS ${median(runs.map((r) => r.mib)).toFixed(0)} MiB   next token ${runs[0].next}`,
  );
const [ours, peer] = Object.values(results);
console.log(
  `  ours / PyTorch: time ${(median(ours.map((r) => r.seconds)) / median(peer.map((r) => r.seconds))).toFixed(2)}×, ` +
    `memory ${(median(ours.map((r) => r.mib)) / median(peer.map((r) => r.mib))).toFixed(2)}×`,
);
if (ours[0].next !== peer[0].next) {
  console.error(`the next tokens differ: ours ${ours[0].next}, PyTorch ${peer[0].next}`);
  process.exitCode = 1;
}
