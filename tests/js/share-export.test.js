// Share-link encoding and the export formats, in Node.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { DEFAULT_FORM, formToConfig } from '../../web/page/controls.js';
import { float32Text, resultToNpyZip, toCsv, toJson, toLatex, toNumpy } from '../../web/page/export.js';
import { decodeState, encodeState, ShareLinkError } from '../../web/page/share.js';

describe('share links', () => {
  test('round trip of a form and edits, compactly', async () => {
    const state = {
      form: { ...DEFAULT_FORM, text: 'the cat <img src=x> 猫\nsecond line', numHeads: 4, mask: 'causal', dropoutP: '0.1' },
      edits: { weights: { W_Q: { 0: 1.5, 9: -0.25 } }, embedding: { cat: { 2: 3 } } },
    };
    const fragment = await encodeState(state);
    expect(fragment).toMatch(/^s=v1\.[A-Za-z0-9_-]+$/);
    expect(fragment.length).toBeLessThan(200);
    expect(await decodeState(`#${fragment}`)).toEqual(state);
  });

  test.each([
    ['not ours', '#hello', 'does not hold an Attention Lab state'],
    ['another version', '#s=v9.abc', 'has version "v9"'],
    ['not base64url', '#s=v1.<script>alert(1)</script>', 'not base64url'],
    ['not deflate', '#s=v1.AAAA', 'damaged'],
    ['too long', `#s=v1.${'A'.repeat(1_100_000)}`, 'too long'],
  ])('rejects %s', async (_, fragment, message) => {
    await expect(decodeState(fragment)).rejects.toThrow(ShareLinkError);
    await expect(decodeState(fragment)).rejects.toThrow(message);
  });

  test.each([
    ['an unknown setting', { f: { evil: 1 } }, 'unknown setting "evil"'],
    ['a wrong type', { f: { qkvBias: 'yes' } }, 'wrong type'],
    ['an unknown weight', { f: {}, e: { w: { W_X: { 0: 1 } } } }, 'unknown weight "W_X"'],
    ['a non-numeric edit', { f: {}, e: { w: { W_Q: { 0: 'alert(1)' } } } }, 'must be a finite number'],
    ['a bad index', { f: {}, e: { w: { W_Q: { '__proto__x': 1 } } } }, 'invalid index'],
    ['a JSON array', [1, 2], 'does not hold'],
  ])('rejects a well-formed link with %s', async (_, state, message) => {
    const bytes = new TextEncoder().encode(JSON.stringify(state));
    const compressed = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
    const fragment = `#s=v1.${Buffer.from(compressed).toString('base64url')}`;
    await expect(decodeState(fragment)).rejects.toThrow(message);
  });
});

describe('exports', () => {
  const m = {
    name: 'W_Q', data: new Float32Array([0.1, -2, Number.NEGATIVE_INFINITY, Number.NaN, 1e-8, 3]), offset: 0, rows: 2, cols: 3, rowStride: 3,
    rowLabels: ['=cmd', 'a,b'], colLabels: ['d0', 'd1', 'd2'],
  };

  test('float32 numbers are written in their shortest exact form', () => {
    expect(float32Text(Math.fround(0.1))).toBe('0.1');
    for (const v of [Math.fround(Math.PI), Math.fround(-1e-7), Math.fround(123456.789)]) expect(Math.fround(Number(float32Text(v)))).toBe(v);
  });

  test('CSV quotes labels and defuses spreadsheet formulas', () => {
    expect(toCsv(m)).toBe(",d0,d1,d2\n'=cmd,0.1,-2,-Infinity\n\"a,b\",NaN,1e-8,3\n");
  });

  test('JSON, LaTeX and NumPy', () => {
    expect(JSON.parse(toJson(m))).toEqual({ name: 'W_Q', shape: [2, 3], rowLabels: ['=cmd', 'a,b'], colLabels: ['d0', 'd1', 'd2'], data: [[0.1, -2, '-Infinity'], ['NaN', 1e-8, 3]] });
    expect(toLatex(m, 2)).toBe('\\begin{bmatrix}\n  0.10 & -2.00 & -\\infty \\\\\n  \\text{NaN} & 0.00 & 3.00\n\\end{bmatrix}');
    expect(toNumpy(m)).toBe('W_Q = np.array([\n    [0.1, -2, -np.inf],\n    [np.nan, 1e-8, 3],\n], dtype=np.float32)');
  });

  test('the NumPy literal and the .npy zip read back in NumPy with the same numbers', async () => {
    const lab = await loadAttentionLab();
    const result = lab.run({ ...formToConfig(DEFAULT_FORM), mask: 'causal' });
    const dir = mkdtempSync(`${tmpdir()}/attention-lab-npy-`);
    writeFileSync(`${dir}/tensors.zip`, Buffer.from(await resultToNpyZip(result).arrayBuffer()));
    const masked = result.tensors.masked;
    const literal = toNumpy({ name: 'masked', data: masked.data, offset: 0, rows: 8, cols: 8, rowStride: 8, rowLabels: [], colLabels: [] });
    const script = `
import json, sys, zipfile, io
import numpy as np
${literal}
with zipfile.ZipFile(sys.argv[1]) as z:
    arrays = {name[:-4]: np.load(io.BytesIO(z.read(name))) for name in z.namelist()}
print(json.dumps({"names": sorted(arrays), "shapes": {k: list(v.shape) for k, v in arrays.items()},
                  "dtype": str(arrays["weights"].dtype),
                  "weights": arrays["weights"].flatten().tolist(),
                  "literal_equal": bool(np.array_equal(masked, arrays["masked"][0, 0]))}))
`;
    const out = spawnSync('/usr/bin/python3', ['-', `${dir}/tensors.zip`], { input: script, encoding: 'utf8' });
    expect(out.stderr).toBe('');
    const read = JSON.parse(out.stdout);
    expect(read.names).toEqual(Object.keys(result.tensors).sort());
    expect(read.shapes.scores).toEqual(result.tensors.scores.shape);
    expect(read.dtype).toBe('float32');
    expect(read.weights).toEqual(Array.from(result.tensors.weights.data));
    expect(read.literal_equal).toBe(true);
  });
});
