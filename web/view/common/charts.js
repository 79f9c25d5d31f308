// Small line charts as inline SVG: axes with ticks, lines and dots, vertical
// marks. Colours come from classes (pipeline.css), so both themes apply and
// a strict CSP is kept (no style attributes); text is set as textContent.

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 340;
const HEIGHT = 210;
const MARGIN = { left: 46, right: 12, top: 12, bottom: 38 };

function svgElement(tag, attributes = {}, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A function from data to pixels along one axis (log10 when `log`). */
function scaleOf({ min, max, log }, from, to) {
  const f = log ? Math.log10 : (v) => v;
  const [a, b] = [f(min), f(max)];
  return (v) => from + ((f(v) - a) / (b - a)) * (to - from);
}

/**
 * chart: {
 *   title (the accessible name), x, y: {min, max, log?, label, ticks: [values], format(v)},
 *   series: [{points: [[x, y]], type: 'line' | 'dots', className}],
 *   marks: [{x, label, className}] (vertical lines with a label)
 * }
 */
export function lineChart({ title, x, y, series, marks = [] }) {
  const svg = svgElement('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: 'chart',
    role: 'img',
    'aria-label': title,
  });
  svg.append(svgElement('title', {}, title));
  const left = MARGIN.left;
  const right = WIDTH - MARGIN.right;
  const top = MARGIN.top;
  const bottom = HEIGHT - MARGIN.bottom;
  const px = scaleOf(x, left, right);
  const py = scaleOf(y, bottom, top);
  const inside = (vx, vy) => vx >= x.min && vx <= x.max && vy >= y.min && vy <= y.max;

  const axes = svgElement('g', { class: 'chart-axes' });
  axes.append(svgElement('line', { x1: left, y1: bottom, x2: right, y2: bottom }));
  axes.append(svgElement('line', { x1: left, y1: top, x2: left, y2: bottom }));
  for (const v of x.ticks) {
    axes.append(svgElement('line', { class: 'chart-grid', x1: px(v), y1: top, x2: px(v), y2: bottom }));
    // A tick at the axis's end ends there: centred, a long number (11000) would cross the chart's edge.
    const anchor = px(v) >= right - 1 ? 'end' : 'middle';
    axes.append(svgElement('text', { x: px(v), y: bottom + 13, 'text-anchor': anchor }, x.format(v)));
  }
  for (const v of y.ticks) {
    axes.append(svgElement('line', { class: 'chart-grid', x1: left, y1: py(v), x2: right, y2: py(v) }));
    axes.append(svgElement('text', { x: left - 4, y: py(v) + 3.5, 'text-anchor': 'end' }, y.format(v)));
  }
  axes.append(svgElement('text', { x: (left + right) / 2, y: HEIGHT - 6, 'text-anchor': 'middle' }, x.label));
  axes.append(
    svgElement(
      'text',
      { x: 11, y: (top + bottom) / 2, 'text-anchor': 'middle', transform: `rotate(-90 11 ${(top + bottom) / 2})` },
      y.label,
    ),
  );
  svg.append(axes);

  for (const s of series) {
    const points = s.points.filter(([vx, vy]) => inside(vx, vy));
    if (s.type === 'dots') {
      const g = svgElement('g', { class: s.className });
      for (const [vx, vy] of points) g.append(svgElement('circle', { cx: px(vx), cy: py(vy), r: 3 }));
      svg.append(g);
    } else {
      const d = points.map(([vx, vy], k) => `${k ? 'L' : 'M'}${px(vx).toFixed(1)},${py(vy).toFixed(1)}`).join('');
      svg.append(svgElement('path', { d, class: s.className, fill: 'none' }));
    }
  }
  for (const mark of marks) {
    const vx = Math.min(x.max, Math.max(x.min, mark.x));
    const g = svgElement('g', { class: mark.className });
    g.append(svgElement('line', { x1: px(vx), y1: top, x2: px(vx), y2: bottom }));
    const anchor = px(vx) > (left + right) / 2 ? 'end' : 'start';
    const dx = anchor === 'end' ? -3 : 3;
    g.append(
      svgElement('text', { x: px(vx) + dx, y: top + 10 + 11 * (mark.row ?? 0), 'text-anchor': anchor }, mark.label),
    );
    svg.append(g);
  }
  return svg;
}

/** A legend under a chart: [{className, label}] as swatches and text. */
export function chartLegend(items) {
  const list = document.createElement('ul');
  list.className = 'chart-legend';
  for (const { className, label } of items) {
    const li = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = `swatch ${className}`;
    swatch.setAttribute('aria-hidden', 'true');
    li.append(swatch, document.createTextNode(label));
    list.append(li);
  }
  return list;
}
