// The layer, head and followed-token pickers above the head's steps: three
// labelled menus, rebuilt with each result (their choices follow the model's
// sizes and the tokens read).
import { element } from '../common/dom.js';

/** A labelled <select> of `options` ([value, text]) at `value`, calling onPick(Number(value)). */
function menu(id, label, options, value, onPick) {
  const box = element('div', 'checkpoint-picker');
  const caption = element('label', null, label);
  caption.htmlFor = id;
  const select = element('select');
  select.id = id;
  for (const [v, text] of options) select.append(new Option(text, String(v)));
  select.value = String(value);
  select.addEventListener('change', () => onPick(Number(select.value)));
  box.append(caption, select);
  return box;
}

const range = (n) => Array.from({ length: n }, (_, k) => k);

/**
 * {id, t, sizes ({layers, heads}), labels (a label per token), layer, head,
 * query, onPick({layer} | {head} | {query})} -> the pickers' box.
 */
export function renderPickers({ id, t, sizes, labels, layer, head, query, onPick }) {
  const box = element('div', 'checkpoint-pickers');
  box.append(
    menu(
      `${id}-layer`,
      t('checkpoint.pick.layer'),
      range(sizes.layers).map((l) => [l, t('checkpoint.layer', { layer: l + 1 })]),
      layer,
      (l) => onPick({ layer: l }),
    ),
    menu(
      `${id}-head`,
      t('checkpoint.pick.head'),
      range(sizes.heads).map((h) => [h, t('checkpoint.head', { head: h + 1 })]),
      head,
      (h) => onPick({ head: h }),
    ),
    menu(
      `${id}-query`,
      t('checkpoint.pick.query'),
      labels.map((label, i) => [i, t('checkpoint.token', { i, label })]),
      query,
      (i) => onPick({ query: i }),
    ),
  );
  return box;
}
