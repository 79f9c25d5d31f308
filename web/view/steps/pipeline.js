// The pipeline view: one section per step of the engine's result, in order,
// each with its title, formula, named shape, meaning and matrices.
import { compactNumber, formatNumber } from '../../model/format.js';
import { headBandClass, headColor } from '../common/colors.js';
import { UNKNOWN, droppedByDropout, dropoutSummary } from '../../model/dropout.js';
import { fillText, renderFormula, scaleFactorText, stepFormula } from './formulas.js';
import { renderHeadMultiples } from '../common/head-multiples.js';
import { element } from '../common/dom.js';
import { renderLinks } from './links-diagram.js';
import { labelNodes, renderMatrix } from '../common/matrix.js';
import { contentLater, patchChildren, patchContent, standIn } from '../common/patch.js';
import { maskBlocks, runSettings } from '../../model/run-settings.js';
import { renderScalingCharts, renderScalingTable, scalingRows } from './scaling.js';
import { headStart, sentenceData, sentenceIndex, sentenceStart } from '../../model/selection.js';
import { kvHeadOf, windowEffect } from '../../model/variant-math.js';
import { renderAlibiSlopes, renderGqaGrouping, renderRopeSameDistance, sinkColumns } from './variant-figures.js';

const features = (n, prefix = 'd', from = 0) => Array.from({ length: n }, (_, k) => `${prefix}${from + k}`);

// Above this many links (heads × queries × keys), the links view draws the selected head only.
const MAX_ALL_HEAD_LINKS = 20000;

// Above this many numbers in the result, the steps are built in slices (slices.js), near the viewport first.
const PROGRESSIVE_NUMBERS = 1 << 19;
// The scaling statistics are worked out this many query rows per slice.
const SCALING_ROWS = 64;

// Public step names, as <attention-lab steps="…"> takes them.
export const STEP_NAMES = {
  X: 'X',
  X_context: 'X_context',
  weights: 'projections',
  qkv: 'qkv',
  split: 'split',
  qkNorm: 'qk-norm',
  rope: 'rope',
  scores: 'scores',
  scaled: 'scaled',
  softcap: 'softcap',
  alibi: 'alibi',
  mask: 'mask',
  masked: 'masked',
  attnweights: 'weights',
  averaged: 'averaged',
  scaling: 'scaling',
  links: 'links',
  dropped: 'dropped',
  context: 'context',
  concat: 'concat',
  wo: 'W_O',
  output: 'output',
  kvcache: 'kv-cache',
  flash: 'flash',
};

const paragraph = (className, text) => {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
};

/**
 * One step: title, formula (f: the formula's context), shape, meaning.
 * children: its content, or a function building it (given the section on the
 * page): now, or, when f.contents is a list, in a later slice (renderPipeline
 * adds it to the list).
 * extra: {meaning (instead of the step's own), notes: [text] under it}.
 */
function section(f, step, shapeText, children, extra = {}) {
  const { t } = f;
  const el = document.createElement('section');
  el.className = 'step';
  el.id = `step-${step}`;
  el.dataset.step = STEP_NAMES[step];
  el.setAttribute('part', 'step');
  const header = document.createElement('header');
  const title = document.createElement('h2');
  title.setAttribute('part', 'title');
  title.textContent = t(`step.${step}.title`);
  header.append(title);
  const formulaText = stepFormula(step, f);
  if (formulaText) {
    const formula = document.createElement('p');
    formula.className = 'formula';
    formula.translate = false; // math and code; its words are marked translate="yes"
    formula.setAttribute('part', 'formula');
    formula.append(renderFormula(formulaText));
    header.append(formula);
  }
  if (shapeText) {
    const shape = paragraph('shape', `${t('shape.label')}: ${shapeText}`);
    shape.setAttribute('part', 'shape');
    header.append(shape);
  }
  const meaning = paragraph('meaning', extra.meaning ?? t(`step.${step}.meaning`));
  meaning.setAttribute('part', 'meaning');
  header.append(meaning);
  for (const note of extra.notes ?? []) header.append(paragraph('notice', note));
  el.append(header);
  if (typeof children !== 'function') el.append(...children);
  else if (f.contents) f.contents.push({ step: contentLater(el), build: children });
  else el.append(...children(el));
  return el;
}

// What each tensor is, in words, for the captions and headings around its name.
const TENSOR_TERMS = {
  X: 'term.X',
  X_context: 'term.X_context',
  W_Q: 'term.W_Q',
  W_K: 'term.W_K',
  W_V: 'term.W_V',
  W_O: 'term.W_O',
  b_Q: 'term.b_Q',
  b_K: 'term.b_K',
  b_V: 'term.b_V',
  b_O: 'term.b_O',
  Q: 'term.Q',
  K: 'term.K',
  V: 'term.V',
  Q_norm: 'term.Q_norm',
  K_norm: 'term.K_norm',
  ropeAngles: 'term.ropeAngles',
  Q_rope: 'term.Q_rope',
  K_rope: 'term.K_rope',
  capped: 'term.capped',
  alibiBias: 'term.alibiBias',
  biased: 'term.biased',
  sinkWeights: 'term.sinkWeights',
  scores: 'term.scores',
  scaled: 'term.scaled',
  mask: 'term.mask',
  masked: 'term.masked',
  weights: 'term.weights',
  averagedWeights: 'term.averagedWeights',
  dropped: 'term.dropped',
  context: 'term.context',
  concat: 'term.concat',
  output: 'term.output',
};

/** A label template for tensor `name` (key: its layout), with {name} left for the name itself. */
const tensorLabel = (t, key, name, head) =>
  t(key, { term: t(TENSOR_TERMS[name] ?? 'term.additive'), head, name: '{name}' });

/** A heading: text, or {template, name} (the name kept untranslated). */
function group(label, element, color) {
  const box = document.createElement('div');
  box.className = 'matrix-group';
  const h = document.createElement('h3');
  if (typeof label === 'string') h.textContent = label;
  else h.append(...labelNodes(label.template, label.name));
  if (color) h.style.borderLeft = `4px solid ${color}`;
  box.append(h, element);
  return box;
}

const row = (...children) => {
  const el = document.createElement('div');
  el.className = 'matrix-row';
  el.append(...children);
  return el;
};

const INIT_MEANING = {
  'torch-linear': 'meaning.init.torch-linear',
  'torch-rand': 'meaning.init.torch-rand',
  'torch-mha': 'meaning.init.torch-mha',
  identity: 'meaning.init.identity',
  'torch-linear-clones': 'meaning.init.torch-linear-clones',
};

/** The meaning of the projection weights for the run's init (and layout). */
function initMeaning(t, rs, weightsGiven) {
  if (weightsGiven) return t('meaning.init.given');
  if (rs.init === 'torch-linear' && rs.layout === 'per-head') return t('meaning.init.torch-linear.perHead');
  return t(INIT_MEANING[rs.init] ?? INIT_MEANING['torch-linear']);
}

const SCALED_MEANING = {
  'head-dim': 'meaning.scaled.headDim',
  'd-model': 'meaning.scaled.dModel',
  none: 'meaning.scaled.none',
};

/** The scaled step's meaning for the run's scale, with the factor. */
const scaledMeaning = (t, rs, { dk, D, factor }) =>
  t(SCALED_MEANING[rs.scale] ?? 'meaning.scaled.custom', {
    n: rs.scale === 'd-model' ? D : dk,
    factor: compactNumber(factor),
  });

// What M holds, per maskConvention.
const MASK_MEANING = {
  blocked: 'meaning.mask.blocked',
  keep: 'meaning.mask.keep',
  additive: 'meaning.mask.additive',
};

/** The mean over heads of a [B, H, S, S_kv] tensor (every head of it), for sentence b: [S, S_kv]. */
export function meanOverHeads(tensor, b, H, S, Skv) {
  const out = new Float32Array(S * Skv);
  for (let h = 0; h < H; h++) {
    const offset = headStart(tensor, b, h);
    for (let k = 0; k < S * Skv; k++) out[k] += tensor.data[offset + k];
  }
  for (let k = 0; k < S * Skv; k++) out[k] /= H;
  return out;
}

/** How many numbers a result holds. */
const numberCount = (tensors) => Object.values(tensors).reduce((sum, tensor) => sum + tensor.data.length, 0);

/**
 * Renders the whole pipeline for `result` into `container`: the matrices of
 * the last render that only changed numbers are updated in place; a large
 * result's steps are built in slices by `queue` (a SliceQueue, which the
 * caller starts once the steps are on the page: layout.progressive).
 * view: {t, b, h, decimals, theme, focus, linksAllHeads, weightsGiven, steps?: Set of STEP_NAMES, editable?, exportable?};
 * edits: {isWeightEdited(name, i, j), isEmbeddingEdited(token, d)};
 * on: {editWeight(name, i, j, value), editEmbedding(token, d, value), focus(i), selectHead(h), showAllHeads(bool)}.
 * Returns the layout the explanations read.
 */
export function renderPipeline(container, result, view, edits, on, queue) {
  const { t } = view;
  const rs = runSettings(result.settings);
  const T = result.tensors;
  const { B, H, S, S_kv: Skv, D } = result.sizes;
  const dk = result.headDim;
  const b = Math.min(view.b, B - 1);
  const h = Math.min(view.h, H - 1);
  // Grouped-query attention: K and V have H_kv heads; the selected query head h reads K/V head g.
  const Hkv = result.sizes.H_kv ?? H;
  const gqa = Hkv < H;
  const g = kvHeadOf(h, H, Hkv);
  const cross = Boolean(T.X_context);
  const randomInput = result.tokens.length === 0;
  const queryLabels = randomInput ? features(S, 'x') : result.tokens[b];
  const keyLabels = cross ? (result.contextTokens ? result.contextTokens[b] : features(Skv, 'c')) : queryLabels;
  const progressive = numberCount(T) > PROGRESSIVE_NUMBERS;
  const later = progressive ? (run, element) => queue.add(run, element) : (run) => run();
  // The matrices on the page, kept and updated where only their numbers change (when built in slices, by
  // the slice building their step). So are the heads' small heatmaps and the links view (redrawn in place).
  const previous = new Map();
  const previousMultiples = new Map();
  for (const figure of container.querySelectorAll('figure.matrix-figure')) previous.set(figure.dataset.matrix, figure);
  for (const box of container.querySelectorAll('.head-multiples')) previousMultiples.set(box.dataset.heads, box);
  const previousLinks = container.querySelector('svg.links');
  // The stand-ins of the content being built (all steps', or, built in slices, one step's).
  let standIns = [];
  // A node the render kept (`old`, updated in place) stands in the new tree as a placeholder.
  const keep = (node, old) => {
    if (!old || node !== old) return node;
    const placeholder = standIn(node);
    standIns.push(placeholder);
    return placeholder;
  };
  const figureOf = (matrixView) =>
    keep(
      renderMatrix(progressive ? { ...matrixView, later } : matrixView, previous.get(matrixView.name)),
      previous.get(matrixView.name),
    );
  const common = { t, decimals: view.decimals, theme: view.theme, exportable: Boolean(view.exportable) };
  const editable = view.editable !== false;
  const dLabels = features(D);
  const multiHead = H > 1;
  const f = {
    t,
    rs,
    bias: { Q: Boolean(T.b_Q), K: Boolean(T.b_K), V: Boolean(T.b_V), O: Boolean(T.b_O) },
    hasWO: Boolean(T.W_O),
    cross,
    factor: result.scaleFactor,
    dk,
    D,
    H,
    Hkv,
    later,
    // Built in slices: each step's content, built (and patched into its step on the page) by a later slice.
    contents: progressive ? [] : null,
  };
  const scaleText = scaleFactorText({ scale: rs.scale, factor: result.scaleFactor, dk, D }, t);
  const headOfColumn = (j) => headColor(Math.floor(j / dk));
  // Q, K, V and concat: a header row naming the head of each band of d_k columns, and a stripe where each starts.
  const headBands = multiHead
    ? {
        columnGroups: Array.from({ length: H }, (_, k) => ({
          label: t('view.head', { h: k + 1 }),
          span: dk,
          color: headColor(k),
        })),
        cellClass: (i, j) => (j % dk === 0 ? [headBandClass(j / dk)] : []),
      }
    : {};
  const maskStart = sentenceStart(T.mask, b);
  const blocked = (i, j) => maskBlocks(T.mask.data[maskStart + i * Skv + j], rs.maskConvention);
  // Whether the mask blocks anything in this sentence: worked out once for every matrix it colours.
  const blocksAny = () => {
    for (let i = 0; i < S; i++) for (let j = 0; j < Skv; j++) if (blocked(i, j)) return true;
    return false;
  };
  let anyBlocked;
  const hasBlocked = () => (anyBlocked ??= blocksAny());
  const bsd = (len) => `[B=${B}, S=${len}, D=${D}]`;

  const matrix = (name, tensor, offset, rows, cols, rowLabels, colLabels, extra = {}) =>
    figureOf({
      name,
      caption: extra.caption ?? tensorLabel(t, 'label.caption', name),
      data: tensor.data,
      offset,
      rows,
      cols,
      rowLabels,
      colLabels,
      kind: 'signed',
      ...common,
      ...extra,
    });

  const heading = (name) => ({ template: tensorLabel(t, 'label.heading', name), name });
  const weightMatrix = (name) => {
    const tensor = T[name];
    if (!tensor) return null;
    const isBias = tensor.shape.length === 1;
    const cols = tensor.shape[tensor.shape.length - 1]; // D, or H_kv·d_k for W_K, W_V with GQA
    return group(
      heading(name),
      matrix(name, tensor, 0, isBias ? 1 : D, cols, isBias ? [name] : dLabels, features(cols), {
        editable,
        edited: (i, j) => edits.isWeightEdited(name, i, j),
        onEdit: (i, j, value) => on.editWeight(name, i, j, value),
        columnColor: name === 'W_O' || name === 'b_O' ? undefined : headOfColumn,
      }),
    );
  };
  // The additive score's own parameters, as given by the engine: W_a, U_a [d_k, hidden], v_a [hidden].
  const additiveMatrix = (name) => {
    const tensor = T[name];
    if (!tensor) return null;
    const isVector = tensor.shape.length === 1;
    const [rows, cols] = isVector ? [1, tensor.shape[0]] : tensor.shape;
    return group(
      heading(name),
      matrix(name, tensor, 0, rows, cols, isVector ? [name] : features(rows), features(cols)),
    );
  };
  const headMultiples = (name, tensor, kind) =>
    multiHead
      ? [
          keep(
            renderHeadMultiples(
              {
                name,
                data: tensor.data,
                b: sentenceIndex(tensor, b), // every head of it (the page asks for them: allHeads)
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
              previousMultiples.get(name),
            ),
            previousMultiples.get(name),
          ),
        ]
      : [];

  const sections = [];
  // X (editable through the embedding table: the edit applies to that token everywhere)
  const embeddingEdit = (labels) =>
    randomInput || !editable
      ? {}
      : {
          editable: true,
          edited: (i, j) => edits.isEmbeddingEdited(labels[i], j),
          onEdit: (i, j, value) => on.editEmbedding(labels[i], j, value),
        };
  const xMeaning = randomInput
    ? t(rs.inputDraw === 'rand' ? 'meaning.X.rand' : 'meaning.X.randn')
    : rs.positional === 'sinusoidal'
      ? `${t('step.X.meaning')} ${t('meaning.X.positional')}`
      : t('step.X.meaning');
  sections.push(
    section(
      f,
      'X',
      bsd(S),
      () => [matrix('X', T.X, sentenceStart(T.X, b), S, D, queryLabels, dLabels, embeddingEdit(queryLabels))],
      {
        meaning: xMeaning,
      },
    ),
  );
  if (cross) {
    const ctxEdit = result.contextTokens ? embeddingEdit(keyLabels) : {};
    sections.push(
      section(f, 'X_context', `[B=${B}, S_kv=${Skv}, D=${D}]`, () => [
        matrix('X_context', T.X_context, sentenceStart(T.X_context, b), Skv, D, keyLabels, dLabels, ctxEdit),
      ]),
    );
  }
  sections.push(
    section(
      f,
      'weights',
      gqa ? `W_Q: [D=${D}, D=${D}], W_K/W_V: [D=${D}, H_kv·d_k=${Hkv * dk}]` : `W: [D=${D}, D=${D}]`,
      () => [
        row(...['W_Q', 'W_K', 'W_V'].map(weightMatrix).filter(Boolean)),
        row(...['b_Q', 'b_K', 'b_V'].map(weightMatrix).filter(Boolean)),
      ],
      { meaning: `${t('step.weights.meaning')} ${initMeaning(t, rs, view.weightsGiven)}` },
    ),
  );
  // With GQA, K and V have H_kv bands of d_k columns, one per K/V head, in the colour the grouping gives it.
  const kvBands =
    gqa && Hkv > 1
      ? {
          columnGroups: Array.from({ length: Hkv }, (_, k) => ({
            label: t('view.kvHead', { g: k + 1 }),
            span: dk,
            color: headColor(k),
          })),
          cellClass: (i, j) => (j % dk === 0 ? [headBandClass(j / dk)] : []),
        }
      : gqa
        ? {}
        : headBands;
  const qkvGroup = (name, len, labels) =>
    group(
      heading(name),
      matrix(name, T[name], sentenceStart(T[name], b), len, T[name].shape[2], labels, features(T[name].shape[2]), {
        columnColor: headOfColumn,
        ...(name === 'Q' ? headBands : kvBands),
      }),
    );
  const kvShape = gqa ? `H_kv·d_k=${Hkv * dk}` : `D=${D}`;
  const gqaNotes = gqa
    ? [
        t(Hkv === 1 ? 'gqa.mqa' : 'gqa.note', { H, Hkv, group: H / Hkv, width: Hkv * dk }),
        ...(Hkv > 1 ? [t('gqa.wrongNote')] : []),
      ]
    : [];
  sections.push(
    section(
      f,
      'qkv',
      `Q ${bsd(S)}, K/V [B=${B}, S_kv=${Skv}, ${kvShape}]`,
      () => [
        row(qkvGroup('Q', S, queryLabels), qkvGroup('K', Skv, keyLabels), qkvGroup('V', Skv, keyLabels)),
        ...(gqa ? [renderGqaGrouping({ t, H, Hkv, theme: view.theme })] : []),
      ],
      { notes: gqaNotes },
    ),
  );
  // Head split: views into Q, K, V — head h is columns h·dk … (h+1)·dk − 1, labelled with their global names.
  const headLabel = t('view.head', { h: h + 1 });
  // A K or V side (K, K_norm, K_rope, V) has the K/V heads: the selected head reads K/V head g.
  const isKeySide = (name) => name[0] === 'K' || name[0] === 'V';
  const headView = (name, tensor, len, labels, figureName = `${name}_h`) => {
    const kv = gqa && isKeySide(name);
    const head = kv ? g : h;
    const columns = { from: `d${head * dk}`, to: `d${head * dk + dk - 1}` };
    return group(
      kv
        ? t('split.kvColumns', { name, g: g + 1, h: h + 1, ...columns })
        : multiHead
          ? t('split.columns', { name, h: h + 1, ...columns })
          : { template: tensorLabel(t, 'label.heading.head', name, headLabel), name: `${name}_h` },
      matrix(figureName, tensor, sentenceStart(tensor, b) + head * dk, len, dk, labels, features(dk, 'd', head * dk), {
        rowStride: tensor.shape[2],
        caption: tensorLabel(t, 'label.caption.head', name, kv ? t('view.kvHead', { g: g + 1 }) : headLabel),
        captionName: name,
      }),
      headColor(head),
    );
  };
  sections.push(
    section(
      f,
      'split',
      `[B=${B}, H=${H}, S=${S}, d_k=${dk}]${gqa ? `, K/V [B=${B}, H_kv=${Hkv}, S_kv=${Skv}, d_k=${dk}]` : ''}`,
      () => [
        row(headView('Q', T.Q, S, queryLabels), headView('K', T.K, Skv, keyLabels), headView('V', T.V, Skv, keyLabels)),
      ],
    ),
  );
  const qkShape = `Q [B=${B}, S=${S}, H·d_k=${H * dk}], K [B=${B}, S_kv=${Skv}, H_kv·d_k=${Hkv * dk}]`;
  if (T.Q_norm)
    sections.push(
      section(f, 'qkNorm', qkShape, () => [
        row(headView('Q_norm', T.Q_norm, S, queryLabels), headView('K_norm', T.K_norm, Skv, keyLabels)),
      ]),
    );
  if (T.ropeAngles) sections.push(ropeSection());

  // RoPE: the angles, q before and after, k after, and the same q·k at two position pairs of one distance.
  function ropeSection() {
    const half = dk / 2;
    const qIn = T.Q_norm ?? T.Q; // what RoPE rotates: q after QK-norm, if any
    const kIn = T.K_norm ?? T.K;
    const i = view.focus ?? S - 1;
    const j = Math.floor(i / 2);
    const vector = (tensor, row, head) => {
      const start = sentenceStart(tensor, b) + row * tensor.shape[2] + head * dk;
      return tensor.data.subarray(start, start + dk);
    };
    const angles = T.ropeAngles.data;
    return section(f, 'rope', `ropeAngles [S=${S}, d_k/2=${half}]; ${qkShape}`, () => [
      paragraph('notice', t(`rope.pairs.${rs.rope}`)),
      group(
        t('rope.angles', { base: compactNumber(rs.ropeBase) }),
        matrix('ropeAngles', T.ropeAngles, 0, S, half, features(S, ''), features(half, 'θ')),
      ),
      row(
        headView(qIn === T.Q ? 'Q' : 'Q_norm', qIn, S, queryLabels, 'Q_before_rope'),
        headView('Q_rope', T.Q_rope, S, queryLabels),
        headView('K_rope', T.K_rope, Skv, keyLabels),
      ),
      renderRopeSameDistance({
        t,
        q: vector(qIn, i, h),
        k: vector(kIn, j, g),
        i,
        j,
        S,
        angles,
        style: rs.rope,
        engineScore: T.scores.data[headStart(T.scores, b, h) + i * Skv + j],
        queryLabels,
        keyLabels,
        decimals: view.decimals,
      }),
    ]);
  }

  // extra.figureName: the matrix's name on the page when the tensor is shown twice (scaled beside capped).
  const headMatrix = (name, { figureName = name, ...extra } = {}) =>
    group(
      { template: tensorLabel(t, 'label.heading.head', name, headLabel), name },
      matrix(figureName, T[name], headStart(T[name], b, h), S, Skv, queryLabels, keyLabels, {
        caption: tensorLabel(t, 'label.caption.head', name, headLabel),
        captionName: name,
        ...extra,
      }),
      headColor(h),
    );
  const perHeadShape = `[B=${B}, H=${H}, S=${S}, S_kv=${Skv}]`;
  const additiveParams = () => ['W_a', 'U_a', 'v_a'].map(additiveMatrix).filter(Boolean);
  sections.push(
    section(
      f,
      'scores',
      perHeadShape,
      () => [
        ...(rs.score === 'additive'
          ? [additiveParams()].filter((params) => params.length).map((params) => row(...params))
          : []),
        ...headMultiples('scores', T.scores, 'signed'),
        headMatrix('scores'),
      ],
      rs.score === 'additive' ? { meaning: t('meaning.scores.additive') } : {},
    ),
  );
  sections.push(section(f, 'scaled', perHeadShape, () => [headMatrix('scaled')], { meaning: scaledMeaning(t, rs, f) }));
  if (T.capped)
    sections.push(
      section(f, 'softcap', perHeadShape, () => [
        row(headMatrix('scaled', { figureName: 'scaled_beside_capped' }), headMatrix('capped')),
      ]),
    );
  if (T.alibiBias)
    sections.push(
      section(f, 'alibi', `alibiBias [H=${H}, S=${S}, S_kv=${Skv}], ${perHeadShape}`, () => [
        renderAlibiSlopes({ t, H, bias: T.alibiBias.data, S, Skv }),
        ...(multiHead
          ? [
              group(
                t('alibi.heads'),
                keep(
                  renderHeadMultiples(
                    {
                      name: 'alibiBias',
                      data: T.alibiBias.data,
                      b: 0, // [H, S, S_kv]: one set for every sentence
                      H,
                      S,
                      Skv,
                      selected: h,
                      kind: 'signed',
                      theme: view.theme,
                      t,
                      onPick: on.selectHead,
                      later,
                    },
                    previousMultiples.get('alibiBias'),
                  ),
                  previousMultiples.get('alibiBias'),
                ),
              ),
            ]
          : []),
        row(
          group(
            { template: tensorLabel(t, 'label.heading.head', 'alibiBias', headLabel), name: 'alibiBias' },
            matrix('alibiBias', T.alibiBias, h * S * Skv, S, Skv, queryLabels, keyLabels, {
              caption: tensorLabel(t, 'label.caption.head', 'alibiBias', headLabel),
            }),
            headColor(h),
          ),
          headMatrix('biased'),
        ),
      ]),
    );
  const maskText = rs.maskConvention === 'additive' ? (v) => formatNumber(v, view.decimals) : undefined;
  const convention = t(MASK_MEANING[rs.maskConvention], { fill: fillText(rs.fill) });
  const maskMeaning = rs.mask === 'none' ? `${t('meaning.mask.none')} ${convention}` : convention;
  // A sliding window: the cells it blocks (⌧) and those sink tokens keep visible (★), marked and counted.
  const windowOf = (i, j) => windowEffect(i, j, rs.window, rs.sinkTokens);
  const windowMarks = rs.window
    ? {
        cellClass: (i, j) => (windowOf(i, j) ? [`mask-${windowOf(i, j)}`] : []),
        cellLabel: (i, j, v) =>
          windowOf(i, j) ? `${maskText ? maskText(v) : v ? '1' : '0'} · ${t(`mask.legend.${windowOf(i, j)}`)}` : null,
      }
    : {};
  const windowNotes = () => {
    if (!rs.window) return [];
    const count = (effect) => {
      let n = 0;
      for (let i = 0; i < S; i++) for (let j = 0; j < Skv; j++) if (windowOf(i, j) === effect) n++;
      return n;
    };
    const notes = [t('mask.window', { window: rs.window, n: count('window') })];
    if (rs.sinkTokens > 0) notes.push(t('mask.sinks', { n: rs.sinkTokens, kept: count('sink') }));
    return notes;
  };
  sections.push(
    section(
      f,
      'mask',
      `[B=${B}, S=${S}, S_kv=${Skv}]`,
      () => [
        matrix('mask', T.mask, maskStart, S, Skv, queryLabels, keyLabels, {
          kind: 'mask',
          blocked,
          hasBlocked: hasBlocked(),
          maskText,
          ...windowMarks,
        }),
      ],
      { meaning: maskMeaning, notes: windowNotes() },
    ),
  );
  const maskedMeaning =
    rs.mask === 'none'
      ? t('meaning.masked.none')
      : t(rs.maskConvention === 'additive' ? 'meaning.masked.additive' : 'step.masked.meaning', {
          fill: fillText(rs.fill),
        });
  sections.push(
    section(f, 'masked', perHeadShape, () => [headMatrix('masked', { blocked, hasBlocked: hasBlocked() })], {
      meaning: maskedMeaning,
    }),
  );
  // Why a row of weights is NaN: all its keys masked with −∞ (0/0), or a score that overflowed to ∞ (∞ − ∞).
  const nanNote = (rows) => {
    const allMasked = (i) =>
      Array.from({ length: Skv }, (_, j) => blocked(i, j)).every(Boolean) && rs.fill === -Infinity;
    const names = (list) => list.map((i) => queryLabels[i]).join(', ');
    const masked = rows.filter(allMasked);
    const overflow = rows.filter((i) => !allMasked(i));
    const notes = [];
    if (masked.length) notes.push(t('matrix.nanNote', { rows: names(masked) }));
    if (overflow.length) notes.push(t('matrix.nanOverflow', { rows: names(overflow) }));
    return notes.join(' ');
  };
  const untrained = rs.init !== 'identity' && !view.weightsGiven ? [t('notice.untrained')] : [];
  // The sink logit: its weight per row beside the row's sum, which is 1 minus it.
  const sink = T.sinkWeights
    ? sinkColumns(
        T.weights.data,
        headStart(T.weights, b, h),
        T.sinkWeights.data,
        (sentenceIndex(T.sinkWeights, b) * T.sinkWeights.shape[1] + (T.sinkWeights.head === undefined ? h : 0)) * S,
        S,
        Skv,
      )
    : null;
  const sinkNotes = () => {
    if (!sink) return [];
    const sums = Array.from({ length: S }, (_, i) => sink[i * 2 + 1]);
    const fmt = (v) => formatNumber(v, view.decimals);
    return [
      t('sink.note', { logit: compactNumber(rs.sinkLogit), min: fmt(Math.min(...sums)), max: fmt(Math.max(...sums)) }),
    ];
  };
  sections.push(
    section(
      f,
      'attnweights',
      `${perHeadShape}${sink ? `, sinkWeights [B=${B}, H=${H}, S=${S}]` : ''}`,
      () => [
        ...headMultiples('weights', T.weights, 'prob'),
        sink
          ? row(
              headMatrix('weights', { kind: 'prob', blocked, hasBlocked: hasBlocked(), nanNote }),
              group(
                t('sink.caption', { head: headLabel }),
                figureOf({
                  name: 'sinkWeights',
                  caption: tensorLabel(t, 'label.caption.head', 'sinkWeights', headLabel),
                  data: sink,
                  offset: 0,
                  rows: S,
                  cols: 2,
                  rowLabels: queryLabels,
                  colLabels: [t('sink.column'), t('sink.rowSum')],
                  kind: 'prob',
                  ...common,
                }),
                headColor(h),
              ),
            )
          : headMatrix('weights', { kind: 'prob', blocked, hasBlocked: hasBlocked(), nanNote }),
      ],
      { notes: [...sinkNotes(), ...untrained] },
    ),
  );

  // Averaged over heads: nn.MultiheadAttention's returned weights (PyTorch 1.13: after dropout). Worked out when first needed.
  let averaged;
  const averagedWeights = () =>
    (averaged ??= T.averagedWeights
      ? sentenceData(T.averagedWeights, b)
      : meanOverHeads(rs.p > 0 ? T.dropped : T.weights, b, H, S, Skv));
  if (multiHead)
    sections.push(
      section(f, 'averaged', `[B=${B}, S=${S}, S_kv=${Skv}]`, () => [
        figureOf({
          name: 'averagedWeights',
          caption: tensorLabel(t, 'label.caption', 'averagedWeights'),
          data: averagedWeights(),
          offset: 0,
          rows: S,
          cols: Skv,
          rowLabels: queryLabels,
          colLabels: keyLabels,
          kind: 'prob',
          blocked,
          hasBlocked: hasBlocked(),
          nanNote,
          ...common,
        }),
      ]),
    );

  sections.push(
    section(f, 'scaling', null, (el) => {
      // The rows' statistics a block of rows at a time (each row is a softmax twice), then the charts and table.
      const scaling = [];
      for (let from = 0; from < S; from += SCALING_ROWS)
        later(() =>
          scaling.push(
            ...scalingRows({
              scores: T.scores.data,
              offset: headStart(T.scores, b, h),
              S,
              Skv,
              scaleFactor: result.scaleFactor,
              blocked,
              fill: rs.fill,
              labels: queryLabels,
              from,
              to: Math.min(S, from + SCALING_ROWS),
            }),
          ),
        );
      later(() =>
        el.append(
          renderScalingCharts({
            rows: scaling,
            focus: view.focus,
            dk,
            D,
            scale: rs.scale,
            factor: result.scaleFactor,
            scaleText,
            t,
          }),
          renderScalingTable(scaling, Skv, view.decimals, t, later),
        ),
      );
      return [];
    }),
  );

  // The diagram in a box that scrolls sideways on a narrow screen.
  const scrollerOf = (svg) => {
    const box = element('div', 'links-scroller');
    box.append(svg);
    return box;
  };
  // Every head in its colour, or the selected one (the toggle); for long inputs just the selected one.
  const allHeadsFit = H * S * Skv <= MAX_ALL_HEAD_LINKS;
  const allHeads = multiHead && view.linksAllHeads !== false && allHeadsFit;
  const linkChildren = () => [
    ...(multiHead ? [linksToggle(t, allHeads, allHeadsFit, h, on.showAllHeads)] : []),
    scrollerOf(
      keep(
        renderLinks(
          {
            weights: T.weights.data,
            b: sentenceIndex(T.weights, b), // every head of it (allHeads)
            H,
            S,
            Skv,
            queryLabels,
            keyLabels,
            heads: allHeads ? Array.from({ length: H }, (_, k) => k) : [h],
            focus: view.focus,
            onFocus: on.focus,
            label: t('step.links.title'),
            later,
          },
          previousLinks,
        ),
        previousLinks,
      ),
    ),
  ];
  sections.push(section(f, 'links', null, linkChildren));

  let dropout;
  const dropoutOf = () =>
    (dropout ??= dropoutSummary(
      T.weights.data.subarray(headStart(T.weights, b, h)),
      T.dropped.data.subarray(headStart(T.dropped, b, h)),
      0,
      S,
      Skv,
      rs.p,
    ));
  sections.push(
    dropoutSection(f, perHeadShape, rs, dropoutOf, {
      headMatrix,
      headLabel,
      blocked,
      hasBlocked,
      matrix,
      queryLabels,
      keyLabels,
      h,
      nanNote,
    }),
  );
  sections.push(
    section(f, 'context', `[B=${B}, H=${H}, S=${S}, d_k=${dk}]`, () => [
      group(
        { template: tensorLabel(t, 'label.heading.head', 'context', headLabel), name: 'context' },
        matrix('context', T.context, headStart(T.context, b, h), S, dk, queryLabels, features(dk), {
          caption: tensorLabel(t, 'label.caption.head', 'context', headLabel),
        }),
        headColor(h),
      ),
    ]),
  );
  sections.push(
    section(f, 'concat', `[B=${B}, H=${H}, S=${S}, d_k=${dk}] → ${bsd(S)}`, () => [
      matrix('concat', T.concat, sentenceStart(T.concat, b), S, D, queryLabels, dLabels, {
        columnColor: headOfColumn,
        ...headBands,
      }),
    ]),
  );
  if (T.W_O)
    sections.push(
      section(f, 'wo', `[D=${D}, D=${D}]`, () => [row(weightMatrix('W_O'), ...(T.b_O ? [weightMatrix('b_O')] : []))], {
        meaning: `${t('step.wo.meaning')} ${initMeaning(t, rs, view.weightsGiven)}`,
      }),
    );
  sections.push(
    section(
      f,
      'output',
      bsd(S),
      () => [matrix('output', T.output, sentenceStart(T.output, b), S, D, queryLabels, dLabels)],
      {
        meaning: t(T.W_O ? 'step.output.meaning' : 'meaning.output.noProj'),
      },
    ),
  );

  // The steppers: their bodies live across renders (steppers.js fills them with their own engine calls).
  if (view.steppers) {
    const stepperBody = (step) => {
      const body = view.steppers.body(step);
      return keep(body, container.contains(body) ? body : null);
    };
    const kvShape = `K_cache, V_cache [B=${B}, H_kv=${result.sizes.H_kv ?? H}, t+1, d_k=${dk}], q_t [B=${B}, H=${H}, 1, d_k=${dk}]`;
    sections.push(section(f, 'kvcache', kvShape, () => [stepperBody('kvcache')]));
    const flashShape = `[B_r, B_c] · m, ℓ, α [B_r] · O [B_r, d_k=${dk}]`;
    sections.push(section(f, 'flash', flashShape, () => [stepperBody('flash')]));
  }

  const shown = view.steps ? sections.filter((el) => view.steps.has(el.dataset.step)) : sections;
  // Numbered here (teach.js reads them), so a step's header equals its last one and is kept.
  shown.forEach((el, k) => {
    el.querySelector(':scope > header > h2').dataset.number = String(k + 1);
  });
  // The steps keep what did not change; a large result's steps keep their old content until a slice builds
  // the new one and patches it in (its kept parts updated in place then).
  patchChildren(container, shown, standIns, { reuse: true });
  if (progressive) {
    const onPage = new Map(Array.from(container.children, (step) => [step.id, step]));
    for (const { step, build } of f.contents) {
      if (!shown.includes(step)) continue;
      const target = onPage.get(step.id);
      later(() => {
        standIns = [];
        patchContent(target, build(target), standIns);
      }, target);
    }
  }
  return {
    B,
    H,
    S,
    Skv,
    D,
    dk,
    b,
    h,
    Hkv,
    g,
    queryLabels,
    keyLabels,
    rs,
    get dropout() {
      return dropoutOf();
    },
    get averaged() {
      return averagedWeights();
    },
    scaleText,
    progressive,
  };
}

/** "All heads | Head 2 only" for the links view. */
function linksToggle(t, allHeads, allHeadsFit, h, showAllHeads) {
  const box = document.createElement('div');
  box.className = 'toggle';
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', t('links.show'));
  const button = (label, pressed, value, disabled = false) => {
    const el = document.createElement('button');
    el.type = 'button';
    el.textContent = label;
    el.setAttribute('aria-pressed', String(pressed));
    el.disabled = disabled;
    el.dataset.allHeads = String(value);
    el.addEventListener('click', () => showAllHeads(value));
    return el;
  };
  box.append(
    button(t('links.allHeads'), allHeads, true, !allHeadsFit),
    button(t('links.oneHead', { h: h + 1 }), !allHeads, false),
  );
  return box;
}

/**
 * Dropout: off (p = 0) in one line; otherwise the zero count, the keep mask m and the dropped weights.
 * dropoutOf(): the dropout summary (dropout.js).
 */
function dropoutSection(f, shape, rs, dropoutOf, ctx) {
  const { t } = f;
  if (rs.p === 0) return section(f, 'dropped', null, [], { meaning: t('meaning.dropped.off') });
  const { headMatrix, headLabel, blocked, hasBlocked, matrix, queryLabels, keyLabels } = ctx;
  const S = queryLabels.length;
  const Skv = keyLabels.length;
  const content = () => {
    const dropout = dropoutOf();
    const summary = [
      t('dropout.summary', {
        zeroed: dropout.zeroed,
        total: dropout.nonZero,
        kept: dropout.nonZero - dropout.zeroed,
        factor: compactNumber(dropout.factor),
      }),
    ];
    if (dropout.zeroWeights) summary.push(t('dropout.zeroWeights', { n: dropout.zeroWeights }));
    const zeroLabel = t('dropout.zeroLabel');
    const keep = matrix('keep', { data: dropout.keep }, 0, S, Skv, queryLabels, keyLabels, {
      kind: 'mask',
      caption: `${t('dropout.keepCaption')} (${headLabel})`,
      blocked: (i, j) => droppedByDropout(dropout, i * Skv + j),
      maskText: (v) => (v === UNKNOWN ? '–' : String(v)),
      cellClass: (i, j, v) => (v === UNKNOWN ? ['keep-unknown'] : []),
      exportable: false,
    });
    const dropped = headMatrix('dropped', {
      kind: 'prob',
      blocked,
      hasBlocked: hasBlocked(),
      nanNote: ctx.nanNote,
      cellClass: (i, j) => (droppedByDropout(dropout, i * Skv + j) ? ['dropped-zero'] : []),
      cellLabel: (i, j, v) => (droppedByDropout(dropout, i * Skv + j) ? `${formatNumber(v, 0)} · ${zeroLabel}` : null),
    });
    const summaryLine = paragraph('dropout-summary', summary.join(' '));
    return [summaryLine, row(group(`${t('dropout.keepCaption')} (${headLabel})`, keep, headColor(ctx.h)), dropped)];
  };
  return section(f, 'dropped', shape, content, { meaning: t('step.dropped.meaning') });
}
