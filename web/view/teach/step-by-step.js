// Step by step: one step at a time with a short narration that uses the
// numbers of the result, moved through with ←/→, PageUp/PageDown, Home/End
// and Previous/Next buttons; large enough to project in a class.
import { joined } from '../../model/words.js';
import { stepByKey } from '../steps/registry.js';
import { stepKey } from './overview.js';

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
 * A step's narration (a chapter bar's: what it says), as the step's module words it from the run shown (run-context.js: sentence b, head h),
 * its example token the followed one (focus), else the first: one text, or its meaning for a step without one.
 */
export function narration(t, section, run, focus) {
  if (section.classList.contains('chapter-bar')) return section.dataset.text ?? '';
  const step = stepByKey(stepKey(section));
  if (!step) return '';
  const words = step.words(Object.create(run, { focus: { value: focus } }), t);
  return joined(words.narration.length ? words.narration : words.meaning).text;
}

/**
 * What the counter says at stop `index` of `stops` ({chapter}: a step's is null; a chapter bar's is its
 * number, the next chapters' section's 0). A step is numbered among the steps alone, as its heading and the
 * overview number it; a chapter bar is no step ("Step 4 of 17" on the multi-head bar, whose next step is
 * headed 4): it names its chapter and the step it comes after.
 */
export function stopCounter(t, stops, index) {
  const isStep = (stop) => stop.chapter === null;
  const count = stops.filter(isStep).length;
  const n = stops.slice(0, index + 1).filter(isStep).length;
  const { chapter } = stops[index];
  if (chapter === null) return t('steps.counter', { n, count });
  return chapter ? t('steps.counterBar', { chapter, n, count }) : t('steps.counterNext', { n, count });
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
 * keeps its focus). state: {t, index, count, counter (stopCounter's), title, text, exitable};
 * on: {go(index), exit()}.
 */
export function renderStepper(box, { t, index, count, counter, title, text, exitable }, on) {
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
  box.querySelector('.step-counter').textContent = counter;
  // Read out on every move: where we are, then what happens there.
  const said = box.querySelector('.narration');
  const heard = document.createElement('span');
  heard.className = 'sr-only';
  heard.textContent = `${counter}: ${title}. `;
  said.replaceChildren(heard, text);
  box.querySelector('.step-keys').textContent = t(exitable ? 'steps.keysExit' : 'steps.keys');
}
