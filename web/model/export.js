// Export formats for one matrix and for all tensors: CSV, JSON, LaTeX
// bmatrix, NumPy literal, and .npy files in a zip. Pure functions.

/** The shortest decimal that reads back as the same float32. */
export function float32Text(v) {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  // Six digits are always within a float32's precision, so starting there
  // still finds the shortest text (0.5 -> "0.500000" -> 0.5 -> "0.5").
  for (let p = 6; p <= 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return String(s);
  }
  return String(v);
}

const rowsOf = (m) =>
  Array.from({ length: m.rows }, (_, i) =>
    Array.from({ length: m.cols }, (_, j) => m.data[m.offset + i * m.rowStride + j]),
  );

// A label that a spreadsheet would run as a formula is prefixed with '.
const csvField = (text) => {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
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
  const body = new DataView(bytes.buffer, 10 + header.length);
  data.forEach((v, k) => body.setFloat32(k * 4, v, true));
  return bytes;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive (stored, no compression) of {name: Uint8Array}. */
export function zip(files) {
  const encoder = new TextEncoder();
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const nameBytes = encoder.encode(name);
    const crc = crc32(data);
    const local = new Uint8Array(30 + nameBytes.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, data.length, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    const central = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, data.length, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(local, data);
    centrals.push(central);
    offset += local.length + data.length;
  }
  const centralSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, centrals.length, true);
  ev.setUint16(10, centrals.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  return new Blob([...locals, ...centrals, end], { type: 'application/zip' });
}

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

export const resultToNpyZip = (result) =>
  zip(Object.fromEntries(Object.entries(result.tensors).map(([name, t]) => [`${name}.npy`, toNpy(t.shape, t.data)])));
