// The pipeline view's controller, used by the page and by <attention-lab>:
// it owns the rendering of a result, the sentence and head tabs, the
// explanation panel, and editing. The host runs the engine; the controller
// tells it when the edits changed (onEditsChange) so it runs again.
import { emptyEdits, isEmbeddingEdited, isWeightEdited, setEmbeddingEdit, setWeightEdit } from '../../model/edits.js';
import { resultHolds } from '../../model/selection.js';
import { adoptStyleSheets, headColor, heatmapStyleSheet, textOnHead } from '../common/colors.js';
import { cellOfEvent, isUnexplainedNumber, renderExplanation } from '../explain/render-explanation.js';
import { NEXT_ID } from '../steps/chapter-bar.js';
import { chapterByKey, withChapter } from '../steps/chapters.js';
import { renderPipeline } from '../steps/pipeline.js';
import { SliceQueue } from '../common/slices.js';
import { shownFigureNames } from '../figures/figure-names.js';
import { Steppers } from '../steps/stepper-panels.js';
import { markTabPanel, renderTabs } from '../common/tabs.js';
import { TeachingFrame } from '../teach/teach-modes.js';
import { touchWording } from '../common/touch.js';

// The per-head tensors the view draws with every head (the heads' small
// multiples of scores and weights, the links of all heads, the averaged
// weights' explanation): a run for the view keeps all heads of these only.
const ALL_HEAD_TENSORS = ['scores', 'weights', 'dropped'];

// The explanations' code (explain/cells.js; their strings are the language's) is not on the path to
// the first numbers: it loads after the first result is shown (or with the first number hovered).
let explainCell = null;
let explainLoading = null;
const loadExplanations = () =>
  (explainLoading ??= import('../explain/cells.js').then(
    (module) => {
      explainCell = module.explainCell;
    },
    (error) => {
      explainLoading = null; // offline, say: the next hovered number tries again, the hint stays meanwhile
      throw error;
    },
  ));

export class PipelineController {
  /** The last result shown (null before the first). */
  result = null;
  /** Edited numbers (model/edits.js). */
  edits = emptyEdits();
  /** Edits that came with the config (an element's attributes): marked as edited too. */
  givenEdits = emptyEdits();
  #layout = null;
  #parts;
  #onEditsChange;
  #onSelectionChange;
  #selection = { b: 0, h: 0, focus: null, linksAllHeads: true };
  #options = {
    t: null,
    decimals: 4,
    theme: 'light',
    steps: null,
    chapters: null,
    editable: true,
    exportable: false,
    weightsGiven: false,
    mode: 'scroll',
  };
  /** The heatmap classes' stylesheet of the theme's palette (colors.js heatmapStyleSheet). */
  #paletteSheet = null;
  /** The cell whose explanation is shown ({step, i, j}), explained again after a render; null: the hint. */
  #explained = null;
  /** The cell asked for while the explanations load; null when none is waiting. */
  #explainAsked = null;
  #frame;
  /** A large result's steps, built in slices after the render (slices.js). */
  #queue = new SliceQueue({ onBuilt: (section) => this.#built(section) });
  /** The KV-cache and online-softmax steppers (steppers.js), when the host can run them. */
  #steppers = null;
  #onChaptersChange;
  #onSettingChapter;

  /**
   * parts: {root (document or a shadow root, for highlighting and keys), pipeline,
   * explain, batchTabs, headTabs, and for teach.js overview?, follow?, stepper?,
   * stepsToggle?, sticky?}; onEditsChange() after every edit; onSelectionChange()
   * when the user picks a sentence or head the result does not hold (a host that
   * runs with runOptions() runs again; without it, results must hold everything);
   * runStepper(method, options) runs lab.decode or lab.flash (method) on the
   * shown result's config and resolves with its figures (without it, no steppers).
   * onChaptersChange(open) after the learner opened or closed a chapter (open: a Set; the shell keeps it);
   * onSettingChapter(chapter) when the learner opens a chapter that is a setting (chapters.js: the trained
   * model): the shell changes that setting (without it, such a chapter shows no bar).
   */
  constructor(
    parts,
    { onEditsChange, onSelectionChange = null, runStepper = null, onChaptersChange = null, onSettingChapter = null },
  ) {
    this.#parts = parts;
    this.#onChaptersChange = onChaptersChange;
    this.#onSettingChapter = onSettingChapter;
    if (runStepper) this.#steppers = new Steppers(runStepper);
    this.#onEditsChange = onEditsChange;
    this.#onSelectionChange = onSelectionChange;
    adoptStyleSheets(parts.root, [heatmapStyleSheet()]);
    // Hover, keyboard focus, or a tap (a click, on touch screens).
    for (const type of ['mouseover', 'focusin', 'click'])
      parts.pipeline.addEventListener(type, (event) => this.#explain(event));
    this.#frame = new TeachingFrame(parts, {
      follow: (i) => this.follow(i),
      setMode: (mode) => this.setOptions({ mode }),
      toggleChapter: (key, open) => this.toggleChapter(key, open),
    });
  }

  /**
   * Opens or closes chapter `key` (chapters.js); opened, the reader is taken to its first step. A chapter
   * that is a setting is the shell's to open (onSettingChapter).
   */
  toggleChapter(key, open) {
    const chapter = chapterByKey(key);
    if (!chapter) return;
    if (chapter.setting) {
      if (open) this.#onSettingChapter?.(chapter);
      return;
    }
    this.setOptions({ chapters: withChapter(this.#options.chapters, key, open) });
    this.#onChaptersChange?.(this.#options.chapters);
    // Opened: its first step (where its first bar was) is shown, or, none of its steps applying, the next
    // chapters, where it says what would make them apply.
    const sections = this.#frame.sections;
    const first =
      open &&
      (sections.find((section) => section.dataset.chapter === key) ??
        sections.find((section) => section.id === NEXT_ID));
    if (first) this.#frame.show(first.id);
  }

  /**
   * {t, decimals, theme, steps (a Set of step names or null), chapters (a Set of open chapters, or null:
   * all), editable, exportable,
   * weightsGiven (the config gives weight values: no "untrained" notice), mode}: re-renders.
   */
  setOptions(options) {
    if (options.t) options = { ...options, t: touchWording(options.t) }; // "tap" on a touch screen
    Object.assign(this.#options, options);
    this.#adoptPalette(this.#options.theme);
    this.render();
  }

  // A custom palette's heatmap classes (an element's --attention-lab-* colours) in place of the last one's;
  // the built-in sheet (light, dark, the head bands) stays.
  #adoptPalette(theme) {
    const sheet = heatmapStyleSheet(theme);
    const builtIn = heatmapStyleSheet();
    if (sheet === this.#paletteSheet) return;
    const root = this.#parts.root;
    root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => s === builtIn || s !== this.#paletteSheet);
    if (sheet !== builtIn) adoptStyleSheets(root, [sheet]);
    this.#paletteSheet = sheet;
  }

  get options() {
    return this.#options;
  }

  /** The names of the figures shown (a matrix's data-matrix, "links", "heads:weights"), for exportFigure. */
  get figureNames() {
    return shownFigureNames(this.#parts.pipeline);
  }

  /**
   * Figure `name` as shown, as a Promise of a Blob: {format: 'svg' | 'png', scale: 1 | 2 | 4}. The page's
   * download buttons and el.exportFigure both come here (view/figures/shown-figures.js draws it).
   */
  exportFigure(name, options) {
    const { t, theme } = this.#options;
    const context = { t, theme, result: this.result, b: this.#selection.b };
    // The SVG writers are loaded with the first figure asked for: the first render needs none of them.
    return import('../figures/shown-figures.js').then(({ shownFigureBlob }) =>
      shownFigureBlob(this.#parts.pipeline, name, options, context),
    );
  }

  /** Shows `result`, with `options` changed first if given (one render). */
  setResult(result, options = {}) {
    this.result = result;
    this.setOptions(options);
  }

  /**
   * Resolves once the steps near the viewport are on the page: at once after
   * a render, or, for a large result built in slices, when their slices ran.
   */
  whenShown() {
    return this.#queue.whenShown();
  }

  /** Whether a large result's steps are still being built in slices. */
  get building() {
    return this.#queue.busy;
  }

  /** Whether the steppers on the page wait for their figures. */
  get steppersBusy() {
    return this.#steppers?.busy ?? false;
  }

  /**
   * The run options that return what the view shows: the selected sentence
   * and head, and every head of the tensors drawn with all heads.
   */
  runOptions() {
    return { batch: this.#selection.b, head: this.#selection.h, allHeads: ALL_HEAD_TENSORS };
  }

  /** Shows sentence `b` or head `h` (either may be undefined): now, or after the host fetched it. */
  #select({ b = this.#selection.b, h = this.#selection.h }) {
    this.#selection.b = b;
    this.#selection.h = h;
    if (this.result && !resultHolds(this.result, b, h) && this.#onSelectionChange) this.#onSelectionChange();
    else this.render();
  }

  /** The head shown, from 0; set (an element's head attribute), it is shown from the next render on. */
  get head() {
    return this.#selection.h;
  }

  set head(h) {
    this.#selection.h = h;
  }

  /** Forgets the edits (the host runs again). */
  resetEdits() {
    this.edits = emptyEdits();
  }

  /** The followed token: a query row of the shown sentence (the links view's focus too), or null. */
  get followed() {
    return this.#selection.focus;
  }

  /** Follows token `i` through every step (null: none). */
  follow(i) {
    this.#selection.focus = i;
    this.render();
  }

  /** Goes to the step with this element id ("step-scores"): scrolls there, or shows it step by step. */
  showStep(id) {
    this.#frame.show(id);
  }

  /**
   * The explanation panel back to its hint (the page's close button on narrow
   * screens). Returns the table cell that was explained, if any.
   */
  clearExplanation() {
    const explained = this.#explained && this.#cellTd(this.#explained);
    this.#show(null);
    return explained ?? null;
  }

  #cellTd({ step, i, j }) {
    return this.#parts.pipeline.querySelector(
      `table[data-matrix="${step}"]:not(.sr-only) td[data-i="${i}"][data-j="${j}"]`,
    );
  }

  /** Back to the first sentence and head, nothing focused. */
  resetSelection() {
    this.#selection = { b: 0, h: 0, focus: null, linksAllHeads: true };
  }

  render() {
    const result = this.result;
    const { t } = this.#options;
    if (!result || !t) return;
    const { B, H, S } = result.sizes;
    const selection = this.#selection;
    selection.b = Math.min(selection.b, B - 1);
    selection.h = Math.min(selection.h, H - 1);
    if (selection.focus !== null && selection.focus >= S) selection.focus = null;
    if (!resultHolds(result, selection.b, selection.h)) return; // the host is fetching them (onSelectionChange)
    this.#queue.clear();
    const place = this.#frame.readingPlace();
    this.#layout = renderPipeline(
      this.#parts.pipeline,
      result,
      { ...this.#options, ...selection, steppers: this.#steppers, settingChapters: Boolean(this.#onSettingChapter) },
      {
        isWeightEdited: (name, i, j) =>
          isWeightEdited(this.edits, name, i, j) || isWeightEdited(this.givenEdits, name, i, j),
        isEmbeddingEdited: (token, d) =>
          isEmbeddingEdited(this.edits, token, d) || isEmbeddingEdited(this.givenEdits, token, d),
      },
      {
        editWeight: (name, i, j, value) => {
          setWeightEdit(this.edits, name, i, j, value);
          this.#onEditsChange();
        },
        editEmbedding: (token, d, value) => {
          setEmbeddingEdit(this.edits, token, d, value);
          this.#onEditsChange();
        },
        focus: (i) => this.follow(i),
        // A kept node (patch.js) may call these after a later render or a resetSelection: the current selection.
        selectHead: (h) => this.#select({ h }),
        showAllHeads: (all) => {
          this.#selection.linksAllHeads = all;
          this.render();
        },
        toggleChapter: (key, open) => this.toggleChapter(key, open),
      },
      this.#queue,
    );
    // After the first result's paint: the explanations, for the first number hovered.
    if (!explainLoading) requestAnimationFrame(() => setTimeout(() => loadExplanations().catch(() => {})));
    const { decimals, mode, theme, exportable } = this.#options;
    const { b, h, queryLabels, keyLabels } = this.#layout;
    this.#steppers?.update({ t, result, b, h, decimals, theme, exportable, queryLabels, keyLabels });
    const pick = (key) => (k) => this.#select({ [key]: k });
    const { pipeline, batchTabs, headTabs } = this.#parts;
    renderTabs(batchTabs, {
      key: 'batch',
      count: B,
      current: selection.b,
      label: t('controls.batch'),
      panel: pipeline,
      onPick: pick('b'),
    });
    renderTabs(headTabs, {
      key: 'head',
      count: H,
      current: selection.h,
      label: t('controls.head'),
      panel: pipeline,
      colorOf: headColor,
      textOf: (k) => textOnHead(k, this.#options.theme),
      onPick: pick('h'),
    });
    markTabPanel(pipeline, [batchTabs, headTabs]);
    // A large result's long lists (the follow menu) come in a slice after the steps in view.
    const later = this.#layout.progressive ? (run) => this.#queue.add(run, null) : null;
    this.#frame.update({ t, result, layout: this.#layout, focus: selection.focus, mode, decimals, later });
    this.#frame.keepPlace(place);
    if (this.#layout.progressive) this.#queue.start(this.#frame.sections);
    // The explained number, recomputed for what is now shown (or the hint if it is gone).
    const explained = this.#explained;
    if (!explained) return;
    const stillShown = this.#parts.pipeline.querySelector(
      `table[data-matrix="${explained.step}"]:not(.sr-only) td[data-i="${explained.i}"][data-j="${explained.j}"]`,
    );
    this.#show(stillShown ? explained : null);
  }

  // A step built in slices is complete: the followed token and the explained number are marked in it too.
  #built(section) {
    this.#frame.built(section);
    const explained = this.#explained;
    if (explained && section.querySelector(`table[data-matrix="${explained.step}"]:not(.sr-only)`))
      this.#show(explained);
  }

  // The explanation of the hovered, focused or tapped number, with the
  // numbers it uses highlighted; a number without one shows the hint, so the
  // panel never keeps an explanation of another number.
  #explain(event) {
    if (!this.result || !this.#layout) return;
    const cell = cellOfEvent(event);
    if (cell) this.#show(cell);
    else if (isUnexplainedNumber(event)) this.#show(null);
  }

  /** Explains {step, i, j} (its td found in the pipeline), or shows the hint for null. */
  #show(cell) {
    if (cell && !explainCell) {
      // Shown once they have loaded, unless another number (or none) was shown meanwhile.
      this.#explainAsked = cell;
      loadExplanations().then(
        () => this.#explainAsked === cell && this.#show(cell),
        () => {},
      );
      return;
    }
    this.#explainAsked = null;
    const { t, decimals, weightsGiven } = this.#options;
    const root = this.#parts.root;
    root.querySelectorAll('.hl').forEach((el) => el.classList.remove('hl'));
    const info = cell && explainCell(cell.step, cell.i, cell.j, this.#explainContext(t, decimals, weightsGiven));
    this.#explained = info ? { step: cell.step, i: cell.i, j: cell.j } : null;
    if (!info) {
      const hint = document.createElement('p');
      hint.className = 'hint';
      hint.textContent = t('explain.hint');
      this.#parts.explain.replaceChildren(hint);
      return;
    }
    this.#parts.explain.replaceChildren(...renderExplanation(info));
    const td = cell.td ?? this.#cellTd(cell);
    td?.classList.add('hl');
    for (const { matrix, row, col } of info.highlight) {
      const table = `table[data-matrix="${matrix}"]:not(.sr-only)`;
      const selector =
        row === null
          ? `${table} tbody tr`
          : row === undefined
            ? `${table} td[data-j="${col}"]`
            : col === undefined
              ? `${table} tr[data-row="${row}"]`
              : `${table} td[data-i="${row}"][data-j="${col}"]`;
      this.#parts.pipeline.querySelectorAll(selector).forEach((el) => el.classList.add('hl'));
    }
  }

  #explainContext(t, decimals, weightsGiven) {
    return {
      ...this.#layout,
      steppers: this.#steppers?.state,
      t,
      result: this.result,
      decimals,
      weightsGiven,
      edited: (name, i, j) => isWeightEdited(this.edits, name, i, j) || isWeightEdited(this.givenEdits, name, i, j),
      embeddingEdited: (token, d) =>
        isEmbeddingEdited(this.edits, token, d) || isEmbeddingEdited(this.givenEdits, token, d),
    };
  }
}
