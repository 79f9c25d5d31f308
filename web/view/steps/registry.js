// The steps of attention, in the order the page shows them: one module each
// (its key and public name, when it applies, its named shapes, formula, words
// and render). The pipeline, the overview, step by step, the element's
// steps="…" and the claims test all read this one list.
import X from './embedding.js';
import X_context from './context-input.js';
import weights from './projections.js';
import qkv from './qkv.js';
import split from './split.js';
import scores from './scores.js';
import scaled from './scaled.js';
import mask from './mask.js';
import masked from './masked.js';
import attnweights from './softmax.js';
import averaged from './averaged.js';
import scaling from './scaling.js';
import links from './links.js';
import dropped from './dropped.js';
import context from './context-vectors.js';
import { lazyStep } from './lazy-steps.js';
import concat from './concat.js';
import wo from './out-projection.js';
import output from './output.js';
import kvcache from './kv-cache.js';
import flash from './flash.js';

// Multi-head latent attention's steps: their code and words are loaded with the first MLA run (mla-steps.js).
const loadMla = () => import('./mla-steps.js');
const mla = (key, name, chapter) =>
  lazyStep(
    { key, name, chapter, variant: 'mla', applies: (run) => run.mla, loadWhen: (rs) => rs.mla !== null },
    loadMla,
  );
const mlalatent = mla('mlalatent', 'mla-latent', 'variants');
const mlarope = mla('mlarope', 'mla-rope', 'variants');
const mlapaths = mla('mlapaths', 'mla-paths', 'variants');
const mlacache = mla('mlacache', 'mla-cache', 'inference');

// QK-norm, RoPE, softcap, ALiBi and the output gate, likewise: loaded with the first run that has one (variant-steps.js).
const loadVariants = () => import('./variant-steps.js');
const variant = (key, name, applies) =>
  lazyStep(
    {
      key,
      name,
      chapter: 'variants',
      applies,
      loadWhen: (rs) => rs.qkNorm || rs.rope !== null || rs.softcap !== null || rs.alibi || rs.outputGate,
    },
    loadVariants,
  );
const qkNorm = variant('qkNorm', 'qk-norm', (run) => Boolean(run.T.Q_norm));
const rope = variant('rope', 'rope', (run) => Boolean(run.T.ropeAngles) && !run.mla);
const softcap = variant('softcap', 'softcap', (run) => Boolean(run.T.capped));
const alibi = variant('alibi', 'alibi', (run) => Boolean(run.T.alibiBias));
const gate = variant('gate', 'gate', (run) => Boolean(run.T.gate));

// Differential attention's steps, likewise: loaded with the first run that has it (diff-steps.js).
const loadDiff = () => import('./diff-steps.js');
const diff = (key, applies) =>
  lazyStep(
    { key, name: key, chapter: 'variants', variant: 'diff', applies, loadWhen: (rs) => rs.diffDepth !== null },
    loadDiff,
  );
const diffmaps = diff('diffmaps', (run) => Boolean(run.T.halfWeights));
const diffweights = diff('diffweights', (run) => Boolean(run.T.halfWeights));
const diffnorm = diff('diffnorm', (run) => Boolean(run.T.contextScaled));

export const STEPS = [
  X,
  X_context,
  weights,
  qkv,
  split,
  qkNorm,
  rope,
  mlalatent,
  mlarope,
  mlapaths,
  scores,
  scaled,
  softcap,
  alibi,
  mask,
  masked,
  attnweights,
  diffmaps,
  diffweights,
  averaged,
  scaling,
  links,
  dropped,
  context,
  diffnorm,
  concat,
  gate,
  wo,
  output,
  kvcache,
  flash,
  mlacache,
];

const BY_KEY = new Map(STEPS.map((step) => [step.key, step]));
const LAZY = STEPS.filter((step) => step.load);

/** Loads the code of the steps a result's run needs (runSettings(result.settings): rs); resolves when it is there. */
export const loadStepsFor = (rs) => Promise.all(LAZY.filter((step) => step.loadWhen(rs)).map((step) => step.load()));

/** Loads the code of every step (the tests', which word every step). */
export const loadAllSteps = () => Promise.all(LAZY.map((step) => step.load()));

/** The step module of `key` ("attnweights", the i18n key and section id), or undefined. */
export const stepByKey = (key) => BY_KEY.get(key);

/** Public step names, as <attention-lab steps="…"> takes them, by key. */
export const STEP_NAMES = Object.fromEntries(STEPS.map((step) => [step.key, step.name]));

/** The steps a run shows, in order: those that apply to it (the steppers only where the view has them). */
export const stepsOf = (run, { steppers = false } = {}) =>
  STEPS.filter((step) => (!step.stepper || steppers) && (step.applies?.(run) ?? true));

/** The formula of step `key` for a run context (f: run-context.js fields, and t), or null. */
export const stepFormula = (key, f) => stepByKey(key)?.formula?.(f, f.t) ?? null;
