// The chapters of the pipeline, defined once: a learner starts with the
// basics and opens the others (multi-head attention, the modern variants,
// inference's KV cache and online softmax, a trained model). Each step module
// names its chapter (registry.js); the pipeline, the overview, step by step,
// the element's chapters="…", the page's ?chapters= and the tests all derive
// from this list. A closed chapter's steps that apply to the run are not
// dropped (the numbers after them would not follow): they stand as one
// chapter bar at their place (chapter-bar.js).
import { STEPS, stepsOf } from './registry.js';

/**
 * key (i18n chapter.<key>.*), the chapters it builds on, and:
 * uses(run): whether a preset whose run this is asks for the chapter (it opens with the preset);
 * asked: a setting change that makes its steps apply opens it (the learner asked for them);
 * setting: a chapter that is a config setting rather than steps (the trained model is another model):
 * open exactly when the setting has that value, so it is not a view option of its own.
 */
/**
 * The variants with no step of their own (they change the heads' and the mask's): each one's key
 * (i18n chapter.variants.<key>, the words its chapter bar names it by) and whether a run has it on.
 */
export const STEPLESS_VARIANTS = [
  { key: 'gqa', on: (run) => run.gqa },
  { key: 'window', on: (run) => run.rs.window !== null },
  { key: 'sinks', on: (run) => run.rs.sinkTokens > 0 },
  // The sink logit's column is drawn in the weights step (basics): no step here, but it is on.
  { key: 'sinkLogit', on: (run) => run.rs.sinkLogits !== null && !run.rs.sinkPerHead },
  { key: 'sinkLogitPerHead', on: (run) => run.rs.sinkPerHead },
];

export const CHAPTERS = [
  { key: 'basics', buildsOn: [] },
  // Steps of their own for any number of heads (split, concat); averaged only with several.
  { key: 'heads', buildsOn: ['basics'], uses: (run) => run.multiHead },
  {
    key: 'variants',
    buildsOn: ['heads'],
    asked: true,
    uses: (run) =>
      STEPS.some((step) => step.chapter === 'variants' && step.applies?.(run)) ||
      STEPLESS_VARIANTS.some((variant) => variant.on(run)),
  },
  { key: 'inference', buildsOn: ['basics'] },
  { key: 'trained', buildsOn: ['heads'], setting: { path: 'model', value: 'tiny' } },
];

const BY_KEY = new Map(CHAPTERS.map((chapter) => [chapter.key, chapter]));

/** The chapter of `key`, or undefined. */
export const chapterByKey = (key) => BY_KEY.get(key);

/** A chapter's number, from 1, as the page writes it ("chapter 2"). */
export const chapterNumber = (key) => CHAPTERS.findIndex((chapter) => chapter.key === key) + 1;

/** The steps of a chapter, in the pipeline's order. */
export const chapterSteps = (key) => STEPS.filter((step) => step.chapter === key);

/** The names chapters="…" and ?chapters= take: the chapters that are steps (the basics are always open). */
export const CHAPTER_NAMES = CHAPTERS.filter((chapter) => !chapter.setting).map((chapter) => chapter.key);

/** The open chapters of a page that shows the plain path. */
export const PLAIN_PATH = new Set(['basics']);

/** The open chapters as a set of names (chapters="heads variants", ?chapters=heads,variants); null: all. */
export function readChapters(names) {
  if (names === null || names === undefined) return null;
  const open = new Set(names);
  open.add('basics');
  return open;
}

/** The open chapters with `key` opened or closed (null, all open, stays all until one is closed). */
export function withChapter(open, key, isOpen) {
  const next = new Set(open ?? CHAPTER_NAMES);
  if (isOpen) next.add(key);
  else if (key !== 'basics') next.delete(key);
  return next;
}

/**
 * The open chapters as ?chapters= writes them (those besides the basics, in order: "" is the plain path)
 * or, with basics, as chapters="…" does (an element without the attribute opens them all).
 */
export const chaptersText = (open, separator = ',', { basics = false } = {}) =>
  CHAPTER_NAMES.filter((key) => (basics || key !== 'basics') && open.has(key)).join(separator);

/** The chapters a preset's run asks for (opened with it). */
export const chaptersUsedBy = (run) => CHAPTERS.filter((chapter) => chapter.uses?.(run)).map((chapter) => chapter.key);

/** The chapters a setting change asked for: `asked` ones whose steps apply now and did not before. */
export function chaptersAskedBy(before, after) {
  const applying = (run) => new Set(run ? stepsOf(run).map((step) => step.chapter) : []);
  const was = applying(before);
  const now = applying(after);
  return CHAPTERS.filter((chapter) => chapter.asked && now.has(chapter.key) && !was.has(chapter.key)).map(
    (chapter) => chapter.key,
  );
}

/**
 * What the pipeline shows for a run, in order: {step} for a step of an open chapter, and
 * {bar: {chapter, steps, id, open, next}} for a closed chapter's steps that apply to the run (consecutive
 * ones make one bar, at their place), then, as the next chapters, one bar for each chapter none of whose
 * steps applies (closed: it says how to open it; open: how to make its steps apply).
 * options: {steppers (the view has them), steps (a Set of public step names, or null: all),
 * chapters (the open chapters, a Set, or null: all open, no bar at all, as before chapters),
 * settingChapters (the shell can open a chapter that is a setting: else it has no bar)}.
 */
export function pipelineItems(run, { steppers = false, steps = null, chapters = null, settingChapters = false } = {}) {
  const applicable = stepsOf(run, { steppers });
  const shown = applicable.filter((step) => !steps || steps.has(step.name));
  if (!chapters) return shown.map((step) => ({ step }));
  const items = [];
  const bars = new Map(); // chapter key -> bars so far
  const addBar = (chapter, barSteps, open = false) => {
    const count = (bars.get(chapter.key) ?? 0) + 1;
    bars.set(chapter.key, count);
    const id = count === 1 ? `chapter-${chapter.key}` : `chapter-${chapter.key}-${count}`;
    const bar = { chapter, steps: barSteps, id, open, next: false };
    items.push({ bar });
    return bar;
  };
  for (const step of shown) {
    if (chapters.has(step.chapter)) {
      items.push({ step });
      continue;
    }
    const last = items.at(-1)?.bar;
    if (last && last.chapter.key === step.chapter) last.steps.push(step);
    else addBar(chapterByKey(step.chapter), [step]);
  }
  const inRun = new Set(applicable.map((step) => step.chapter));
  for (const chapter of CHAPTERS)
    if (chapter.key !== 'basics' && !inRun.has(chapter.key) && (!chapter.setting || settingChapters))
      addBar(chapter, [], chapter.setting ? false : chapters.has(chapter.key));
  // The bars after the last step are the next chapters, in the chapters' order.
  let first = items.length;
  while (first > 0 && items[first - 1].bar) first--;
  const next = items.splice(first).sort((a, b) => chapterNumber(a.bar.chapter.key) - chapterNumber(b.bar.chapter.key));
  for (const item of next) item.bar.next = true;
  return [...items, ...next];
}
