// Step "mask": M [B, S, S_kv] in the run's convention: 1 = blocked (a bool attn_mask), 1 = keep (torch.tril),
// or additive (0 or the fill). Causal blocks j > i, padding blocks <pad> keys, a window blocks i − j ≥ w.
import { windowEffect } from '../../model/variant-math.js';
import { say, whole } from '../../model/words.js';
import { sentenceStart } from '../../model/selection.js';
import { count, setting } from './quotes.js';
import { MASK_FORMULA, fillText } from './formulas.js';
import { figureLook } from './figure-looks.js';
import { leakedWeight } from './masked.js';

const MASK_MEANING = { blocked: 'meaning.mask.blocked', keep: 'meaning.mask.keep', additive: 'meaning.mask.additive' };

/** What the convention's meaning states of M: the value of blocked and of kept cells. */
const MARKS = { blocked: ['1', '0'], keep: ['0', '1'], additive: [null, '0'] };

/** How many cells of sentence b's mask (S × S_kv) satisfy `test(i, j)`. */
function cellsWhere(run, test) {
  let n = 0;
  for (let i = 0; i < run.S; i++) for (let j = 0; j < run.Skv; j++) if (test(i, j)) n++;
  return n;
}

/** A sliding window's notes: the cells it blocks alone, and those sink tokens keep. */
function windowNotes(run, t) {
  const { rs, b } = run;
  if (!rs.window) return [];
  const effect = (i, j) => windowEffect(i, j, rs.window, rs.sinkTokens);
  const notes = [
    say(t, 'mask.window', {
      window: setting(rs.window, 'window'),
      n: count(
        cellsWhere(run, (i, j) => effect(i, j) === 'window'),
        'windowBlocked',
        { b },
      ),
    }),
  ];
  if (rs.sinkTokens > 0)
    notes.push(
      say(t, 'mask.sinks', {
        // The keys that are sinks: the setting, or every key when it asks for more than there are.
        n: count(Math.min(rs.sinkTokens, run.Skv), 'sinkKeys', { b }),
        kept: count(
          cellsWhere(run, (i, j) => effect(i, j) === 'sink'),
          'sinkKept',
          { b },
        ),
      }),
    );
  return notes;
}

function meaningOf(run, t) {
  const { rs, b } = run;
  const [blockedMark, keptMark] = MARKS[rs.maskConvention];
  const claims = [
    ...(blockedMark ? [{ maskMarks: 'blocked', b, states: [blockedMark] }] : []),
    { maskMarks: 'kept', b, states: [keptMark] },
  ];
  const convention = say(t, MASK_MEANING[rs.maskConvention], { fill: setting(rs.fill, 'maskFill') }, { claims });
  return rs.mask === 'none' ? [say(t, 'meaning.mask.none'), convention] : [convention];
}

function narrationOf(run, t) {
  const { rs, b, h, S, Skv } = run;
  const pairs = count(S * Skv, 'pairs');
  if (rs.mask === 'none' && !rs.window) return say(t, 'step.mask.narration.none', { pairs });
  const blocked = cellsWhere(run, run.blocked);
  // A mask that blocks nothing here (causal over one token): no blocked cell to describe.
  if (blocked === 0)
    return say(t, 'step.mask.narration.nothing', {
      pairs,
      keptMark: whole(Number(MARKS[rs.maskConvention][1]), { maskValue: 'kept', b }),
    });
  // What M holds at a blocked and at a kept cell, in the run's convention.
  const [blockedMark, keptMark] = MARKS[rs.maskConvention];
  const mark = (text, which) =>
    text === null ? setting(rs.fill, 'maskFill') : whole(Number(text), { maskValue: which, b });
  const largest = blocked > 0 ? leakedWeight(run) : null;
  return say(t, largest ? 'step.mask.narration.leaky' : 'step.mask.narration', {
    blocked: count(blocked, 'blocked', { b }),
    pairs,
    kept: count(S * Skv - blocked, 'kept', { b }),
    blockedMark: mark(blockedMark, 'blocked'),
    keptMark: mark(keptMark, 'kept'),
    ...(largest ? { largest } : { zero: whole(0, { weightAt: 'blocked', b, h }) }),
  });
}

function renderMask(run, kit) {
  const { T, b, S, Skv, rs, queryLabels, keyLabels } = run;
  const look = figureLook(run, 'mask');
  const { maskText } = look;
  const effect = (i, j) => windowEffect(i, j, rs.window, rs.sinkTokens);
  const windowMarks = rs.window
    ? {
        cellClass: (i, j) => (effect(i, j) ? [`mask-${effect(i, j)}`] : []),
        cellLabel: (i, j, v) =>
          effect(i, j) ? `${maskText ? maskText(v) : v ? '1' : '0'} · ${kit.t(`mask.legend.${effect(i, j)}`)}` : null,
      }
    : {};
  return [
    kit.matrix('mask', T.mask, sentenceStart(T.mask, b), S, Skv, queryLabels, keyLabels, {
      ...look,
      ...windowMarks,
    }),
  ];
}

export default {
  key: 'mask',
  chapter: 'basics',
  name: 'mask',
  shapes: [{ axes: ['B', 'S', 'S_kv'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'mask', rows: run.S, cols: run.Skv }],
  formula: ({ rs }, t) =>
    rs.mask === 'none' ? t('formula.mask.none') : t(MASK_FORMULA[rs.maskConvention], { fill: fillText(rs.fill) }),
  words: (run, t) => ({ meaning: meaningOf(run, t), notes: windowNotes(run, t), narration: [narrationOf(run, t)] }),
  render: (run, kit) => () => renderMask(run, kit),
};
