// What a matrix's copy buttons (CSV, JSON, LaTeX, NumPy, PyTorch print) and a
// figure's download buttons (SVG, PNG at 1×, 2×, 4×) do, for the page and the
// element alike: the view renders the buttons, the host wires a click here.
// The writers (model/export.js) are loaded when first used.

const loadExports = () => import('../../model/export.js');

const MATRIX_WRITERS = {
  csv: ({ toCsv }, m) => toCsv(m),
  json: ({ toJson }, m) => toJson(m),
  latex: ({ toLatex }, m, decimals) => toLatex(m, decimals),
  numpy: ({ toNumpy }, m) => toNumpy(m),
  torch: ({ toTorchPrint }, m) => toTorchPrint(m),
};

/** Saves `blob` as `filename` through a download link. */
export function download(blob, filename) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/**
 * A click on a copy button: {matrix (the figure's matrix view), format (the button's), text}, the
 * matrix as shown (this sentence, this head) in that format; null for any other click.
 */
export async function copiedMatrix(event, decimals) {
  const button = event.target.closest('button[data-export]');
  const matrix = button?.closest('figure')?.matrixView;
  if (!matrix) return null;
  const format = button.dataset.export;
  return {
    matrix,
    format,
    label: button.textContent,
    text: MATRIX_WRITERS[format](await loadExports(), matrix, decimals),
  };
}

/**
 * A click on a figure's download button: the figure drawn by the controller (its SVG, or its PNG at
 * the button's scale) and saved; resolves with {name, label}, or null for any other click.
 */
export async function downloadedFigure(event, controller) {
  const button = event.target.closest('button[data-figure]');
  const name = button?.closest('[data-figure-of]')?.dataset.figureOf;
  if (!name) return null;
  const format = button.dataset.figure;
  const scale = Number(button.dataset.scale ?? 1);
  const blob = await controller.exportFigure(name, { format, scale });
  download(blob, `${name.replace(/[^\w.-]+/g, '-')}${format === 'png' && scale !== 1 ? `@${scale}x` : ''}.${format}`);
  return { name, label: button.textContent };
}
