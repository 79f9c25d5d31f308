// One matrix on screen: a real <table> heatmap up to 64×64, a canvas heatmap
// with hover tooltip and zoom beyond that (plus a table of its top-left
// corner for screen readers). Token text is only ever set as textContent.
import { legendGradient, paletteClass, paletteIndex, paletteTable } from './colors.js';

export const TABLE_LIMIT = 64;
const CORNER = 16;

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

/** One pass over a view: the largest finite |v| (the colour scale's limit) and the rows holding a NaN. */
function scan(view) {
  let max = 0;
  const nanRows = [];
  for (let i = 0; i < view.rows; i++) {
    const start = view.offset + i * view.rowStride;
    let rowHasNaN = false;
    for (let k = start; k < start + view.cols; k++) {
      const v = view.data[k];
      if (v !== v) rowHasNaN = true;
      else if (Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
    }
    if (rowHasNaN) nanRows.push(i);
  }
  return { max, nanRows };
}

export const valueAt = (view, i, j) => view.data[view.offset + i * view.rowStride + j];

/** Text made safe to place inside an HTML attribute or element. */
const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** A new element with a class and text (always text, never markup). */
function element(tag, className, text) {
  const el = document.createElement(tag);
  el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A tensor name, a token or other data: shown as is, never translated (translate="no"). */
export function dataSpan(text) {
  const span = document.createElement('span');
  span.translate = false;
  span.textContent = text;
  return span;
}

/**
 * Text with its code in <code> elements, as DOM nodes: what the string marks
 * with backticks (`torch.triu(…)`), and file paths (tests/reference/programs/x.py).
 */
export function withCode(text) {
  const nodes = [];
  let at = 0;
  for (const match of text.matchAll(/`([^`]+)`|[\w-]+(?:\/[\w.-]+)+\.py/g)) {
    if (match.index > at) nodes.push(document.createTextNode(text.slice(at, match.index)));
    const code = document.createElement('code');
    code.textContent = match[1] ?? match[0];
    nodes.push(code);
    at = match.index + match[0].length;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

/**
 * A label template ("{name} head 1", "注意力分数 {name}（第 1 个头）") as DOM
 * nodes: its words as text, the tensor name in a translate="no" span.
 */
export function labelNodes(template, name) {
  const nodes = [];
  template.split('{name}').forEach((text, k) => {
    if (k) nodes.push(dataSpan(name));
    if (text) nodes.push(document.createTextNode(text));
  });
  return nodes;
}

/** The view's caption as plain text, for attributes: the template with its tensor name. */
const captionText = (view) => (view.caption ?? '{name}').replaceAll('{name}', view.captionName ?? view.name);

/** A legend for the view's colour scale. */
function legend(view, limit) {
  const box = document.createElement('div');
  box.className = 'legend';
  const bar = document.createElement('span');
  bar.className = 'legend-bar';
  bar.style.background = legendGradient(view.kind === 'prob' ? 'prob' : 'signed', view.theme);
  const lo = document.createElement('span');
  const hi = document.createElement('span');
  lo.textContent = view.kind === 'prob' ? '0' : formatNumber(-limit, 2);
  hi.textContent = formatNumber(limit, 2);
  box.append(lo, bar, hi);
  if (view.hasBlocked) box.append(element('span', 'legend-chip blocked', view.t('legend.masked')));
  if (view.hasNaN) box.append(element('span', 'legend-chip nan', view.t('legend.nan')));
  return box;
}

/**
 * view: {
 *   name, caption? (a template: its words translated, {name} where captionName (default name) goes),
 *   data, offset, rows, cols, rowStride, rowLabels, colLabels,
 *   kind: 'signed' | 'prob' | 'mask', theme, decimals, t (the UI language's translator),
 *   blocked?(i, j), edited?(i, j), editable?, onEdit?(i, j, value), columnColor?(j),
 *   columnGroups?: [{label, span, color}] (a header row over the column labels),
 *   cellClass?(i, j, v) (extra classes), cellLabel?(i, j, v) (an accessible name, or null),
 *   maskText?(v) (a mask value's text; default 1/0), nanNote?(rows) (the note under NaNs, for the row indices holding one)
 * }
 */
export function renderMatrix(view) {
  view.rowStride ??= view.cols;
  view.offset ??= 0;
  const { max, nanRows } = scan(view);
  view.nanRows = new Set(nanRows);
  view.hasNaN = nanRows.length > 0;
  view.hasBlocked = false;
  if (view.blocked)
    for (let i = 0; i < view.rows && !view.hasBlocked; i++)
      for (let j = 0; j < view.cols; j++)
        if (view.blocked(i, j)) {
          view.hasBlocked = true;
          break;
        }
  const limit = view.kind === 'prob' ? Math.max(1, max) : max || 1;
  const figure = document.createElement('figure');
  figure.className = 'matrix-figure';
  figure.setAttribute('part', 'matrix');
  figure.dataset.matrix = view.name;
  const body =
    view.rows <= TABLE_LIMIT && view.cols <= TABLE_LIMIT ? renderTable(view, limit) : renderCanvas(view, limit);
  figure.append(body);
  if (view.kind !== 'mask') figure.append(legend(view, limit));
  if (view.exportable) {
    // Copy buttons; the page handles their clicks through figure.matrixView.
    figure.matrixView = view;
    const menu = document.createElement('div');
    menu.className = 'export-menu';
    menu.setAttribute('role', 'group');
    menu.setAttribute('aria-label', `${view.t('export.copyMatrix')} ${captionText(view)}`);
    for (const format of ['csv', 'json', 'latex', 'numpy']) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.export = format;
      button.textContent = view.t(`export.${format}`);
      menu.append(button);
    }
    figure.append(menu);
  }
  if (view.hasNaN) {
    const labels = nanRows.map((i) => view.rowLabels[i]).join(', ');
    const note = view.nanNote ? view.nanNote(nanRows) : view.t('matrix.nanCarried', { rows: labels });
    figure.append(element('p', 'note nan-note', note));
  }
  return figure;
}

function renderTable(view, limit, { corner = false } = {}) {
  const rows = corner ? Math.min(CORNER, view.rows) : view.rows;
  const cols = corner ? Math.min(CORNER, view.cols) : view.cols;
  const table = document.createElement('table');
  table.className = corner ? 'matrix sr-only' : 'matrix';
  table.dataset.matrix = view.name;
  const caption = document.createElement('caption');
  caption.className = 'sr-only';
  caption.append(
    ...labelNodes(view.caption ?? '{name}', view.captionName ?? view.name),
    ` [${view.rows} × ${view.cols}]`,
  );
  table.append(caption);
  const thead = table.createTHead();
  if (view.columnGroups) {
    const groups = thead.insertRow();
    groups.className = 'column-groups';
    groups.append(document.createElement('td'));
    let used = 0;
    for (const group of view.columnGroups) {
      if (used >= cols) break;
      const th = document.createElement('th');
      th.scope = 'colgroup';
      th.colSpan = Math.min(group.span, cols - used);
      th.textContent = group.label;
      th.style.borderBottom = `4px solid ${group.color}`;
      groups.append(th);
      used += group.span;
    }
  }
  const head = thead.insertRow();
  head.append(document.createElement('td'));
  for (let j = 0; j < cols; j++) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = view.colLabels[j];
    th.translate = false; // a token or a feature name
    if (view.columnColor) th.style.borderBottom = `3px solid ${view.columnColor(j)}`;
    head.append(th);
  }
  // Number cells are built as one HTML string (they only hold numbers we
  // formatted, and classes: no style attribute, for a strict CSP); row
  // labels, which are user tokens, are set as textContent.
  const tbody = table.createTBody();
  const html = [];
  for (let i = 0; i < rows; i++) {
    html.push(`<tr data-row="${i}"><th scope="row"></th>`);
    for (let j = 0; j < cols; j++) {
      const v = valueAt(view, i, j);
      const classes = [];
      let text;
      if (view.kind === 'mask') {
        // Dark = blocked in every convention; the text is the value as the mask holds it.
        classes.push((view.blocked ? view.blocked(i, j) : v !== 0) ? 'mask-on' : 'mask-off');
        text = view.maskText ? view.maskText(v) : v ? '1' : '0';
      } else if (view.blocked?.(i, j)) {
        classes.push('blocked');
        text = formatNumber(v, view.decimals);
      } else if (Number.isNaN(v)) {
        classes.push('nan');
        text = 'NaN';
      } else {
        classes.push(paletteClass(view.kind, view.theme, paletteIndex(view.kind, v, limit)));
        text = formatNumber(v, view.decimals);
      }
      if (view.cellClass) classes.push(...view.cellClass(i, j, v));
      if (view.editable) classes.push('editable');
      if (view.edited?.(i, j)) classes.push('edited');
      // Roving focus: only the first cell is a tab stop; arrows move it.
      const tabIndex = !corner && i === 0 && j === 0 ? ' tabindex="0"' : '';
      const classAttr = classes.length ? ` class="${classes.join(' ')}"` : '';
      const label = view.cellLabel?.(i, j, v);
      const labelAttr = label ? ` aria-label="${escapeHtml(label)}"` : '';
      html.push(`<td data-i="${i}" data-j="${j}"${tabIndex}${classAttr}${labelAttr}>${text}</td>`);
    }
    html.push('</tr>');
  }
  tbody.innerHTML = html.join('');
  for (let i = 0; i < rows; i++) {
    const th = tbody.rows[i].cells[0];
    th.textContent = view.rowLabels[i];
    th.translate = false; // a token, typed by the user
    if (view.nanRows?.has(i)) th.classList.add('nan-row');
  }
  if (!corner) attachKeyboard(table, view);
  return table;
}

/** Roving focus: one tab stop per table, arrows move between cells. */
function attachKeyboard(table, view) {
  table.addEventListener('keydown', (event) => {
    const td = event.target.closest('td[data-i]');
    if (!td || event.target.tagName === 'INPUT') return;
    let i = Number(td.dataset.i);
    let j = Number(td.dataset.j);
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (view.editable && event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      nudge(view, td, event.key === 'ArrowUp' ? 0.1 : -0.1);
      return;
    }
    if (moves[event.key]) {
      event.preventDefault();
      i = Math.max(0, Math.min(view.rows - 1, i + moves[event.key][0]));
      j = Math.max(0, Math.min(view.cols - 1, j + moves[event.key][1]));
      const next = table.querySelector(`td[data-i="${i}"][data-j="${j}"]`);
      if (next) {
        td.tabIndex = -1;
        next.tabIndex = 0;
        next.focus();
      }
    } else if (view.editable && (event.key === 'Enter' || /^[-0-9.]$/.test(event.key))) {
      event.preventDefault();
      startEditing(view, td, event.key === 'Enter' ? null : event.key);
    }
  });
  if (!view.editable) return;
  table.addEventListener('click', (event) => {
    const td = event.target.closest('td[data-i]');
    if (td && event.target.tagName !== 'INPUT') startEditing(view, td, null);
  });
  // The wheel changes a number being edited or focused; over a number merely
  // hovered it scrolls the page (reading down a page must not edit weights).
  table.addEventListener(
    'wheel',
    (event) => {
      const td = event.target.closest('td[data-i]');
      const input = td?.querySelector('input');
      if (!td || !(input || td.matches(':focus'))) return;
      event.preventDefault();
      const delta = event.deltaY < 0 ? 0.01 : -0.01;
      if (!input) return nudge(view, td, delta);
      const typed = Number(input.value.replace('−', '-'));
      if (input.value.trim() !== '' && Number.isFinite(typed))
        input.value = String(Math.round((typed + delta) * 1e4) / 1e4);
    },
    { passive: false },
  );
  // Drag up/down on a cell: 0.01 per pixel.
  table.addEventListener('pointerdown', (event) => {
    const td = event.target.closest('td[data-i]');
    if (!td || event.button !== 0 || td.querySelector('input')) return;
    const startY = event.clientY;
    const start = valueAt(view, Number(td.dataset.i), Number(td.dataset.j));
    let dragged = false;
    const move = (e) => {
      const dy = startY - e.clientY;
      if (Math.abs(dy) < 4 && !dragged) return;
      dragged = true;
      const value = Math.round((start + dy * 0.01) * 1e4) / 1e4;
      td.textContent = formatNumber(value, view.decimals);
      view.onEdit(Number(td.dataset.i), Number(td.dataset.j), value);
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      if (dragged) td.dataset.dragged = '1';
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  });
}

function nudge(view, td, delta) {
  const i = Number(td.dataset.i);
  const j = Number(td.dataset.j);
  const value = Math.round((valueAt(view, i, j) + delta) * 1e4) / 1e4;
  view.onEdit(i, j, value);
}

function startEditing(view, td, firstKey) {
  if (td.dataset.dragged) {
    delete td.dataset.dragged;
    return;
  }
  const i = Number(td.dataset.i);
  const j = Number(td.dataset.j);
  const input = document.createElement('input');
  input.type = 'text';
  input.inputMode = 'decimal';
  input.className = 'cell-input';
  input.setAttribute('aria-label', `${captionText(view)} [${view.rowLabels[i]}, ${view.colLabels[j]}]`);
  input.value = firstKey ?? String(valueAt(view, i, j));
  td.textContent = '';
  td.append(input);
  input.focus();
  if (firstKey === null) input.select();
  let done = false;
  const finish = (commit) => {
    if (done) return;
    done = true;
    const value = Number(input.value.replace('−', '-'));
    if (commit && input.value.trim() !== '' && Number.isFinite(value)) {
      view.onEdit(i, j, value);
    } else {
      td.textContent = formatNumber(valueAt(view, i, j), view.decimals);
      td.focus();
    }
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') finish(true);
    else if (e.key === 'Escape') finish(false);
    e.stopPropagation();
  });
  input.addEventListener('blur', () => finish(true));
}

const NAN_RGB = [220, 0, 120];
const BLOCKED_RGB = [128, 128, 128];

function drawHeatmap(canvas, view, limit) {
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(view.cols, view.rows);
  const pixels = image.data;
  const palette = paletteTable(view.kind === 'prob' ? 'prob' : 'signed', view.theme);
  const checkBlocked = view.hasBlocked && view.kind !== 'mask';
  for (let i = 0; i < view.rows; i++) {
    const start = view.offset + i * view.rowStride;
    for (let j = 0; j < view.cols; j++) {
      const v = view.data[start + j];
      const p = (i * view.cols + j) * 4;
      let rgb = null;
      let index;
      if (view.kind === 'mask') index = (view.blocked ? view.blocked(i, j) : v !== 0) ? 255 : 0;
      else if (v !== v) rgb = NAN_RGB;
      else if (checkBlocked && view.blocked(i, j)) rgb = BLOCKED_RGB;
      else index = paletteIndex(view.kind, v, limit);
      if (rgb) {
        pixels[p] = rgb[0];
        pixels[p + 1] = rgb[1];
        pixels[p + 2] = rgb[2];
      } else if (view.kind === 'mask') {
        const shade = index ? 60 : 235;
        pixels[p] = pixels[p + 1] = pixels[p + 2] = shade;
      } else {
        pixels[p] = palette[index * 3];
        pixels[p + 1] = palette[index * 3 + 1];
        pixels[p + 2] = palette[index * 3 + 2];
      }
      pixels[p + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
}

/** Runs draw() once, when `element` comes within a screen of the viewport. */
export function whenVisible(element, draw) {
  if (typeof IntersectionObserver === 'undefined') return draw();
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      draw();
    },
    { rootMargin: '100% 0px' },
  );
  observer.observe(element);
}

function renderCanvas(view, limit) {
  const box = document.createElement('div');
  box.className = 'canvas-matrix';
  const toolbar = document.createElement('div');
  toolbar.className = 'canvas-toolbar';
  const note = document.createElement('span');
  note.className = 'note';
  note.textContent = `${view.t('matrix.canvasNote')} [${view.rows} × ${view.cols}]`;
  const zoomOut = document.createElement('button');
  zoomOut.type = 'button';
  zoomOut.textContent = '−';
  zoomOut.setAttribute('aria-label', view.t('matrix.zoomOut'));
  const zoomIn = document.createElement('button');
  zoomIn.type = 'button';
  zoomIn.textContent = '+';
  zoomIn.setAttribute('aria-label', view.t('matrix.zoomIn'));
  toolbar.append(zoomOut, zoomIn, note);
  const scroller = document.createElement('div');
  scroller.className = 'canvas-scroller';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${captionText(view)} ${view.t('matrix.heatmap')} [${view.rows} × ${view.cols}]`);
  const tooltip = document.createElement('div');
  tooltip.className = 'canvas-tooltip';
  tooltip.hidden = true;
  scroller.append(canvas, tooltip);

  // One pixel per value, scaled up by CSS without smoothing. Drawn when the
  // canvas nears the viewport: a 512-token run has a dozen such matrices.
  canvas.width = view.cols;
  canvas.height = view.rows;
  whenVisible(canvas, () => drawHeatmap(canvas, view, limit));
  let zoom = Math.max(1, Math.min(4, Math.floor(720 / view.cols)));
  const applyZoom = () => {
    canvas.style.width = `${view.cols * zoom}px`;
    canvas.style.height = `${view.rows * zoom}px`;
  };
  applyZoom();
  zoomIn.addEventListener('click', () => {
    zoom = Math.min(32, zoom * 2);
    applyZoom();
  });
  zoomOut.addEventListener('click', () => {
    zoom = Math.max(1, zoom / 2);
    applyZoom();
  });
  canvas.addEventListener('mousemove', (event) => {
    const rect = canvas.getBoundingClientRect();
    const j = Math.floor(((event.clientX - rect.left) / rect.width) * view.cols);
    const i = Math.floor(((event.clientY - rect.top) / rect.height) * view.rows);
    if (i < 0 || j < 0 || i >= view.rows || j >= view.cols) return;
    tooltip.hidden = false;
    tooltip.textContent = `${view.rowLabels[i]} · ${view.colLabels[j]} = ${formatNumber(valueAt(view, i, j), view.decimals)}`;
    tooltip.style.left = `${event.clientX - rect.left + scroller.scrollLeft + 12}px`;
    tooltip.style.top = `${event.clientY - rect.top + scroller.scrollTop + 12}px`;
  });
  canvas.addEventListener('mouseleave', () => {
    tooltip.hidden = true;
  });
  box.append(toolbar, scroller, renderTable(view, limit, { corner: true }));
  return box;
}
