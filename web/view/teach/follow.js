// Follow one token: its row lights up in every matrix whose rows are the
// query tokens (X, Q, Q_h, scores … weights, context, concat, output), and,
// in self-attention, its column in every matrix whose columns are the key
// tokens and its row where the rows are keys (K, V, K_h, V_h). Which tables
// those are is read from their row and column labels, so a new matrix is
// followed without a change. The followed token is the controller's
// selection.focus, the same one the links view focuses.

/**
 * Whether a table's rows are the query tokens and its columns the key tokens.
 * rowLabels / colLabels: the table's header texts; a corner table (the
 * accessible part of a canvas heatmap) shows only the first few.
 * ctx: {queryLabels, keyLabels, cross}.
 */
export function followAxes(rowLabels, colLabels, { queryLabels, keyLabels, cross }, corner = false) {
  const matches = (labels, tokens) =>
    labels.length > 0 &&
    (labels.length === tokens.length || (corner && labels.length < tokens.length)) &&
    labels.every((label, k) => label === tokens[k]);
  return {
    rows: matches(rowLabels, queryLabels),
    // A query token is a key too only when the keys are the same sentence.
    columns: !cross && matches(colLabels, keyLabels),
  };
}

const headerTexts = (cells) => Array.from(cells, (cell) => cell.textContent);

/** The row and column labels of a rendered table (matrix or stats). */
function labelsOf(table) {
  const body = table.tBodies[0];
  const rows = body ? headerTexts(Array.from(body.rows, (tr) => tr.cells[0])) : [];
  const head = table.tHead?.rows[0];
  // A matrix's header row starts with an empty corner cell; a stats table's names its columns.
  const cols = head && head.cells[0]?.tagName === 'TD' ? headerTexts(Array.from(head.cells).slice(1)) : [];
  return { rows, cols };
}

/**
 * Marks the followed token (index `focus`, or null for none) in every table
 * and canvas heatmap of `pipeline`. Tables whose rows (columns) are tokens get
 * data-follow-rows (data-follow-cols), which makes their labels clickable.
 */
export function applyFollow(pipeline, focus, ctx, hint) {
  for (const table of pipeline.querySelectorAll('table')) {
    const corner = table.classList.contains('sr-only');
    const labels = labelsOf(table);
    const axes = followAxes(labels.rows, labels.cols, ctx, corner);
    table.toggleAttribute('data-follow-rows', axes.rows);
    table.toggleAttribute('data-follow-cols', axes.columns);
    const following = focus !== null && (axes.rows || axes.columns);
    table.classList.toggle('following', following);
    const body = table.tBodies[0];
    if (!body) continue;
    Array.from(body.rows).forEach((tr, i) => {
      const on = following && axes.rows && i === focus;
      tr.classList.toggle('followed', on);
      if (on) tr.setAttribute('aria-current', 'true');
      else tr.removeAttribute('aria-current');
      if (axes.rows && !corner && tr.cells[0].title !== hint) tr.cells[0].title = hint;
    });
    for (const td of body.querySelectorAll('td.followed-col')) td.classList.remove('followed-col');
    if (axes.columns) {
      const head = table.tHead.rows[0];
      Array.from(head.cells)
        .slice(1)
        .forEach((th, j) => {
          th.classList.toggle('followed-col', following && j === focus);
          if (!corner && th.title !== hint) th.title = hint;
        });
      if (following) for (const td of body.querySelectorAll(`td[data-j="${focus}"]`)) td.classList.add('followed-col');
    }
  }
  for (const box of pipeline.querySelectorAll('.canvas-matrix')) markCanvas(box, focus, ctx);
}

const bandObservers = new WeakMap();

/** Bands over a canvas heatmap at the followed row (and column), placed as the canvas is zoomed. */
function markCanvas(box, focus, ctx) {
  const canvas = box.querySelector('canvas');
  const corner = box.querySelector('table.sr-only');
  if (!canvas || !corner) return;
  box.querySelectorAll('.follow-band').forEach((band) => band.remove());
  bandObservers.get(box)?.disconnect();
  if (focus === null) return;
  const labels = labelsOf(corner);
  const axes = followAxes(labels.rows, labels.cols, ctx, true);
  const bands = [];
  if (axes.rows && focus < canvas.height) bands.push(['row', focus, canvas.height]);
  if (axes.columns && focus < canvas.width) bands.push(['col', focus, canvas.width]);
  if (!bands.length) return;
  const elements = bands.map(([axis]) => {
    const band = document.createElement('div');
    band.className = `follow-band ${axis}`;
    canvas.after(band);
    return band;
  });
  // The canvas's CSS size changes with its zoom buttons; the bands follow it.
  const place = (width, height) =>
    bands.forEach(([axis, k, count], n) => {
      const style = elements[n].style;
      const cell = (axis === 'row' ? height : width) / count;
      const at = `${k * cell}px`;
      const thick = `${Math.max(2, cell)}px`;
      if (axis === 'row') Object.assign(style, { top: at, height: thick, left: '0px', width: `${width}px` });
      else Object.assign(style, { left: at, width: thick, top: '0px', height: `${height}px` });
    });
  if (typeof ResizeObserver === 'undefined') return;
  const observer = new ResizeObserver((entries) => {
    const { width, height } = entries.at(-1).contentRect;
    place(width, height);
  });
  observer.observe(canvas);
  bandObservers.set(box, observer);
}

// Above this many tokens, the follow list is built in a later slice.
const LONG_LIST = 64;

/**
 * The "Follow a token" control in `box`: a select of the shown sentence's
 * tokens (and "none") and a clear button. Built once and updated in place,
 * so it keeps the keyboard focus across runs. onPick(index or null).
 */
export function renderFollowControl(box, { t, labels, focus, later = null }, onPick) {
  let select = box.querySelector('select');
  if (!select) {
    const label = document.createElement('label');
    const caption = document.createElement('span');
    select = document.createElement('select');
    label.append(caption, select);
    const clear = document.createElement('button');
    clear.type = 'button';
    clear.className = 'follow-clear';
    clear.textContent = '×';
    const status = document.createElement('span');
    status.className = 'sr-only';
    status.setAttribute('role', 'status');
    box.append(label, clear, status);
    select.addEventListener('change', () => onPick(select.value === '' ? null : Number(select.value)));
    clear.addEventListener('click', () => onPick(null));
  }
  const caption = box.querySelector('label span');
  if (caption.textContent !== t('follow.label')) caption.textContent = t('follow.label');
  const options = [['', t('follow.none')], ...labels.map((token, k) => [String(k), `${k + 1} · ${token}`])];
  const text = options.map(([, name]) => name).join('\n');
  const value = focus === null ? '' : String(focus);
  if (select.dataset.options !== text) {
    const fill = () => {
      select.replaceChildren(...options.map(([optionValue, name]) => new Option(name, optionValue)));
      select.dataset.options = text;
      select.value = value;
    };
    // A long sentence's list (hundreds of options) is built after the steps in view (`later`, slices.js).
    if (later && labels.length > LONG_LIST) later(fill);
    else fill();
  }
  if (select.value !== value) select.value = value;
  const clear = box.querySelector('.follow-clear');
  clear.hidden = focus === null;
  if (clear.title !== t('follow.clear')) {
    clear.setAttribute('aria-label', t('follow.clear'));
    clear.title = t('follow.clear');
  }
  const status = box.querySelector('[role="status"]');
  const announcement = focus === null ? '' : t('follow.announce', { token: labels[focus] });
  if (status.textContent !== announcement) status.textContent = announcement;
}

/** The token index a click on a row or column label of a followed table picks, or undefined. */
export function labelIndexOfEvent(event) {
  const th = event.target.closest?.('th');
  const table = th?.closest('table');
  if (!th || !table) return undefined;
  if (th.parentElement.parentElement === table.tBodies[0] && table.hasAttribute('data-follow-rows'))
    return th.parentElement.sectionRowIndex;
  if (th.parentElement.parentElement === table.tHead && table.hasAttribute('data-follow-cols')) return th.cellIndex - 1;
  return undefined;
}
