// The errors under the controls: a run's error (or "type it twice" on an empty
// text) shown at the control it is about, the text box or the checkpoint
// slider, in the reader's language.
import { errorText } from '../../i18n/index.js';

/** `message` with the name of its control in front, unless it opens with it ("text is 87 bytes" at "Text"). */
function named(label, message, tr) {
  if (!message.toLowerCase().startsWith(label.toLowerCase())) return tr('trained.error.at', { label, message });
  return message[0].toUpperCase() + message.slice(1);
}

/**
 * Shows `problem` at the control of its field (the text, else the
 * checkpoint) in `controls` (controls.js); null clears both.
 */
export function showFieldErrors(controls, problem, tr) {
  // The checkpoint's files (its weights, the model's wasm) are said at the slider too.
  const onCheckpoint = problem?.field === 'checkpoint' || problem?.field === 'weights file';
  const message = problem
    ? problem.code === 'twice-empty'
      ? tr('trained.error.twiceEmpty')
      : named(onCheckpoint ? tr('trained.checkpoint.label') : tr('trained.text.name'), errorText(problem, tr), tr)
    : '';
  for (const [target, input, on] of [
    [controls.error, controls.input, Boolean(problem) && !onCheckpoint],
    [controls.checkpointError, controls.slider.input, onCheckpoint],
  ]) {
    target.hidden = !on;
    target.textContent = on ? message : '';
    input.toggleAttribute('aria-invalid', on);
  }
}
