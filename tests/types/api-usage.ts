// Type-checked by `tsc -p web/tsconfig.json` in npm test: index.d.ts (with the
// AttentionConfig the build writes from the schema) must accept real usage and
// reject wrong configs.
import {
  AttentionConfigError,
  loadAttentionLab,
  TENSOR_NAMES,
  TINY_MODEL,
  type AttentionConfig,
  type AttentionResult,
  type AttentionWarning,
  type PreparedRun,
  type TensorName,
  type TinyModelResult,
} from '../../web/api/index.js';

async function usage(): Promise<number> {
  const lab = await loadAttentionLab();
  const config: AttentionConfig = {
    texts: ['the cat sat', 'a dog'],
    contextText: 'le chat',
    dModel: 8,
    numHeads: 2,
    seed: 123,
    embedding: { positional: 'sinusoidal' },
    weights: {
      init: 'torch-mha',
      layout: 'fused',
      qkvBias: true,
      outProj: true,
      seed: 1,
      values: {
        W_Q: [
          [1, 0],
          [0, 1],
        ],
        b_Q: [0, 0],
      },
    },
    scale: 0.5,
    mask: 'causal+padding',
    maskFill: -1e9,
    dropout: { p: 0.1, seed: 7 },
    maxLen: null,
  };
  const result: AttentionResult = lab.run(config, { tensors: ['weights', 'output'] });
  const weights = result.tensors.weights;
  const first: number = weights ? weights.data[0] : NaN;
  const shape: number[] = weights?.shape ?? [];
  const names: readonly TensorName[] = TENSOR_NAMES;
  try {
    lab.run('{"text": "a"}');
  } catch (error) {
    if (error instanceof AttentionConfigError) {
      const field: string = error.field;
      const code: string | undefined = error.code;
      const got: string | undefined = error.params.got;
      return field.length + (code?.length ?? 0) + (got?.length ?? 0);
    }
  }
  const additive: AttentionConfig = {
    tokens: [['自然', '语言', '处理']],
    contextInput: { rand: [1, 4, 8] },
    tokenizer: 'auto',
    score: 'additive',
    additiveHidden: 16,
    maskConvention: 'keep',
    weights: { init: 'torch-linear-clones', edits: { v_a: [[0, 1.5]], W_a: [[0, 1, 2]] } },
  };
  const warnings: AttentionWarning[] = lab.run(additive).warnings;
  const averaged = lab.run(additive, { tensors: ['averagedWeights', 'W_a'] }).tensors.averagedWeights;
  const kinds: number = lab.schema.errors.filter((kind) => kind.params.includes('field')).length;
  // One sentence and one head, every head of the weights.
  const shown = lab.run(additive, { batch: 0, head: 1, allHeads: ['weights'] });
  const heldHead: number | undefined = shown.tensors.scaled?.head;
  const keys: number = shown.sizes.S_kv + shown.sizes.H + (heldHead ?? 0) + (shown.tensors.X?.batch ?? 0);
  return (
    keys +
    first +
    shape.length +
    names.length +
    lab.memoryBytes +
    result.headDim +
    result.scaleFactor +
    warnings.length +
    (averaged?.shape.length ?? 0) +
    kinds
  );
}

// @ts-expect-error mask is an enum
const badMask: AttentionConfig = { text: 'a', mask: 'future' };
// @ts-expect-error dModel is a number
const badDModel: AttentionConfig = { text: 'a', dModel: '8' };
// @ts-expect-error weights.init is an enum
const badInit: AttentionConfig = { text: 'a', weights: { init: 'xavier' } };
// @ts-expect-error unknown tensor names are rejected
const badTensors: TensorName[] = ['attention'];
// @ts-expect-error randn needs three sizes
const badRandn: AttentionConfig = { input: { randn: [1, 2] } };
// @ts-expect-error tokens are lists of strings, one per sentence
const badTokens: AttentionConfig = { tokens: ['自然', '语言'] };
// @ts-expect-error score is an enum
const badScore: AttentionConfig = { text: 'a', score: 'cosine' };

export { usage, badMask, badDModel, badInit, badTensors, badRandn, badTokens, badScore };

// jsonError gives the coded error of the engine, or null.
async function jsonErrors(): Promise<void> {
  const lab = await loadAttentionLab();
  const jsonProblem = lab.jsonError('{"text": "a", "text": "b"}');
  if (jsonProblem) {
    const field: string = jsonProblem.field;
    const code: string | undefined = jsonProblem.code;
    void field;
    void code;
  }
}
void jsonErrors;

// The tiny trained model: loadTinyModel, then a run whose result has its own type.
async function tinyUsage(): Promise<number> {
  const lab = await loadAttentionLab();
  const loaded: { step: number; bytes: number } = await lab.loadTinyModel(TINY_MODEL.checkpoints[0]);
  await lab.loadTinyModel(3000, new Uint8Array(8));
  const url: URL = TINY_MODEL.weightsUrl(loaded.step);
  const result: TinyModelResult = lab.run({ model: 'tiny', text: 'ab', checkpoint: 3000 });
  const weights: Float32Array = result.layers[1].weights.data;
  const induction: number | undefined = result.headScores.induction?.[1][2];
  const accuracy = result.secondCopy ? result.secondCopy.correct / result.secondCopy.total : 0;
  // @ts-expect-error a checkpoint is a number
  lab.run({ model: 'tiny', text: 'ab', checkpoint: '3000' });
  // @ts-expect-error no such model
  lab.run({ model: 'small', text: 'ab' });
  return weights.length + (induction ?? 0) + accuracy + url.href.length + result.tensors.probs.shape[1];
}
void tinyUsage;

// Prepared runs: lab.run's options plus a new X; edits in the page's form.
async function preparedRuns(): Promise<number> {
  const lab = await loadAttentionLab();
  const prepared: PreparedRun = lab.prepare({ text: 'He sat by the bank', dModel: 8, numHeads: 2 });
  const [B, S, D] = prepared.xShape;
  const result: AttentionResult = prepared.run({ tensors: ['output'], x: new Float32Array(B * S * D) });
  prepared.update({ weights: { W_Q: [[0, 5, 0.5]], b_Q: [[1, 2]] }, embedding: [['bank', 1, 2.5]] });
  // @ts-expect-error x is a Float32Array
  prepared.run({ x: [1, 2, 3] });
  // @ts-expect-error edits are {weights, embedding}
  prepared.update({ W_Q: [[0, 5, 0.5]] });
  prepared.dispose();
  return result.tensors.output?.data.length ?? 0;
}
void preparedRuns;
