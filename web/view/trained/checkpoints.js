// The checkpoint slider and the training curve: the steps the weights were
// saved at (TINY_MODEL.checkpoints), and from web/api/tiny/index.json the
// best induction score and the loss on the second copy every few steps of
// training (measured by the training script on random strings typed twice),
// as two small charts with a mark at the step shown. The phase change is the
// jump between two saved steps (phaseChange, read from the curve).
import { formatNumber } from '../../model/format.js';
import { INDUCTION_THRESHOLD } from '../../model/tiny.js';
import curveIndex from '../../api/tiny/index.json';
import { chartLegend, lineChart } from '../common/charts.js';
import { element } from '../common/dom.js';

/** The training curve: [{step, induction, secondCopyLoss, …}]. */
export const TRAINING_CURVE = curveIndex.curve;
/** What the curve was measured on: {every (steps), texts (random strings typed twice), separated (of them)}. */
export const CURVE_PROBES = curveIndex.measured;
/** The size in bytes of each checkpoint's weights file, by step. */
export const WEIGHTS_BYTES = new Map(curveIndex.checkpoints.map((c) => [c.step, c.bytes]));

/**
 * The slider: {checkpoints, step, t, id, onStep(step)} -> {element, input, set(step)}. Its
 * value is the checkpoint's index; its accessible value the step.
 */
export function renderCheckpointSlider({ checkpoints, step, t, onStep, id }) {
  const box = element('div', 'trained-slider');
  const label = element('label');
  label.htmlFor = id;
  label.textContent = t('trained.checkpoint.label');
  const input = element('input');
  input.type = 'range';
  input.id = id;
  input.min = '0';
  input.max = String(checkpoints.length - 1);
  input.step = '1';
  const index = Math.max(0, checkpoints.indexOf(step));
  input.value = String(index);
  const output = element('output');
  output.htmlFor = id;
  const show = (k) => {
    const text = t('trained.checkpoint.step', { step: checkpoints[k] });
    output.textContent = text;
    input.setAttribute('aria-valuetext', text);
  };
  show(index);
  input.addEventListener('input', () => {
    const k = Number(input.value);
    show(k);
    onStep(checkpoints[k]);
  });
  const ticks = element('div', 'trained-ticks');
  ticks.setAttribute('aria-hidden', 'true');
  for (const c of checkpoints) {
    const tick = element('span', null, String(c));
    ticks.append(tick);
  }
  box.append(label, input, output, ticks);
  /** Moves the slider to `step` (a host's setting), without telling onStep. */
  const set = (value) => {
    const k = checkpoints.indexOf(value);
    if (k < 0) return;
    input.value = String(k);
    show(k);
  };
  return { element: box, input, set };
}

/** The last step of training, and four ticks from 0 to it. */
const LAST_STEP = TRAINING_CURVE[TRAINING_CURVE.length - 1].step;
const STEP_TICKS = [0, 1, 2, 3, 4].map((k) => Math.round((k * LAST_STEP) / 4));

/**
 * Where the induction head forms: the last saved step whose best induction
 * score is under a third of INDUCTION_THRESHOLD, and the first after it at or
 * above the threshold, each with its curve point ({step, induction,
 * secondCopyLoss, …}); null when the curve never crosses.
 */
export function phaseChange(curve, checkpoints) {
  const saved = curve.filter((p) => checkpoints.includes(p.step));
  const to = saved.findIndex((p) => p.induction >= INDUCTION_THRESHOLD);
  if (to < 1) return null;
  const before = saved.slice(0, to).filter((p) => p.induction < INDUCTION_THRESHOLD / 3);
  return before.length ? { from: before[before.length - 1], to: saved[to] } : null;
}

/** One chart of the curve: `key` of each point over the steps, a mark at `step`. */
function curveChart({ key, title, yLabel, max, ticks, format, step, checkpoints, className, t }) {
  const points = TRAINING_CURVE.filter((p) => p[key] !== null && p[key] !== undefined).map((p) => [p.step, p[key]]);
  const saved = points.filter(([s]) => checkpoints.includes(s));
  const figure = element('figure', 'chart-figure trained-curve');
  figure.append(
    lineChart({
      title,
      x: { min: 0, max: LAST_STEP, label: t('trained.curve.steps'), ticks: STEP_TICKS, format: String },
      y: { min: 0, max, label: yLabel, ticks, format },
      series: [
        { points, type: 'line', className },
        { points: saved, type: 'dots', className: 'chart-measured' },
      ],
      marks: [{ x: step, label: t('trained.checkpoint.step', { step }), className: 'chart-mark' }],
    }),
  );
  const caption = element('figcaption', null, title);
  figure.append(caption);
  return figure;
}

/** The two charts of the curve with the step shown marked, and a note on what they measure. */
export function renderCurve({ step, checkpoints, t }) {
  const box = element('div', 'trained-curves');
  const charts = element('div', 'charts');
  charts.append(
    curveChart({
      key: 'induction',
      title: t('trained.curve.induction'),
      yLabel: t('trained.curve.score'),
      max: 1,
      ticks: [0, 0.25, 0.5, 0.75, 1],
      format: (v) => formatNumber(v, 2),
      step,
      checkpoints,
      className: 'chart-sigma',
      t,
    }),
    curveChart({
      key: 'secondCopyLoss',
      title: t('trained.curve.loss'),
      yLabel: t('trained.curve.nats'),
      max: 6,
      ticks: [0, 2, 4, 6],
      format: String,
      step,
      checkpoints,
      className: 'chart-gradient',
      t,
    }),
  );
  const legend = chartLegend([{ className: 'chart-measured', label: t('trained.curve.saved') }]);
  const phase = phaseChange(TRAINING_CURVE, checkpoints);
  const note = element('p', 'note', phase ? curveNote(phase, t) : '');
  box.append(charts, legend, note);
  return box;
}

/** The note under the curve: what it was measured on, and the phase change with its numbers. */
function curveNote({ from, to }, t) {
  return t('trained.curve.note', {
    ...CURVE_PROBES,
    from: from.step.toLocaleString('en'),
    to: to.step.toLocaleString('en'),
    fromScore: formatNumber(from.induction, 2),
    toScore: formatNumber(to.induction, 2),
    fromLoss: formatNumber(from.secondCopyLoss, 2),
    toLoss: formatNumber(to.secondCopyLoss, 2),
  });
}
