// The next token after the last one: the model's 5 most likely, with their
// probabilities (and their text, when the folder has a tokenizer).
import { topNextTokens } from '../../model/checkpoint-heads.js';
import { formatNumber } from '../../model/format.js';
import { element } from '../common/dom.js';

/** {result, last (the last token's label), labelOf(id), decimals, t} -> the table. */
export function renderNextTokens({ result, last, labelOf, decimals, t }) {
  const table = element('table', 'trained-next checkpoint-next');
  table.append(element('caption', null, t('checkpoint.next.caption', { token: last })));
  const head = element('tr');
  head.append(element('th', null, t('checkpoint.next.token')), element('th', null, t('checkpoint.next.probability')));
  head.querySelectorAll('th').forEach((th) => th.setAttribute('scope', 'col'));
  const body = element('tbody');
  for (const { id, p } of topNextTokens(result.tensors.probs, 5)) {
    const row = element('tr');
    row.dataset.id = String(id);
    const name = element('th', null, labelOf(id));
    name.scope = 'row';
    name.translate = false;
    const meter = element('meter');
    meter.value = p;
    meter.setAttribute('aria-hidden', 'true');
    const cell = element('td');
    cell.append(meter, ` ${formatNumber(p, decimals)}`);
    row.append(name, cell);
    body.append(row);
  }
  const thead = element('thead');
  thead.append(head);
  table.append(thead, body);
  return table;
}
