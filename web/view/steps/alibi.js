// Step "alibi": biased = scaled (or capped) + alibiBias_h, alibiBias_h[i, j] = −m_h·(i − j) (Press et al.).
// torch: scores + alibi[h]   alibiBias (H, S, S_kv), biased (B, H, S, S_kv)
import { say } from '../../model/words.js';
import { headColor } from '../common/colors.js';
import { PER_HEAD } from './scores.js';
import { headNumber, size } from './quotes.js';
import { alibiSlopeFormula } from './formulas.js';
import { renderAlibiSlopes } from './variant-figures.js';

function renderAlibi(run, kit) {
  const { T, H, S, Skv, h, queryLabels, keyLabels } = run;
  return [
    renderAlibiSlopes({ t: kit.t, H, bias: T.alibiBias.data, S, Skv }),
    // The bias has no batch axis: one set for every sentence.
    ...(run.multiHead
      ? [kit.group(kit.t('alibi.heads'), ...kit.headMultiples('alibiBias', T.alibiBias, 'signed', { batchIndex: 0 }))]
      : []),
    kit.row(
      kit.group(
        { template: kit.tensorLabel('label.heading.head', 'alibiBias', kit.headLabel), name: 'alibiBias' },
        kit.matrix('alibiBias', T.alibiBias, h * S * Skv, S, Skv, queryLabels, keyLabels, {
          caption: kit.tensorLabel('label.caption.head', 'alibiBias', kit.headLabel),
        }),
        headColor(h),
      ),
      kit.headMatrix('biased'),
    ),
  ];
}

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [{ of: 'alibiBias', axes: ['H', 'S', 'S_kv'] }, PER_HEAD],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [
    { name: 'alibiBias', rows: run.S, cols: run.Skv },
    { name: 'biased', rows: run.S, cols: run.Skv },
  ],
  formula: ({ rs, H }) =>
    `biased = ${rs.softcap !== null && rs.softcap !== undefined ? 'capped' : 'scaled'} + alibiBias_{h}, alibiBias_{h}[i, j] = −m_{h}·(i − j), ${alibiSlopeFormula(H ?? 1)}`,
  words: (run, t) => ({
    meaning: [say(t, 'step.alibi.meaning')],
    notes: [],
    narration: [
      run.multiHead
        ? say(t, 'step.alibi.narration', { head: headNumber(run), H: size(run, 'H', { min: 2 }) })
        : say(t, 'step.alibi.narration.one', { head: headNumber(run) }),
    ],
  }),
  render: (run, kit) => () => renderAlibi(run, kit),
};
