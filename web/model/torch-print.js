// A float32 tensor written as PyTorch 1.13's print(tensor) writes it, so a
// matrix copied from the page can be laid beside a tutorial's printed output:
// "tensor([[1.6344e-01, 5.0283e-02, …" with torch's choice of notation for the
// whole tensor (scientific when its non-zero finite values span more than
// 1000×, exceed 1e8 or go below 1e-4; "1." when all are whole), its column
// width, its 80-character lines and its summary of tensors over 1000 numbers.
// Mirrors torch/_tensor_str.py (_Formatter, _vector_str,
// _tensor_str_with_formatter, get_summarized_data) with the default print
// options; no grad_fn suffix (what print(t.detach()) shows).

const PRECISION = 4;
const THRESHOLD = 1000;
const EDGE_ITEMS = 3;
const LINE_WIDTH = 80;
const PREFIX = 'tensor(';

const FLOAT64 = new Float64Array(1);
const BITS = new BigUint64Array(FLOAT64.buffer);

/** |v| (finite, non-zero) exactly as an integer and a power of ten: |v| = digits · 10^-scale. */
function exactDecimal(v) {
  FLOAT64[0] = Math.abs(v);
  const bits = BITS[0];
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075; // |v| = mantissa · 2^exponent
  if (exponent >= 0) return { digits: mantissa << BigInt(exponent), scale: 0 };
  // m / 2^k = m · 5^k / 10^k
  return { digits: mantissa * 5n ** BigInt(-exponent), scale: -exponent };
}

/** digits / 10^drop rounded to an integer, ties to even (Python's format rounds the exact value so). */
function roundDrop(digits, drop) {
  if (drop <= 0) return digits * 10n ** BigInt(-drop);
  const unit = 10n ** BigInt(drop);
  let quotient = digits / unit;
  const twice = (digits % unit) * 2n;
  if (twice > unit || (twice === unit && quotient % 2n === 1n)) quotient += 1n;
  return quotient;
}

const signOf = (v) => (v < 0 || Object.is(v, -0) ? '-' : '');
const special = (v) => (Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf');

/** Python's '{:.Nf}'.format(v). */
export function fixedText(v, decimals = PRECISION) {
  if (!Number.isFinite(v)) return special(v);
  if (v === 0) return `${signOf(v)}0${decimals ? `.${'0'.repeat(decimals)}` : ''}`;
  const { digits, scale } = exactDecimal(v);
  const text = roundDrop(digits, scale - decimals)
    .toString()
    .padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  return `${signOf(v)}${whole}${decimals ? `.${text.slice(text.length - decimals)}` : ''}`;
}

/** Python's '{:.Ne}'.format(v): "1.6344e-01", "-2.0000e+08". */
export function scientificText(v, decimals = PRECISION) {
  if (!Number.isFinite(v)) return special(v);
  let mantissa = 0n;
  let exponent = 0;
  if (v !== 0) {
    const { digits, scale } = exactDecimal(v);
    const length = digits.toString().length;
    exponent = length - 1 - scale;
    mantissa = roundDrop(digits, length - (decimals + 1));
    if (mantissa.toString().length > decimals + 1) {
      mantissa /= 10n; // 9.99995 -> 10.0000: one digit more, the exponent one up
      exponent += 1;
    }
  }
  const text = mantissa.toString().padStart(decimals + 1, '0');
  const power = `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  return `${signOf(v)}${text[0]}${decimals ? `.${text.slice(1)}` : ''}e${power}`;
}

/** torch's _Formatter: the notation and width the whole (summarized) tensor is printed with. */
function formatterOf(values) {
  const shown = values.filter((v) => Number.isFinite(v) && v !== 0);
  let mode = 'int';
  let width = 1;
  if (shown.length) {
    const sizes = shown.map(Math.abs);
    const min = Math.min(...sizes);
    const max = Math.max(...sizes);
    const whole = shown.every((v) => v === Math.ceil(v));
    const scientific = max / min > 1000 || max > 1e8 || (!whole && min < 1e-4);
    mode = scientific ? 'sci' : whole ? 'int' : 'fixed';
    for (const v of shown) {
      const text = mode === 'sci' ? scientificText(v) : mode === 'int' ? `${fixedText(v, 0)}.` : fixedText(v);
      width = Math.max(width, text.length);
    }
  }
  const format = (v) => {
    const text =
      mode === 'sci'
        ? scientificText(v)
        : mode === 'int'
          ? `${fixedText(v, 0)}${Number.isFinite(v) ? '.' : ''}`
          : fixedText(v);
    return text.padStart(width, ' ');
  };
  return { width, format };
}

/** The index ranges a dimension of `size` prints: all of it, or its first and last EDGE_ITEMS. */
const edges = (size, summarize) =>
  summarize && size > 2 * EDGE_ITEMS
    ? [
        [0, EDGE_ITEMS],
        [size - EDGE_ITEMS, size],
      ]
    : [[0, size]];

/** The values torch's formatter sees: the summarized tensor's, in order. */
function summarizedValues(shape, data, summarize) {
  const out = [];
  const walk = (axis, offset) => {
    const stride = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    for (const [from, to] of edges(shape[axis], summarize))
      for (let i = from; i < to; i++) {
        if (axis === shape.length - 1) out.push(data[offset + i]);
        else walk(axis + 1, offset + i * stride);
      }
  };
  walk(0, 0);
  return out;
}

/**
 * print(tensor) of a float32 tensor: shape (e.g. [5, 4]) and its row-major values.
 * An empty tensor prints "tensor([])"; a 0-d one its number.
 */
export function torchPrint(shape, data) {
  const count = shape.reduce((a, b) => a * b, 1);
  if (count === 0) return `${PREFIX}[])`;
  const summarize = count > THRESHOLD;
  const formatter = formatterOf(shape.length ? summarizedValues(shape, data, summarize) : [data[0]]);
  const text = (axis, offset, indent) => {
    if (axis === shape.length) return formatter.format(data[offset]);
    const stride = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    const ranges = edges(shape[axis], summarize);
    if (axis === shape.length - 1) {
      // _vector_str: as many ", "-separated numbers a line as fit in the line width
      const perLine = Math.max(1, Math.floor((LINE_WIDTH - indent) / (formatter.width + 2)));
      const items = ranges.flatMap(([from, to], k) => [
        ...(k ? [' ...'] : []),
        ...Array.from({ length: to - from }, (_, i) => formatter.format(data[offset + from + i])),
      ]);
      const lines = [];
      for (let i = 0; i < items.length; i += perLine) lines.push(items.slice(i, i + perLine).join(', '));
      return `[${lines.join(`,\n${' '.repeat(indent + 1)}`)}]`;
    }
    const slices = ranges.flatMap(([from, to], k) => [
      ...(k ? ['...'] : []),
      ...Array.from({ length: to - from }, (_, i) => text(axis + 1, offset + (from + i) * stride, indent + 1)),
    ]);
    const dims = shape.length - axis;
    return `[${slices.join(`,${'\n'.repeat(dims - 1)}${' '.repeat(indent + 1)}`)}]`;
  };
  return `${PREFIX}${text(0, 0, PREFIX.length)})`;
}
