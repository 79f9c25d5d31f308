// The modern variants' own figures in the pipeline view: the K/V head each
// query head reads under GQA (repeat_interleave beside the wrong .repeat),
// ALiBi's slopes, RoPE's same-distance-same-score check, and the sink column.
// Token text only ever reaches the page as textContent.
import { compactNumber, formatNumber } from '../../model/format.js';
import { alibiSlopes, kvHeadOf, repeatKvHeadOf, ropeEqualDistance } from '../../model/variant-math.js';
import { headColor, textOnHead } from '../common/colors.js';
import { element } from '../common/dom.js';

/** A chip naming K/V head g in its colour. */
function kvChip(g, theme, mark = '') {
  const chip = element('span', 'kv-chip', `${g + 1}${mark}`);
  chip.style.background = headColor(g);
  chip.style.color = textOnHead(g, theme);
  return chip;
}

/**
 * GQA: a table of the H query heads, each coloured by the K/V head it reads: repeat_interleave's grouping
 * (h // (H / H_kv), the right one) above .repeat's (h % H_kv, the wrong one), the heads .repeat gets wrong
 * marked ✗.
 */
export function renderGqaGrouping({ t, H, Hkv, theme }) {
  const group = H / Hkv;
  const figure = element('figure', 'gqa-grouping');
  figure.dataset.gqa = `${H}-${Hkv}`;
  // Many heads scroll sideways on a phone: a named region, reachable by keyboard.
  figure.tabIndex = 0;
  figure.setAttribute('role', 'region');
  figure.setAttribute('aria-label', t('gqa.title'));
  const table = element('table', 'gqa-table');
  table.createCaption().textContent = t('gqa.title');
  const head = table.createTHead().insertRow();
  head.append(element('th', '', t('gqa.queryHead')));
  for (let h = 0; h < H; h++) {
    const th = element('th', '', String(h + 1));
    th.scope = 'col';
    th.style.borderBottom = `4px solid ${headColor(h)}`;
    head.append(th);
  }
  const body = table.createTBody();
  const rows = [
    ['right', t('gqa.right', { group }), (h) => kvHeadOf(h, H, Hkv)],
    ['wrong', t('gqa.wrong', { Hkv }), (h) => repeatKvHeadOf(h, Hkv)],
  ];
  for (const [kind, label, kvOf] of rows) {
    const tr = body.insertRow();
    tr.dataset.grouping = kind;
    const th = element('th', '', label);
    th.scope = 'row';
    th.translate = false;
    tr.append(th);
    for (let h = 0; h < H; h++) {
      const g = kvOf(h);
      const wrong = kind === 'wrong' && g !== kvHeadOf(h, H, Hkv);
      const td = element('td', wrong ? 'gqa-wrong' : '');
      td.dataset.kv = String(g);
      td.append(kvChip(g, theme, wrong ? ' ✗' : ''));
      tr.append(td);
    }
  }
  figure.append(table);
  return figure;
}

/** ALiBi: each head's slope m_h in the head's colour (from the engine's bias, and the paper's rule for H). */
export function renderAlibiSlopes({ t, H, bias, S, Skv }) {
  // The engine's bias at distance 1 (row 1, key 0) is −m_h; with one token, the paper's slopes.
  const slopes = S > 1 && Skv > 0 ? Array.from({ length: H }, (_, h) => -bias[h * S * Skv + Skv]) : alibiSlopes(H);
  // A figure, not a div: a re-render matches the kept matrices' divs (patch.js) by tag, and this is not one.
  const box = element('figure', 'alibi-slopes');
  box.append(element('h3', '', t('alibi.slopes')));
  const list = element('ul', 'slope-list');
  slopes.forEach((m, h) => {
    const item = element('li', '', t('alibi.slope', { h: h + 1, m: compactNumber(m) }));
    item.style.borderLeft = `4px solid ${headColor(h)}`;
    item.dataset.slope = String(m);
    list.append(item);
  });
  box.append(list);
  return box;
}

/**
 * RoPE's promise on the run's own numbers: the query q of token i and the key k of token j (head h, before
 * RoPE), rotated by the run's angles to positions (i, j) and to a second pair at the same distance, give the
 * same score; the engine's score at (i, j) beside them. q, k: d_k numbers; angles: [S, d_k/2].
 */
export function renderRopeSameDistance({
  t,
  q,
  k,
  i,
  j,
  S,
  angles,
  style,
  engineScore,
  queryLabels,
  keyLabels,
  decimals,
  scale = 1,
}) {
  const half = q.length / 2;
  const anglesAt = (m) => angles.subarray(m * half, (m + 1) * half);
  const { first, second } = ropeEqualDistance(q, k, [i, j], S, anglesAt, style, scale);
  const box = element('figure', 'rope-same');
  box.append(element('h3', '', t('rope.same.title')));
  if (!second) {
    // One or two positions: the pair shown is the only one at its distance.
    box.append(element('p', 'notice', t('rope.same.none', { S, m: i, n: j })));
    return box;
  }
  const fmt = (v) => formatNumber(v, decimals);
  box.append(
    element(
      'p',
      'rope-same-text',
      t('rope.same', { q: queryLabels[i], k: keyLabels[j], m1: i, n1: j, m2: second[0], n2: second[1], d: i - j }),
    ),
  );
  const scores = element('p', 'formula rope-scores');
  scores.translate = false;
  scores.dataset.first = String(first[2]);
  scores.dataset.second = String(second[2]);
  scores.textContent =
    `q·k @ (${first[0]}, ${first[1]}) = ${fmt(first[2])};  q·k @ (${second[0]}, ${second[1]}) = ${fmt(second[2])};  ` +
    `|Δ| = ${compactNumber(Math.abs(first[2] - second[2]))}`;
  box.append(scores, element('p', 'rope-engine', t('rope.same.engine', { m1: i, n1: j, engine: fmt(engineScore) })));
  return box;
}

/** The sink column beside the weights: per row, the sink's weight and the sum of the row's weights. */
export function sinkColumns(weights, start, sinkWeights, sinkStart, S, Skv) {
  const out = new Float32Array(S * 2);
  for (let i = 0; i < S; i++) {
    let sum = 0;
    for (let j = 0; j < Skv; j++) sum += weights[start + i * Skv + j];
    out[i * 2] = sinkWeights[sinkStart + i];
    out[i * 2 + 1] = sum;
  }
  return out;
}
