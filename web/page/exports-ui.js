// The page's exports: the downloads (every sentence and head as JSON or
// .npz), a matrix's copy buttons (CSV, JSON, LaTeX, NumPy), a figure's
// downloads (SVG, PNG at 1×, 2×, 4×: the view's controller draws them) and the PyTorch
// script's dialog. Their code (model/export.js, model/pytorch-script.js) is
// loaded when first used.
import { captionText } from '../view/common/matrix.js';

const $ = (id) => document.getElementById(id);

const loadExports = () => import('../model/export.js');

const MATRIX_WRITERS = {
  csv: ({ toCsv }, m) => toCsv(m),
  json: ({ toJson }, m) => toJson(m),
  latex: ({ toLatex }, m, decimals) => toLatex(m, decimals),
  numpy: ({ toNumpy }, m) => toNumpy(m),
  torch: ({ toTorchPrint }, m) => toTorchPrint(m),
};

function download(blob, filename) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** A copy button under a matrix: that matrix (as shown: this sentence, this head) to the clipboard. */
async function copyMatrix(event, { controller, t }) {
  const button = event.target.closest('button[data-export]');
  const matrix = button?.closest('figure')?.matrixView;
  if (!matrix) return;
  const text = MATRIX_WRITERS[button.dataset.export](await loadExports(), matrix, controller.options.decimals);
  if (button.dataset.export === 'torch') {
    // Shown as well as copied: the reader lays it beside a tutorial's printed output.
    const dialog = $('torch-print-dialog');
    dialog.querySelector('.torch-print-name').textContent = captionText(matrix);
    $('torch-print').value = text;
    dialog.querySelector('.share-status').textContent = '';
    dialog.showModal();
  }
  try {
    await navigator.clipboard.writeText(text);
    $('status').textContent = t()('export.copied', { name: captionText(matrix), format: button.textContent });
  } catch {
    $('status').textContent = text.slice(0, 200);
  }
}

/** A figure's download button: its SVG, or its PNG at the button's scale (view/figures draws both). */
async function downloadFigure(event, { controller, t }) {
  const button = event.target.closest('button[data-figure]');
  const name = button?.closest('[data-figure-of]')?.dataset.figureOf;
  if (!name) return;
  const format = button.dataset.figure;
  const scale = Number(button.dataset.scale ?? 1);
  try {
    const blob = await controller.exportFigure(name, { format, scale });
    const file = `${name.replace(/[^\w.-]+/g, '-')}${format === 'png' && scale !== 1 ? `@${scale}x` : ''}.${format}`;
    download(blob, file);
    $('status').textContent = t()('export.saved', { name, format: button.textContent });
  } catch (error) {
    $('status').textContent = error.message;
  }
}

/**
 * Wires the export buttons. page: {controller, currentConfig() (the config
 * shown, with its edits), fullResult() -> Promise of every sentence and head
 * of it, or null (it failed and said so), t() (the UI language's translator)}.
 */
export function wireExports(page) {
  const { controller, currentConfig, fullResult } = page;
  $('copy-pytorch').addEventListener('click', async () => {
    if (!controller.result) return;
    const config = currentConfig();
    const result = controller.result;
    const { pytorchScript } = await import('../model/pytorch-script.js');
    $('pytorch-script').value = pytorchScript(config, result);
    $('pytorch-dialog').querySelector('.share-status').textContent = '';
    $('pytorch-dialog').showModal();
  });
  $('download-json').addEventListener('click', async () => {
    const result = await fullResult();
    if (!result) return;
    const { resultToJson } = await loadExports();
    download(new Blob([resultToJson(result)], { type: 'application/json' }), 'attention-lab.json');
  });
  $('download-npy').addEventListener('click', async () => {
    const result = await fullResult();
    if (!result) return;
    const { resultToNpz } = await loadExports();
    download(resultToNpz(result), 'attention-lab.npz');
  });
  $('pipeline').addEventListener('click', (event) => copyMatrix(event, page));
  $('pipeline').addEventListener('click', (event) => downloadFigure(event, page));
}
