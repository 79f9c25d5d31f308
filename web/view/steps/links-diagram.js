// The token-link view (like bertviz's head view): lines from every query
// token to every key token, opacity = weight, one colour per head.
// Clicking a query token shows only its lines; clicking it again shows all.
import { headColor } from '../common/colors.js';
import { linksDense, linksLayout, linksOfQuery } from '../common/links-layout.js';

const SVG = 'http://www.w3.org/2000/svg';

// Lines and labels are drawn this many tokens per slice (slices.js) for a long input.
const SLICE_ROWS = 128;

/**
 * The links view of sentence b. previous: the view of the last render; when it
 * shows the same tokens, heads and focus, only its lines are drawn anew, and it is returned.
 */
export function renderLinks(
  { weights, b, H, S, Skv, queryLabels, keyLabels, heads, focus, onFocus, label: groupLabel, later = (run) => run() },
  previous = null,
) {
  const dense = linksDense(heads, S, Skv, focus);
  const { width, height, leftX, rightX, y } = linksLayout(S, Skv);
  const key = JSON.stringify([queryLabels, keyLabels, heads, focus, groupLabel]);
  // What a figure of it is drawn from (view/figures/links-svg.js): the numbers shown now.
  const linksView = { weights, b, H, S, Skv, queryLabels, keyLabels, heads, focus };
  if (previous?.linksKey === key) {
    previous.linksView = linksView;
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
  svg.linksView = linksView;
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
    for (const [j, w] of linksOfQuery(weights, { b, H, S, Skv }, h, i, dense)) {
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
