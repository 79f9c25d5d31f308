// A chapter bar: a closed chapter where its steps would be (what it holds in
// this run, computed from it) or at the end among the next chapters, with a
// button that opens it; an open chapter none of whose steps applies says what
// would make them apply, with a button that closes it. Its words are data
// (model/words.js), so Node tests read them as the page shows them.
import { element } from '../common/dom.js';
import { plainSentence, say } from '../../model/words.js';
import { chapterNumber, chapterSteps } from './chapters.js';
import { size } from './quotes.js';

/** A chapter's name in the reader's language. */
export const chapterName = (t, key) => t(`chapter.${key}.name`);

/** The short names of steps, as the overview's boxes write them, in the reader's list style. */
export const stepList = (t, steps) => steps.map((step) => t(`step.${step.key}.short`)).join(t('chapter.list'));

/** What a chapter holds in this run, in one sentence. */
function holds(bar, run, t) {
  const { chapter, steps } = bar;
  switch (chapter.key) {
    case 'heads':
      return run.multiHead
        ? say(t, 'chapter.heads.here', { H: size(run, 'H', { min: 2 }), dk: size(run, 'd_k'), D: size(run, 'D') })
        : say(t, 'chapter.heads.here.one', { dk: size(run, 'd_k') });
    case 'variants':
      return steps.length
        ? say(t, 'chapter.variants.here', { names: stepList(t, steps) })
        : say(t, 'chapter.variants.none', { names: stepList(t, chapterSteps('variants')) });
    default:
      return say(t, `chapter.${chapter.key}.${steps.length ? 'here' : 'about'}`);
  }
}

/**
 * The words of a bar for a run: {name, number, basis, holds, steps, action} (sentences; action: the
 * button's text). bar: from chapters.js pipelineItems.
 */
export function chapterBarWords(bar, run, t) {
  const { chapter, steps, open } = bar;
  const number = chapterNumber(chapter.key);
  const base = chapter.buildsOn[0];
  const count = steps.length;
  return {
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

/**
 * The bar's <section> (id: the bar's, data-chapter: its key); its button calls onToggle(key, open).
 * t: the translator; `first` marks the first of the next chapters (it carries their heading).
 */
export function renderChapterBar(bar, words, t, onToggle, { first = false } = {}) {
  const el = element('section', 'chapter-bar');
  el.id = bar.id;
  el.dataset.chapter = bar.chapter.key;
  el.dataset.steps = String(bar.steps.length);
  el.classList.toggle('is-open', bar.open);
  el.setAttribute('part', 'chapter');
  if (first) el.append(element('p', 'chapter-next', t('chapter.next')));
  const header = element('header');
  const title = element('h2', null, words.name);
  title.dataset.chapterNumber = String(words.number);
  header.append(title, element('p', 'chapter-basis', words.basis.text));
  const said = element('p', 'chapter-holds', together(t, [words.holds, words.steps]));
  const button = element('button', 'chapter-toggle', words.action.text);
  button.type = 'button';
  button.dataset.chapter = bar.chapter.key;
  button.dataset.opens = String(!bar.open);
  // Read off the button: a later render that only patches the bar keeps this listener.
  button.addEventListener('click', () => onToggle(button.dataset.chapter, button.dataset.opens === 'true'));
  el.append(header, said, button);
  return el;
}
