// rope.scaling on the RoPE step: the frequencies before and after (ropeInvFreqBase, ropeInvFreq), their
// wavelengths 2π/θ_i, and the words that say what the scaling did, each number a quote the claims test
// recomputes. transformers (modeling_rope_utils.py): linear inv_freq / factor; dynamic NTK a larger base
// once S > originalMaxPositions; YaRN a ramp between kept and interpolated pairs, cos and sin × its factor.
import { compactNumber } from '../../model/format.js';
import { quote, say } from '../../model/words.js';
import { element } from '../common/dom.js';
import { cell, count, setting, size } from './quotes.js';

/** The scaling's name in the reader's language: "YaRN", "dynamic NTK", "linear". */
export const scalingName = (t, scaling) => t(`rope.scaling.name.${scaling.type}`);

/**
 * The kind of each pair's frequency: 'kept' (unchanged), 'interpolated' (÷ factor) or 'blended' (between,
 * YaRN's ramp); dynamic NTK's larger base makes every changed one 'slowed' (neither ÷ factor nor a blend).
 */
export function frequencyKinds(before, after, scaling) {
  const { type, factor } = scaling;
  return Array.from(before, (b, i) => {
    if (after[i] === b) return 'kept';
    if (type === 'dynamic') return 'slowed';
    // ÷ factor in float32: within float32 rounding of b / factor.
    return Math.abs(after[i] * factor - b) <= 2 ** -22 * b ? 'interpolated' : 'blended';
  });
}

const wavelength = (frequency) => (2 * Math.PI) / frequency;
const longest = (frequencies) => wavelength(Math.min(...frequencies));
// A wavelength in positions, or a base: whole from 100 on (4 significant digits would write 158953 as
// 159000, 4 decimals 2092965 as 2092965.3750).
const positions = (v) => (Math.abs(v) >= 100 ? String(Math.round(v)) : compactNumber(v));

/** The words of rope.scaling: what it did to the frequencies, quoted from the run. */
export function ropeScalingWords(run, t) {
  const { T, rs } = run;
  if (!T.ropeInvFreq) return [];
  const s = rs.ropeScaling;
  const before = T.ropeInvFreqBase.data;
  const after = T.ropeInvFreq.data;
  const kinds = frequencyKinds(before, after, s);
  const tally = (kind) => count(kinds.filter((k) => k === kind).length, `rope${kind[0].toUpperCase()}${kind.slice(1)}`);
  const factor = setting(s.factor, 'rope.scaling.factor');
  const original = setting(s.originalMaxPositions, 'rope.scaling.originalMaxPositions');
  const words = [];
  if (s.type === 'linear') words.push(say(t, 'rope.scaling.linear', { factor }));
  else if (s.type === 'dynamic') {
    const grows = run.S > s.originalMaxPositions;
    words.push(
      say(t, grows ? 'rope.scaling.dynamic' : 'rope.scaling.dynamicShort', {
        S: size(run, 'S', grows ? { above: s.originalMaxPositions } : { atMost: s.originalMaxPositions }),
        original,
        base: setting(rs.ropeBase, 'rope.base'),
        ntkBase: quote(T.ropeNtkBase.data[0], { cell: ['ropeNtkBase'] }, positions(T.ropeNtkBase.data[0])),
      }),
    );
  } else {
    words.push(
      say(t, 'rope.scaling.yarn', {
        kept: tally('kept'),
        interpolated: tally('interpolated'),
        blended: tally('blended'),
        betaFast: setting(s.betaFast, 'rope.scaling.betaFast'),
        betaSlow: setting(s.betaSlow, 'rope.scaling.betaSlow'),
        original,
        factor,
        attentionFactor: cell(run, 'ropeAttentionFactor', [], T.ropeAttentionFactor.data[0]),
      }),
    );
  }
  words.push(
    say(t, 'rope.scaling.wavelengths', {
      changed: count(kinds.filter((k) => k !== 'kept').length, 'ropeChanged'),
      half: count(before.length, 'ropePairs'),
      longestBefore: quote(
        longest(before),
        { value: 'ropeLongestWavelength', before: true },
        positions(longest(before)),
      ),
      longestAfter: quote(longest(after), { value: 'ropeLongestWavelength', before: false }, positions(longest(after))),
    }),
  );
  return words;
}

/** The table: per pair i, θ_i before and after, their ratio, the wavelengths, and what the scaling did. */
export function renderRopeFrequencies(run, kit) {
  const { T, rs } = run;
  const before = T.ropeInvFreqBase.data;
  const after = T.ropeInvFreq.data;
  const kinds = frequencyKinds(before, after, rs.ropeScaling);
  const table = element('table', 'stats rope-frequencies');
  table.dataset.figure = 'ropeFrequencies';
  const head = table.createTHead().insertRow();
  for (const key of ['pair', 'before', 'after', 'ratio', 'wavelengthBefore', 'wavelengthAfter', 'kind']) {
    const th = element('th', '', kit.t(`rope.scaling.column.${key}`));
    th.scope = 'col';
    head.append(th);
  }
  const body = table.createTBody();
  before.forEach((b, i) => {
    const tr = body.insertRow();
    tr.dataset.kind = kinds[i];
    const label = element('th', '', `θ${i}`);
    label.scope = 'row';
    const values = [
      ...[b, after[i], after[i] / b].map(compactNumber),
      positions(wavelength(b)),
      positions(wavelength(after[i])),
    ];
    tr.append(
      label,
      ...values.map((v) => element('td', '', v)),
      element('td', '', kit.t(`rope.scaling.kind.${kinds[i]}`)),
    );
  });
  // Seven columns are wider than a phone: the table scrolls sideways, as the matrices do.
  const scroller = element('div', 'matrix-figure');
  scroller.append(table);
  return kit.group(kit.t('rope.scaling.caption', { type: scalingName(kit.t, rs.ropeScaling) }), scroller);
}
