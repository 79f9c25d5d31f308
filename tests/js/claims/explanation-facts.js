// The true value of a fact (model/words.js), worked out by the claims tests'
// own code from the run: lab.run's tensors and settings, and the steppers'
// figures. Throws on a fact that names nothing (a tensor the run lacks, an
// index out of its shape, a head that is not there).

/** A tensor's value at a full index; a tensor that holds one sentence (batch) or head alone is read there. */
export function cellValue(result, name, index) {
  const tensor = result.tensors[name];
  if (!tensor) throw new Error(`the run has no tensor ${name}`);
  if (index.length !== tensor.shape.length)
    throw new Error(`${name}[${index}] does not fit its shape [${tensor.shape}]`);
  let k = 0;
  tensor.shape.forEach((n, axis) => {
    let x = index[axis];
    if (axis === 0 && tensor.batch !== undefined) {
      if (x !== tensor.batch) throw new Error(`${name} holds sentence ${tensor.batch} only`);
      x = 0;
    }
    if (axis === 1 && tensor.head !== undefined) {
      // A differential attention map held for one head keeps its two half-heads 2h, 2h + 1.
      const first = n === 2 ? 2 * tensor.head : tensor.head;
      if (x !== first && !(n === 2 && x === first + 1)) throw new Error(`${name} holds head ${tensor.head} only`);
      x -= first;
    }
    if (!Number.isInteger(x) || x < 0 || x >= n)
      throw new Error(`${name}[${index}] is out of its shape [${tensor.shape}]`);
    k = k * n + x;
  });
  return tensor.data[k];
}

/** The run's sizes by name. */
export function sizeOf(result, name) {
  const { B, H, S, S_kv: Skv, D } = result.sizes;
  const sizes = {
    B,
    H,
    H_kv: result.sizes.H_kv ?? H,
    S,
    S_kv: Skv,
    D,
    d_k: result.headDim,
    'd_k/2': result.headDim / 2,
    // MLA's angles run over its rope part: ropeDim / 2 pairs.
    ...(result.settings['mla.ropeDim'] !== undefined ? { 'd_rope/2': Number(result.settings['mla.ropeDim']) / 2 } : {}),
  };
  if (!(name in sizes)) throw new Error(`no size ${name}`);
  return sizes[name];
}

/** A setting as a number (maskFill's "-inf" is −∞); entry `head` of a setting given per head. */
export function settingOf(result, name, head) {
  const given = result.settings[name];
  const value = Array.isArray(given) ? given[head ?? NaN] : given;
  if (name === 'maskFill' && (value === '-inf' || value === undefined)) return -Infinity;
  if (value === undefined || value === null) throw new Error(`the run has no setting ${name}`);
  return Number(value);
}

/** ALiBi's slopes for H heads (Press et al.'s get_slopes: powers of two, then every other slope of 2n heads). */
export function alibiSlope(H, h) {
  const slopes = (n) => Array.from({ length: n }, (_, k) => (2 ** (-8 / n)) ** (k + 1));
  const closest = 2 ** Math.floor(Math.log2(H));
  const all = closest === H ? slopes(H) : [...slopes(closest), ...slopes(2 * closest).filter((_, k) => k % 2 === 0)];
  return all[h];
}

/** The scale factor the settings ask for. */
function scaleFactor(result) {
  const scale = result.settings.scale ?? 'head-dim';
  if (scale === 'head-dim') return 1 / Math.sqrt(result.headDim);
  if (scale === 'd-model') return 1 / Math.sqrt(result.sizes.D);
  if (scale === 'none') return 1;
  return Number(scale);
}

/** Dropout's m for a weight, read off the weights before and after dropout (unknown where the weight is 0). */
function keepOf(result, { b, h, i, j }) {
  const w = cellValue(result, 'weights', [b, h, i, j]);
  if (w === 0 || Number.isNaN(w)) throw new Error('m is not known where the weight is 0 or NaN');
  return cellValue(result, 'dropped', [b, h, i, j]) !== 0 ? 1 : 0;
}

/** The sinusoidal position term, as torch computes it: div_term = exp(arange(0, D, 2) · (−ln 10000 / D)). */
function positional(D, pos, c) {
  const divTerm = Math.exp((c - (c % 2)) * (-Math.log(10000) / D));
  return (c % 2 ? Math.cos : Math.sin)(pos * divTerm);
}

const OPS = {
  sum: (xs) => xs.reduce((a, x) => a + x, 0),
  product: (xs) => xs.slice(1).reduce((a, x) => a * x, xs[0]),
  difference: ([a, b]) => a - b,
  quotient: ([a, b]) => a / b,
  negate: ([a]) => -a,
  exp: ([a]) => Math.exp(a),
  tanh: ([a]) => Math.tanh(a),
  sigmoid: ([a]) => 1 / (1 + Math.exp(-a)),
  sqrt: ([a]) => Math.sqrt(a),
  square: ([a]) => a * a,
  cos: ([a]) => Math.cos(a),
  sin: ([a]) => Math.sin(a),
  abs: ([a]) => Math.abs(a),
  mod: ([a, b]) => a % b,
  max: (xs) => Math.max(...xs.filter((x) => !Number.isNaN(x))),
};

// Named figures: what each is, worked out here.
const NAMED = {
  scaleFactor: (fact, run) => scaleFactor(run.result),
  dropoutFactor: (fact, run) => 1 / (1 - settingOf(run.result, 'dropout.p')),
  keep: (fact, run) => keepOf(run.result, fact),
  alibiSlope: (fact, run) => alibiSlope(run.result.sizes.H, fact.h),
  // Over the head's d_k numbers, or over MLA's rope part (fact.width: its mla.ropeDim, checked here).
  ropeFrequency: (fact, run) => {
    const width = fact.width === undefined ? run.result.headDim : settingOf(run.result, 'mla.ropeDim');
    if (fact.width !== undefined && fact.width !== width) throw new Error(`the rope part has ${width} numbers`);
    return 1 / settingOf(run.result, 'rope.base') ** ((2 * fact.i) / width);
  },
  positional: (fact, run) => positional(run.result.sizes.D, fact.pos, fact.c),
  // Differential attention: λ_init = 0.8 − 0.6·e^(−0.3·depth) (multihead_diffattn.py lambda_init_fn).
  lambdaInit: (fact, run) => 0.8 - 0.6 * Math.exp(-0.3 * settingOf(run.result, 'diff.depth')),
};

function inRange(n, size, what) {
  if (!Number.isInteger(n) || n < 0 || n >= size) throw new Error(`${what} ${n} is not within 0…${size - 1}`);
  return n;
}

function steppersValue(run, [which, field, ...path]) {
  let value = run.steppers?.[which];
  if (!value) throw new Error(`no ${which} figures`);
  for (const key of [field, ...path]) {
    value = value[key];
    if (value === undefined) throw new Error(`no ${which}.${field}[${path}]`);
  }
  return value;
}

/** The true value of a fact. */
export function factValue(fact, run) {
  const { result } = run;
  if (fact.cell) return cellValue(result, fact.cell[0], fact.cell.slice(1));
  if (fact.size) return sizeOf(result, fact.size);
  if (fact.shape) {
    const tensor = result.tensors[fact.shape[0]];
    if (!tensor) throw new Error(`the run has no tensor ${fact.shape[0]}`);
    return tensor.shape[fact.shape[1]];
  }
  if (fact.setting) return settingOf(result, fact.setting, fact.head);
  if ('constant' in fact) return fact.constant;
  if ('headNumber' in fact) return inRange(fact.headNumber, sizeOf(result, fact.of ?? 'H'), 'head') + 1;
  if ('index' in fact) return inRange(fact.index, sizeOf(result, fact.of), `index of ${fact.of}`);
  if (fact.tokenId) return result[fact.tokenId[0]][fact.tokenId[1]][fact.tokenId[2]];
  if ('tileNumber' in fact) return inRange(fact.tileNumber, steppersValue(run, ['flash', 'tiles']).length, 'tile') + 1;
  if (fact.stepper) return steppersValue(run, fact.stepper);
  if (fact.value in OPS) return OPS[fact.value](fact.of.map((f) => factValue(f, run)));
  if (fact.value in NAMED) return NAMED[fact.value](fact, run);
  throw new Error(`unknown fact ${JSON.stringify(fact)}`);
}
