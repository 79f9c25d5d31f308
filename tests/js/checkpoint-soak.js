// The soak of checkpoint.test.js, in a process of its own (run with
// --expose-gc): 30 GPT-2 checkpoints of zero weights, each with a 16 MiB token
// embedding in its own wasm memory, opened and run one after another, each
// closed ("close") or all kept ("keep"); prints how much the RSS grew, in MiB.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directorySources } from '../../web/api/checkpoint/node-files.js';
import { openCheckpoint } from '../../web/api/checkpoint/open.js';

/**
 * A GPT-2 folder of zero weights (a safetensors file written here) whose token
 * embedding alone is `vocab` × 64 float32s: a model big enough that keeping it shows.
 */
function zeroGpt2Folder(vocab) {
  const d = 64;
  const shapes = {
    'wte.weight': [vocab, d],
    'wpe.weight': [16, d],
    'h.0.ln_1.weight': [d],
    'h.0.ln_1.bias': [d],
    'h.0.attn.c_attn.weight': [d, 3 * d],
    'h.0.attn.c_attn.bias': [3 * d],
    'h.0.attn.c_proj.weight': [d, d],
    'h.0.attn.c_proj.bias': [d],
    'h.0.ln_2.weight': [d],
    'h.0.ln_2.bias': [d],
    'h.0.mlp.c_fc.weight': [d, 4 * d],
    'h.0.mlp.c_fc.bias': [4 * d],
    'h.0.mlp.c_proj.weight': [4 * d, d],
    'h.0.mlp.c_proj.bias': [d],
    'ln_f.weight': [d],
    'ln_f.bias': [d],
  };
  const header = {};
  let offset = 0;
  for (const [name, shape] of Object.entries(shapes)) {
    const bytes = 4 * shape.reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const text = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  const dir = mkdtempSync(join(tmpdir(), 'attention-lab-zero-gpt2-'));
  writeFileSync(join(dir, 'model.safetensors'), Buffer.concat([length, text, Buffer.alloc(offset)]));
  const config = { model_type: 'gpt2', n_layer: 1, n_head: 1, n_embd: d, n_positions: 16, vocab_size: vocab };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

const dir = zeroGpt2Folder(65536);
const kept = [];
async function open() {
  const model = await openCheckpoint(await directorySources(dir));
  if (model.run([1, 2, 3]).tensors.probs.shape[0] !== 65536) throw new Error('the run has the wrong shape');
  if (process.argv[2] === 'keep') kept.push(model);
  else model.close();
}
for (let k = 0; k < 3; k++) await open(); // the compiled module and the first allocations
globalThis.gc();
const before = process.memoryUsage().rss;
for (let k = 0; k < 30; k++) await open();
globalThis.gc();
await new Promise((resolve) => setTimeout(resolve, 50));
globalThis.gc();
process.stdout.write(String((process.memoryUsage().rss - before) / 2 ** 20));
