// Printing: a matrix wider than the page (d_model 16 and up) is scaled down to
// the page's width (CSS zoom on its table), never cut at a column. The print
// stylesheet (styles.css, pipeline.css) has already made the numbers smaller;
// this only catches what is still too wide. Run when printing starts (and when
// print media is emulated), undone after.

/** Zooms each matrix table under `root` that is wider than its figure down to fit. */
export function fitMatricesToWidth(root) {
  const right = root.getBoundingClientRect().right;
  for (const table of root.querySelectorAll('.matrix-figure > table.matrix:not(.sr-only)')) {
    table.style.zoom = '';
    // Its figure may grow with it (a flex item): the room is what is left of the pipeline's width.
    const room = Math.min(table.parentElement.clientWidth, right - table.parentElement.getBoundingClientRect().left);
    const width = table.getBoundingClientRect().width;
    if (room > 0 && width > room) table.style.zoom = String(Math.floor((100 * room) / width) / 100);
  }
}

function unfit(root) {
  for (const table of root.querySelectorAll('.matrix-figure > table.matrix')) table.style.zoom = '';
}

/** Fits the matrices under `root` while the page is printed. */
export function fitForPrint(root) {
  const printing = matchMedia('print');
  const update = () => (printing.matches ? fitMatricesToWidth(root) : unfit(root));
  printing.addEventListener('change', update);
  window.addEventListener('beforeprint', () => fitMatricesToWidth(root));
  window.addEventListener('afterprint', update);
}
