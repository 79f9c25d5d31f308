// "Type it twice": the text's bytes as chips, those of the repeat (the
// later copy of a run typed before: s + s, "s. s", a third copy) marked right (✓, the model's top next byte was this one) or wrong (✗, with
// the byte it predicted instead), and the accuracy n/m with the mean loss.
// Each chip is a button that picks the query position (the composition and
// the next bytes below follow it); arrows move between them.
import { formatNumber } from '../../model/format.js';
import { inRepeat, MIN_REPEAT } from '../../model/tiny.js';
import { element } from '../common/dom.js';

/**
 * {ids, labels (byteLabels), targets (headScores.repeatTargets), marks
 * (secondCopyMarks), secondCopy ({correct, total, loss} or null), query, t,
 * predictedLabel(position, byte), onPick(i)} -> the section's nodes.
 */
export function renderTypedTwice({ ids, labels, targets, marks, secondCopy, query, t, predictedLabel, onPick }) {
  const box = element('div', 'trained-twice');
  const summary = element('p', 'trained-accuracy');
  summary.setAttribute('role', 'status');
  if (secondCopy) {
    summary.textContent = t('trained.twice.accuracy', {
      correct: secondCopy.correct,
      total: secondCopy.total,
      percent: Math.round((100 * secondCopy.correct) / Math.max(1, secondCopy.total)),
      loss: formatNumber(secondCopy.loss, 3),
    });
  } else {
    summary.textContent = t('trained.twice.notTwice', { min: MIN_REPEAT });
  }
  const byPosition = new Map(marks.map((mark) => [mark.position, mark]));
  const chips = element('div', 'trained-bytes');
  chips.setAttribute('role', 'toolbar');
  chips.setAttribute('aria-label', t('trained.twice.bytes'));
  labels.forEach((label, i) => {
    const chip = element('button');
    chip.type = 'button';
    chip.className = 'trained-byte';
    chip.dataset.i = String(i);
    chip.tabIndex = i === query ? 0 : -1;
    chip.setAttribute('aria-pressed', String(i === query));
    if (inRepeat(targets, i)) chip.classList.add('second-copy');
    const text = element('span');
    text.translate = false;
    text.textContent = label;
    chip.append(text);
    const mark = byPosition.get(i);
    let name = t('trained.twice.byte', { i, label });
    if (mark) {
      chip.dataset.mark = mark.right ? 'right' : 'wrong';
      const sign = element('span', 'trained-mark');
      sign.setAttribute('aria-hidden', 'true');
      sign.textContent = mark.right ? '✓' : `✗ ${predictedLabel(i - 1, mark.predicted)}`;
      chip.append(sign);
      name += mark.right
        ? `, ${t('trained.twice.right')}`
        : `, ${t('trained.twice.wrong', { predicted: predictedLabel(i - 1, mark.predicted) })}`;
    }
    chip.setAttribute('aria-label', name);
    chip.addEventListener('click', () => onPick(i));
    chips.append(chip);
  });
  // Arrows, Home and End move along the bytes (one tab stop for the row).
  chips.addEventListener('keydown', (event) => {
    const at = Number(event.target.dataset?.i);
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: ids.length - 1 };
    if (!(event.key in moves) || Number.isNaN(at)) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(ids.length - 1, moves[event.key]));
    onPick(next, { focus: true });
  });
  box.append(summary, chips);
  const repeat = ids.filter((_, i) => inRepeat(targets, i)).length;
  if (repeat) box.append(element('p', 'note', t('trained.twice.how', { repeat, min: MIN_REPEAT })));
  return box;
}
