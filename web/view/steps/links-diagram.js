// The token-link view (like bertviz's head view): lines from every query
// token to every key token, opacity = weight, one colour per head.
// Clicking a query token shows only its lines; clicking it again shows all.
import { headColor } from '../common/colors.js';

const SVG = 'http://www.w3.org/2000/svg';

// Above this many lines, only the selected head's strongest keys are drawn.
const MAX_LINES = 20000;
const TOP_KEYS = 3;
// Lines and labels are drawn this many tokens per slice (slices.js) for a long input.
const SLICE_ROWS = 128;

/** The indices of the k largest of weights[row … row + n), in one pass. */
function topKeys(weights, row, n, k) {
  const best = [];
  for (let j = 0; j < n; j++) {
    const w = weights[row + j];
    if (best.length < k || w > weights[row + best[best.length - 1]]) {
      best.push(j);
      best.sort((x, y) => weights[row + y] - weights[row + x]);
      if (best.length > k) best.pop();
    }
  }
  return new Set(best);
}

/**
 * The links view of sentence b. previous: the view of the last render; when it
 * shows the same tokens, heads and focus, only its lines are drawn anew, and it is returned.
 */
export function renderLinks(
  { weights, b, H, S, Skv, queryLabels, keyLabels, heads, focus, onFocus, label: groupLabel, later = (run) => run() },
  previous = null,
) {
  const dense = heads.length * (focus === null ? S : 1) * Skv <= MAX_LINES;
  const rowHeight = 26;
  const width = 420;
  const height = Math.max(S, Skv) * rowHeight + 10;
  const leftX = 120;
  const rightX = width - 120;
  const y = (k) => 18 + k * rowHeight;
  const key = JSON.stringify([queryLabels, keyLabels, heads, focus, groupLabel]);
  if (previous?.linksKey === key) {
    // The labels stay; the lines go before them, as when first drawn.
    previous.querySelectorAll('line').forEach((line) => line.remove());
    const firstLabel = previous.querySelector('text');
    const fragment = document.createDocumentFragment();
    for (const h of heads) for (let i = 0; i < S; i++) drawLines(fragment, h, i);
    previous.insertBefore(fragment, firstLabel);
    return previous;
  }
  const svg = document.createElementNS(SVG, 'svg');
  svg.linksKey = key;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('class', 'links');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', groupLabel);
  // Tokens 0 … count − 1 drawn SLICE_ROWS at a time: now, or in later slices.
  const inSlices = (count, draw) => {
    for (let from = 0; from < count; from += SLICE_ROWS)
      later(() => {
        for (let k = from; k < Math.min(count, from + SLICE_ROWS); k++) draw(k);
      });
  };
  // Query i's lines in head h, into `parent`.
  function drawLines(parent, h, i) {
    if (focus !== null && focus !== i) return;
    const row = ((b * H + h) * S + i) * Skv;
    // Sparse mode: this row's TOP_KEYS largest weights only.
    const keys = dense ? null : topKeys(weights, row, Skv, TOP_KEYS);
    for (let j = 0; j < Skv; j++) {
      const w = weights[row + j];
      if (!(w > 0.005) || (keys && !keys.has(j))) continue;
      const line = document.createElementNS(SVG, 'line');
      line.setAttribute('x1', String(leftX + 4));
      line.setAttribute('y1', String(y(i) - 4));
      line.setAttribute('x2', String(rightX - 4));
      line.setAttribute('y2', String(y(j) - 4));
      line.style.stroke = headColor(h); // a var(): not every browser reads one in the stroke attribute
      line.setAttribute('stroke-opacity', String(Math.min(1, w)));
      line.setAttribute('stroke-width', '2');
      parent.append(line);
    }
  }
  for (const h of heads) inSlices(S, (i) => drawLines(svg, h, i));
  const label = (text, x, yy, anchor, index, clickable) => {
    const el = document.createElementNS(SVG, 'text');
    el.setAttribute('x', String(x));
    el.setAttribute('y', String(yy));
    el.setAttribute('text-anchor', anchor);
    el.textContent = text; // always text, never markup
    el.setAttribute('translate', 'no'); // a token, typed by the user
    if (clickable) {
      el.setAttribute('class', focus === index ? 'token focus' : 'token');
      el.setAttribute('tabindex', '0');
      el.setAttribute('role', 'button');
      el.setAttribute('aria-pressed', String(focus === index));
      const activate = () => onFocus(focus === index ? null : index);
      el.addEventListener('click', activate);
      el.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          activate();
        }
      });
    } else {
      el.setAttribute('class', 'token key');
    }
    svg.append(el);
  };
  inSlices(S, (i) => label(queryLabels[i], leftX - 6, y(i), 'end', i, true));
  inSlices(Skv, (j) => label(keyLabels[j], rightX + 6, y(j), 'start', j, false));
  return svg;
}
