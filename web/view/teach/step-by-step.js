// Step by step: one step at a time with a short narration that uses the
// numbers of the result, moved through with ←/→, PageUp/PageDown, Home/End
// and Previous/Next buttons; large enough to project in a class.
import { formatNumber } from '../../model/format.js';
import { stepKey } from './overview.js';
import { headStart, sentenceStart } from '../../model/selection.js';
import { maskBlocks, runSettings } from '../../model/run-settings.js';

/** The step a key moves to from `index` of `count`, or null for a key that does not move. */
export function stepMove(key, index, count) {
  switch (key) {
    case 'ArrowRight':
    case 'PageDown':
    case ' ': // as a slide show: Space is next
      return Math.min(count - 1, index + 1);
    case 'ArrowLeft':
    case 'PageUp':
      return Math.max(0, index - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** Whether Space pressed on `el` presses it (a button, a link, a tab, a cell): not the next step. */
export const isPressable = (el) =>
  Boolean(el?.closest?.('button, a[href], summary, [role="button"], [role="tab"], td[tabindex]'));

/** Whether a key pressed on `el` belongs to it: a text field, a select, a number being edited. */
export const isTypingTarget = (el) =>
  Boolean(el?.closest?.('input, textarea, select, [contenteditable]:not([contenteditable="false"])'));

/**
 * The numbers the narrations quote, from the result as shown (sentence b,
 * head h of the layout). The example token is the followed one, else the first.
 */
export function narrationValues(result, layout, focus, decimals) {
  const { B, H, S, Skv, D, dk, b, h, queryLabels, keyLabels } = layout;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const i = focus ?? 0;
  // The example token's strongest key in this head: (B, H, S, S_kv) row (b, h, i).
  const row = headStart(T.weights, b, h) + i * Skv;
  let top = 0;
  for (let j = 1; j < Skv; j++) if (T.weights.data[row + j] > T.weights.data[row + top]) top = j;
  const rs = runSettings(result.settings);
  let blocked = 0;
  const maskStart = sentenceStart(T.mask, b);
  for (let k = maskStart; k < maskStart + S * Skv; k++) if (maskBlocks(T.mask.data[k], rs.maskConvention)) blocked++;
  const { p } = rs;
  const fill = rs.fill === -Infinity ? '−∞' : String(rs.fill).replace('-', '−');
  return {
    B,
    H,
    S,
    Skv,
    D,
    dk,
    head: h + 1,
    token: queryLabels[i],
    top: keyLabels[top],
    weight: fmt(T.weights.data[row + top]),
    scale: fmt(result.scaleFactor),
    blocked,
    pairs: S * Skv,
    fill,
    p: String(p),
    keep: fmt(1 / (1 - p)),
  };
}

/** A step's narration: its own, else its meaning (a step added without one). */
export function narration(t, section, values) {
  const key = stepKey(section);
  if (t.has(`step.${key}.narration`)) return t(`step.${key}.narration`, values);
  return t.has(`step.${key}.meaning`) ? t(`step.${key}.meaning`) : '';
}

function button(className, onClick) {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = className;
  el.addEventListener('click', onClick);
  return el;
}

/**
 * The step-by-step bar in `box`: Previous, "Step 3 of 14", Next, (Show all
 * steps), then the narration. Built once, updated in place (the pressed button
 * keeps its focus). state: {t, index, count, title, text, exitable};
 * on: {go(index), exit()}.
 */
export function renderStepper(box, { t, index, count, title, text, exitable }, on) {
  if (!box.firstChild) {
    const bar = document.createElement('div');
    bar.className = 'stepper-bar';
    const counter = document.createElement('span');
    counter.className = 'step-counter';
    bar.append(
      button('step-prev', () => on.go(Number(box.dataset.index) - 1)),
      counter,
      button('step-next', () => on.go(Number(box.dataset.index) + 1)),
      button('step-exit', () => on.exit()),
    );
    const said = document.createElement('p');
    said.className = 'narration';
    said.setAttribute('aria-live', 'polite');
    const keys = document.createElement('p');
    keys.className = 'step-keys';
    box.append(bar, said, keys);
  }
  box.dataset.index = String(index);
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', t('steps.label'));
  const prev = box.querySelector('.step-prev');
  const next = box.querySelector('.step-next');
  prev.textContent = `← ${t('steps.previous')}`;
  next.textContent = `${t('steps.next')} →`;
  prev.disabled = index <= 0;
  next.disabled = index >= count - 1;
  const exit = box.querySelector('.step-exit');
  exit.hidden = !exitable;
  exit.textContent = t('steps.exit');
  const counter = t('steps.counter', { n: index + 1, count });
  box.querySelector('.step-counter').textContent = counter;
  // Read out on every move: where we are, then what happens there.
  const said = box.querySelector('.narration');
  const heard = document.createElement('span');
  heard.className = 'sr-only';
  heard.textContent = `${counter}: ${title}. `;
  said.replaceChildren(heard, text);
  box.querySelector('.step-keys').textContent = t(exitable ? 'steps.keysExit' : 'steps.keys');
}
