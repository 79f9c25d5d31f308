// The picked head's steps, in pipeline order (model/checkpoint-heads.js
// HEAD_STEPS): Q, K, V (after RoPE for Llama and Qwen2), the scores Q·Kᵀ,
// scaled ÷√head_dim, the causal mask, the weights (softmax of each row) and
// the head's output weights·V. Each step: its title, the tensor's shape and
// the head's slice of it, its formula, one sentence whose numbers are the
// result's (checkpointStepTexts), and its matrix as matrix.js draws every
// matrix of the page, the followed token's row outlined.
import { HEAD_STEPS, checkpointStepTexts, headFacts, usesRope } from '../../model/checkpoint-heads.js';
import { headName } from '../../model/tiny.js';
import { element } from '../common/dom.js';
import { renderMatrix } from '../common/matrix.js';

const shapeText = (shape) => `[${shape.join(', ')}]`;
const indices = (n) => Array.from({ length: n }, (_, k) => String(k));
const causal = (i, j) => j > i;

/** Each step's formula (math, not words: the same in every language); hd is the head dim, bias whether q, k, v add one. */
function formulas(rope, hd, bias) {
  const b = bias ? ' + b' : '';
  const projected = (name, w, row) => (rope ? `${row} = RoPE(x̂ · ${w}ᵀ${b})` : `${row} = x̂ · ${w}${b}`) + ` → ${name}`;
  return {
    Q: projected('Q', 'W_Q', 'q_i'),
    K: projected('K', 'W_K', 'k_j'),
    V: rope ? `v_j = x̂ · W_Vᵀ${b} → V` : `v_j = x̂ · W_V${b} → V`,
    scores: 'scores[i, j] = q_i · k_j',
    scaled: `scaled[i, j] = scores[i, j] / √${hd}`,
    mask: 'scaled[i, j] = finfo(float32).min ≈ −∞  (j > i)',
    weights: 'weights[i, :] = softmax(scaled[i, :]),  Σ_j weights[i, j] = 1',
    headOutputs: 'out_i = Σ_j weights[i, j] · v_j',
  };
}

/**
 * The matrix of step `key`: its data, offset, size, kind and whether its columns are the keys (a token
 * against every token, causally masked) rather than a head's hd numbers ({T, hd, kv} from the facts).
 * That is the step's, not the shape's: at T = hd, Q is [T, T] too.
 */
function stepMatrix(key, tensors, { head, kv, T, hd }) {
  const matrix = stepSlice(key, tensors, { head, kv, T, hd });
  return { ...matrix, overKeys: !['Q', 'K', 'V', 'headOutputs'].includes(key) };
}

function stepSlice(key, tensors, { head, kv, T, hd }) {
  const slice = (tensor, k, cols) => ({ data: tensor.data, offset: k * T * cols, cols });
  switch (key) {
    case 'Q':
      return { ...slice(tensors.Q, head, hd), kind: 'signed', shape: tensors.Q.shape };
    case 'K':
    case 'V':
      return { ...slice(tensors[key], kv, hd), kind: 'signed', shape: tensors[key].shape };
    case 'mask': {
      // The additive causal mask, as the scaled scores get it: 0 where j ≤ i, −∞ above the diagonal.
      const data = new Float32Array(T * T);
      for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) data[i * T + j] = -Infinity;
      return { data, offset: 0, cols: T, kind: 'mask', shape: [T, T] };
    }
    case 'weights':
      return { ...slice(tensors.weights, head, T), kind: 'prob', shape: tensors.weights.shape };
    default:
      return {
        ...slice(tensors[key], head, key === 'headOutputs' ? hd : T),
        kind: 'signed',
        shape: tensors[key].shape,
      };
  }
}

/**
 * {result (open.js run), sizes (the model's), layer, head, query, labels (a
 * label per token), options: {t, theme, decimals}} -> the steps, each a
 * <section data-checkpoint-step="key">.
 */
export function renderHeadSteps({ result, sizes, layer, head, query, labels, options }) {
  const { t, theme, decimals } = options;
  const facts = headFacts(result, sizes, { layer, head, query });
  const texts = checkpointStepTexts({ facts, query, head, labels, t, decimals });
  const math = formulas(usesRope(sizes), facts.hd, sizes.qkvBias);
  const T = facts.T;
  const name = headName(layer, head);
  return HEAD_STEPS.map((key) => {
    const box = element('section', 'checkpoint-step');
    box.dataset.checkpointStep = key;
    const heading = element('h3', 'checkpoint-step-title', t(`checkpoint.step.${key}.title`));
    const matrix = stepMatrix(key, result.layers[layer], { head, kv: facts.kv, T, hd: facts.hd });
    const perHead = matrix.shape.length === 3;
    // K and V are sliced by the KV head query head `head` reads (GQA), the others by the head itself.
    const which =
      key === 'K' || key === 'V'
        ? t('checkpoint.kvHead', { kv: facts.kv + 1 })
        : t('checkpoint.head', { head: head + 1 });
    const shape = element(
      'p',
      'trained-shape',
      perHead
        ? `${key} ${shapeText(matrix.shape)} → ${which} ${shapeText(matrix.shape.slice(1))}`
        : shapeText(matrix.shape),
    );
    shape.translate = false;
    const formula = element('p', 'checkpoint-formula', math[key]);
    formula.translate = false;
    const sentence = element('p', 'checkpoint-sentence', texts[key]);
    const figure = renderMatrix({
      name: `${name}.${key}`,
      data: matrix.data,
      offset: matrix.offset,
      rows: T,
      cols: matrix.cols,
      rowLabels: labels,
      colLabels: matrix.overKeys ? labels : indices(matrix.cols),
      kind: matrix.kind,
      theme,
      decimals,
      t,
      // Hatched as masked only once the mask is applied (the weights), as the one-layer pipeline does: the
      // scores and scaled scores above the diagonal are computed numbers, masked after.
      blocked: key === 'weights' ? causal : undefined,
      maskText: (v) => (v === 0 ? '0' : '−∞'),
      cellClass: (i) => (i === query ? ['followed-row'] : []),
    });
    box.append(heading, shape, formula, sentence, figure);
    return box;
  });
}
