// One matrix on screen: a real <table> heatmap up to 64×64, a canvas heatmap
// with hover tooltip and zoom beyond that (plus a table of its top-left
// corner for screen readers). Token text is only ever set as textContent.
import { FIXED_RGB, legendGradient, paletteClass, paletteWords, pixelWord } from './colors.js';
import { element } from './dom.js';
import { formatNumber } from '../../model/format.js';
import {
  TABLE_LIMIT,
  captionText,
  cellFace,
  heatmapZoom,
  legendEnds,
  scaleLimit,
  scan,
  valueAt,
} from './matrix-view.js';
import { FIGURE_FORMATS, MATRIX_FORMATS } from '../../model/matrix-formats.js';

export { TABLE_LIMIT, captionText, valueAt };
const CORNER = 16;

/** Text made safe to place inside an HTML attribute or element. */
const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

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

/** The table's (hidden) caption: the view's caption and its size. */
const captionNodes = (view) => [
  ...labelNodes(view.caption ?? '{name}', view.captionName ?? view.name),
  ` [${view.rows} × ${view.cols}]`,
];
const exportLabel = (view) => `${view.t('export.copyMatrix')} ${captionText(view)}`;
const canvasLabel = (view) => `${captionText(view)} ${view.t('matrix.heatmap')} [${view.rows} × ${view.cols}]`;

/** A legend for the view's colour scale. */
function legend(view, limit) {
  const box = document.createElement('div');
  box.className = 'legend';
  const bar = document.createElement('span');
  bar.className = 'legend-bar';
  bar.style.background = legendGradient(view.kind === 'prob' ? 'prob' : 'signed', view.theme);
  const lo = document.createElement('span');
  const hi = document.createElement('span');
  [lo.textContent, hi.textContent] = legendEnds(view.kind, limit);
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
 *   blocked?(i, j), hasBlocked? (whether blocked() holds anywhere, when the caller knows), edited?(i, j),
 *   editable?, onEdit?(i, j, value), columnColor?(j),
 *   columnGroups?: [{label, span, color}] (a header row over the column labels),
 *   cellClass?(i, j, v) (extra classes), cellLabel?(i, j, v) (an accessible name, or null),
 *   maskText?(v) (a mask value's text; default 1/0), nanNote?(rows) (the note under NaNs, for the row indices holding one),
 *   later?(draw, element) (draws a canvas heatmap in a later slice; default: when it nears the viewport)
 * }
 * previous: this matrix's figure from the last render, or null. When it has
 * the same structure (name, size, kind, captions, columns, language), it is
 * updated in place (numbers, colours, labels, legend) and returned, so its
 * cells keep their focus, an edit in progress and their place on the page.
 */
export function renderMatrix(view, previous = null) {
  view.rowStride ??= view.cols;
  view.offset ??= 0;
  const { max, nanRows } = scan(view);
  view.nanRows = new Set(nanRows);
  view.hasNaN = nanRows.length > 0;
  view.hasBlocked ??= hasBlocked(view);
  const limit = scaleLimit(view.kind, max);
  const key = structureKey(view);
  if (previous?.matrixKey === key) {
    updateFigure(previous, view, limit);
    return previous;
  }
  const figure = document.createElement('figure');
  figure.className = 'matrix-figure';
  figure.setAttribute('part', 'matrix');
  figure.dataset.matrix = view.name;
  // What the figure's listeners read: the view and scale of the last render (updated in place).
  figure.matrixKey = key;
  figure.matrixLive = { view, limit, redraw: null };
  figure.matrixView = view; // the page's copy buttons read it
  const live = figure.matrixLive;
  if (isTable(view)) lastDrawings.delete(view.name); // its canvas, if it had one, is gone for good
  const body = isTable(view) ? renderTable(view, limit, { live }) : renderCanvas(view, limit, live);
  figure.append(body);
  if (view.kind !== 'mask') figure.append(legend(view, limit));
  if (view.exportable) {
    // Copy buttons; the page handles their clicks through figure.matrixView.
    const menu = document.createElement('div');
    menu.className = 'export-menu';
    menu.setAttribute('role', 'toolbar');
    menu.setAttribute('aria-label', exportLabel(view));
    for (const format of MATRIX_FORMATS) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.export = format;
      button.textContent = view.t(`export.${format}`);
      button.tabIndex = menu.children.length ? -1 : 0;
      menu.append(button);
    }
    // …and the figure's downloads, in the same toolbar (one tab stop per matrix).
    menu.dataset.figureOf = view.name;
    appendFigureButtons(menu, view.t);
    rovingToolbar(menu);
    figure.append(menu);
  }
  const note = nanNote(view);
  if (note) figure.append(note);
  return figure;
}

/**
 * The download buttons of figure `name` (view/figures/shown-figures.js names them): its SVG and its PNG
 * at each scale, in a toolbar labelled with what it shows (a matrix's are in its copy toolbar). The page
 * handles their clicks (data-figure-of).
 */
export function figureMenu(t, name, label) {
  const menu = document.createElement('div');
  menu.className = 'export-menu figure-menu';
  menu.setAttribute('role', 'toolbar');
  menu.setAttribute('aria-label', `${t('export.figure')} ${label}`);
  menu.dataset.figureOf = name;
  appendFigureButtons(menu, t);
  rovingToolbar(menu);
  return menu;
}

/** A figure's download buttons (SVG, PNG at each scale) at the end of a toolbar; its first is its tab stop if it has none. */
function appendFigureButtons(menu, t) {
  for (const { format, scale } of FIGURE_FORMATS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.figure = format;
    if (scale) button.dataset.scale = String(scale);
    button.textContent = t(`export.${format}`, { scale });
    button.tabIndex = menu.children.length ? -1 : 0;
    menu.append(button);
  }
}

/** A toolbar as one tab stop: ← → Home End move between its buttons (the WAI-ARIA toolbar pattern). */
function rovingToolbar(menu) {
  menu.addEventListener('keydown', (event) => {
    const buttons = [...menu.querySelectorAll('button')];
    const at = buttons.indexOf(event.target);
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: buttons.length - 1 };
    if (at < 0 || !(event.key in moves)) return;
    event.preventDefault();
    const next = buttons[(moves[event.key] + buttons.length) % buttons.length];
    buttons.forEach((button) => (button.tabIndex = button === next ? 0 : -1));
    next.focus();
  });
}

const isTable = (view) => view.rows <= TABLE_LIMIT && view.cols <= TABLE_LIMIT;

function hasBlocked(view) {
  if (!view.blocked) return false;
  for (let i = 0; i < view.rows; i++) for (let j = 0; j < view.cols; j++) if (view.blocked(i, j)) return true;
  return false;
}

/** The note under a matrix with NaNs (which rows hold them, and why), or null. */
function nanNote(view) {
  if (!view.hasNaN) return null;
  const rows = [...view.nanRows];
  const labels = rows.map((i) => view.rowLabels[i]).join(', ');
  return element(
    'p',
    'note nan-note',
    view.nanNote ? view.nanNote(rows) : view.t('matrix.nanCarried', { rows: labels }),
  );
}

/**
 * Everything a figure's elements are built from except its numbers, labels,
 * colours and notes: two views with the same key differ only in what
 * updateFigure changes.
 */
function structureKey(view) {
  const columns = [];
  if (view.columnColor) for (let j = 0; j < view.cols; j++) columns.push(view.columnColor(j));
  // A canvas heatmap's elements do not depend on its size beyond its corner table's (updateFigure resizes it).
  const size = isTable(view)
    ? [view.rows, view.cols]
    : ['canvas', Math.min(CORNER, view.rows), Math.min(CORNER, view.cols)];
  return JSON.stringify([
    view.name,
    ...size,
    view.kind,
    Boolean(view.editable),
    Boolean(view.exportable),
    view.t.lang ?? view.t('export.copyMatrix'),
    view.columnGroups?.map((g) => [g.label, g.span, g.color]) ?? null,
    columns,
  ]);
}

/** A figure made for a view of the same structure (structureKey), brought up to `view` in place. */
function updateFigure(figure, view, limit) {
  const live = figure.matrixLive;
  live.view = view;
  live.limit = limit;
  figure.matrixView = view;
  const menu = figure.querySelector('.export-menu');
  if (menu && menu.getAttribute('aria-label') !== exportLabel(view)) menu.setAttribute('aria-label', exportLabel(view));
  if (isTable(view)) updateTable(figure.querySelector('table'), view, limit);
  else {
    figure.querySelector('canvas').setAttribute('aria-label', canvasLabel(view));
    live.redraw();
    live.updateCorner();
  }
  const oldLegend = figure.querySelector(':scope > .legend');
  const newLegend = oldLegend && legend(view, limit);
  if (oldLegend && !oldLegend.isEqualNode(newLegend)) oldLegend.replaceWith(newLegend);
  const oldNote = figure.querySelector(':scope > .nan-note');
  const note = nanNote(view);
  if (oldNote && note?.isEqualNode(oldNote)) return;
  oldNote?.remove();
  if (note) figure.append(note);
}

function renderTable(view, limit, { corner = false, live = null } = {}) {
  const rows = corner ? Math.min(CORNER, view.rows) : view.rows;
  const cols = corner ? Math.min(CORNER, view.cols) : view.cols;
  const table = document.createElement('table');
  table.className = corner ? 'matrix sr-only' : 'matrix';
  table.dataset.matrix = view.name;
  const caption = document.createElement('caption');
  caption.className = 'sr-only';
  caption.append(...captionNodes(view));
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
      const { className, text, label } = cellParts(view, i, j, limit);
      // Roving focus: only the first cell is a tab stop; arrows move it.
      const tabIndex = !corner && i === 0 && j === 0 ? ' tabindex="0"' : '';
      const classAttr = className ? ` class="${className}"` : '';
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
  if (!corner) attachKeyboard(table, live);
  return table;
}

/** A number cell's classes, text and accessible name (or null). */
function cellParts(view, i, j, limit) {
  const v = valueAt(view, i, j);
  const { look, k, text } = cellFace(view, i, j, limit);
  const classes = [look === 'scale' ? paletteClass(view.kind, view.theme, k) : look];
  if (view.cellClass) classes.push(...view.cellClass(i, j, v));
  if (view.editable) classes.push('editable');
  if (view.edited?.(i, j)) classes.push('edited');
  return { className: classes.join(' '), text, label: view.cellLabel?.(i, j, v) };
}

/**
 * A table of the same structure brought up to `view`: its numbers, colours,
 * accessible names and labels. A cell being edited keeps its input; the
 * roving tab stop stays where the arrows left it.
 */
function updateTable(table, view, limit, { corner = false } = {}) {
  // The caption names the head shown (a head tab changes it) and the size.
  const caption = captionNodes(view);
  if (table.caption.textContent !== caption.map((node) => node.textContent ?? node).join(''))
    table.caption.replaceChildren(...caption);
  const rows = corner ? Math.min(CORNER, view.rows) : view.rows;
  const cols = corner ? Math.min(CORNER, view.cols) : view.cols;
  const head = table.tHead.rows[table.tHead.rows.length - 1].cells;
  for (let j = 0; j < cols; j++) setText(head[j + 1], view.colLabels[j]);
  const body = table.tBodies[0].rows;
  for (let i = 0; i < rows; i++) {
    const cells = body[i].cells;
    setText(cells[0], view.rowLabels[i]);
    const nanRow = view.nanRows.has(i);
    if (cells[0].classList.contains('nan-row') !== nanRow) cells[0].classList.toggle('nan-row', nanRow);
    for (let j = 0; j < cols; j++) {
      const td = cells[j + 1];
      const { className, text, label } = cellParts(view, i, j, limit);
      if (td.className !== className) td.className = className;
      // A cell being edited holds its input (its only element).
      if (!td.firstElementChild) setText(td, text);
      if (label) {
        if (td.getAttribute('aria-label') !== label) td.setAttribute('aria-label', label);
      } else if (td.hasAttribute('aria-label')) td.removeAttribute('aria-label');
    }
  }
}

/** Sets an element's text, touching it only if it changed. */
function setText(el, text) {
  const node = el.firstChild;
  if (node && node === el.lastChild && node.nodeType === 3) {
    if (node.data !== text) node.data = text;
  } else el.textContent = text;
}

/** Roving focus: one tab stop per table, arrows move between cells. */
function attachKeyboard(table, live) {
  table.addEventListener('keydown', (event) => {
    const { view } = live;
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
    } else if (view.editable && (event.key === 'Enter' || event.key === 'F2' || /^[-0-9.]$/.test(event.key))) {
      event.preventDefault();
      startEditing(live, td, event.key === 'Enter' || event.key === 'F2' ? null : event.key);
    }
  });
  if (!live.view.editable) return;
  table.addEventListener('click', (event) => {
    const td = event.target.closest('td[data-i]');
    if (td && event.target.tagName !== 'INPUT') startEditing(live, td, null);
  });
  // The wheel changes a number being edited or focused; over a number merely
  // hovered it scrolls the page (reading down a page must not edit weights).
  table.addEventListener(
    'wheel',
    (event) => {
      const { view } = live;
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
    const { view } = live;
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

function startEditing(live, td, firstKey) {
  const { view } = live;
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
  // The number is written back at once (the render that follows keeps this cell); Enter keeps the focus on it.
  const finish = (commit, { refocus = false } = {}) => {
    if (done) return;
    done = true;
    const value = Number(input.value.replace('−', '-'));
    if (commit && input.value.trim() !== '' && Number.isFinite(value)) {
      // The cell is where its input was, in view: focused without the layout a scroll into view would force.
      td.textContent = formatNumber(value, live.view.decimals);
      if (refocus) td.focus({ preventScroll: true });
      live.view.onEdit(i, j, value);
    } else {
      td.textContent = formatNumber(valueAt(live.view, i, j), live.view.decimals);
      td.focus({ preventScroll: true });
    }
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') finish(true, { refocus: true });
    else if (e.key === 'Escape') finish(false);
    e.stopPropagation();
  });
  input.addEventListener('blur', () => finish(true));
}

const NAN_PIXEL = pixelWord(...FIXED_RGB.nan);
const BLOCKED_PIXEL = pixelWord(...FIXED_RGB.blocked);
const MASK_ON_PIXEL = pixelWord(...FIXED_RGB.maskOn); // blocked: dark, as in the tables
const MASK_OFF_PIXEL = pixelWord(...FIXED_RGB.maskOff);

// A large heatmap is drawn this many pixels per slice (slices.js): a band of rows at a time.
const BAND_PIXELS = 1 << 16;

/**
 * Rows `from` … `to` − 1 of the view's heatmap (all by default), in one band
 * of pixels: one word per pixel from the scale's 256 colours (paletteWords).
 */
function drawHeatmap(canvas, view, limit, from = 0, to = view.rows) {
  const ctx = canvas.getContext('2d');
  const { data, cols, offset, rowStride, kind, blocked } = view;
  const image = ctx.createImageData(cols, to - from);
  const pixels = new Uint32Array(image.data.buffer);
  const palette = paletteWords(kind === 'prob' ? 'prob' : 'signed', view.theme);
  let p = 0;
  if (kind === 'mask') {
    for (let i = from; i < to; i++) {
      const start = offset + i * rowStride;
      for (let j = 0; j < cols; j++)
        pixels[p++] = (blocked ? blocked(i, j) : data[start + j] !== 0) ? MASK_ON_PIXEL : MASK_OFF_PIXEL;
    }
  } else {
    const checkBlocked = Boolean(view.hasBlocked && blocked);
    // paletteIndex's arithmetic, inline (V8 does not inline the call here, which halves the speed):
    // t = v / limit clamped to [low, 1], its step (t − low) · steps rounded.
    const prob = kind === 'prob';
    const low = prob ? 0 : -1;
    const steps = prob ? 255 : 127.5;
    for (let i = from; i < to; i++) {
      const start = offset + i * rowStride;
      for (let j = 0; j < cols; j++) {
        const v = data[start + j];
        if (v !== v) pixels[p++] = NAN_PIXEL;
        else if (checkBlocked && blocked(i, j)) pixels[p++] = BLOCKED_PIXEL;
        else {
          const t = v / limit;
          pixels[p++] = palette[(((t < low ? low : t > 1 ? 1 : t) - low) * steps + 0.5) | 0];
        }
      }
    }
  }
  ctx.putImageData(image, 0, from);
}

// The last complete drawing of each matrix (by name): which canvas shows which
// numbers on which scale. A keystroke at 512 tokens changes none of the
// weights and only adds a row to X, Q, K and V: a new drawing copies the rows
// that did not change from it instead of colouring them again.
const lastDrawings = new Map();

/** Whether row i of `view` holds the numbers `drawn` showed in its row i. */
function sameRow(drawn, view, i) {
  if (i >= drawn.rows) return false;
  const a = drawn.offset + i * drawn.rowStride;
  const b = view.offset + i * view.rowStride;
  if (drawn.data === view.data && a === b) return true;
  for (let j = 0; j < view.cols; j++) if (drawn.data[a + j] !== view.data[b + j]) return false;
  return true;
}

/**
 * Starts drawing the view's heatmap on `canvas`. Returns draw(from, to),
 * which draws rows from … to − 1 (each row once, all of them in any order,
 * a band at a time), and does nothing once a newer drawing of the canvas
 * started. Rows whose numbers the matrix's last complete drawing showed on
 * the same scale are copied from its canvas (or, on this canvas, left as
 * they are); the others are coloured.
 */
function startDrawing(canvas, view, limit) {
  const pass = (canvas.heatmapPass ?? 0) + 1;
  canvas.heatmapPass = pass;
  // Only plain scales: a mask's or a blocked cell's colour depends on more than its number.
  const plain = view.kind !== 'mask' && !view.hasBlocked;
  const last = lastDrawings.get(view.name);
  // Let go of once this drawing is complete or superseded: a kept draw() (the figure's redraw) must not hold
  // the last drawing's canvas, whose figure holds its own draw(), and so on back through every render.
  let source =
    plain && last?.cols === view.cols && last.limit === limit && last.kind === view.kind && last.theme === view.theme
      ? last
      : null;
  if (last?.canvas === canvas) lastDrawings.delete(view.name); // its rows change from now on
  let left = view.rows;
  return (from, to) => {
    if (canvas.heatmapPass !== pass) {
      source = null;
      return;
    }
    // The source's canvas still shows it: not drawn on since (this canvas: only by this drawing, row by row).
    const shown = source && source.canvas.heatmapPass === (source.canvas === canvas ? pass : source.pass);
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingEnabled = false;
    // Runs of rows to copy and rows to colour.
    for (let start = from; start < to;) {
      const copy = Boolean(shown) && sameRow(source, view, start);
      let end = start + 1;
      while (end < to && Boolean(shown) && sameRow(source, view, end) === copy) end++;
      if (!copy) drawHeatmap(canvas, view, limit, start, end);
      else if (source.canvas !== canvas)
        ctx.drawImage(source.canvas, 0, start, view.cols, end - start, 0, start, view.cols, end - start);
      start = end;
    }
    left -= to - from;
    if (left === 0) source = null;
    if (left === 0 && plain) {
      const { data, offset, rowStride, rows, cols, kind, theme } = view;
      lastDrawings.set(view.name, { canvas, pass, data, offset, rowStride, rows, cols, limit, kind, theme });
    }
  };
}

/** Runs draw() once, when `element` comes within a screen of the viewport. Returns a function that cancels it. */
export function whenVisible(element, draw) {
  if (typeof IntersectionObserver === 'undefined') {
    draw();
    return () => {};
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      draw();
    },
    { rootMargin: '100% 0px' },
  );
  observer.observe(element);
  return () => observer.disconnect();
}

function renderCanvas(view, limit, live) {
  const box = document.createElement('div');
  box.className = 'canvas-matrix';
  const toolbar = document.createElement('div');
  toolbar.className = 'canvas-toolbar';
  const note = document.createElement('span');
  note.className = 'note';
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
  canvas.setAttribute('aria-label', canvasLabel(view));
  const tooltip = document.createElement('div');
  tooltip.className = 'canvas-tooltip';
  tooltip.hidden = true;
  scroller.append(canvas, tooltip);

  // One pixel per value, scaled up by CSS without smoothing. Drawn when the
  // canvas nears the viewport: a 512-token run has a dozen such matrices.
  // A later render of the same structure draws its numbers here (updateFigure),
  // at its size (a keystroke adds a row).
  let zoom = heatmapZoom(view.cols);
  const applyZoom = () => {
    canvas.style.width = `${live.view.cols * zoom}px`;
    canvas.style.height = `${live.view.rows * zoom}px`;
  };
  let cancel = () => {};
  live.redraw = () => {
    cancel();
    const { view: shown, limit: scale } = live;
    setText(note, `${shown.t('matrix.canvasNote')} [${shown.rows} × ${shown.cols}]`);
    if (canvas.width !== shown.cols || canvas.height !== shown.rows) {
      resizeCanvas(canvas, shown);
      applyZoom();
    }
    if (shown.later) {
      // In bands of rows, each its own job: no slice runs long on a 768 × 768 heatmap.
      let cancelled = false;
      const draw = startDrawing(canvas, shown, scale);
      const band = Math.max(1, Math.floor(BAND_PIXELS / shown.cols));
      for (let from = 0; from < shown.rows; from += band)
        shown.later(() => {
          if (!cancelled) draw(from, Math.min(shown.rows, from + band));
        }, canvas);
      cancel = () => {
        cancelled = true;
      };
    } else cancel = whenVisible(canvas, () => startDrawing(canvas, shown, scale)(0, shown.rows));
  };
  live.redraw();
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
    const shown = live.view;
    const rect = canvas.getBoundingClientRect();
    const j = Math.floor(((event.clientX - rect.left) / rect.width) * shown.cols);
    const i = Math.floor(((event.clientY - rect.top) / rect.height) * shown.rows);
    if (i < 0 || j < 0 || i >= shown.rows || j >= shown.cols) return;
    tooltip.hidden = false;
    tooltip.textContent = `${shown.rowLabels[i]} · ${shown.colLabels[j]} = ${formatNumber(valueAt(shown, i, j), shown.decimals)}`;
    tooltip.style.left = `${event.clientX - rect.left + scroller.scrollLeft + 12}px`;
    tooltip.style.top = `${event.clientY - rect.top + scroller.scrollTop + 12}px`;
  });
  canvas.addEventListener('mouseleave', () => {
    tooltip.hidden = true;
  });
  box.append(toolbar, scroller);
  // The top-left corner as a table for screen readers: built (or brought up to
  // date) after the heatmap, in a later slice when the view has them, so the
  // frame after a keystroke does not lay out a dozen hidden tables.
  live.updateCorner = () => {
    const run = () => {
      const { view: shown, limit: scale } = live;
      const table = box.querySelector(':scope > table');
      if (table) updateTable(table, shown, scale, { corner: true });
      else box.append(renderTable(shown, scale, { corner: true }));
    };
    if (live.view.later) live.view.later(run, canvas);
    else run();
  };
  live.updateCorner();
  return box;
}

/**
 * Gives the canvas the view's size. Resizing clears it: the last complete
 * drawing on it, if any, is first copied to a canvas of its own, which the
 * next drawing copies its unchanged rows from.
 */
function resizeCanvas(canvas, view) {
  const last = lastDrawings.get(view.name);
  if (last?.canvas === canvas && canvas.heatmapPass === last.pass && canvas.width && canvas.height) {
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    copy.getContext('2d').drawImage(canvas, 0, 0);
    copy.heatmapPass = last.pass;
    lastDrawings.set(view.name, { ...last, canvas: copy });
  }
  canvas.width = view.cols;
  canvas.height = view.rows;
}
