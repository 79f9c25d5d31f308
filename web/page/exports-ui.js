// The page's exports: the downloads (every sentence and head as JSON or
// .npz), a matrix's copy buttons (CSV, JSON, LaTeX, NumPy), a figure's
// downloads (SVG, PNG at 1×, 2×, 4×: the view's controller draws them) and the PyTorch
// script's dialog. Their code (model/export.js, model/pytorch-script.js) is
// loaded when first used.
import { copiedMatrix, download, downloadedFigure } from '../view/common/export-actions.js';
import { captionText } from '../view/common/matrix.js';

const $ = (id) => document.getElementById(id);

const loadExports = () => import('../model/export.js');

/** A copy button under a matrix: that matrix (as shown: this sentence, this head) to the clipboard. */
async function copyMatrix(event, { controller, t }) {
  const copied = await copiedMatrix(event, controller.options.decimals);
  if (!copied) return;
  const { matrix, format, label, text } = copied;
  if (format === 'torch') {
    // Shown as well as copied: the reader lays it beside a tutorial's printed output.
    const dialog = $('torch-print-dialog');
    dialog.querySelector('.torch-print-name').textContent = captionText(matrix);
    $('torch-print').value = text;
    dialog.querySelector('.share-status').textContent = '';
    dialog.showModal();
  }
  try {
    await navigator.clipboard.writeText(text);
    $('status').textContent = t()('export.copied', { name: captionText(matrix), format: label });
  } catch {
    $('status').textContent = text.slice(0, 200);
  }
}

/** A figure's download button: its SVG, or its PNG at the button's scale (view/figures draws both). */
async function downloadFigure(event, { controller, t }) {
  try {
    const saved = await downloadedFigure(event, controller);
    if (saved) $('status').textContent = t()('export.saved', { name: saved.name, format: saved.label });
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
