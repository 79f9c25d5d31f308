// Share-link encoding and the export formats, in Node.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { editsToJson, emptyEdits, setEmbeddingEdit, setWeightEdit } from '../../web/model/edits.js';
import { float32Text, resultToNpz, toCsv, toJson, toLatex, toNumpy } from '../../web/model/export.js';
import { DEFAULT_SETTINGS } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';
import { decodeState, encodeState, readFragment, shareErrorText, ShareLinkError } from '../../web/model/share.js';
import { loadLanguage, translator } from '../../web/i18n/index.js';

await loadLanguage('zh');

const deflated = async (state, version = 'v2') => {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  const compressed = new Uint8Array(
    await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer(),
  );
  return `#s=${version}.${Buffer.from(compressed).toString('base64url')}`;
};

describe('share links', () => {
  test('round trip of settings and edits, compactly', async () => {
    const edits = emptyEdits();
    setWeightEdit(edits, 'W_Q', 0, 0, 1.5);
    setWeightEdit(edits, 'W_Q', 1, 1, -0.25);
    setEmbeddingEdit(edits, 'cat', 2, 3);
    setEmbeddingEdit(edits, '__proto__', 0, 1);
    const state = {
      settings: { text: 'the cat <img src=x> 猫\nsecond line', numHeads: 4, mask: 'causal', 'dropout.p': '0.1' },
      edits,
    };
    const fragment = await encodeState(state);
    expect(fragment).toMatch(/^s=v2\.[A-Za-z0-9_-]+$/);
    expect(fragment.length).toBeLessThan(260);
    const back = await decodeState(`#${fragment}`);
    expect(back.settings).toEqual(state.settings);
    expect(editsToJson(back.edits)).toEqual(editsToJson(edits));
  });

  test('a random input and a vocabulary travel in the link; a wrong form is refused, naming the setting', async () => {
    const settings = { input: { randn: [2, 3, 8] }, contextInput: { randn: [2, 4, 8] }, vocab: ['<pad>', '猫', 'dog'] };
    const back = await decodeState(`#${await encodeState({ settings, edits: emptyEdits() })}`);
    expect(back.settings).toEqual(settings);
    for (const bad of [{ input: 'randn' }, { vocab: [1, 2] }, { input: { randn: ['2'] } }, { 'weights.values': {} }]) {
      const { error } = await readFragment(await deflated({ s: bad }));
      expect(error?.params.setting, JSON.stringify(bad)).toBe(Object.keys(bad)[0]);
    }
  });

  test('per-head sink logits (a list or the form’s text) and RoPE scaling round-trip; a list of text is refused', async () => {
    for (const sinkLogit of [[0.5, -1], '0.5, -1']) {
      const settings = {
        sinkLogit,
        'rope.style': 'rotate-half',
        'rope.scaling.type': 'yarn',
        'rope.scaling.factor': '8',
        'rope.scaling.originalMaxPositions': 64,
      };
      const back = await decodeState(`#${await encodeState({ settings, edits: emptyEdits() })}`);
      expect(back.settings).toEqual(settings);
      expect(configFromSettings(back.settings).sinkLogit).toEqual([0.5, -1]);
    }
    const { error } = await readFragment(await deflated({ s: { sinkLogit: ['0.5', 'x'] } }));
    expect(error?.params.setting).toBe('sinkLogit');
  });

  test('the tokenizer, score, additive hidden size, mask convention and cloned init round-trip', async () => {
    const settings = {
      text: '我爱NLP和AI',
      tokenizer: 'chars',
      score: 'additive',
      additiveHidden: '12',
      maskConvention: 'additive',
      mask: 'causal',
      maskFill: -1e9,
      'weights.init': 'torch-linear-clones',
    };
    const edits = emptyEdits();
    setWeightEdit(edits, 'W_a', 1, 2, 0.5);
    setWeightEdit(edits, 'v_a', 0, 3, -1);
    const back = await decodeState(`#${await encodeState({ settings, edits })}`);
    expect(back.settings).toEqual(settings);
    expect(editsToJson(back.edits)).toEqual(editsToJson(edits));
    // And the config they make runs as the engine reads it.
    const lab = await loadAttentionLab();
    const result = lab.run(configFromSettings(back.settings));
    expect(result.settings).toMatchObject({
      tokenizer: 'chars',
      score: 'additive',
      additiveHidden: 12,
      maskConvention: 'additive',
      'weights.init': 'torch-linear-clones',
    });
    expect(result.tokens).toEqual([['我', '爱', 'N', 'L', 'P', '和', 'A', 'I']]);
    expect(result.tensors.W_a.shape).toEqual([4, 12]);
  });

  test('v1 links (the first page form) still open, edits included', async () => {
    const v1 = {
      f: {
        text: 'I love my cat',
        dModel: 4,
        numHeads: 1,
        init: 'torch-mha',
        scale: 'custom',
        scaleValue: 0.3,
        dropoutP: 0.1,
      },
      e: { w: { W_Q: { 5: 1.5 }, b_Q: { 2: -1 } }, x: { cat: { 1: 3 } } },
    };
    const { settings, edits } = await decodeState(await deflated(v1, 'v1'));
    expect(settings).toEqual({
      text: 'I love my cat',
      dModel: 4,
      numHeads: 1,
      'weights.init': 'torch-mha',
      'weights.qkvBias': false,
      scale: 0.3,
      'dropout.p': 0.1,
    });
    expect(editsToJson(edits)).toEqual({ weights: { W_Q: [[1, 1, 1.5]], b_Q: [[2, -1]] }, embedding: [['cat', 1, 3]] });
  });

  test.each([
    ['not ours', '#hello', 'does not hold an Attention Lab state'],
    ['another version', '#s=v9.abc', 'has version "v9"'],
    ['not base64url', '#s=v2.<script>alert(1)</script>', 'not base64url'],
    ['not deflate', '#s=v2.AAAA', 'damaged'],
    ['too long', `#s=v2.${'A'.repeat(1_100_000)}`, 'too long'],
  ])('rejects %s', async (_, fragment, message) => {
    await expect(decodeState(fragment)).rejects.toThrow(ShareLinkError);
    await expect(decodeState(fragment)).rejects.toThrow(message);
  });

  test('a refused link explains itself in the UI language', async () => {
    const { error } = await readFragment('#s=v7.abc');
    expect(error.code).toBe('version');
    expect(shareErrorText(error, translator('en'))).toContain('version "v7"');
    const zh = shareErrorText(error, translator('zh'));
    expect(zh).toContain('无法读取此链接');
    expect(zh).toContain('“v7”');
    expect(zh).not.toMatch(/link|version/);
  });

  test('a decompression bomb stops inflating at the cap (4 MB of its 50 MB)', async () => {
    const bomb = await deflated({ s: { text: 'a'.repeat(50_000_000) } });
    expect(bomb.length).toBeLessThan(200_000);
    // Every byte the decoder's DecompressionStream hands on, counted.
    const Real = globalThis.DecompressionStream;
    let inflated = 0;
    globalThis.DecompressionStream = function Counted(format) {
      const real = new Real(format);
      const count = new TransformStream({
        transform(chunk, controller) {
          inflated += chunk.length;
          controller.enqueue(chunk);
        },
      });
      return { writable: real.writable, readable: real.readable.pipeThrough(count) };
    };
    try {
      await expect(decodeState(bomb)).rejects.toThrow('too long');
    } finally {
      globalThis.DecompressionStream = Real;
    }
    expect(inflated).toBeGreaterThan(4_000_000);
    expect(inflated).toBeLessThan(8_000_000);
  });

  test.each([
    ['an unknown setting', { s: { evil: 1 } }, 'unknown setting "evil"'],
    ['a field that is not a setting', { s: { 'weights.values': 1 } }, 'unknown setting'],
    ['a wrong type', { s: { 'weights.qkvBias': { yes: 1 } } }, 'wrong type'],
    ['an unknown weight', { s: {}, e: { weights: { W_X: [[0, 0, 1]] } } }, 'unknown weight "W_X"'],
    ['a non-numeric edit', { s: {}, e: { weights: { W_Q: [[0, 0, 'alert(1)']] } } }, 'edit of W_Q is invalid'],
    ['a bad index', { s: {}, e: { weights: { W_Q: [[-1, 0, 1]] } } }, 'edit of W_Q is invalid'],
    ['a bad embedding edit', { s: {}, e: { embedding: [[{}, 0, 1]] } }, 'invalid embedding edit'],
    ['a JSON array', [1, 2], 'does not hold'],
  ])('rejects a well-formed link with %s', async (_, state, message) => {
    await expect(decodeState(await deflated(state))).rejects.toThrow(message);
  });
});

describe('exports', () => {
  const m = {
    name: 'W_Q',
    data: new Float32Array([0.1, -2, Number.NEGATIVE_INFINITY, Number.NaN, 1e-8, 3]),
    offset: 0,
    rows: 2,
    cols: 3,
    rowStride: 3,
    rowLabels: ['=cmd', 'a,b'],
    colLabels: ['d0', 'd1', 'd2'],
  };

  test('float32 numbers are written in their shortest exact form', () => {
    expect(float32Text(Math.fround(0.1))).toBe('0.1');
    expect(float32Text(Math.fround(1 / 3))).toBe('0.33333334');
    expect(float32Text(-0)).toBe('-0.0'); // JSON.parse and Python keep the sign
    expect(float32Text(2 ** -149)).toBe('1e-45'); // the smallest subnormal
    expect(float32Text(Math.fround(3.4028235e38))).toBe('3.4028235e+38');
    expect(float32Text(Math.fround(1e-7))).toBe('1e-7');
    expect(float32Text(16777216)).toBe('16777216');
    // Random bit patterns (every exponent, subnormals included): each text reads back to the same
    // bits, and no shorter decimal does (the search from 1 significant digit up).
    const bits = new Uint32Array(1);
    const value = new Float32Array(bits.buffer);
    let state = 12345;
    for (let k = 0; k < 20000; k++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      bits[0] = state ^ (k << 20);
      const v = value[0];
      if (!Number.isFinite(v)) continue;
      const text = float32Text(v);
      expect(Object.is(Math.fround(Number(text)), v), `${v} -> ${text}`).toBe(true);
      let digits = 1;
      while (Math.fround(Number(v.toPrecision(digits))) !== v) digits++;
      const significant = text
        .replace(/^-/, '')
        .replace(/e.*$/, '')
        .replace('.', '')
        .replace(/^0+|0+$/g, '');
      expect(significant.length, `${v} -> ${text}`).toBeLessThanOrEqual(Math.max(digits, 1));
    }
  });

  test('CSV quotes labels and defuses spreadsheet formulas', () => {
    expect(toCsv(m)).toBe(',d0,d1,d2\n\'=cmd,0.1,-2,-Infinity\n"a,b",NaN,1e-8,3\n');
    // Every start a spreadsheet may run: ASCII, full-width, and DDE's pipe.
    for (const label of ['+1', '-1', '@x', '\tx', '|cmd', '＝1+1', '＋1', '－1', '＠x'])
      expect(toCsv({ ...m, rowLabels: [label, 'b'] }).split('\n')[1]).toMatch(/^"?'/);
    expect(toCsv({ ...m, rowLabels: ['plain', 'b'] }).split('\n')[1]).toMatch(/^plain,/);
  });

  test('JSON, LaTeX and NumPy', () => {
    expect(JSON.parse(toJson(m))).toEqual({
      name: 'W_Q',
      shape: [2, 3],
      rowLabels: ['=cmd', 'a,b'],
      colLabels: ['d0', 'd1', 'd2'],
      data: [
        [0.1, -2, '-Infinity'],
        ['NaN', 1e-8, 3],
      ],
    });
    expect(toLatex(m, 2)).toBe(
      '\\begin{bmatrix}\n  0.10 & -2.00 & -\\infty \\\\\n  \\text{NaN} & 0.00 & 3.00\n\\end{bmatrix}',
    );
    expect(toNumpy(m)).toBe('W_Q = np.array([\n    [0.1, -2, -np.inf],\n    [np.nan, 1e-8, 3],\n], dtype=np.float32)');
  });

  test('the NumPy literal and the .npz read back in NumPy with the same numbers, in valid zip entries', async () => {
    const lab = await loadAttentionLab();
    const result = lab.run(configFromSettings({ ...DEFAULT_SETTINGS, mask: 'causal' }));
    const dir = mkdtempSync(`${tmpdir()}/attention-lab-npz-`);
    writeFileSync(`${dir}/attention-lab.npz`, Buffer.from(await resultToNpz(result).arrayBuffer()));
    const masked = result.tensors.masked;
    const literal = toNumpy({
      name: 'masked',
      data: masked.data,
      offset: 0,
      rows: 8,
      cols: 8,
      rowStride: 8,
      rowLabels: [],
      colLabels: [],
    });
    const script = `
import datetime, json, sys, zipfile
import numpy as np
${literal}
arrays = dict(np.load(sys.argv[1]))
with zipfile.ZipFile(sys.argv[1]) as z:
    bad_crc = z.testzip()
    dates = [datetime.datetime(*info.date_time).isoformat() for info in z.infolist()]
print(json.dumps({"names": sorted(arrays), "shapes": {k: list(v.shape) for k, v in arrays.items()},
                  "dtypes": sorted({str(v.dtype) for v in arrays.values()}),
                  "weights": arrays["weights"].flatten().tolist(),
                  "minus_inf": int(np.isneginf(arrays["masked"]).sum()),
                  "literal_equal": bool(np.array_equal(masked, arrays["masked"][0, 0])),
                  "bad_crc": bad_crc, "dates": sorted(set(dates))}))
`;
    const out = spawnSync('/usr/bin/python3', ['-', `${dir}/attention-lab.npz`], { input: script, encoding: 'utf8' });
    expect(out.stderr).toBe('');
    const read = JSON.parse(out.stdout);
    expect(read.names).toEqual(Object.keys(result.tensors).sort());
    expect(read.shapes.scores).toEqual(result.tensors.scores.shape);
    expect(read.dtypes).toEqual(['float32']);
    expect(read.weights).toEqual(Array.from(result.tensors.weights.data));
    expect(read.minus_inf).toBe(Array.from(masked.data).filter((v) => v === -Infinity).length);
    expect(read.minus_inf).toBeGreaterThan(0);
    expect(read.literal_equal).toBe(true);
    expect(read.bad_crc).toBe(null);
    // One valid date for every entry (datetime() would have refused month 0), today's to the day.
    expect(read.dates).toHaveLength(1);
    expect(Math.abs(Date.parse(read.dates[0]) - Date.now())).toBeLessThan(86400e3);
  });
});
