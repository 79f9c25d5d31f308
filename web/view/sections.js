// The pipeline view: one section per step of the engine's result, in order,
// each with its title, formula, named shape, meaning and matrices.
import { blocksKey } from '../model/mask.js';
import { headColor } from './colors.js';
import { renderLinks } from './links.js';
import { renderMatrix } from './matrix.js';
import { renderScalingTable, scalingRows } from './scaling.js';

const features = (n, prefix = 'd') => Array.from({ length: n }, (_, k) => `${prefix}${k}`);

// Formulas are constant markup written here (never user text).
const FORMULAS = {
  X: 'X = Embedding(ids)',
  X_context: 'X<sub>ctx</sub> = Embedding(ids<sub>ctx</sub>)',
  weights: 'W<sub>Q</sub>, W<sub>K</sub>, W<sub>V</sub> ∈ ℝ<sup>d<sub>model</sub>×d<sub>model</sub></sup>',
  qkv: 'Q = X·W<sub>Q</sub> + b<sub>Q</sub>, &nbsp;K = X<sub>kv</sub>·W<sub>K</sub> + b<sub>K</sub>, &nbsp;V = X<sub>kv</sub>·W<sub>V</sub> + b<sub>V</sub>',
  split: '[B, S, D] → [B, S, H, d<sub>k</sub>] → [B, H, S, d<sub>k</sub>]',
  scores: 'Q<sub>h</sub>K<sub>h</sub><sup>⊤</sup>',
  scaled: 'Q<sub>h</sub>K<sub>h</sub><sup>⊤</sup> · s',
  mask: 'M<sub>ij</sub> = 1 if key j is blocked for query i',
  masked: 'masked_fill(M, fill)',
  attnweights: 'softmax(Q<sub>h</sub>K<sub>h</sub><sup>⊤</sup> · s + M)',
  scaling: 'H(p) = −Σ p<sub>j</sub> log p<sub>j</sub>',
  links: 'weights<sub>ij</sub> → line opacity',
  dropped: 'dropout(A) = A ⊙ m / (1 − p), &nbsp;m ~ Bernoulli(1 − p)',
  context: 'context<sub>h</sub> = A<sub>h</sub> · V<sub>h</sub>',
  concat: 'Concat(head<sub>1</sub>, …, head<sub>H</sub>)',
  wo: 'W<sub>O</sub> ∈ ℝ<sup>d<sub>model</sub>×d<sub>model</sub></sup>',
  output: 'output = Concat(heads) · W<sub>O</sub> + b<sub>O</sub>',
  outputWithoutWo: 'output = Concat(heads)',
};

// Public step names, as <attention-lab steps="…"> takes them.
export const STEP_NAMES = {
  X: 'X',
  X_context: 'X_context',
  weights: 'projections',
  qkv: 'qkv',
  split: 'split',
  scores: 'scores',
  scaled: 'scaled',
  mask: 'mask',
  masked: 'masked',
  attnweights: 'weights',
  scaling: 'scaling',
  links: 'links',
  dropped: 'dropped',
  context: 'context',
  concat: 'concat',
  wo: 'W_O',
  output: 'output',
};

function section(t, step, shapeText, children) {
  const el = document.createElement('section');
  el.className = 'step';
  el.id = `step-${step}`;
  el.dataset.step = STEP_NAMES[step];
  el.setAttribute('part', 'step');
  const header = document.createElement('header');
  const title = document.createElement('h2');
  title.setAttribute('part', 'title');
  title.textContent = t(`step.${step}.title`);
  const formula = document.createElement('p');
  formula.className = 'formula';
  formula.setAttribute('part', 'formula');
  formula.innerHTML = FORMULAS[step];
  header.append(title, formula);
  if (shapeText) {
    const shape = document.createElement('p');
    shape.className = 'shape';
    shape.setAttribute('part', 'shape');
    shape.textContent = `${t('shape.label')}: ${shapeText}`;
    header.append(shape);
  }
  const meaning = document.createElement('p');
  meaning.className = 'meaning';
  meaning.setAttribute('part', 'meaning');
  meaning.textContent = t(`step.${step}.meaning`);
  header.append(meaning);
  el.append(header, ...children);
  return el;
}

function group(label, element, color) {
  const box = document.createElement('div');
  box.className = 'matrix-group';
  const h = document.createElement('h3');
  h.textContent = label;
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

/**
 * Selector tabs (sentences or heads) into `box`: a label, then 1 … count;
 * hidden when there is only one. colorOf(k) gives head k its colour.
 */
export function renderTabs(box, { count, current, label, colorOf, onPick }) {
  box.replaceChildren();
  box.hidden = count <= 1;
  const caption = document.createElement('span');
  caption.className = 'selector-label';
  caption.textContent = label;
  box.append(caption);
  for (let k = 0; k < count; k++) {
    const button = document.createElement('button');
    button.type = 'button';
    button.role = 'tab';
    button.textContent = String(k + 1);
    button.setAttribute('aria-selected', String(k === current));
    if (colorOf) button.style.setProperty('--tab-color', colorOf(k));
    button.addEventListener('click', () => onPick(k));
    box.append(button);
  }
}

/**
 * Renders the whole pipeline for `result` into `container`.
 * view: {t, b, h, decimals, theme, focus, steps?: Set of STEP_NAMES, editable?, exportable?};
 * edits: {isWeightEdited(name, i, j), isEmbeddingEdited(token, d)};
 * on: {editWeight(name, i, j, value), editEmbedding(token, d, value), focus(i)}.
 */
export function renderPipeline(container, result, view, edits, on) {
  const { t } = view;
  const maskFill = result.settings.maskFill === '-inf' ? -Infinity : result.settings.maskFill;
  const T = result.tensors;
  const [B, H, S, Skv] = T.scores.shape;
  const D = T.Q.shape[2];
  const dk = result.headDim;
  const b = Math.min(view.b, B - 1);
  const h = Math.min(view.h, H - 1);
  const cross = Boolean(T.X_context);
  const randnInput = result.tokens.length === 0;
  const queryLabels = randnInput ? features(S, 'x') : result.tokens[b];
  const keyLabels = cross ? (result.contextTokens ? result.contextTokens[b] : features(Skv, 'c')) : queryLabels;
  const common = { t, decimals: view.decimals, theme: view.theme, exportable: Boolean(view.exportable) };
  const editable = view.editable !== false;
  const dLabels = features(D);
  const headOfColumn = (j) => headColor(Math.floor(j / dk));
  const blocked = (i, j) => blocksKey(result.settings, T.mask.data[(b * S + i) * Skv + j]);
  const bsd = (len) => `[B=${B}, S=${len}, D=${D}]`;

  const matrix = (name, tensor, offset, rows, cols, rowLabels, colLabels, extra = {}) =>
    renderMatrix({
      name,
      caption: extra.caption ?? name,
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

  const weightMatrix = (name) => {
    const tensor = T[name];
    if (!tensor) return null;
    const isBias = tensor.shape.length === 1;
    return group(
      name,
      matrix(name, tensor, 0, isBias ? 1 : D, D, isBias ? [name] : dLabels, dLabels, {
        editable,
        edited: (i, j) => edits.isWeightEdited(name, i, j),
        onEdit: (i, j, value) => on.editWeight(name, i, j, value),
        columnColor: name === 'W_O' || name === 'b_O' ? undefined : headOfColumn,
      }),
    );
  };

  const sections = [];
  // X (editable through the embedding table: the edit applies to that token everywhere)
  const embeddingEdit = (labels) =>
    randnInput || !editable
      ? {}
      : {
          editable: true,
          edited: (i, j) => edits.isEmbeddingEdited(labels[i], j),
          onEdit: (i, j, value) => on.editEmbedding(labels[i], j, value),
        };
  sections.push(
    section(t, 'X', bsd(S), [matrix('X', T.X, b * S * D, S, D, queryLabels, dLabels, embeddingEdit(queryLabels))]),
  );
  if (cross) {
    const ctxEdit = result.contextTokens ? embeddingEdit(keyLabels) : {};
    sections.push(
      section(t, 'X_context', `[B=${B}, S_kv=${Skv}, D=${D}]`, [
        matrix('X_context', T.X_context, b * Skv * D, Skv, D, keyLabels, dLabels, ctxEdit),
      ]),
    );
  }
  sections.push(
    section(t, 'weights', `W: [D=${D}, D=${D}]`, [
      row(...['W_Q', 'W_K', 'W_V'].map(weightMatrix).filter(Boolean)),
      row(...['b_Q', 'b_K', 'b_V'].map(weightMatrix).filter(Boolean)),
    ]),
  );
  sections.push(
    section(t, 'qkv', `Q ${bsd(S)}, K/V [B=${B}, S_kv=${Skv}, D=${D}]`, [
      row(
        group('Q', matrix('Q', T.Q, b * S * D, S, D, queryLabels, dLabels, { columnColor: headOfColumn })),
        group('K', matrix('K', T.K, b * Skv * D, Skv, D, keyLabels, dLabels, { columnColor: headOfColumn })),
        group('V', matrix('V', T.V, b * Skv * D, Skv, D, keyLabels, dLabels, { columnColor: headOfColumn })),
      ),
    ]),
  );
  // Head split: views into Q, K, V — head h is columns h·dk … (h+1)·dk.
  const headLabel = t('view.head', { h: h + 1 });
  const headView = (name, tensor, len, labels) =>
    group(
      `${name}_h (${headLabel})`,
      matrix(`${name}_h`, tensor, b * len * D + h * dk, len, dk, labels, features(dk), {
        rowStride: D,
        caption: `${name} ${headLabel}`,
      }),
      headColor(h),
    );
  sections.push(
    section(t, 'split', `[B=${B}, H=${H}, S=${S}, d_k=${dk}]`, [
      row(headView('Q', T.Q, S, queryLabels), headView('K', T.K, Skv, keyLabels), headView('V', T.V, Skv, keyLabels)),
    ]),
  );

  const perHead = (step, name, extra = {}) =>
    section(t, step, `[B=${B}, H=${H}, S=${S}, S_kv=${Skv}]`, [
      group(
        `${name} (${headLabel})`,
        matrix(name, T[name], (b * H + h) * S * Skv, S, Skv, queryLabels, keyLabels, extra),
        headColor(h),
      ),
    ]);
  sections.push(perHead('scores', 'scores'));
  sections.push(perHead('scaled', 'scaled'));
  sections.push(
    section(t, 'mask', `[B=${B}, S=${S}, S_kv=${Skv}]`, [
      matrix('mask', T.mask, b * S * Skv, S, Skv, queryLabels, keyLabels, { kind: 'mask' }),
    ]),
  );
  sections.push(perHead('masked', 'masked', { blocked }));
  sections.push(perHead('attnweights', 'weights', { kind: 'prob', blocked }));

  const scaling = scalingRows({
    scores: T.scores.data,
    offset: (b * H + h) * S * Skv,
    S,
    Skv,
    scaleFactor: result.scaleFactor,
    blocked,
    fill: maskFill,
    labels: queryLabels,
  });
  sections.push(section(t, 'scaling', null, [renderScalingTable(scaling, Skv, view.decimals, t)]));
  // Every head in its colour; for long inputs just the selected one.
  const heads = H * S * Skv <= 20000 ? Array.from({ length: H }, (_, k) => k) : [h];
  sections.push(
    section(t, 'links', null, [
      renderLinks({
        weights: T.weights.data,
        b,
        H,
        S,
        Skv,
        queryLabels,
        keyLabels,
        heads,
        focus: view.focus,
        onFocus: on.focus,
        label: t('step.links.title'),
      }),
    ]),
  );
  sections.push(perHead('dropped', 'dropped', { kind: 'prob', blocked }));
  sections.push(
    section(t, 'context', `[B=${B}, H=${H}, S=${S}, d_k=${dk}]`, [
      group(
        `context (${headLabel})`,
        matrix('context', T.context, (b * H + h) * S * dk, S, dk, queryLabels, features(dk)),
        headColor(h),
      ),
    ]),
  );
  sections.push(
    section(t, 'concat', `[B=${B}, H=${H}, S=${S}, d_k=${dk}] → ${bsd(S)}`, [
      matrix('concat', T.concat, b * S * D, S, D, queryLabels, dLabels, { columnColor: headOfColumn }),
    ]),
  );
  if (T.W_O)
    sections.push(
      section(t, 'wo', `[D=${D}, D=${D}]`, [row(weightMatrix('W_O'), ...(T.b_O ? [weightMatrix('b_O')] : []))]),
    );
  const output = section(t, 'output', bsd(S), [matrix('output', T.output, b * S * D, S, D, queryLabels, dLabels)]);
  if (!T.W_O) {
    // No output projection (weights.outProj false): the output is the concatenated heads.
    output.querySelector('.formula').innerHTML = FORMULAS.outputWithoutWo;
    output.querySelector('.meaning').textContent = t('step.output.meaningWithoutWo');
  }
  sections.push(output);

  const shown = view.steps ? sections.filter((el) => view.steps.has(el.dataset.step)) : sections;
  container.replaceChildren(...shown);
  return { B, H, S, Skv, D, dk, b, h, queryLabels, keyLabels };
}
