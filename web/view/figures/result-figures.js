// The figures of a run's result without a page (the CLI's --figure): their
// names, derived from the steps (registry.js: each step's figures, the links
// step, a head grid per attention map), and each one's SVG, drawn by the same
// writers as the page's export menu and el.exportFigure, from views built as
// the steps build them (the same looks, labels and captions). Pure.
import { halfHeadStart, headStart, sentenceIndex, sentenceStart } from '../../model/selection.js';
import { ATTENTION_MAPS, figureLook } from '../steps/figure-looks.js';
import { tensorLabel } from '../steps/labels.js';
import { stepsOf } from '../steps/registry.js';
import { HEADS_PREFIX, LINKS_FIGURE, headGridName, mapFigureName, mapOfFigure } from './figure-names.js';
import { features, runContext } from '../steps/run-context.js';
import { figureCaption } from './caption.js';
import { headsSvg } from './heads-svg.js';
import { linksSvg } from './links-svg.js';
import { matrixSvg } from './matrix-svg.js';

// The tensors whose rows are the keys' tokens (with cross-attention, the context's).
const KEY_SIDE = new Set(['X_context', 'K', 'V']);

/** The matrix view of figure `name` (a tensor of the run) for head h of sentence b, or null if it has none. */
function tensorView(run, name, t) {
  const map = mapOfFigure(name);
  if (map && run.T[map.name]) return mapView(run, map, t);
  const tensor = run.T[name];
  if (!tensor) return null;
  const { shape } = tensor;
  const base = { name, captionName: name, data: tensor.data, decimals: run.decimals, theme: 'light', t };
  const look = () => figureLook(run, name);
  const caption = (perHead) =>
    perHead
      ? tensorLabel(t, 'label.caption.head', name, t('view.head', { h: run.h + 1 }))
      : tensorLabel(t, 'label.caption', name);
  if (shape.length <= 2) {
    // A weight [D, cols] or a bias [n] (shown as one row).
    const [rows, cols] = shape.length === 1 ? [1, shape[0]] : shape;
    const rowLabels = shape.length === 1 ? [name] : features(rows);
    return { ...base, ...look(), caption: caption(false), offset: 0, rows, cols, rowLabels, colLabels: features(cols) };
  }
  const [rows, cols] = shape.slice(-2);
  // Per head: [B, H, rows, cols], or ALiBi's bias [H, S, S_kv] (every sentence's).
  const perHead = shape.length === 4 || name === 'alibiBias';
  const offset =
    shape.length === 4 ? headStart(tensor, run.b, run.h) : perHead ? run.h * rows * cols : sentenceStart(tensor, run.b);
  const rowLabels = KEY_SIDE.has(name) ? run.keyLabels : run.queryLabels;
  if (rowLabels.length !== rows) return null; // not a matrix of tokens (the sink's weights [B, H, S])
  const colLabels = ATTENTION_MAPS.has(name) ? run.keyLabels : features(cols);
  return { ...base, ...look(), caption: caption(perHead), offset, rows, cols, rowLabels, colLabels };
}

/** Map s of head h of sentence b of a [B, 2H, S, S_kv] tensor, captioned as the step captions it. */
function mapView(run, { name, s }, t) {
  const tensor = run.T[name];
  const label = t('diff.map', { head: t('view.head', { h: run.h + 1 }), s: s + 1 });
  return {
    name: mapFigureName(name, s),
    captionName: name,
    data: tensor.data,
    decimals: run.decimals,
    theme: 'light',
    t,
    ...figureLook(run, name),
    caption: tensorLabel(t, 'label.caption.head', name, label),
    offset: halfHeadStart(tensor, run.b, run.h, s),
    rows: run.S,
    cols: run.Skv,
    rowLabels: run.queryLabels,
    colLabels: run.keyLabels,
  };
}

/** The per-head attention maps of the run, [B, H, S, S_kv]: those a head grid shows. */
const headGridTensors = (run) =>
  run.multiHead ? [...ATTENTION_MAPS].filter((name) => run.T[name]?.shape.length === 4) : [];

/**
 * The names of the figures of `result` (run: its run context, runContext): the matrices its steps show
 * that are tensors of it, the links diagram, and a head grid per attention map when it has heads.
 */
export function resultFigureNames(result, run = runContext(result)) {
  const steps = stepsOf(run);
  const matrices = steps.flatMap((step) => step.figures(run).map((figure) => figure.name));
  return [
    ...new Set(matrices.filter((name) => tensorView(run, name, () => '') !== null)),
    ...(steps.some((step) => step.name === LINKS_FIGURE) ? [LINKS_FIGURE] : []),
    ...headGridTensors(run).map(headGridName),
  ];
}

/**
 * The SVG of figure `name` of `result` ({svg, width, height}), or null when it has no such figure.
 * options: {b, h (the sentence and head shown), decimals, t (the language's translator)}.
 */
export function resultFigure(result, name, { b = 0, h = 0, decimals = 4, t }) {
  const run = runContext(result, { b, h, decimals });
  if (!resultFigureNames(result, run).includes(name)) return null;
  const caption = figureCaption(t, result, { b: run.b });
  const lang = t.lang ?? 'en';
  if (name === LINKS_FIGURE) {
    const { T, H, S, Skv, queryLabels, keyLabels } = run;
    const heads = Array.from({ length: H }, (_, k) => k);
    const view = { weights: T.weights.data, b: sentenceIndex(T.weights, run.b), H, S, Skv, queryLabels, keyLabels };
    return linksSvg({ ...view, heads, theme: 'light' }, { title: t('step.links.title'), caption, lang });
  }
  if (name.startsWith(HEADS_PREFIX)) {
    const tensorName = name.slice(HEADS_PREFIX.length);
    const tensor = run.T[tensorName];
    const view = {
      data: tensor.data,
      b: sentenceIndex(tensor, run.b),
      H: run.H,
      S: run.S,
      Skv: run.Skv,
      kind: figureLook(run, tensorName).kind === 'prob' ? 'prob' : 'signed',
      theme: 'light',
    };
    const title = t('heads.multiples', { name: tensorName, count: run.H });
    return headsSvg(view, { t, title, caption, lang });
  }
  return matrixSvg(tensorView(run, name, t), { caption, lang });
}
