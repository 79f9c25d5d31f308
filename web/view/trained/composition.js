// How the two layers compose, for the query byte picked in the second copy
// (model/tiny.js compositionPick: its earlier copy j, the key j + 1): layer
// 1's previous-token head at j + 1 reads byte j, so the residual at j + 1
// carries "the byte before me was ids[j]"; layer 2's induction head at query
// i, whose byte is ids[j] again, finds that key and copies its byte ids[j + 1]
// as the next one. Each step with the measured weight, and the weight rows
// as strips with the key outlined. Also the top-5 next bytes at the query.
import { formatNumber } from '../../model/format.js';
import { headName } from '../../model/tiny.js';
import { css, headWords } from '../common/colors.js';
import { element } from '../common/dom.js';

const SVG = 'http://www.w3.org/2000/svg';

/** The row i of head h's weights [H, T, T] as a strip of T cells in the head's colour, `mark` outlined. */
function weightStrip(weights, h, i, T, mark, theme, name) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${T} 1`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('class', 'trained-strip');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', name);
  const color = headWords(h, theme);
  for (let j = 0; j < T; j++) {
    const rect = document.createElementNS(SVG, 'rect');
    const word = color(weights.data[(h * T + i) * T + j]);
    // The pixel word's bytes in memory order are r, g, b, a (colors.js pixelWord).
    const bytes = new Uint8Array(new Uint32Array([word]).buffer);
    rect.setAttribute('x', String(j));
    rect.setAttribute('y', '0');
    rect.setAttribute('width', '1');
    rect.setAttribute('height', '1');
    rect.setAttribute('fill', css([bytes[0], bytes[1], bytes[2]]));
    svg.append(rect);
  }
  const outline = document.createElementNS(SVG, 'rect');
  outline.setAttribute('x', String(mark));
  outline.setAttribute('y', '0');
  outline.setAttribute('width', '1');
  outline.setAttribute('height', '1');
  outline.setAttribute('class', 'trained-strip-mark');
  outline.setAttribute('vector-effect', 'non-scaling-stroke');
  svg.append(outline);
  return svg;
}

/** The index of the largest value of row i of head h's weights. */
function argmaxKey(weights, h, i, T) {
  let best = 0;
  for (let j = 1; j < T; j++) if (weights.data[(h * T + i) * T + j] > weights.data[(h * T + i) * T + best]) best = j;
  return best;
}

/**
 * {result, labels (byteLabels), pick (compositionPick or null), heads
 * (compositionHeads), theme, t} -> the composition section's nodes.
 */
export function renderComposition({ result, labels, pick, heads, theme, t }) {
  const box = element('div', 'trained-composition');
  if (!pick || heads.previous === null || heads.induction === null) {
    box.append(element('p', 'note', t('trained.composition.pickSecondCopy')));
    return box;
  }
  const { T } = result.sizes;
  const { query: i, match: j, key } = pick;
  const [first, second] = result.layers;
  const p = heads.previous;
  const q = heads.induction;
  const w1 = first.weights.data[(p * T + key) * T + j];
  const w2 = second.weights.data[(q * T + i) * T + key];
  const best = argmaxKey(second.weights, q, i, T);
  const quoted = (k) => `${k} “${labels[k]}”`;
  const steps = element('ol', 'trained-steps');
  const step1 = element('li');
  step1.append(
    element(
      'p',
      'trained-step-text',
      t('trained.composition.layer1', {
        head: headName(0, p),
        key: quoted(key),
        match: quoted(j),
        weight: formatNumber(w1, 3),
      }),
    ),
    weightStrip(first.weights, p, key, T, j, theme, t('trained.composition.row', { head: headName(0, p), i: key })),
  );
  const step2 = element('li');
  step2.append(
    element(
      'p',
      'trained-step-text',
      t('trained.composition.layer2', {
        head: headName(1, q),
        query: quoted(i),
        key: quoted(key),
        weight: formatNumber(w2, 3),
      }),
    ),
    weightStrip(second.weights, q, i, T, key, theme, t('trained.composition.row', { head: headName(1, q), i })),
  );
  if (best !== key)
    step2.append(
      element('p', 'note', t('trained.composition.elsewhere', { best: quoted(best), head: headName(1, q) })),
    );
  const step3 = element('li');
  step3.append(element('p', 'trained-step-text', t('trained.composition.copies', { key: quoted(key), i })));
  steps.append(step1, step2, step3);
  box.append(steps);
  return box;
}

/**
 * The top next bytes at position i: [{byte, p}] (topNextBytes) with their
 * labels, as a table with a meter per probability.
 */
export function renderNextBytes({ top, i, label, byteLabel, decimals, t }) {
  const table = element('table', 'trained-next');
  const caption = element('caption', null, t('trained.next.caption', { i, label }));
  table.append(caption);
  const head = table.createTHead().insertRow();
  for (const key of ['trained.next.byte', 'trained.next.probability']) {
    const th = element('th');
    th.scope = 'col';
    th.textContent = t(key);
    head.append(th);
  }
  const body = table.createTBody();
  for (const { byte, p } of top) {
    const row = body.insertRow();
    const name = element('th');
    name.scope = 'row';
    name.translate = false;
    name.textContent = byteLabel(byte);
    const cell = row.insertCell();
    const meter = element('meter');
    meter.min = 0;
    meter.max = 1;
    meter.value = p;
    meter.setAttribute('aria-hidden', 'true');
    const number = element('span', null, formatNumber(p, decimals));
    cell.append(meter, number);
    row.prepend(name);
  }
  return table;
}
