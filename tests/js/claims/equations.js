// Equations a sentence writes ("{H} × {dk} = {D}", "1/(1−p) = 1.25", "d_k = 4"): where both sides are made
// of numbers and the run's size names only, they must be equal.

// The names a sentence may use for the run's sizes, and what they stand for.
const NAMES = { d_k: 'd_k', H_kv: 'H_kv', S_kv: 'S_kv', H: 'H', S: 'S', D: 'D', B: 'B', p: 'p', dModel: 'D' };
const TOKEN = /\s*(?:(\d+(?:\.\d+)?(?:e[-+]?\d+)?)|(d_k|H_kv|S_kv|dModel|[HSDBp])(?![\w])|([·×*/+−\-()√=])|([^\s]))/y;

/** The sentence as tokens: {num}, {name}, {op}, or {other} (a word, punctuation). */
function tokens(text) {
  const out = [];
  TOKEN.lastIndex = 0;
  let m;
  while (TOKEN.lastIndex < text.length && (m = TOKEN.exec(text))) {
    if (m[1]) out.push({ num: Number(m[1]) });
    else if (m[2]) out.push({ name: m[2] });
    else if (m[3]) out.push({ op: m[3] });
    else if (m[4]) {
      // A word: one "other" token for a run of letters.
      const last = out.at(-1);
      if (!last?.other) out.push({ other: m[4] });
    }
  }
  return out;
}

/** Evaluates a token list (numbers, names, · × * / + − ( ) √), or returns NaN if it is not an expression. */
function evaluate(list, sizes) {
  let k = 0;
  const atom = () => {
    const tok = list[k++];
    if (!tok) return NaN;
    if (tok.num !== undefined) return tok.num;
    if (tok.name) return sizes[NAMES[tok.name]];
    if (tok.op === '√') return Math.sqrt(atom());
    if (tok.op === '−' || tok.op === '-') return -atom();
    if (tok.op === '(') {
      const v = sum();
      return list[k++]?.op === ')' ? v : NaN;
    }
    return NaN;
  };
  const product = () => {
    let v = atom();
    while (list[k] && ['·', '×', '*', '/'].includes(list[k].op)) v = list[k++].op === '/' ? v / atom() : v * atom();
    return v;
  };
  const sum = () => {
    let v = product();
    while (list[k] && ['+', '−', '-'].includes(list[k].op)) v = list[k++].op === '+' ? v + product() : v - product();
    return v;
  };
  const v = sum();
  return k === list.length ? v : NaN;
}

const isTerm = (tok) => tok.num !== undefined || tok.name || (tok.op && tok.op !== '=');

/** The problems of the equations of `text` whose two sides evaluate with the run's sizes. */
export function equationProblems(text, sizes) {
  const list = tokens(text);
  const problems = [];
  list.forEach((tok, k) => {
    if (tok.op !== '=') return;
    let from = k;
    while (from > 0 && isTerm(list[from - 1])) from--;
    let to = k + 1;
    while (to < list.length && isTerm(list[to])) to++;
    const trim = (side) => {
      while (side.length && side[0].op && !['(', '√', '−', '-'].includes(side[0].op)) side.shift();
      while (side.length && side.at(-1).op && side.at(-1).op !== ')') side.pop();
      return side;
    };
    const left = trim(list.slice(from, k));
    const right = trim(list.slice(k + 1, to));
    if (!left.length || !right.length) return;
    const [a, b] = [evaluate(left, sizes), evaluate(right, sizes)];
    if (Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) > 1e-3 * Math.max(1, Math.abs(a)))
      problems.push(`writes an equation whose sides differ: ${a} ≠ ${b}`);
  });
  return problems;
}
