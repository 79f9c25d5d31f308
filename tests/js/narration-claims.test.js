// Every sentence the steps say, checked against the numbers of its run: for
// every preset and a grid of settings, in English and Chinese, for every
// sentence and head shown, each step's meaning, notes and narration (and the
// KV-cache stepper's words at every decode step) must quote only numbers that
// the run's tensors give, and make only claims that they bear out.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { loadLanguage, translator } from '../../web/i18n/index.js';
import { configFromSettings } from '../../web/model/settings.js';
import { decodeStep } from '../../web/model/stepper-runs.js';
import { kvCacheWords } from '../../web/view/steps/kv-cache-words.js';
import { loadAllSteps, STEPS } from '../../web/view/steps/registry.js';
import { runContext } from '../../web/view/steps/run-context.js';
import { checkSentence } from './claims/narration-check.js';
import { claimRuns } from './claims/narration-runs.js';

// MLA's steps: their code is loaded with the first MLA run (registry.js); these tests word every step.
await loadAllSteps();

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
  await loadLanguage('zh');
});

/** Every sentence of every step of a run, for each sentence b and head h: [{where, sentence, run}]. */
function stepSentences(result, lang) {
  const t = translator(lang);
  const { B, H, S } = result.sizes;
  const out = [];
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (const focus of [null, S - 1]) {
        const run = runContext(result, { b, h, focus, decimals: 4 });
        for (const step of STEPS) {
          if (!step.stepper && step.applies && !step.applies(run)) continue;
          const words = step.words(run, t);
          for (const [part, sentences] of Object.entries(words))
            for (const sentence of sentences)
              out.push({
                where: `${step.key}.${part} b=${b} h=${h} focus=${focus}`,
                sentence,
                run: { result, b, h, decimals: 4 },
              });
        }
      }
  return out;
}

/** The KV-cache stepper's sentences at every decode step and head, for a causal run. */
function kvSentences(config, result, lang) {
  const t = translator(lang);
  const out = [];
  for (let b = 0; b < result.sizes.B; b++) {
    const decoded = lab.decode(config, { batch: b });
    const tokens = decoded.tokens.length ? decoded.tokens : (result.tokens[b] ?? []);
    for (let step = 0; step < decoded.sizes.S; step++)
      for (let h = 0; h < decoded.sizes.H; h++) {
        const words = kvCacheWords(
          decoded,
          decodeStep(decoded, step, h),
          step,
          tokens[step] ?? `x${step}`,
          t,
          result.tensors,
        );
        const sentences = [
          words.appended,
          words.keysTitle,
          words.valuesTitle,
          ...words.verdict,
          words.bytes,
          words.noGqa,
        ];
        for (const sentence of sentences.filter(Boolean))
          out.push({
            where: `kvcache step=${step} b=${b} h=${h}`,
            sentence,
            run: { result, b, h, decimals: 4, decoded },
          });
      }
  }
  return out;
}

describe('every number and claim a step says holds for its run', () => {
  test('presets and the settings grid, English and Chinese', () => {
    const problems = [];
    let sentences = 0;
    let quotes = 0;
    for (const { name, settings, lang } of claimRuns()) {
      const config = configFromSettings(settings);
      const result = lab.run(config);
      const said = stepSentences(result, lang);
      // The KV-cache stepper for causal runs (not differential attention's or MLA's, which it does not step).
      if (
        String(settings.mask ?? '').includes('causal') &&
        settings['diff.depth'] === undefined &&
        settings['mla.kvRank'] === undefined
      )
        said.push(...kvSentences(config, result, lang));
      for (const { where, sentence, run } of said) {
        sentences++;
        quotes += sentence.quotes.length + sentence.claims.length;
        for (const problem of checkSentence(sentence, run)) problems.push(`${lang} ${name} ${where}: ${problem}`);
      }
    }
    const distinct = [...new Set(problems.map((p) => p.replace(/^.*?: /, '')))];
    console.log(
      `claims: ${sentences} sentences, ${quotes} quotes and claims checked; ${problems.length} problems (${distinct.length} distinct)`,
    );
    expect(sentences).toBeGreaterThan(10000);
    console.log(distinct.join('\n'));
    expect(problems.slice(0, 40)).toEqual([]);
  });
});
