// attention-lab decode | flash: the two steppers (lab.decode, lab.flash) as
// readable tables in the language of --lang, or as JSON (--json).
import { float32Text } from '../model/export.js';

/** The flags only these commands take (parseArgs options; help: cli.option.<name>). */
// (--json, which they take too, is one of the CLI's own flags: a run with --model tiny takes it as well.)
export const STEPPER_OPTIONS = {
  decode: {},
  flash: {
    'tile-queries': { type: 'string', value: 'N' },
    'tile-keys': { type: 'string', value: 'N' },
  },
};

/** The command's options for lab.decode / lab.flash from the flags (--batch, --head, --tile-*): numbers, or as typed. */
export function stepperOptions(command, values) {
  const options = {};
  const flags =
    command === 'flash'
      ? { batch: 'batch', head: 'head', tileQueries: 'tile-queries', tileKeys: 'tile-keys' }
      : { batch: 'batch' };
  for (const [key, flag] of Object.entries(flags)) {
    if (values[flag] === undefined) continue;
    options[key] = /^-?\d+$/.test(values[flag]) ? Number(values[flag]) : values[flag];
  }
  return options;
}

/**
 * A stepper's tensors for --format npz, each with its shape (as web/api/index.d.ts
 * gives them): decode's cache rows and per-step weights, flash's running
 * statistics per tile and its output beside the plain softmax's.
 */
export function stepperTensors(command, result) {
  const shapes =
    command === 'decode'
      ? (({ S, H, H_kv: Hkv, headDim: dk }) => ({
          newKeys: [S, Hkv, dk],
          newValues: [S, Hkv, dk],
          scores: [S, H, S],
          weights: [S, H, S],
          fullWeights: [S, H, S],
          isCausalOneQuery: [S, S],
        }))(result.sizes)
      : (({ S, headDim: dk, tileQueries }, T) => ({
          runningMax: [T, tileQueries],
          runningSum: [T, tileQueries],
          rescale: [T, tileQueries],
          partialOutput: [T, tileQueries, dk],
          output: [S, dk],
          plain: [S, dk],
        }))(result.sizes, result.tiles.length);
  return Object.fromEntries(Object.entries(shapes).map(([name, shape]) => [name, { shape, data: result[name] }]));
}

/** The flag an option error of the steppers belongs to ("options.tileKeys" -> "--tile-keys"), or null. */
export function stepperFlagOf(field) {
  const flags = {
    'options.batch': '--batch',
    'options.head': '--head',
    'options.tileQueries': '--tile-queries',
    'options.tileKeys': '--tile-keys',
  };
  // Own keys only: a config key such as "constructor" is a field name, not a flag.
  return Object.hasOwn(flags, field) ? flags[field] : null;
}

// A value as the tables print it: 4 decimals, "—" for NaN (no value there), ±∞.
const cell = (v) => (Number.isNaN(v) ? '—' : v === -Infinity ? '-∞' : v === Infinity ? '∞' : v.toFixed(4));

// East Asian wide and fullwidth characters (Han, Kana, Hangul, fullwidth forms): two terminal columns each.
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;

/** How many terminal columns `text` takes: 2 for a wide character, 1 for any other. */
export const terminalColumns = (text) => [...text].reduce((sum, ch) => sum + (WIDE.test(ch) ? 2 : 1), 0);

const padColumns = (text, columns) => text + ' '.repeat(Math.max(0, columns - terminalColumns(text)));

/** Rows of cells as text columns, each as wide (in terminal columns) as its widest cell. */
export function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => terminalColumns(String(row[c] ?? '')))));
  return rows
    .map((row) =>
      row
        .map((x, c) => padColumns(String(x ?? ''), widths[c]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** lab.decode's result as text: one line per step (head `head`'s weights over the cache). */
export function decodeText(t, d, head = 0) {
  const { S, H, H_kv: Hkv, headDim } = d.sizes;
  const rows = [
    [
      t('cli.steppers.step'),
      t('cli.steppers.token'),
      t('cli.steppers.cache'),
      'MHA',
      'GQA',
      'MQA',
      t('cli.steppers.weights', { head }),
    ],
  ];
  for (let step = 0; step < S; step++) {
    const row = d.weights.subarray((step * H + head) * S, (step * H + head) * S + step + 1);
    rows.push([
      step,
      d.tokens[step] ?? '',
      step + 1,
      d.cacheBytes.mha[step],
      d.cacheBytes.gqa[step],
      d.cacheBytes.mqa[step],
      Array.from(row, cell).join(' '),
    ]);
  }
  const oneQuery = Array.from({ length: S }, (_, step) => d.isCausalOneQuery[step * S]).every((w) => w === 1);
  return [
    t('cli.steppers.decodeTitle', { S, H, Hkv, headDim }),
    t('cli.steppers.bytesNote'),
    '',
    table(rows),
    '',
    t('cli.steppers.identicalRows', { identical: d.identicalRows, rows: d.rows }),
    t(oneQuery ? 'cli.steppers.isCausal' : 'cli.steppers.isCausalSink', { token: d.tokens[0] ?? '0' }),
  ].join('\n');
}

/** lab.flash's result as text: one line per tile and row (m, ℓ, α), then the comparison with the plain softmax. */
export function flashText(t, f, head = 0) {
  const { tileQueries } = f.sizes;
  const rows = [
    [t('cli.steppers.tile'), t('cli.steppers.queries'), t('cli.steppers.keys'), t('cli.steppers.row'), 'm', 'ℓ', 'α'],
  ];
  f.tiles.forEach((tile, k) => {
    const span = (a, b) => (b - a > 1 ? `${a}–${b - 1}` : `${a}`);
    const where = [k, span(tile.queryStart, tile.queryEnd), span(tile.keyStart, tile.keyEnd)];
    if (tile.skipped) return rows.push([...where, '', '', '', '', t('cli.steppers.skipped')]);
    for (let r = 0; r < tile.queryEnd - tile.queryStart; r++) {
      const at = k * tileQueries + r;
      rows.push([
        ...(r === 0 ? where : ['', '', '']),
        tile.queryStart + r,
        cell(f.runningMax[at]),
        cell(f.runningSum[at]),
        cell(f.rescale[at]),
      ]);
    }
  });
  return [
    t('cli.steppers.flashTitle', { head, tileQueries, tileKeys: f.sizes.tileKeys, count: f.tiles.length }),
    '',
    table(rows),
    '',
    t('cli.steppers.difference', {
      difference: f.maxAbsDifference.toExponential(2),
      identical: f.identical,
      total: f.total,
    }),
    t('cli.steppers.why'),
  ].join('\n');
}

/** A stepper's result as JSON: typed arrays as arrays of float32 text, non-finite numbers by `nonFinite`. */
export function stepperJson(result, { pretty, nonFinite }) {
  const number = (v) => (Number.isFinite(v) ? float32Text(v) : nonFinite(v));
  const write = (value, indent) => {
    const inner = pretty ? `${indent}  ` : '';
    const nl = pretty ? '\n' : '';
    if (value instanceof Float32Array) return `[${Array.from(value, number).join(',')}]`;
    if (Array.isArray(value))
      return `[${nl}${value.map((v) => inner + write(v, inner)).join(`,${nl}`)}${nl}${pretty ? indent : ''}]`;
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value).map(
        ([k, v]) => `${inner}${JSON.stringify(k)}:${pretty ? ' ' : ''}${write(v, inner)}`,
      );
      return `{${nl}${entries.join(`,${nl}`)}${nl}${pretty ? indent : ''}}`;
    }
    return typeof value === 'number' && !Number.isFinite(value) ? nonFinite(value) : JSON.stringify(value);
  };
  return `${write(result, '')}\n`;
}
