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

/**
 * Fits the matrices under `root` while the page is printed; onPaper(true)
 * first, when printing starts (the page shows itself for paper: the light
 * palette), and onPaper(false) when it ends. When onPaper re-renders, it
 * returns a promise of the new matrices, which are fitted again then.
 */
export function fitForPrint(root, onPaper = () => null) {
  const printing = matchMedia('print');
  const update = (paper) => {
    const rendered = onPaper(paper);
    if (!paper) return unfit(root);
    fitMatricesToWidth(root);
    rendered?.then(() => printing.matches && fitMatricesToWidth(root));
  };
  printing.addEventListener('change', () => update(printing.matches));
  window.addEventListener('beforeprint', () => update(true));
  window.addEventListener('afterprint', () => update(printing.matches));
}
