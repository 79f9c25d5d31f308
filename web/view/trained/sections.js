// The four sections under the controls, redrawn for each result: the heads
// grid named by the measured scores (head-roles.js), the second copy byte by
// byte (twice.js), how the heads compose with the next bytes at the picked
// byte (composition.js), and every tensor with its shape (tensors.js).
import {
  byteLabels,
  compositionHeads,
  compositionPick,
  headLabels,
  headName,
  inRepeat,
  MIN_REPEAT,
  nextByteLabel,
  secondCopyMarks,
  topNextBytes,
} from '../../model/tiny.js';
import { element } from '../common/dom.js';
import { withCode } from '../common/matrix.js';
import { renderComposition, renderNextBytes } from './composition.js';
import { renderHeadsGrid, scoreText } from './head-roles.js';
import { renderTensors } from './tensors.js';
import { renderTypedTwice } from './twice.js';

/**
 * A section: a heading and its content. `key` names it (data-trained) for
 * the tests and the host's links; `suffix` makes the heading's id unique.
 */
function section(key, suffix, title, ...content) {
  const box = element('section', 'trained-section');
  box.dataset.trained = key;
  const heading = element('h2', 'trained-heading', title);
  heading.id = `${key}-${suffix}`;
  box.setAttribute('aria-labelledby', heading.id);
  box.append(heading, ...content);
  return box;
}

/** "Measured now on this text at step 3000: …" — which heads the scores name, with their numbers. */
function measuredText(result, heads, t) {
  const named = heads.filter((h) => h.kind);
  const list = named.map((h) =>
    t(h.kind === 'induction' ? 'trained.measured.induction' : 'trained.measured.previousToken', {
      head: headName(h.layer, h.head),
      value: scoreText(h.kind === 'induction' ? h.induction : h.previousToken),
    }),
  );
  const start = t('trained.measured.start', { step: result.checkpoint });
  if (list.length === 0) return `${start} ${t('trained.measured.none')}`;
  return `${start} ${list.join(t('trained.measured.and'))}`;
}

/** The heads grid, with what the scores measured and how they are measured. */
function headsSection({ result, selected, theme, t, suffix, onHead }) {
  const heads = headLabels(result.headScores, result.sizes.layers, result.sizes.heads);
  const headsNote = element('p', 'note');
  headsNote.append(...withCode(t('trained.heads.how', { min: MIN_REPEAT })));
  const measured = element('p', 'trained-measured', measuredText(result, heads, t));
  const grid = renderHeadsGrid({
    result,
    labels: heads,
    stripe: compositionHeads(result.headScores).induction,
    selected,
    theme,
    t,
    onPick: onHead,
  });
  return section('heads', suffix, t('trained.heads.title'), measured, grid, headsNote);
}

/** The second copy byte by byte: which bytes the model got right. */
function twiceSection({ result, labels, query, t, suffix, onQuery }) {
  const ids = result.ids;
  const targets = result.headScores.repeatTargets;
  const twice = renderTypedTwice({
    ids,
    labels,
    targets,
    marks: secondCopyMarks(ids, result.tensors.probs, targets),
    secondCopy: result.secondCopy,
    query,
    t,
    predictedLabel: (i, b) => nextByteLabel(ids, i, b),
    onPick: onQuery,
  });
  return section('twice', suffix, t('trained.twice.title'), twice);
}

/** How layer 1's previous-token head feeds layer 2's induction head, and the top-5 next bytes at the picked byte. */
function compositionSection({ result, labels, query, theme, decimals, t, suffix }) {
  const ids = result.ids;
  const nextBox = renderNextBytes({
    top: topNextBytes(result.tensors.probs, query, 5),
    i: query,
    label: labels[query],
    byteLabel: (b) => nextByteLabel(ids, query, b),
    decimals,
    t,
  });
  const composition = renderComposition({
    result,
    labels,
    pick: inRepeat(result.headScores.repeatTargets, query)
      ? compositionPick(ids, query, result.headScores.repeatTargets)
      : null,
    heads: compositionHeads(result.headScores),
    theme,
    t,
  });
  return section('composition', suffix, t('trained.composition.title'), composition, nextBox);
}

/** Every tensor with its shape, the picked one drawn. */
function tensorsSection({ result, labels, tensor, theme, decimals, t, id, suffix, onTensor }) {
  const tensors = renderTensors({
    result,
    labels,
    pick: tensor,
    theme,
    decimals,
    t,
    id: `${id}-tensor`,
    onPick: onTensor,
  });
  return section('tensors', suffix, t('trained.tensors.title'), tensors);
}

/**
 * The sections of `result` (query: the picked byte;
 * selected: the picked head; tensor: the {key, head} shown; options: {t,
 * theme, decimals}; id: the view's; suffix: the headings' ids'), with
 * onQuery(i, {focus}), onHead(layer, head) and onTensor(pick, {focus}) for
 * the reader's picks.
 */
export function renderSections({ result, query, selected, tensor, options, id, suffix, onQuery, onHead, onTensor }) {
  const { t, theme, decimals } = options;
  const labels = byteLabels(result.ids);
  return [
    headsSection({ result, selected, theme, t, suffix, onHead }),
    twiceSection({ result, labels, query, t, suffix, onQuery }),
    compositionSection({ result, labels, query, theme, decimals, t, suffix }),
    tensorsSection({ result, labels, tensor, theme, decimals, t, id, suffix, onTensor }),
  ];
}
