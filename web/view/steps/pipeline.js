// The pipeline view: one section per step of the registry that applies to the
// run, in order, a closed chapter's steps standing as one chapter bar at their
// place and the chapters none of whose steps applies as one "next chapters"
// section at the end (chapters.js). The matrices of the last render that only
// changed numbers are updated in place; a large result's steps are built in slices.
import { patchChildren, patchContent } from '../common/patch.js';
import { scaleFactorText } from './formulas.js';
import { chapterBarWords, renderChapterBar, renderNextChapters } from './chapter-bar.js';
import { pipelineItems } from './chapters.js';
import { StepKit } from './kit.js';
import { runContext } from './run-context.js';

// Above this many numbers in the result, the steps are built in slices (slices.js), near the viewport first.
const PROGRESSIVE_NUMBERS = 1 << 19;

/** How many numbers a result holds. */
const numberCount = (tensors) => Object.values(tensors).reduce((sum, tensor) => sum + tensor.data.length, 0);

/**
 * Renders the whole pipeline for `result` into `container`; a large result's steps are built in slices by
 * `queue` (a SliceQueue, which the caller starts once the steps are on the page: layout.progressive).
 * view: {t, b, h, decimals, theme, focus, linksAllHeads, weightsGiven, steps?: Set of public step names,
 * chapters?: Set of open chapters (null: all), editable?, exportable?, steppers?};
 * edits: {isWeightEdited(name, i, j), isEmbeddingEdited(token, d)};
 * on: {editWeight, editEmbedding, focus(i), selectHead(h), showAllHeads(bool), toggleChapter(key, open)}.
 * Returns the run context (run-context.js) the explanations and the teaching modes read, with
 * {progressive, scaleText}.
 */
export function renderPipeline(container, result, view, edits, on, queue) {
  const run = runContext(result, view);
  const progressive = numberCount(result.tensors) > PROGRESSIVE_NUMBERS;
  const kit = new StepKit({ container, run, view, edits, on, queue, progressive });
  const items = pipelineItems(run, {
    steppers: Boolean(view.steppers),
    steps: view.steps ?? null,
    chapters: view.chapters ?? null,
    settingChapters: Boolean(view.settingChapters),
  });
  const sections = items
    .filter(({ bar }) => !bar?.next)
    .map(({ step, bar }) =>
      step
        ? kit.section(step, step.words(run, view.t), step.render(run, kit))
        : renderChapterBar(bar, chapterBarWords(bar, run, view.t), on.toggleChapter),
    );
  // The chapters after the last step are one section: one stop step by step, one box in the overview.
  const next = items.filter(({ bar }) => bar?.next).map(({ bar }) => bar);
  if (next.length)
    sections.push(
      renderNextChapters(
        next,
        next.map((bar) => chapterBarWords(bar, run, view.t)),
        view.t,
        on.toggleChapter,
      ),
    );
  // Numbered here (the teaching modes read them), so a step's header equals its last one and is kept;
  // a chapter bar is not a step and takes no number.
  sections
    .filter((el) => el.classList.contains('step'))
    .forEach((el, k) => {
      el.querySelector(':scope > header > h2').dataset.number = String(k + 1);
    });
  // The steps keep what did not change; a large result's steps keep their old content until a slice builds
  // the new one and patches it in (its kept parts updated in place then).
  patchChildren(container, sections, kit.standIns, { reuse: true });
  if (progressive) {
    const onPage = new Map(Array.from(container.children, (step) => [step.id, step]));
    let left = kit.contents.length;
    for (const { step, build } of kit.contents) {
      const target = onPage.get(step.id);
      kit.later(() => {
        kit.standIns = [];
        patchContent(target, build(target), kit.standIns);
        if (--left === 0) kit.release();
      }, target);
    }
    if (left === 0) kit.release();
  } else kit.release();
  run.progressive = progressive;
  // The factor as the explanations write it: "÷√4 = ×0.5".
  run.scaleText = scaleFactorText({ scale: run.rs.scale, factor: run.factor, dk: run.dk, D: run.D }, view.t);
  return run;
}
