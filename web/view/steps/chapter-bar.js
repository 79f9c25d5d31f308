// A chapter bar: a closed chapter where its steps would be (what it holds in
// this run, computed from it) or at the end among the next chapters, with a
// button that opens it; an open chapter none of whose steps applies says what
// would make them apply, with a button that closes it. Its words are data
// (model/words.js), so Node tests read them as the page shows them.
import { element } from '../common/dom.js';
import { plainSentence, say } from '../../model/words.js';
import { STEPLESS_VARIANTS, chapterNumber, chapterSteps } from './chapters.js';
import { axis, size } from './quotes.js';

/** A chapter's name in the reader's language. */
export const chapterName = (t, key) => t(`chapter.${key}.name`);

/** The short names of steps, as the overview's boxes write them, in the reader's list style. */
export const stepList = (t, steps) => steps.map((step) => t(`step.${step.key}.short`)).join(t('chapter.list'));

/**
 * The variants the steps of the variants chapter stand for, each named once: a step's own short name, or its
 * variant's (chapter.variants.<variant>) when several steps make one variant (differential attention's three).
 */
const variantList = (t, steps) => [
  ...new Set(steps.map((step) => t(step.variant ? `chapter.variants.${step.variant}` : `step.${step.key}.short`))),
];

/** What a chapter holds in this run, in one sentence. */
function holds(bar, run, t) {
  const { chapter, steps } = bar;
  switch (chapter.key) {
    case 'heads': {
      const sizes = { H: size(run, 'H', { min: 2 }), dk: size(run, 'd_k'), D: size(run, 'D') };
      if (run.mla && run.multiHead)
        return say(t, 'chapter.heads.here.mla', { ...sizes, dv: axis(run, 'context', 3), Dv: axis(run, 'concat', 2) });
      if (run.gqa) return say(t, 'chapter.heads.here.gqa', { ...sizes, Hkv: size(run, 'H_kv') });
      return run.multiHead ? say(t, 'chapter.heads.here', sizes) : say(t, 'chapter.heads.here.one', { dk: sizes.dk });
    }
    case 'variants': {
      // The variants with a step of their own here, then those with none that are on (GQA, a window, sinks).
      const names = [
        ...variantList(t, steps),
        ...STEPLESS_VARIANTS.filter((variant) => variant.on(run)).map((variant) =>
          t(`chapter.variants.${variant.key}`),
        ),
      ];
      return names.length
        ? say(t, 'chapter.variants.here', { names: names.join(t('chapter.list')) })
        : say(t, 'chapter.variants.none', { names: variantList(t, chapterSteps('variants')).join(t('chapter.list')) });
    }
    case 'inference':
      // The steppers walk one softmax per head: differential attention's two maps are not theirs to step.
      if (run.diff && !steps.length) return say(t, 'chapter.inference.diff');
      // MLA's cache step stands in for the steppers, which step a plain K and V per head.
      if (run.mla) return say(t, 'chapter.inference.mla');
      return say(t, `chapter.inference.${steps.length ? 'here' : 'about'}`);
    default:
      return say(t, `chapter.${chapter.key}.${steps.length ? 'here' : 'about'}`);
  }
}

/**
 * The words of a bar for a run: {t (the translator they are in), name, number, basis, holds, steps,
 * action} (sentences; action: the button's text). bar: from chapters.js pipelineItems.
 */
export function chapterBarWords(bar, run, t) {
  const { chapter, steps, open } = bar;
  const number = chapterNumber(chapter.key);
  const base = chapter.buildsOn[0];
  const count = steps.length;
  return {
    t,
    name: chapterName(t, chapter.key),
    number,
    basis: say(t, 'chapter.basis', { n: number, basis: chapterNumber(base), basisName: chapterName(t, base) }),
    holds: holds(bar, run, t),
    steps: count
      ? say(t, count === 1 ? 'chapter.steps.one' : 'chapter.steps', { count, names: stepList(t, steps) })
      : null,
    action: plainSentence(
      t(open ? 'chapter.close' : chapter.setting ? 'chapter.switch' : 'chapter.open', { n: number }),
    ),
  };
}

/** Sentences as one text, spaced as the language spaces them (Chinese: none). */
const together = (t, sentences) =>
  sentences
    .filter(Boolean)
    .map((s) => s.text)
    .join(t('chapter.gap'));

/** The text a bar says (its narration step by step), in one string. */
export const barText = (words, t) => together(t, [words.basis, words.holds, words.steps]);

/** A chapter's block: its name (h2 in a bar, h3 among the next chapters), basis, what it holds, its button. */
function chapterBlock(el, bar, words, onToggle, level) {
  el.dataset.chapter = bar.chapter.key;
  el.dataset.steps = String(bar.steps.length);
  // The steps it stands for, by key (the overview names them in its box).
  el.dataset.stepKeys = bar.steps.map((step) => step.key).join(' ');
  el.classList.toggle('is-open', bar.open);
  const header = element('header');
  const title = element(level, 'chapter-name', words.name);
  title.dataset.chapterNumber = String(words.number);
  header.append(title, element('p', 'chapter-basis', words.basis.text));
  const said = element('p', 'chapter-holds', together(words.t, [words.holds, words.steps]));
  const button = element('button', 'chapter-toggle', words.action.text);
  button.type = 'button';
  button.dataset.chapter = bar.chapter.key;
  button.dataset.opens = String(!bar.open);
  // Read off the button: a later render that only patches the bar keeps this listener.
  button.addEventListener('click', () => onToggle(button.dataset.chapter, button.dataset.opens === 'true'));
  el.append(header, said, button);
  return el;
}

/**
 * A closed chapter's bar at its place: a <section> (id: the bar's, data-chapter: its key, data-steps: how
 * many steps it stands for); its button calls onToggle(key, open). words: chapterBarWords with t.
 */
export function renderChapterBar(bar, words, onToggle) {
  const el = element('section', 'chapter-bar');
  el.id = bar.id;
  el.setAttribute('part', 'chapter');
  el.dataset.text = barText(words, words.t); // its narration step by step
  return chapterBlock(el, bar, words, onToggle, 'h2');
}

/** The id of the next chapters' section. */
export const NEXT_ID = 'chapters-next';

/**
 * The chapters after the last step, as one <section> (one stop step by step) headed "Next chapters":
 * one block per chapter (id: its bar's, data-chapter), each with its button. wordsList: chapterBarWords
 * of each bar, with t.
 */
export function renderNextChapters(bars, wordsList, t, onToggle) {
  const el = element('section', 'chapter-bar chapters-next');
  el.id = NEXT_ID;
  el.setAttribute('part', 'chapter');
  const header = element('header');
  header.append(element('h2', null, t('chapter.next')));
  el.append(header);
  const list = element('ul', 'chapter-list');
  bars.forEach((bar, k) => {
    const item = chapterBlock(element('li', 'chapter-item'), bar, wordsList[k], onToggle, 'h3');
    item.id = bar.id;
    list.append(item);
  });
  el.append(list);
  // Its narration step by step names them; the section below says the rest.
  el.dataset.text = t('chapter.nextSaid', { names: wordsList.map((words) => words.name).join(t('chapter.list')) });
  return el;
}
