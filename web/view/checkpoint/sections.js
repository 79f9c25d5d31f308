// The sections under the controls, redrawn for each result: every head's
// scores in the grid (trained/head-roles.js, the tiny model's grid), the
// picked head step by step with the pickers over it (head-steps.js), and the
// next token after the last one (next-tokens.js).
import { headLabels } from '../../model/tiny.js';
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
  const how = element('p', 'note');
  how.append(...withCode(t('checkpoint.heads.how')));
  const grid = renderHeadsGrid({
    result,
    sizes: { T, layers: sizes.layers, heads: sizes.heads },
    labels: headLabels(result.headScores, sizes.layers, sizes.heads),
    n: null,
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
    section('heads', id, t('checkpoint.heads.title'), grid, how),
    section('steps', id, t('checkpoint.steps.title', { layer: layer + 1, head: head + 1 }), pickers, steps),
    section('next', id, t('checkpoint.next.title'), next),
  ];
}
