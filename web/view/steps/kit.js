// The pieces every step's render is made of, bound to one render of one run:
// a step's <section> (title, formula, shape, meaning, notes), matrices that
// keep their figure across renders where only numbers changed, headings,
// rows, the head-h views of per-head tensors and the heads' small heatmaps.
import { headBandClass, headColor } from '../common/colors.js';
import { element } from '../common/dom.js';
import { renderHeadMultiples } from '../common/head-multiples.js';
import { figureMenu, labelNodes, renderMatrix } from '../common/matrix.js';
import { headGridName } from '../figures/figure-names.js';
import { contentLater, standIn } from '../common/patch.js';
import { headStart, sentenceIndex, sentenceStart } from '../../model/selection.js';
import { renderFormula } from './formulas.js';
import { features } from './run-context.js';
import { tensorLabel } from './labels.js';
import { shapeLine, stepShapesOf } from './shapes.js';
import { joined } from '../../model/words.js';

/**
 * The kit for one render. ctx: {container, run (run-context.js), view, edits, on, queue, progressive}.
 * view: {t, theme, exportable, editable, linksAllHeads, steppers}; edits: {isWeightEdited, isEmbeddingEdited};
 * on: {editWeight, editEmbedding, focus, selectHead, showAllHeads}. Its members are arrow functions, so a
 * step can pass them on (PROJECTIONS.map(kit.weightMatrix)).
 */
export class StepKit {
  // The matrices, the heads' heatmaps and the links view on the page, kept and updated where only numbers change.
  #previous = new Map();
  #previousMultiples = new Map();
  #container;

  constructor({ container, run, view, edits, on, queue, progressive }) {
    this.t = view.t;
    Object.assign(this, { run, view, edits, on, progressive, editable: view.editable !== false });
    // The head of a column: kept by the figures' views (matrixView.columnColor) after the render, so it
    // closes over d_k, not over the kit, which holds the trees this render built and the figures it found.
    const { dk } = run;
    this.headOfColumn = (j) => headColor(Math.floor(j / dk));
    this.later = progressive ? (job, el) => queue.add(job, el) : (job) => job();
    this.#container = container;
    for (const figure of container.querySelectorAll('figure.matrix-figure'))
      this.#previous.set(figure.dataset.matrix, figure);
    for (const box of container.querySelectorAll('.head-multiples'))
      this.#previousMultiples.set(box.dataset.heads, box);
    this.previousLinks = container.querySelector('svg.links');
    // The stand-ins of the content being built (all steps', or, built in slices, one step's).
    this.standIns = [];
    // Built in slices: each step's content, built (and patched into its step on the page) by a later slice.
    this.contents = progressive ? [] : null;
    this.headLabel = this.t('view.head', { h: run.h + 1 });
    this.common = { t: this.t, decimals: run.decimals, theme: view.theme, exportable: Boolean(view.exportable) };
    this.headBands = run.multiHead ? this.#bands(run.H, (k) => this.t('view.head', { h: k + 1 })) : {};
    // K and V: with GQA, H_kv bands, one per K/V head.
    this.kvBands = !run.gqa
      ? this.headBands
      : run.Hkv > 1
        ? this.#bands(run.Hkv, (k) => this.t('view.kvHead', { g: k + 1 }))
        : { columnColor: this.headOfColumn };
  }

  /**
   * Once the render is on the page (its last slice patched in): lets go of the old figures it looked up and
   * of the trees it built, which only stand-ins and the kit still point into. A figure keeps its view (and
   * the view's functions) until the next render; nothing of that reaches back to the render before.
   */
  release() {
    this.#previous.clear();
    this.#previousMultiples.clear();
    this.#container = null;
    this.previousLinks = null;
    this.standIns = [];
    this.contents = null;
  }

  // A header row naming the head of each band of `width` columns (d_k), and a stripe where each starts.
  #bands(count, label, width = this.run.dk) {
    return {
      columnColor: width === this.run.dk ? this.headOfColumn : (j) => headColor(Math.floor(j / width)),
      columnGroups: Array.from({ length: count }, (_, k) => ({ label: label(k), span: width, color: headColor(k) })),
      cellClass: (i, j) => (j % width === 0 ? [headBandClass(j / width)] : []),
    };
  }

  /** The H heads' bands over columns `width` apart (MLA's values and their concat: valueDim). */
  headBandsOf = (width) =>
    this.run.multiHead ? this.#bands(this.run.H, (k) => this.t('view.head', { h: k + 1 }), width) : {};

  /** A node the render kept (`old`, updated in place) stands in the new tree as a placeholder. */
  keep = (node, old) => {
    if (!old || node !== old) return node;
    const placeholder = standIn(node);
    this.standIns.push(placeholder);
    return placeholder;
  };

  figureOf = (matrixView) => {
    const old = this.#previous.get(matrixView.name);
    return this.keep(renderMatrix(this.progressive ? { ...matrixView, later: this.later } : matrixView, old), old);
  };

  /** A label template for tensor `name` (key: its layout), with {name} left for the name itself. */
  tensorLabel = (key, name, head) => tensorLabel(this.t, key, name, head);

  heading = (name) => ({ template: this.tensorLabel('label.heading', name), name });

  /** A heading (text, or {template, name} with the name kept untranslated) over a matrix. */
  group = (label, content, color) => {
    const box = element('div', 'matrix-group');
    const title = element('h3');
    if (typeof label === 'string') title.textContent = label;
    else title.append(...labelNodes(label.template, label.name));
    if (color) title.style.borderLeft = `4px solid ${color}`;
    box.append(title, content);
    return box;
  };

  row = (...children) => {
    const box = element('div', 'matrix-row');
    box.append(...children);
    return box;
  };

  matrix = (name, tensor, offset, rows, cols, rowLabels, colLabels, extra = {}) =>
    this.figureOf({
      name,
      caption: extra.caption ?? this.tensorLabel('label.caption', name),
      data: tensor.data,
      offset,
      rows,
      cols,
      rowLabels,
      colLabels,
      kind: 'signed',
      ...this.common,
      ...extra,
    });

  /** Sentence b of a [B, rows, cols] tensor (X, Q, concat, output); extra.figureName: its name on the page. */
  sentenceMatrix = (name, rowLabels, { figureName = name, ...extra } = {}) => {
    const tensor = this.run.T[name];
    const [, rows, cols] = tensor.shape;
    const named = figureName === name ? {} : { caption: this.tensorLabel('label.caption', name), captionName: name };
    return this.matrix(figureName, tensor, sentenceStart(tensor, this.run.b), rows, cols, rowLabels, features(cols), {
      ...named,
      ...extra,
    });
  };

  /**
   * A weight (W_Q … b_O, MLA's), editable; W_K and W_V are H_kv·d_k wide with GQA. Its columns are coloured
   * by head `headWidth` apart (d_k; null: not by head).
   */
  weightMatrix = (name, headWidth = name === 'W_O' || name === 'b_O' ? null : this.run.dk) => {
    const tensor = this.run.T[name];
    if (!tensor) return null;
    const isBias = tensor.shape.length === 1;
    const cols = tensor.shape[tensor.shape.length - 1];
    const rows = isBias ? 1 : tensor.shape[0];
    return this.group(
      this.heading(name),
      this.matrix(name, tensor, 0, rows, cols, isBias ? [name] : features(rows), features(cols), {
        editable: this.editable,
        edited: (i, j) => this.edits.isWeightEdited(name, i, j),
        onEdit: (i, j, value) => this.on.editWeight(name, i, j, value),
        columnColor:
          headWidth === null
            ? undefined
            : headWidth === this.run.dk
              ? this.headOfColumn
              : (j) => headColor(Math.floor(j / headWidth)),
      }),
    );
  };

  /** Head h's S × S_kv matrix of a per-head tensor (scores … dropped). extra.figureName: its name on the page. */
  headMatrix = (name, { figureName = name, ...extra } = {}) => {
    const { T, b, h, S, Skv, queryLabels, keyLabels } = this.run;
    return this.group(
      { template: this.tensorLabel('label.heading.head', name, this.headLabel), name },
      this.matrix(figureName, T[name], headStart(T[name], b, h), S, Skv, queryLabels, keyLabels, {
        caption: this.tensorLabel('label.caption.head', name, this.headLabel),
        captionName: name,
        ...extra,
      }),
      headColor(h),
    );
  };

  /**
   * Head h's d_k columns (`dk` of them: MLA's heads have other widths) of a [B, S, H·d_k] tensor (K/V head g's for a
   * key side, K… or V…, with GQA).
   */
  headView = (name, tensor, len, labels, figureName = `${name}_h`, dk = this.run.dk) => {
    const { t, run } = this;
    const kv = run.gqa && (name[0] === 'K' || name[0] === 'V');
    const head = kv ? run.g : run.h;
    const columns = { from: `d${head * dk}`, to: `d${head * dk + dk - 1}` };
    const label = kv
      ? t('split.kvColumns', { name, g: run.g + 1, h: run.h + 1, ...columns })
      : run.multiHead
        ? t('split.columns', { name, h: run.h + 1, ...columns })
        : { template: this.tensorLabel('label.heading.head', name, this.headLabel), name: `${name}_h` };
    const start = sentenceStart(tensor, run.b) + head * dk;
    return this.group(
      label,
      this.matrix(figureName, tensor, start, len, dk, labels, features(dk, 'd', head * dk), {
        rowStride: tensor.shape[2],
        caption: this.tensorLabel('label.caption.head', name, kv ? t('view.kvHead', { g: run.g + 1 }) : this.headLabel),
        captionName: name,
      }),
      headColor(head),
    );
  };

  /** Every head's small heatmap of a [B, H, S, S_kv] (or [H, S, S_kv]) tensor, to pick a head; none for one head. */
  headMultiples = (name, tensor, kind, { batchIndex = sentenceIndex(tensor, this.run.b) } = {}) => {
    const { run } = this;
    if (!run.multiHead) return [];
    const old = this.#previousMultiples.get(name);
    const { H, S, Skv, h } = run;
    const { theme } = this.view;
    const box = renderHeadMultiples(
      {
        name,
        data: tensor.data,
        b: batchIndex,
        H,
        S,
        Skv,
        selected: h,
        kind,
        theme,
        t: this.t,
        onPick: this.on.selectHead,
        later: this.later,
      },
      old,
    );
    const menu = this.view.exportable
      ? [figureMenu(this.t, headGridName(name), this.t('heads.multiples', { name, count: H }))]
      : [];
    return [this.keep(box, old), ...menu];
  };

  /** A stepper's body (stepper-panels.js): it lives across renders, filled by its own engine calls. */
  stepperBody = (key) => {
    const body = this.view.steppers.body(key);
    return this.keep(body, this.#container.contains(body) ? body : null);
  };

  /**
   * A step's <section>: title, formula, shape, meaning and notes from its module (words: {meaning, notes}),
   * then its content: nodes, or a function building them (given the section), now or, built in slices, later.
   */
  section = (step, words, children) => {
    const el = element('section', 'step');
    el.id = `step-${step.key}`;
    el.dataset.step = step.name;
    el.dataset.chapter = step.chapter;
    el.setAttribute('part', 'step');
    el.append(this.#header(step, words));
    if (typeof children !== 'function') el.append(...children);
    else if (this.contents) this.contents.push({ step: contentLater(el), build: children });
    else el.append(...children(el));
    return el;
  };

  #header(step, words) {
    const { t, run } = this;
    const header = element('header');
    const title = element('h2', null, t(step.titleKey?.(run) ?? `step.${step.key}.title`));
    title.setAttribute('part', 'title');
    header.append(title);
    const formulaText = step.formula?.(run, t);
    if (formulaText) {
      const formula = element('p', 'formula');
      formula.translate = false; // math and code; its words are marked translate="yes"
      formula.setAttribute('part', 'formula');
      formula.append(renderFormula(formulaText));
      header.append(formula);
    }
    const shapes = step.shapes ? stepShapesOf(step, run) : [];
    if (shapes.length) {
      const shape = element('p', 'shape', `${t('shape.label')}: ${shapeLine(shapes)}`);
      shape.setAttribute('part', 'shape');
      header.append(shape);
    }
    const meaning = element('p', 'meaning', joined(words.meaning).text);
    meaning.setAttribute('part', 'meaning');
    header.append(meaning);
    for (const note of words.notes ?? []) header.append(element('p', 'notice', note.text));
    return header;
  }
}
