// The pieces an explanation is written with: a line of math or text, a list of
// terms, and the cell an explanation is about ("name[row,col]").
import { formatNumber } from '../../model/format.js';

const MAX_TERMS = 16;

export function termList(terms, decimals, t) {
  const list = document.createElement('ol');
  list.className = 'terms';
  for (const term of terms.slice(0, MAX_TERMS)) {
    const li = document.createElement('li');
    li.textContent = term.map((x) => (typeof x === 'number' ? formatNumber(x, decimals) : x)).join(' ');
    list.append(li);
  }
  if (terms.length > MAX_TERMS) {
    const li = document.createElement('li');
    li.textContent = t('explain.more', { count: terms.length - MAX_TERMS });
    list.append(li);
  }
  return list;
}

/** A paragraph of text: 'formula' (monospace), 'result' (bold), or 'text' (a sentence). */
export const line = (text, className = 'formula') => {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  if (className === 'formula') p.translate = false; // math, with tensor names and tokens
  return p;
};

/** A line that is only math: marked not to be translated. */
export const math = (p) => {
  p.translate = false;
  return p;
};

/** "name[row,col] = value": the cell an explanation is about. */
export const cellName = (name, row, col) => (row === null ? `${name}[${col}]` : `${name}[${row},${col}]`);
