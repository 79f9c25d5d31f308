// How numbers are written on the page and in its sentences: one place for both,
// so a sentence quotes a number exactly as the matrix beside it shows it.

/**
 * "0.1235", "−1.5000", "−∞", "NaN": the way every number on the page is
 * written. A number that is not zero but would round to 0.0000 is written in
 * scientific notation as PyTorch prints it ("1.0494e-07"), so it is not
 * mistaken for a zero.
 */
export function formatNumber(v, decimals) {
  if (Number.isNaN(v)) return 'NaN';
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  let s;
  if (v !== 0 && Math.abs(v) < 0.5 * 10 ** -decimals) {
    // toExponential gives "1.0494e-7"; PyTorch writes the exponent with two digits at least.
    const [mantissa, exponent] = v.toExponential(decimals).split('e');
    const sign = exponent[0] === '-' ? '-' : '+';
    s = `${mantissa}e${sign}${exponent.replace(/^[-+]/, '').padStart(2, '0')}`;
  } else {
    s = v.toFixed(decimals);
  }
  return s.startsWith('-') ? `−${s.slice(1)}` : s;
}

/** A number for a sentence: up to 4 significant digits, trailing zeros dropped, − for minus ("0.5", "0.3536", "−1e9"). */
export function compactNumber(v) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (Number.isNaN(v)) return 'NaN';
  const rounded = Number(v.toPrecision(4));
  const text =
    Math.abs(v) >= 1e6 || (v !== 0 && Math.abs(v) < 1e-4)
      ? rounded.toExponential().replace('e+', 'e')
      : String(rounded);
  return text.replace(/^-/, '−');
}

/** A size in bytes as a reader reads it: 36,000 -> "35.2 KiB", 497,000,000 -> "474.0 MiB" (binary units, one decimal). */
export const byteSize = (bytes) =>
  bytes < 2 ** 20 ? `${(bytes / 2 ** 10).toFixed(1)} KiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
