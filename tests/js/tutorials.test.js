// What the tutorials print, cell by cell: tests/reference/tutorials/<n>.json
// holds every tensor an attention program of a tutorial prints, each number as
// printed. Each program's preset runs through the JS API, and every printed
// cell must come out the same at the printed precision (4 decimals, or 4 after
// the point in e-notation, or a whole "1." / "-inf", or an integer tensor's "5").
// A program whose tutorial prints only shapes has its shapes compared. A cell where the
// tutorial's own PyTorch build printed another last digit than torch 1.13 is
// listed in the file as a known difference: it is compared too, with torch
// 1.13's value, and must still differ from the printed one.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { addStrings, loadLanguage, translator } from '../../web/i18n/index.js';
import presetNotes from '../../web/i18n/preset-notes.js';
import { presetByKey, presetSettings } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';
import { torchPrint } from '../../web/model/torch-print.js';
import { first, idsTensor, splitHeads } from './program-views.js';

const dir = fileURLToPath(new URL('../reference/tutorials/', import.meta.url));
const TUTORIALS = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => ({ file: name, ...JSON.parse(readFileSync(dir + name, 'utf8')) }));

const map = (t, f) => ({ shape: t.shape, data: Array.from(t.data, f) });

/** Per preset: the printed tensor's label -> the engine's tensor seen as the tutorial prints it. */
const VIEWS = {
  tutorial: ({ tensors: t }) => ({
    X: first(t.X),
    W_Q: t.W_Q, // torch.rand(4, 4) used as x @ W_Q: the engine's x·W convention
    Q: first(t.Q),
    scores: first(first(t.scores)),
    attention_scores: first(first(t.scaled)),
    attention_weights: first(first(t.weights)),
    output: first(t.output),
  }),
  'tutorial-causal': ({ tensors: t }) => ({
    // The engine's mask is 1 where a score is blocked; the tutorial prints torch.tril(ones) and its 0 / -inf form.
    'mask (tril ones)': map(first(t.mask), (m) => 1 - m),
    'mask (0 / -inf)': map(first(t.mask), (m) => (m ? -Infinity : 0)),
    'original scores': first(first(t.scaled)),
    'masked scores': first(first(t.masked)),
    'weights after mask': first(first(t.weights)),
    'weights after Dropout': first(first(t.dropped)),
  }),
  'tutorial-self-attention': ({ tensors: t }) => ({ output: first(t.output) }),
  'tutorial-causal-attention': ({ tensors: t }) => ({ context_vecs: t.output }),
  'tutorial-two-heads': ({ tensors: t }) => ({ context_vecs: t.output }),
  'tutorial-multi-head': ({ tensors: t }) => ({ context_vecs: t.output }),
  'mha-512': ({ tensors: t }) => ({ input: t.X, output: t.output }),
  'notes-clones': ({ tensors: t }) => ({ out: t.output }),
  'handwritten-mha': ({ tensors: t, ids }) => ({
    'Encoded Sentence': idsTensor(ids),
    'Embedded Sentence': first(t.X), // before .unsqueeze(0)
    q1: t.Q,
    k1: t.K,
    q: splitHeads(t.Q, t.context.shape[1]),
    k: splitHeads(t.K, t.context.shape[1]),
    'Attention Output': t.output,
  }),
  'handwritten-torch-mha': ({ tensors: t, ids }) => ({
    'Encoded Sentence': idsTensor(ids),
    'Embedded Sentence': t.X,
    'Attention Output': t.output,
    'Attention Weights': t.averagedWeights, // averaged over the heads
  }),
};

/** `value` written as `printed` is written: the same notation and number of digits. */
export function asPrinted(value, printed) {
  if (/inf$/.test(printed)) return value === -Infinity ? '-inf' : value === Infinity ? 'inf' : String(value);
  if (/^-?\d+$/.test(printed)) return value.toFixed(0); // an integer tensor (token ids) prints no point
  const sci = /^(-?\d+)\.(\d*)e([+-]\d+)$/.exec(printed);
  if (sci) {
    const [mantissa, exponent] = value.toExponential(sci[2].length).split('e');
    const sign = Number(exponent) < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(Number(exponent))).padStart(sci[3].length - 1, '0')}`;
  }
  const decimals = printed.split('.')[1]?.length ?? 0;
  const text = decimals === 0 ? `${value.toFixed(0)}.` : value.toFixed(decimals);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text; // torch prints -0.0000 and 0.0000 alike
}
const samePrint = (a, b) => a.replace(/^-(?=0\.0*(e|$))/, '') === b.replace(/^-(?=0\.0*(e|$))/, '');

/** The nested printed rows as [index, text] pairs, in print order. */
function cells(rows, index = []) {
  return Array.isArray(rows) ? rows.flatMap((row, i) => cells(row, [...index, i])) : [[index, rows]];
}
const at = (t, index) => t.data[index.reduce((offset, i, axis) => offset * t.shape[axis] + i, 0)];
const shapeOf = (rows) => (Array.isArray(rows) ? [rows.length, ...shapeOf(rows[0])] : []);

let lab;
const counts = [];
beforeAll(async () => {
  lab = await loadAttentionLab();
  // The presets' notes are a part of their own (view/common/preset-note.js loads them on the page).
  addStrings(presetNotes);
  await loadLanguage('zh');
});
afterAll(() => {
  console.log(
    "tutorials' printed cells vs their presets:\n  " +
      counts
        .map(
          (c) =>
            `${c.tutorial} ${c.program} (${c.preset}): ${c.matched}/${c.compared} cells` +
            (c.known ? ` (${c.known} a known difference, checked at torch 1.13's value)` : '') +
            `, ${c.shapes} shape(s)`,
        )
        .join('\n  '),
  );
});

describe.each(TUTORIALS.map((t) => [t.file, t]))('%s: every printed cell', (file, tutorial) => {
  test.each(tutorial.programs.map((p) => [p.program, p]))('%s', (program, { preset: key, shapes, tensors }) => {
    const preset = presetByKey.get(key);
    expect(preset, `preset ${key}`).toBeDefined();
    const known = tutorial.knownDifferences.filter((k) => k.program === program);
    for (const lang of ['en', 'zh']) {
      const views = VIEWS[key](lab.run(configFromSettings(presetSettings(preset, lang))));
      let compared = 0;
      let matched = 0;
      let knownChecked = 0;
      const problems = [];
      for (const [label, rows] of Object.entries(tensors)) {
        const view = views[label];
        expect(view, `${program}: a view of "${label}"`).toBeDefined();
        expect(view.shape).toEqual(shapeOf(rows));
        for (const [index, printed] of cells(rows)) {
          compared++;
          const ours = asPrinted(at(view, index), printed);
          const difference = known.find((k) => k.tensor === label && k.index.join() === index.join());
          if (difference) {
            expect(difference.printed).toBe(printed);
            expect(samePrint(printed, difference.torch1_13)).toBe(false);
            if (samePrint(ours, difference.torch1_13)) knownChecked++;
            else problems.push(`${label}[${index}]: ${ours}, torch 1.13 prints ${difference.torch1_13}`);
          } else if (samePrint(ours, printed)) matched++;
          else problems.push(`${label}[${index}]: ${ours}, printed ${printed}`);
        }
      }
      for (const [label, shape] of Object.entries(shapes)) {
        const view = views[label];
        expect(view, `${program}: a view of the shape of "${label}"`).toBeDefined();
        expect(view.shape, `${program}: shape of ${label}`).toEqual(shape);
      }
      expect(problems).toEqual([]);
      expect(knownChecked).toBe(known.length); // every listed difference is a cell that was compared
      expect(matched + knownChecked).toBe(compared);
      if (Object.keys(tensors).length === 0) expect(Object.keys(shapes).length).toBeGreaterThan(0);
      if (lang === 'en')
        counts.push({
          tutorial: file,
          program,
          preset: key,
          compared,
          matched,
          known: knownChecked,
          shapes: Object.keys(shapes).length,
        });
    }
  });

  // The page's "PyTorch print" copy of each printed float tensor: torch's own choice of notation for the whole
  // tensor (9.9996e-01 where the tutorial has it), cell for cell; a known difference is torch 1.13's value.
  test.each(tutorial.programs.map((p) => [p.program, p]))('%s, copied as PyTorch prints it', (program, p) => {
    const views = VIEWS[p.preset](lab.run(configFromSettings(presetSettings(presetByKey.get(p.preset), 'en'))));
    const known = tutorial.knownDifferences.filter((k) => k.program === program);
    const floats = Object.entries(p.tensors).filter(([, rows]) => cells(rows).some(([, text]) => /[.]|inf/.test(text)));
    for (const [label, rows] of floats) {
      const expected = cells(rows).map(
        ([index, text]) => known.find((k) => k.tensor === label && k.index.join() === index.join())?.torch1_13 ?? text,
      );
      const printed = torchPrint(views[label].shape, views[label].data);
      expect(printed.startsWith('tensor(['), label).toBe(true);
      expect(
        printed
          .slice('tensor('.length, -1)
          .split(/[\s,[\]]+/)
          .filter(Boolean),
        label,
      ).toEqual(expected);
    }
  });

  // A reader comparing with the tutorial is told where its print and torch 1.13's differ, with both values.
  test("each known difference is said in its program's preset note, in English and Chinese", () => {
    for (const k of tutorial.knownDifferences) {
      const { preset } = tutorial.programs.find((p) => p.program === k.program);
      for (const lang of ['en', 'zh']) {
        const note = translator(lang)(`preset.${preset}.note`);
        expect(note, `${preset} (${lang})`).toContain(k.printed);
        expect(note, `${preset} (${lang})`).toContain(k.torch1_13);
      }
    }
  });

  test("each program's preset note names the tutorial in English and Chinese", () => {
    const title = tutorial.tutorial.replace(/ \(Chinese\).*$/, '');
    for (const { preset } of tutorial.programs)
      for (const lang of ['en', 'zh']) expect(translator(lang)(`preset.${preset}.note`)).toContain(title);
  });
});

describe('the printed form', () => {
  test.each([
    [0.33744, '0.3374', '0.3374'],
    [-0.00001, '0.0000', '0.0000'],
    [0.09480451, '9.4804e-02', '9.4805e-02'],
    [4.0538583e-7, '4.0538e-07', '4.0539e-07'],
    [0, '0.0000e+00', '0.0000e+00'],
    [1, '1.', '1.'],
    [-Infinity, '-inf', '-inf'],
    [17.44764, '17.4476', '17.4476'],
    [5, '5', '5'],
    [0, '0', '0'],
  ])('%s as %s is %s', (value, printed, expected) => {
    expect(asPrinted(value, printed)).toBe(expected);
  });
});
