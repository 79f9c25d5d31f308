// The controls above the sections, built once per language: the intro, the
// text box (text-field.js), the checkpoint slider with its error and the
// training curve, the weights download and "Copy as PyTorch"
// (pytorch-copy.js); and syncControls, which keeps them on the text and step.
import { TINY_CONTEXT, TINY_PARAMETERS, utf8Bytes, weightsFileName } from '../../model/tiny.js';
import { element } from '../common/dom.js';
import { withCode } from '../common/matrix.js';
import { WEIGHTS_BYTES, renderCheckpointSlider, renderCurve } from './checkpoints.js';
import { renderPytorchCopy } from './pytorch-copy.js';
import { renderTextField } from './text-field.js';

/** The checkpoint slider and the error under it: {slider, checkpointError}. */
function renderCheckpointField({ id, t, step, checkpoints, onStep }) {
  const slider = renderCheckpointSlider({ checkpoints, step, t, id: `${id}-checkpoint`, onStep });
  const checkpointError = element('p', 'field-error trained-error');
  checkpointError.setAttribute('role', 'alert');
  checkpointError.hidden = true;
  checkpointError.id = `${id}-checkpoint-error`;
  slider.input.setAttribute('aria-describedby', checkpointError.id);
  return { slider, checkpointError };
}

/**
 * {id (the view's), t, text, step, checkpoints, program() (the PyTorch
 * program), onText(text), onStep(step), onError(problem)} -> {box, input,
 * count, error, slider, checkpointError, download, curve}.
 */
export function renderControls({ id, t, text, step, checkpoints, program, onText, onStep, onError }) {
  const field = renderTextField({ id, t, text, onText, onError });
  const { slider, checkpointError } = renderCheckpointField({ id, t, step, checkpoints, onStep });
  const download = element('a', 'trained-download');
  const { copy, copyStatus, programBox } = renderPytorchCopy({ t, program });
  const intro = element('p', 'trained-intro');
  intro.append(
    ...withCode(t('trained.intro', { parameters: TINY_PARAMETERS.toLocaleString('en'), context: TINY_CONTEXT })),
  );
  const bytesNote = element('p', 'note', t('trained.bytesNote'));
  const actions = element('div', 'trained-actions');
  actions.append(download, copy, copyStatus);
  const curve = element('div', 'trained-curve-box');
  const box = element('div', 'trained-controls');
  box.append(
    element('h2', 'trained-title', t('trained.title')),
    intro,
    bytesNote,
    field.label,
    field.textRow,
    field.count,
    field.error,
    slider.element,
    checkpointError,
    curve,
    actions,
    programBox,
  );
  const { input, count, error } = field;
  return { box, input, count, error, slider, checkpointError, download, curve };
}

/**
 * The byte count, the download link and the curve's mark: what follows the
 * text and the step at once. {text, step, checkpoints, weightsUrl(step), t}.
 */
export function syncControls(controls, { text, step, checkpoints, weightsUrl, t }) {
  const bytes = utf8Bytes(text).length;
  controls.count.textContent = t('trained.text.count', { bytes, max: TINY_CONTEXT });
  controls.count.classList.toggle('over', bytes > TINY_CONTEXT);
  if (document.activeElement !== controls.input && controls.input.value !== text) controls.input.value = text;
  controls.slider.set(step);
  const file = weightsFileName(step);
  controls.download.href = weightsUrl(step);
  controls.download.download = file;
  controls.download.textContent = t('trained.download', {
    file,
    size: Math.round((WEIGHTS_BYTES.get(step) ?? 0) / 1024),
  });
  controls.curve.replaceChildren(renderCurve({ step, checkpoints, t }));
}
