// The pieces every step's render is made of, bound to one render of one run:
// a step's <section> (title, formula, shape, meaning, notes), matrices that
// keep their figure across renders where only numbers changed, headings,
// rows, the head-h views of per-head tensors and the heads' small heatmaps.
import { headBandClass, headColor } from '../common/colors.js';
import { element } from '../common/dom.js';
import { renderHeadMultiples } from '../common/head-multiples.js';
import { labelNodes, renderMatrix } from '../common/matrix.js';
import { contentLater, standIn } from '../common/patch.js';
import { headStart, sentenceIndex, sentenceStart } from '../../model/selection.js';
import { renderFormula } from './formulas.js';
import { features } from './run-context.js';
import { shapeLine, stepShapesOf } from './shapes.js';

// What each tensor is, in words, for the captions and headings around its name: the i18n key term.<name>.
const TERMED = new Set(
  'X X_context W_Q W_K W_V W_O b_Q b_K b_V b_O Q K V Q_norm K_norm ropeAngles Q_rope K_rope capped alibiBias biased sinkWeights scores scaled mask masked weights averagedWeights dropped context concat output'.split(
    ' ',
  ),
);

/** A paragraph holding a sentence (model/words.js) or a plain text. */
export function sentenceParagraph(className, sentence) {
  const p = element('p', className, typeof sentence === 'string' ? sentence : sentence.text);
  return p;
}

/**
 * The kit for one render. ctx: {container, run (run-context.js), view, edits, on, queue, progressive}.
 * view: {t, theme, exportable, editable, linksAllHeads}; edits: {isWeightEdited, isEmbeddingEdited};
 * on: {editWeight, editEmbedding, focus, selectHead, showAllHeads}.
 */
export function createKit({ container, run, view, edits, on, queue, progressive }) {
  const { t } = view;
  const { T, b, h, g, S, Skv, D, H, Hkv, dk, queryLabels, keyLabels, multiHead, gqa } = run;
  const later = progressive ? (job, el) => queue.add(job, el) : (job) => job();
  // The matrices, the heads' heatmaps and the links view on the page, kept and updated where only numbers change.
  const previous = new Map();
  const previousMultiples = new Map();
  for (const figure of container.querySelectorAll('figure.matrix-figure')) previous.set(figure.dataset.matrix, figure);
  for (const box of container.querySelectorAll('.head-multiples')) previousMultiples.set(box.dataset.heads, box);
  const kit = {
    t,
    view,
    run,
    later,
    progressive,
    edits,
    on,
    editable: view.editable !== false,
    previousLinks: container.querySelector('svg.links'),
    // The stand-ins of the content being built (all steps', or, built in slices, one step's).
    standIns: [],
    // Built in slices: each step's content, built (and patched into its step on the page) by a later slice.
    contents: progressive ? [] : null,
    headLabel: t('view.head', { h: h + 1 }),
    common: { t, decimals: run.decimals, theme: view.theme, exportable: Boolean(view.exportable) },
  };

  /** A node the render kept (`old`, updated in place) stands in the new tree as a placeholder. */
  kit.keep = (node, old) => {
    if (!old || node !== old) return node;
    const placeholder = standIn(node);
    kit.standIns.push(placeholder);
    return placeholder;
  };
  kit.figureOf = (matrixView) =>
    kit.keep(
      renderMatrix(progressive ? { ...matrixView, later } : matrixView, previous.get(matrixView.name)),
      previous.get(matrixView.name),
    );
  /** A label template for tensor `name` (key: its layout), with {name} left for the name itself. */
  kit.tensorLabel = (key, name, head) =>
    t(key, { term: t(TERMED.has(name) ? `term.${name}` : 'term.additive'), head, name: '{name}' });
  kit.heading = (name) => ({ template: kit.tensorLabel('label.heading', name), name });
  /** A heading (text, or {template, name} with the name kept untranslated) over a matrix. */
  kit.group = (label, content, color) => {
    const box = element('div', 'matrix-group');
    const title = element('h3');
    if (typeof label === 'string') title.textContent = label;
    else title.append(...labelNodes(label.template, label.name));
    if (color) title.style.borderLeft = `4px solid ${color}`;
    box.append(title, content);
    return box;
  };
  kit.row = (...children) => {
    const box = element('div', 'matrix-row');
    box.append(...children);
    return box;
  };
  kit.matrix = (name, tensor, offset, rows, cols, rowLabels, colLabels, extra = {}) =>
    kit.figureOf({
      name,
      caption: extra.caption ?? kit.tensorLabel('label.caption', name),
      data: tensor.data,
      offset,
      rows,
      cols,
      rowLabels,
      colLabels,
      kind: 'signed',
      ...kit.common,
      ...extra,
    });
  /** Sentence b of a [B, rows, cols] tensor (X, Q, concat, output). */
  kit.sentenceMatrix = (name, rowLabels, extra = {}) => {
    const tensor = T[name];
    const [, rows, cols] = tensor.shape;
    return kit.matrix(name, tensor, sentenceStart(tensor, b), rows, cols, rowLabels, features(cols), extra);
  };

  const headOfColumn = (j) => headColor(Math.floor(j / dk));
  const bands = (count, label) => ({
    columnGroups: Array.from({ length: count }, (_, k) => ({ label: label(k), span: dk, color: headColor(k) })),
    cellClass: (i, j) => (j % dk === 0 ? [headBandClass(j / dk)] : []),
  });
  // Q and concat: a header row naming the head of each band of d_k columns, and a stripe where each starts.
  kit.headBands = multiHead ? { columnColor: headOfColumn, ...bands(H, (k) => t('view.head', { h: k + 1 })) } : {};
  // K and V: with GQA, H_kv bands, one per K/V head.
  kit.kvBands = !gqa
    ? kit.headBands
    : Hkv > 1
      ? { columnColor: headOfColumn, ...bands(Hkv, (k) => t('view.kvHead', { g: k + 1 })) }
      : { columnColor: headOfColumn };
  kit.headOfColumn = headOfColumn;

  /** A projection weight (W_Q … b_O), editable; W_K and W_V are H_kv·d_k wide with GQA. */
  kit.weightMatrix = (name) => {
    const tensor = T[name];
    if (!tensor) return null;
    const isBias = tensor.shape.length === 1;
    const cols = tensor.shape[tensor.shape.length - 1];
    return kit.group(
      kit.heading(name),
      kit.matrix(name, tensor, 0, isBias ? 1 : D, cols, isBias ? [name] : features(D), features(cols), {
        editable: kit.editable,
        edited: (i, j) => edits.isWeightEdited(name, i, j),
        onEdit: (i, j, value) => on.editWeight(name, i, j, value),
        columnColor: name === 'W_O' || name === 'b_O' ? undefined : headOfColumn,
      }),
    );
  };

  /** Head h's S × S_kv matrix of a per-head tensor (scores … dropped). extra.figureName: its name on the page. */
  kit.headMatrix = (name, { figureName = name, ...extra } = {}) =>
    kit.group(
      { template: kit.tensorLabel('label.heading.head', name, kit.headLabel), name },
      kit.matrix(figureName, T[name], headStart(T[name], b, h), S, Skv, queryLabels, keyLabels, {
        caption: kit.tensorLabel('label.caption.head', name, kit.headLabel),
        captionName: name,
        ...extra,
      }),
      headColor(h),
    );

  // A K or V side (K, K_norm, K_rope, V) has the K/V heads: the selected head reads K/V head g.
  const isKeySide = (name) => name[0] === 'K' || name[0] === 'V';
  /** Head h's d_k columns of a [B, S, H·d_k] tensor (K/V head g's for a key side with GQA). */
  kit.headView = (name, tensor, len, labels, figureName = `${name}_h`) => {
    const kv = gqa && isKeySide(name);
    const head = kv ? g : h;
    const columns = { from: `d${head * dk}`, to: `d${head * dk + dk - 1}` };
    const label = kv
      ? t('split.kvColumns', { name, g: g + 1, h: h + 1, ...columns })
      : multiHead
        ? t('split.columns', { name, h: h + 1, ...columns })
        : { template: kit.tensorLabel('label.heading.head', name, kit.headLabel), name: `${name}_h` };
    return kit.group(
      label,
      kit.matrix(
        figureName,
        tensor,
        sentenceStart(tensor, b) + head * dk,
        len,
        dk,
        labels,
        features(dk, 'd', head * dk),
        {
          rowStride: tensor.shape[2],
          caption: kit.tensorLabel('label.caption.head', name, kv ? t('view.kvHead', { g: g + 1 }) : kit.headLabel),
          captionName: name,
        },
      ),
      headColor(head),
    );
  };

  /** Every head's small heatmap of a [B, H, S, S_kv] (or [H, S, S_kv]) tensor, to pick a head; none for one head. */
  kit.headMultiples = (name, tensor, kind, { batchIndex = sentenceIndex(tensor, b) } = {}) => {
    if (!multiHead) return [];
    const old = previousMultiples.get(name);
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
        theme: view.theme,
        t,
        onPick: on.selectHead,
        later,
      },
      old,
    );
    return [kit.keep(box, old)];
  };

  /** A stepper's body (stepper-panels.js): it lives across renders, filled by its own engine calls. */
  kit.stepperBody = (key) => {
    const body = view.steppers.body(key);
    return kit.keep(body, container.contains(body) ? body : null);
  };

  /**
   * A step's <section>: title, formula, shape, meaning and notes from its module (words: {meaning, notes}),
   * then its content: nodes, or a function building them (given the section), now or, built in slices, later.
   */
  kit.section = (step, words, children) => {
    const el = element('section', 'step');
    el.id = `step-${step.key}`;
    el.dataset.step = step.name;
    el.setAttribute('part', 'step');
    const header = element('header');
    const title = element('h2', null, t(`step.${step.key}.title`));
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
    const meaning = sentenceParagraph('meaning', joinedText(words.meaning));
    meaning.setAttribute('part', 'meaning');
    header.append(meaning);
    for (const note of words.notes ?? []) header.append(sentenceParagraph('notice', note));
    el.append(header);
    if (typeof children !== 'function') el.append(...children);
    else if (kit.contents) kit.contents.push({ step: contentLater(el), build: children });
    else el.append(...children(el));
    return el;
  };
  return kit;
}

const joinedText = (sentences) => sentences.map((s) => s.text).join(' ');
