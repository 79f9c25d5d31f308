// Every tensor of the tiny model's forward, one at a time: a menu of them
// by stage (embeddings, layer 1, layer 2, output) with their shapes, head
// buttons for the per-head ones, and the picked matrix as matrix.js draws
// every matrix of the page. T is the text's length in bytes.
import { renderMatrix } from '../common/matrix.js';
import { asciiText, hex } from '../../model/tiny-bytes.js';
import { element } from '../common/dom.js';

// name -> [shape with letters, kind]; per-layer names are under layers[l].
const MODEL_TENSORS = [
  ['tokenEmbeddings', 'signed'],
  ['positionEmbeddings', 'signed'],
  ['residual0', 'signed'],
];
const LAYER_TENSORS = [
  ['Q', 'signed'],
  ['K', 'signed'],
  ['V', 'signed'],
  ['scores', 'signed'],
  ['scaled', 'signed'],
  ['weights', 'prob'],
  ['headOutputs', 'signed'],
  ['concat', 'signed'],
  ['attnOut', 'signed'],
  ['residual', 'signed'],
];
const OUTPUT_TENSORS = [
  ['logits', 'signed'],
  ['probs', 'prob'],
];
// Scores and weights of a causal layer: key j > query i is masked (its weight is 0).
const CAUSAL = new Set(['scores', 'scaled', 'weights']);

/** Every tensor as {key ("layers.0.Q"), name, layer (null outside layers), kind, tensor}. */
export function tensorEntries(result) {
  const entries = MODEL_TENSORS.map(([name, kind]) => ({
    key: name,
    name,
    layer: null,
    kind,
    tensor: result.tensors[name],
  }));
  result.layers.forEach((layer, l) =>
    entries.push(
      ...LAYER_TENSORS.map(([name, kind]) => ({
        key: `layers.${l}.${name}`,
        name,
        layer: l,
        kind,
        tensor: layer[name],
      })),
    ),
  );
  entries.push(
    ...OUTPUT_TENSORS.map(([name, kind]) => ({ key: name, name, layer: null, kind, tensor: result.tensors[name] })),
  );
  return entries.filter((entry) => entry.tensor);
}

const shapeText = (shape) => `[${shape.join(', ')}]`;

/** Column labels: bytes for a [·, T] or [·, 256] axis, indices for the others. */
function columnLabels(entry, cols, T, labels) {
  if (entry.name === 'logits' || entry.name === 'probs')
    return Array.from({ length: cols }, (_, b) => (b < 0x80 ? asciiText(b) : hex(b)));
  if (CAUSAL.has(entry.name) && cols === T) return labels;
  return Array.from({ length: cols }, (_, j) => String(j));
}

/**
 * {result, labels (byteLabels), pick: {key, head}, theme, decimals, t,
 * onPick({key, head}), id (the menu's id)} -> the section's nodes.
 */
export function renderTensors({ result, labels, pick, theme, decimals, t, onPick, id }) {
  const entries = tensorEntries(result);
  const entry = entries.find((e) => e.key === pick.key) ?? entries.find((e) => e.key === 'layers.1.weights');
  const box = element('div', 'trained-tensors');
  const controls = element('div', 'trained-tensor-controls');
  const label = element('label');
  label.htmlFor = id;
  label.textContent = t('trained.tensors.pick');
  const select = element('select');
  select.id = id;
  const groups = new Map();
  for (const e of entries) {
    const group = e.layer === null ? (e.name.startsWith('log') || e.name === 'probs' ? 'output' : 'input') : e.layer;
    if (!groups.has(group)) {
      const optgroup = element('optgroup');
      optgroup.label =
        group === 'input'
          ? t('trained.tensors.input')
          : group === 'output'
            ? t('trained.tensors.output')
            : t('trained.heads.layer', { layer: group + 1 });
      groups.set(group, optgroup);
      select.append(optgroup);
    }
    groups.get(group).append(new Option(`${e.name} ${shapeText(e.tensor.shape)}`, e.key));
  }
  select.value = entry.key;
  select.addEventListener('change', () => onPick({ key: select.value, head: pick.head }, { focus: select.id }));
  controls.append(label, select);
  const perHead = entry.tensor.shape.length === 3;
  const head = Math.min(pick.head, (entry.tensor.shape[0] ?? 1) - 1);
  if (perHead) {
    const heads = element('div', 'toggle');
    heads.setAttribute('role', 'group');
    heads.setAttribute('aria-label', t('controls.head'));
    for (let h = 0; h < entry.tensor.shape[0]; h++) {
      const button = element('button');
      button.type = 'button';
      button.textContent = t('view.head', { h: h + 1 });
      button.setAttribute('aria-pressed', String(h === head));
      button.addEventListener('click', () => onPick({ key: entry.key, head: h }));
      heads.append(button);
    }
    controls.append(heads);
  }
  const [rows, cols] = perHead ? entry.tensor.shape.slice(1) : entry.tensor.shape;
  const shape = element('p', 'trained-shape');
  shape.translate = false;
  shape.textContent = perHead
    ? `${entry.name} ${shapeText(entry.tensor.shape)} → ${t('view.head', { h: head + 1 })} ${shapeText([rows, cols])}`
    : `${entry.name} ${shapeText(entry.tensor.shape)}`;
  const T = result.sizes.T;
  const figure = renderMatrix({
    name: entry.layer === null ? entry.name : `L${entry.layer + 1}.${entry.name}`,
    data: entry.tensor.data,
    offset: perHead ? head * rows * cols : 0,
    rows,
    cols,
    rowLabels: labels,
    colLabels: columnLabels(entry, cols, T, labels),
    kind: entry.kind,
    theme,
    decimals,
    t,
    blocked: CAUSAL.has(entry.name) ? (i, j) => j > i : undefined,
  });
  box.append(controls, shape, figure);
  return box;
}
