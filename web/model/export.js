// Export formats for one matrix and for all tensors: CSV, JSON, LaTeX
// bmatrix, NumPy literal, PyTorch's print, and a NumPy .npz (one .npy file per
// tensor in a zip). Pure functions; the page and the CLI share them.
import { torchPrint } from './torch-print.js';

// Exact powers of ten (10^22 is the largest a double holds exactly).
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * The shortest decimal that reads back as the same float32 (0.1f prints
 * "0.1", not 0.10000000149011612), as Math.fround(Number(text)) and NumPy's
 * np.float32(float(text)) read it; "-0.0" keeps the sign of zero in JSON.
 */
export function float32Text(v) {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0';
  const size = Math.abs(v);
  const exponent = Math.floor(Math.log10(size)); // may be one off: the check below decides
  // Six significant digits are always within a float32's precision, so the
  // nearest 6-digit decimal is the shortest one whenever any shorter one reads
  // back (0.5 -> 500000e-6 -> "0.5"); nine digits always read back.
  for (let digits = 6; digits <= 9; digits++) {
    const shift = digits - 1 - exponent; // size * 10^shift has `digits` digits before the point
    if (shift > 22 || shift < -22) break; // subnormals and the extremes: below
    const n = Math.round(shift >= 0 ? size * POW10[shift] : size / POW10[-shift]);
    // One correctly rounded operation: n * 10^-shift as a double, then as a float32.
    if (Math.fround(shift >= 0 ? n / POW10[shift] : n * POW10[-shift]) === size)
      return (v < 0 ? '-' : '') + decimalText(String(n), -shift);
  }
  for (let digits = 1; ; digits++) {
    const text = Number(v.toPrecision(digits));
    if (Math.fround(text) === v) return String(text);
  }
}

// The integer `digits` times 10^exponent as JavaScript writes numbers:
// trailing zeros dropped, an exponent below 1e-6 and from 1e21.
function decimalText(digits, exponent) {
  let end = digits.length;
  while (end > 1 && digits[end - 1] === '0') end--;
  const point = digits.length + exponent; // how many digits stand before the decimal point
  const kept = digits.slice(0, end);
  if (point > 0 && point <= 21)
    return point >= end ? kept + '0'.repeat(point - end) : `${kept.slice(0, point)}.${kept.slice(point)}`;
  if (point <= 0 && point > -6) return `0.${'0'.repeat(-point)}${kept}`;
  const mantissa = end > 1 ? `${kept[0]}.${kept.slice(1)}` : kept;
  return `${mantissa}e${point - 1 > 0 ? '+' : '-'}${Math.abs(point - 1)}`;
}

const rowsOf = (m) =>
  Array.from({ length: m.rows }, (_, i) =>
    Array.from({ length: m.cols }, (_, j) => m.data[m.offset + i * m.rowStride + j]),
  );

// A label that a spreadsheet would run as a formula is prefixed with ': one starting with = + - @, a tab or
// a carriage return, their full-width forms (＝ ＋ － ＠, which some spreadsheets read as the same), or | (DDE).
const csvField = (text) => {
  const safe = /^[=+\-@\t\r|＝＋－＠]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** m: {name, data, offset, rows, cols, rowStride, rowLabels, colLabels} */
export function toCsv(m) {
  const lines = [['', ...m.colLabels].map(csvField).join(',')];
  rowsOf(m).forEach((row, i) => lines.push([csvField(m.rowLabels[i]), ...row.map(float32Text)].join(',')));
  return `${lines.join('\n')}\n`;
}

/** JSON with labels; NaN and ±Infinity as strings, like the JS API's encoding. */
export function toJson(m) {
  const value = (v) => (Number.isFinite(v) ? Number(float32Text(v)) : float32Text(v));
  return JSON.stringify(
    {
      name: m.name,
      shape: [m.rows, m.cols],
      rowLabels: m.rowLabels,
      colLabels: m.colLabels,
      data: rowsOf(m).map((r) => r.map(value)),
    },
    null,
    1,
  );
}

export function toLatex(m, decimals = 4) {
  const cell = (v) =>
    Number.isNaN(v) ? '\\text{NaN}' : v === -Infinity ? '-\\infty' : v === Infinity ? '\\infty' : v.toFixed(decimals);
  return `\\begin{bmatrix}\n${rowsOf(m)
    .map((r) => `  ${r.map(cell).join(' & ')}`)
    .join(' \\\\\n')}\n\\end{bmatrix}`;
}

export function toNumpy(m) {
  const cell = (v) =>
    Number.isNaN(v) ? 'np.nan' : v === -Infinity ? '-np.inf' : v === Infinity ? 'np.inf' : float32Text(v);
  const name = m.name.replace(/[^A-Za-z0-9_]/g, '_');
  return `${name} = np.array([\n${rowsOf(m)
    .map((r) => `    [${r.map(cell).join(', ')}],`)
    .join('\n')}\n], dtype=np.float32)`;
}

/** The matrix as PyTorch 1.13's print() shows it: "tensor([[1.6344e-01, …" (torch-print.js). */
export const toTorchPrint = (m) => torchPrint([m.rows, m.cols], rowsOf(m).flat());

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A float32 tensor as a .npy file (format 1.0, little-endian '<f4', C order). */
export function toNpy(shape, data) {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shapeText}, }`;
  const unpadded = 10 + header.length + 1;
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const bytes = new Uint8Array(10 + header.length + data.length * 4);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0); // \x93NUMPY v1.0
  new DataView(bytes.buffer).setUint16(8, header.length, true);
  for (let k = 0; k < header.length; k++) bytes[10 + k] = header.charCodeAt(k);
  if (LITTLE_ENDIAN && data instanceof Float32Array) {
    bytes.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 10 + header.length);
  } else {
    const body = new DataView(bytes.buffer, 10 + header.length);
    data.forEach((v, k) => body.setFloat32(k * 4, v, true));
  }
  return bytes;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
/** The CRC-32 of a zip entry. */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (let k = 0; k < bytes.length; k++) c = CRC_TABLE[(c ^ bytes[k]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// A date as MS-DOS writes it in a zip entry: [time, date], 2-second steps, 1980 to 2107.
function dosDateTime(date) {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  return [time, ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate()];
}

/**
 * A zip archive of {name: Uint8Array}, entries stored (not compressed) and
 * dated `date`, as the byte arrays to write one after another.
 */
export function zipParts(files, date = new Date()) {
  const encoder = new TextEncoder();
  const [dosTime, dosDate] = dosDateTime(date);
  const parts = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const nameBytes = encoder.encode(name);
    const crc = crc32(data);
    const local = new Uint8Array(30 + nameBytes.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true); // local file header
    lv.setUint16(4, 20, true); // version needed: 2.0
    lv.setUint16(10, dosTime, true);
    lv.setUint16(12, dosDate, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, data.length, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    const central = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true); // central directory entry
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(12, dosTime, true);
    cv.setUint16(14, dosDate, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, data.length, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    parts.push(local, data);
    centrals.push(central);
    offset += local.length + data.length;
  }
  const centralSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true); // end of central directory
  ev.setUint16(8, centrals.length, true);
  ev.setUint16(10, centrals.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  return [...parts, ...centrals, end];
}

/**
 * The tensors ({name: {shape, data}}) as a NumPy .npz: what np.savez writes,
 * a zip of <name>.npy, so np.load(path)["weights"] is the float32 array.
 */
export const npzParts = (tensors, date = new Date()) =>
  zipParts(
    Object.fromEntries(Object.entries(tensors).map(([name, t]) => [`${name}.npy`, toNpy(t.shape, t.data)])),
    date,
  );

/** Every tensor of a result as JSON ({name: {shape, data}}), non-finite values as strings. */
export function resultToJson(result) {
  const tensors = {};
  for (const [name, t] of Object.entries(result.tensors)) {
    tensors[name] = {
      shape: t.shape,
      data: Array.from(t.data, (v) => (Number.isFinite(v) ? Number(float32Text(v)) : float32Text(v))),
    };
  }
  const { tokens, ids, contextTokens, contextIds, vocab, unknownTokens, headDim, scaleFactor } = result;
  return JSON.stringify({
    tokens,
    ids,
    contextTokens,
    contextIds,
    vocab,
    unknownTokens,
    headDim,
    scaleFactor,
    tensors,
  });
}

/** Every tensor of a result as a NumPy .npz file (a Blob for the page's download). */
export const resultToNpz = (result) => new Blob(npzParts(result.tensors), { type: 'application/zip' });
