// "Open a model": the file input (several files at once), the drop zone
// around it (the folder's files, or the folder itself), what files it needs
// said in words, a <progress> of the weights' bytes read while opening, the
// summary of the model open, and the error of the last open, under them.
import { byteSize } from '../../model/format.js';
import { withCode } from '../common/matrix.js';
import { element } from '../common/dom.js';
import { droppedFiles } from './open-model.js';
/**
 * {id (the view's), t, onFiles(File[])} -> {box, input, progress, summary,
 * error, setProgress({read, total} | null)}.
 */
export function renderOpenField({ id, t, onFiles }) {
  const inputId = `${id}-files`;
  const box = element('div', 'checkpoint-open');
  const label = element('label', 'trained-label', t('checkpoint.open.label'));
  label.htmlFor = inputId;
  const input = element('input');
  input.type = 'file';
  input.id = inputId;
  input.multiple = true;
  input.accept = '.json,.safetensors';
  const needs = element('p', 'note checkpoint-needs');
  needs.id = `${id}-needs`;
  needs.append(...withCode(t('checkpoint.open.needs')));
  const error = element('p', 'field-error trained-error');
  error.id = `${id}-open-error`;
  error.setAttribute('role', 'alert');
  error.hidden = true;
  input.setAttribute('aria-describedby', `${needs.id} ${error.id}`);
  input.addEventListener('change', () => {
    if (input.files.length) onFiles([...input.files]);
  });
  const drop = element('div', 'checkpoint-drop');
  drop.append(label, input, element('span', 'checkpoint-drop-hint', t('checkpoint.open.drop')));
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    const files = await droppedFiles(event.dataTransfer);
    if (files.length) onFiles(files);
  });
  const progressBox = element('div', 'checkpoint-progress');
  progressBox.hidden = true;
  const progressLabel = element('label', null, t('checkpoint.open.reading'));
  progressLabel.htmlFor = `${id}-progress`;
  const progress = element('progress');
  progress.id = `${id}-progress`;
  const progressText = element('span', 'trained-count');
  progressBox.append(progressLabel, progress, progressText);
  const summary = element('p', 'checkpoint-summary', t('checkpoint.open.none'));
  summary.setAttribute('role', 'status');
  box.append(drop, needs, progressBox, summary, error);
  /** The bytes read so far ({read, total}), or null once the open is over. */
  const setProgress = (bytes) => {
    progressBox.hidden = !bytes;
    if (!bytes) return;
    progress.max = Math.max(1, bytes.total);
    progress.value = bytes.read;
    progressText.textContent = t('checkpoint.open.progress', {
      read: byteSize(bytes.read),
      total: byteSize(bytes.total),
    });
  };
  return { box, input, progress, summary, error, setProgress };
}
