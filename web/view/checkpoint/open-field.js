// "Open a model": the file input (several files at once), the drop zone
// around it (the folder's files, or the folder itself), what files it needs
// said in words, a <progress> of the weights' bytes read while opening, the
// summary of the model open, and the error of the last open, under them.
import { byteSize } from '../../model/format.js';
import { withCode } from '../common/matrix.js';
import { element } from '../common/dom.js';
import { droppedFiles } from './open-model.js';
/**
 * {id (the view's), t, names (of the files last chosen, or null), onFiles(File[])} -> {box, input, choose (the button
 * that opens the picker), progress, summary, error, setProgress({read, total} | null)}.
 */
export function renderOpenField({ id, t, names = null, onFiles }) {
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
  // The browser's own file button speaks the browser's language, not the page's: it is hidden (out of the
  // tab order; the label and this button open it) and this button and line say it in the reader's.
  input.className = 'checkpoint-file-input';
  input.tabIndex = -1;
  const choose = element('button', 'checkpoint-choose', t('checkpoint.open.choose'));
  choose.type = 'button';
  choose.setAttribute('aria-describedby', `${needs.id} ${error.id}`);
  choose.addEventListener('click', () => input.click());
  const chosen = element('span', 'checkpoint-chosen', names ? names.join(', ') : t('checkpoint.open.nothing'));
  chosen.translate = false;
  input.addEventListener('change', () => {
    if (!input.files.length) return;
    chosen.textContent = [...input.files].map((file) => file.name).join(', ');
    onFiles([...input.files]);
  });
  const drop = element('div', 'checkpoint-drop');
  drop.append(label, input, choose, chosen, element('span', 'checkpoint-drop-hint', t('checkpoint.open.drop')));
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    const files = await droppedFiles(event.dataTransfer);
    if (!files.length) return;
    chosen.textContent = files.map((file) => file.name).join(', ');
    onFiles(files);
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
  return { box, input, choose, progress, summary, error, setProgress };
}
