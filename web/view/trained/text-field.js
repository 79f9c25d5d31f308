// The text box: its label, the "type it twice" button, the byte count and the
// error under it. The reader's text goes to onText as typed.
import { TINY_CONTEXT, typedTwice } from '../../model/tiny.js';
import { element } from '../common/dom.js';

/**
 * {id (the view's), t, text, onText(text), onError(problem)} -> {label,
 * textRow (the box and the button), input, count, error}.
 */
export function renderTextField({ id, t, text, onText, onError }) {
  const textId = `${id}-text`;
  const errorId = `${id}-text-error`;
  const label = element('label', 'trained-label', t('trained.text.label', { max: TINY_CONTEXT }));
  label.htmlFor = textId;
  const input = element('textarea');
  input.id = textId;
  input.rows = 2;
  input.spellcheck = false;
  input.setAttribute('aria-describedby', `${errorId} ${id}-count`);
  input.value = text;
  const count = element('p', 'trained-count');
  count.id = `${id}-count`;
  const error = element('p', 'field-error trained-error');
  error.id = errorId;
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const twice = element('button', 'trained-twice-button', t('trained.twice.button'));
  twice.type = 'button';
  twice.addEventListener('click', () => {
    try {
      const { text } = typedTwice(input.value);
      input.value = text;
      onText(text);
    } catch (problem) {
      onError(problem);
    }
  });
  input.addEventListener('input', () => onText(input.value));
  const textRow = element('div', 'trained-text-row');
  textRow.append(input, twice);
  return { label, textRow, input, count, error };
}
