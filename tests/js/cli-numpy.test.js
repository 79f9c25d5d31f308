// The CLI's output read back in NumPy (Debian's python3-numpy, run by /usr/bin/python3): the .npz
// (--format npz) and the JSON with non-finite numbers as strings (--nonfinite strings) give the same
// float32 arrays, bit for bit, with -inf where the causal mask blocks and NaN where the scores
// overflowed (the "nan-rows" warning), and every printed number parses back to its float32.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { run } from './cli-run.js';
import { OVERFLOWING_SCORES } from './edges.js';

// scale 1e30 overflows the scores to +inf: the causal mask's first row keeps only that +inf, and
// softmax of it is NaN (as in PyTorch); the other rows keep -inf where the mask blocks.
const CONFIG = { ...OVERFLOWING_SCORES, mask: 'causal' };

// Loads both files; per tensor: shape, dtype, how many NaN / -inf / +inf, and whether the JSON
// read with np.array(data, dtype=np.float32) equals the .npz array (NaN where NaN is).
const READ_BACK = `
import json, sys
import numpy as np
npz = np.load(sys.argv[1])
with open(sys.argv[2]) as f:
    data = json.load(f)
out = {}
for name, tensor in data["tensors"].items():
    from_json = np.array(tensor["data"], dtype=np.float32).reshape(tensor["shape"])
    a = npz[name]
    out[name] = {
        "shape": list(a.shape), "dtype": str(a.dtype), "order": "C" if a.flags.c_contiguous else "F",
        "nan": int(np.isnan(a).sum()), "neginf": int(np.isneginf(a).sum()), "posinf": int(np.isposinf(a).sum()),
        "json_dtype": str(from_json.dtype),
        "equal": bool(np.array_equal(from_json, a, equal_nan=True)),
        "same_bits": bool((from_json.view(np.uint32) == a.view(np.uint32))[~np.isnan(a)].all()),
        "flat": [None if not np.isfinite(v) else float(v) for v in a.flatten()[:64]],
    }
print(json.dumps({"names": sorted(npz.files), "tensors": out}))
`;

describe('CLI: a round trip into NumPy', () => {
  test('--format npz and --nonfinite strings JSON read back in NumPy as the same float32 arrays, -inf and NaN kept', async () => {
    const dir = mkdtempSync(`${tmpdir()}/attention-lab-numpy-`);
    const npz = await run(['--config', '-', '--format', 'npz', '--output', `${dir}/run.npz`], JSON.stringify(CONFIG));
    expect(npz.stderr).toBe('');
    expect(npz.status).toBe(0);
    const json = await run(
      ['--config', '-', '--nonfinite', 'strings', '-o', `${dir}/run.json`],
      JSON.stringify(CONFIG),
    );
    expect(json.status).toBe(0);
    const printed = JSON.parse(readFileSync(`${dir}/run.json`, 'utf8'));
    expect(printed.warnings.map((w) => w.code)).toEqual(['nan-rows']);

    // The engine's own numbers, in process, for the same config.
    const lab = await loadAttentionLab();
    const { tensors } = lab.run(CONFIG);
    for (const [name, tensor] of Object.entries(tensors)) {
      // Every printed number is the float32's shortest text: it parses back to the same bits.
      const read = printed.tensors[name].data.map((v) => (typeof v === 'string' ? Number(v) : Math.fround(v)));
      expect(
        new Uint32Array(Float32Array.from(read).buffer).filter((_, k) => !Number.isNaN(read[k])),
        name,
      ).toEqual(new Uint32Array(tensor.data.buffer).filter((_, k) => !Number.isNaN(tensor.data[k])));
      expect(read.map(Number.isNaN), name).toEqual(Array.from(tensor.data, Number.isNaN));
    }

    const python = spawnSync('/usr/bin/python3', ['-', `${dir}/run.npz`, `${dir}/run.json`], {
      input: READ_BACK,
      encoding: 'utf8',
    });
    expect(python.stderr).toBe('');
    const numpy = JSON.parse(python.stdout);
    expect(numpy.names).toEqual(Object.keys(tensors).sort());
    for (const [name, tensor] of Object.entries(tensors)) {
      const got = numpy.tensors[name];
      const count = (test) => Array.from(tensor.data).filter(test).length;
      expect(got, name).toMatchObject({
        shape: tensor.shape,
        dtype: 'float32',
        json_dtype: 'float32',
        order: 'C',
        nan: count(Number.isNaN),
        neginf: count((v) => v === -Infinity),
        posinf: count((v) => v === Infinity),
        equal: true,
        same_bits: true,
      });
      const first = Array.from(tensor.data.subarray(0, 64), (v) => (Number.isFinite(v) ? v : null));
      expect(got.flat, name).toEqual(first);
    }
    // What the config is for: -inf in masked (the causal mask), NaN in weights (the overflow).
    expect(numpy.tensors.masked.neginf).toBe(3);
    expect(numpy.tensors.scaled.posinf).toBeGreaterThan(0);
    expect(numpy.tensors.weights.nan).toBeGreaterThan(0);
    expect(statSync(`${dir}/run.npz`).size).toBeLessThan(statSync(`${dir}/run.json`).size * 4);
  });

  test('--nonfinite null keeps the old output: null where the strings say NaN or ±Infinity, NaN in NumPy', async () => {
    const args = ['--config', '-', '--tensors', 'masked,weights'];
    const out = await run([...args, '--nonfinite', 'null'], JSON.stringify(CONFIG));
    expect(out.status).toBe(0);
    expect(out.stdout.slice(out.stdout.indexOf('"tensors":'))).not.toMatch(/Infinity|NaN/);
    const nulls = JSON.parse(out.stdout).tensors;
    const strings = JSON.parse((await run(args, JSON.stringify(CONFIG))).stdout).tensors; // the default
    for (const name of ['masked', 'weights']) {
      expect(nulls[name].data.map((v) => v === null)).toEqual(strings[name].data.map((v) => typeof v === 'string'));
      expect(nulls[name].data).toContain(null);
    }
    const python = spawnSync(
      '/usr/bin/python3',
      ['-c', 'import json, sys, numpy as np; print(int(np.isnan(np.array(json.load(sys.stdin), np.float32)).sum()))'],
      { input: JSON.stringify(nulls.masked.data), encoding: 'utf8' },
    );
    expect(Number(python.stdout)).toBe(nulls.masked.data.filter((v) => v === null).length); // -inf lost: NaN
  });

  test('a larger run: every number is the shortest text of its float32, well under 17-digit printing', async () => {
    const text = Array.from({ length: 128 }, (_, k) => `w${k}`).join(' ');
    const out = await run(['--text', text, '--d-model', '64', '--heads', '4', '--mask', 'causal']);
    expect(out.status).toBe(0);
    const { tensors } = (await loadAttentionLab()).run({ text, dModel: 64, numHeads: 4, mask: 'causal' });
    const printed = JSON.parse(out.stdout).tensors;
    let numbers = 0;
    for (const [name, tensor] of Object.entries(tensors)) {
      const read = Float32Array.from(printed[name].data, Number); // "-Infinity" -> -Infinity
      expect(new Uint32Array(read.buffer), name).toEqual(new Uint32Array(tensor.data.buffer));
      numbers += read.length;
    }
    expect(numbers).toBeGreaterThan(300000);
    // The same output with each number as JavaScript prints the double (up to 17 digits, the old way).
    const seventeen = out.stdout.replace(/(?<=[[,])-?\d[\d.e+-]*(?=[\],])/g, (t) => String(Math.fround(Number(t))));
    console.log(`128 tokens, dModel 64: ${out.stdout.length} bytes shortest, ${seventeen.length} with 17 digits`);
    expect(out.stdout.length).toBeLessThan(0.65 * seventeen.length);
  });
});
