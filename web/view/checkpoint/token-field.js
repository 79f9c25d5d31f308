// What the model reads: a text box tokenized live by the folder's
// tokenizer.json (its tokens as chips under it), or, with no tokenizer, an
// ids box (a JSON array or numbers split by spaces); the token count and the
// error under it. The reader's text goes to onInput as typed.
import { element } from '../common/dom.js';

/**
 * {id (the view's), t, tokenized (whether the text box, else the ids box),
 * value, onInput(value)} -> {box, input, chips, count, error}.
 */
export function renderTokenField({ id, t, tokenized, value, onInput }) {
  const inputId = `${id}-${tokenized ? 'text' : 'ids'}`;
  const label = element('label', 'trained-label', t(tokenized ? 'checkpoint.text.label' : 'checkpoint.ids.label'));
  label.htmlFor = inputId;
  const input = element('textarea');
  input.id = inputId;
  input.rows = 2;
  input.spellcheck = false;
  input.value = value;
  input.dataset.checkpointInput = tokenized ? 'text' : 'ids';
  const count = element('p', 'trained-count');
  count.id = `${id}-token-count`;
  const error = element('p', 'field-error trained-error');
  error.id = `${id}-input-error`;
  error.setAttribute('role', 'alert');
  error.hidden = true;
  input.setAttribute('aria-describedby', `${error.id} ${count.id}`);
  input.addEventListener('input', () => onInput(input.value));
  const chips = element('div', 'checkpoint-chips');
  chips.setAttribute('role', 'group');
  chips.setAttribute('aria-label', t('checkpoint.tokens'));
  const box = element('div', 'checkpoint-input');
  box.append(label, input, count, error, chips);
  return { box, input, chips, count, error };
}

/** The chips of the tokens read ({id, label}), each with its id under it when its label is text. */
export function showTokenChips(chips, tokens) {
  chips.replaceChildren(
    ...tokens.map(({ id, label }, i) => {
      const chip = element('span', 'checkpoint-chip');
      chip.title = `${i}: ${id}`;
      const text = element('span', 'checkpoint-chip-label', label);
      text.translate = false;
      chip.append(text);
      if (label !== String(id)) chip.append(element('span', 'checkpoint-chip-id', String(id))); // ids typed: once
      return chip;
    }),
  );
}
