// The sections under the controls, redrawn for each result: every head's
// scores in the grid (trained/head-roles.js, the tiny model's grid), the
// picked head step by step with the pickers over it (head-steps.js), and the
// next token after the last one (next-tokens.js).
import { CHANCE_FACTOR, MIN_INDUCTION_POSITIONS, checkpointHeadLabels } from '../../model/checkpoint-heads.js';
import { INDUCTION_THRESHOLD, PREVIOUS_TOKEN_THRESHOLD } from '../../model/tiny.js';
import { formatNumber } from '../../model/format.js';
import { withCode } from '../common/matrix.js';
import { element } from '../common/dom.js';
import { renderHeadsGrid } from '../trained/head-roles.js';
import { renderHeadSteps } from './head-steps.js';
import { renderNextTokens } from './next-tokens.js';
import { renderPickers } from './pickers.js';

/** A section: its heading (its id unique with `suffix`) and content; `key` names it (data-checkpoint). */
function section(key, suffix, title, ...content) {
  const box = element('section', 'trained-section');
  box.dataset.checkpoint = key;
  const heading = element('h2', 'trained-heading', title);
  heading.id = `checkpoint-${key}-${suffix}`;
  box.setAttribute('aria-labelledby', heading.id);
  box.append(heading, ...content);
  return box;
}

/**
 * {result, sizes, labels (a label per token), labelOf(id) (a token's label by
 * id), pick: {layer, head, query}, options: {t, theme, decimals}, id (the
 * view's), onPick(changes)} -> the sections.
 */
export function renderSections({ result, sizes, labels, labelOf, pick, options, id, onPick }) {
  const { t, theme, decimals } = options;
  const { layer, head, query } = pick;
  const T = result.ids.length;
  const named = checkpointHeadLabels(result, sizes);
  const how = element('p', 'note');
  how.append(...withCode(t('checkpoint.heads.how')));
  const naming = element('p', 'note');
  const chance = (x) => (x === null ? '—' : formatNumber(x, 2));
  naming.append(
    ...withCode(
      t('checkpoint.heads.naming', {
        previous: PREVIOUS_TOKEN_THRESHOLD,
        induction: INDUCTION_THRESHOLD,
        factor: CHANCE_FACTOR,
        previousChance: chance(named.previousChance),
        inductionChance: chance(named.inductionChance),
        positions: named.positions,
        minimum: MIN_INDUCTION_POSITIONS,
      }),
    ),
  );
  const grid = renderHeadsGrid({
    result,
    sizes: { T, layers: sizes.layers, heads: sizes.heads },
    labels: named.labels,
    stripe: null,
    selected: { layer, head },
    theme,
    t,
    onPick: (l, h) => onPick({ layer: l, head: h }, { focus: true }),
  });
  const pickers = renderPickers({ id, t, sizes, labels, layer, head, query, onPick });
  const steps = element('div', 'checkpoint-steps');
  steps.append(...renderHeadSteps({ result, sizes, layer, head, query, labels, options }));
  const next = renderNextTokens({ result, last: labels[T - 1], labelOf, decimals, t });
  return [
    section('heads', id, t('checkpoint.heads.title'), grid, how, naming),
    section('steps', id, t('checkpoint.steps.title', { layer: layer + 1, head: head + 1 }), pickers, steps),
    section('next', id, t('checkpoint.next.title'), next),
  ];
}
