// The chapters (web/view/steps/chapters.js) and their bars (chapter-bar.js):
// every step names a known chapter; the plain path shows the basics' steps
// and stands each closed chapter's applying steps as one bar at their place;
// what a bar says (heads, sizes, step names and counts) is checked against
// the run's config and the step list, in English and Chinese, and its sizes
// by the claims checker.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { loadLanguage, translator } from '../../web/i18n/index.js';
import { DEFAULT_PRESET, presetByKey, presetSettings } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';
import { VIEW_OPTIONS, readViewOption, viewOptionByName } from '../../web/model/view-options.js';
import { chapterBarWords } from '../../web/view/steps/chapter-bar.js';
import {
  CHAPTERS,
  CHAPTER_NAMES,
  PLAIN_PATH,
  chapterNumber,
  chaptersAskedBy,
  chaptersText,
  chaptersUsedBy,
  pipelineItems,
  readChapters,
  withChapter,
} from '../../web/view/steps/chapters.js';
import { loadAllSteps, STEPS, stepsOf } from '../../web/view/steps/registry.js';
import { runContext } from '../../web/view/steps/run-context.js';
import { checkSentence } from './claims/narration-check.js';

// MLA's steps: their code is loaded with the first MLA run (registry.js); these tests word every step.
await loadAllSteps();

let lab;
let zh;
const en = translator('en');
beforeAll(async () => {
  lab = await loadAttentionLab();
  zh = await loadLanguage('zh');
});

const runOf = (settings) => {
  const config = configFromSettings(settings);
  return { config, run: runContext(lab.run(config)) };
};
const keysOf = (items) => items.map((item) => (item.step ? item.step.key : `[${item.bar.chapter.key}]`));

describe('the chapter list', () => {
  test('every step names a chapter of the list; every chapter but a setting has steps', () => {
    const keys = CHAPTERS.map((chapter) => chapter.key);
    for (const step of STEPS) expect(keys, step.key).toContain(step.chapter);
    for (const chapter of CHAPTERS)
      expect(
        STEPS.some((step) => step.chapter === chapter.key),
        chapter.key,
      ).toBe(!chapter.setting);
    // What each builds on comes before it.
    for (const chapter of CHAPTERS)
      for (const base of chapter.buildsOn) expect(chapterNumber(base)).toBeLessThan(chapterNumber(chapter.key));
  });

  test('the plain path is the classic steps; multi-head, variants and inference are chapters of their own', () => {
    const of = (key) => STEPS.filter((step) => step.chapter === key).map((step) => step.key);
    expect(of('heads')).toEqual(['split', 'averaged', 'concat', 'wo']);
    expect(of('variants')).toEqual([
      'qkNorm',
      'rope',
      'mlalatent',
      'mlarope',
      'mlapaths',
      'softcap',
      'alibi',
      'diffmaps',
      'diffweights',
      'diffnorm',
      'gate',
    ]);
    expect(of('inference')).toEqual(['kvcache', 'flash', 'mlacache']);
  });

  test('the chapters option: names read as the element and ?chapters= give them, written back', () => {
    expect(VIEW_OPTIONS.map((option) => option.name)).toContain('chapters');
    const read = (text) => readChapters(readViewOption(viewOptionByName.get('chapters'), text));
    expect(read(null)).toBeNull(); // the element's default: every chapter open
    expect([...read('heads variants')]).toEqual(['heads', 'variants', 'basics']);
    expect([...read('heads,inference')].sort()).toEqual(['basics', 'heads', 'inference']);
    expect(chaptersText(read('variants,heads'))).toBe('heads,variants');
    expect(chaptersText(PLAIN_PATH)).toBe('');
    expect(chaptersText(PLAIN_PATH, ' ', { basics: true })).toBe('basics');
    expect(CHAPTER_NAMES).toEqual(['basics', 'heads', 'variants', 'inference']);
    // Closing one of "all" leaves the others open; the basics cannot be closed.
    expect([...withChapter(null, 'variants', false)]).toEqual(['basics', 'heads', 'inference']);
    expect(withChapter(PLAIN_PATH, 'basics', false).has('basics')).toBe(true);
  });
});

describe('the plain path of the default example', () => {
  test('13 steps of the basics; the closed chapters as bars at their place, the next ones at the end', () => {
    const { config, run } = runOf(presetSettings(DEFAULT_PRESET));
    // Before chapters: every step that applies (the steppers too), 19 for the default example.
    const all = pipelineItems(run, { steppers: true });
    expect(all).toHaveLength(stepsOf(run, { steppers: true }).length);
    expect(all).toHaveLength(19);
    const items = pipelineItems(run, { steppers: true, chapters: PLAIN_PATH, settingChapters: true });
    expect(keysOf(items)).toEqual([
      'X',
      'weights',
      'qkv',
      '[heads]',
      'scores',
      'scaled',
      'mask',
      'masked',
      'attnweights',
      '[heads]',
      'scaling',
      'links',
      'dropped',
      'context',
      '[heads]',
      'output',
      '[variants]',
      '[inference]',
      '[trained]',
    ]);
    expect(items.filter((item) => item.step)).toHaveLength(13);
    // No step that applies is lost: the shown steps and the bars' steps are all of them, in order.
    const covered = items.flatMap((item) => (item.step ? [item.step] : item.bar.steps));
    expect(covered).toEqual(stepsOf(run, { steppers: true }));
    const bars = items.filter((item) => item.bar).map((item) => item.bar);
    expect(bars.map((bar) => bar.id)).toEqual([
      'chapter-heads',
      'chapter-heads-2',
      'chapter-heads-3',
      'chapter-variants',
      'chapter-inference',
      'chapter-trained',
    ]);
    expect(bars.map((bar) => bar.next)).toEqual([false, false, false, true, true, true]);
    // The default example has two heads: its sizes, from the config.
    expect(config.numHeads ?? 2).toBe(run.H);
  });

  test('the bars say what they hold, from the run, in English and Chinese', () => {
    const { run } = runOf(presetSettings(DEFAULT_PRESET));
    const { H, D } = run.result.sizes;
    const dk = D / H;
    const bars = pipelineItems(run, { steppers: true, chapters: PLAIN_PATH, settingChapters: true })
      .filter((item) => item.bar)
      .map((item) => item.bar);
    const words = (bar, t) => chapterBarWords(bar, run, t);
    const concat = words(bars[2], en);
    expect(concat.name).toBe('Multi-head attention');
    expect(concat.basis.text).toBe('Chapter 2, builds on chapter 1 (The basics).');
    expect(concat.holds.text).toBe(
      `This run splits Q, K and V into ${H} heads of ${dk} numbers each, and joins them back into ${D} numbers per token.`,
    );
    expect(concat.steps.text).toBe('2 steps here: concat, W_O.');
    expect(concat.action.text).toBe('Open chapter 2');
    expect(words(bars[0], en).steps.text).toBe('1 step here: split.');
    const variants = words(bars[3], en);
    expect(variants.steps).toBeNull();
    expect(variants.holds.text).toContain(
      'No variant is on in this run. QK-norm, RoPE, multi-head latent attention, softcap, ALiBi, differential attention, gate each add a step',
    );
    expect(words(bars[4], en).steps.text).toBe('2 steps here: KV cache, online softmax.');
    expect(words(bars[5], en).action.text).toBe('Open chapter 5: the trained model');
    const zhConcat = words(bars[2], zh);
    expect(zhConcat.basis.text).toBe('第 2 章，建立在第 1 章（基础）之上。');
    expect(zhConcat.holds.text).toBe(
      `本次运行把 Q、K、V 拆成 ${H} 个头，每个头 ${dk} 个数，之后再拼回每个词元 ${D} 个数。`,
    );
    expect(zhConcat.steps.text).toBe('这里有 2 个步骤：拼接、W_O。'.replace('拼接', zh('step.concat.short')));
    // Every number a bar quotes is a size of the run: the claims checker recomputes it.
    for (const t of [en, zh])
      for (const bar of bars) {
        const problems = checkSentence(words(bar, t).holds, { result: run.result, b: 0, h: 0, decimals: 4 });
        expect(problems, `${bar.id} ${t.lang}`).toEqual([]);
      }
  });

  test('one head: the heads bar says so; a variant set: its bar names the steps it turned on', () => {
    const one = runOf({ ...presetSettings(DEFAULT_PRESET), numHeads: 1 }).run;
    const heads = pipelineItems(one, { chapters: PLAIN_PATH }).find((item) => item.bar?.chapter.key === 'heads');
    expect(heads.bar.steps.map((step) => step.key)).toEqual(['split']);
    expect(chapterBarWords(heads.bar, one, en).holds.text).toBe(
      `This run has one head of ${one.result.sizes.D} numbers: splitting it and joining it back change no number.`,
    );
    const llama = runOf(presetSettings(presetByKey.get('llama'))).run;
    const bar = pipelineItems(llama, { chapters: PLAIN_PATH }).find((item) => item.bar?.chapter.key === 'variants').bar;
    expect(bar.steps.map((step) => step.key)).toEqual(['rope']);
    expect(bar.next).toBe(false); // at its place, after the split
    // The Llama preset groups its K/V heads too (GQA has no step of its own).
    expect(llama.gqa).toBe(true);
    expect(chapterBarWords(bar, llama, en).holds.text).toBe('This run turns on RoPE, grouped-query attention.');
    expect(chapterBarWords(bar, llama, zh).holds.text).toBe('本次运行打开了 RoPE、分组查询注意力。');
  });

  test('a sink logit, one or one per head, has no step in the variants chapter: its bar says it is on', () => {
    for (const [sinkLogit, words] of [
      ['0.5', ['a sink logit', '汇聚 logit']],
      ['0.5, -1', ['a learned sink logit per head', '每个头学到的汇聚 logit']],
    ]) {
      const { run } = runOf({ ...presetSettings(DEFAULT_PRESET), numHeads: 2, sinkLogit });
      const bars = pipelineItems(run, { chapters: PLAIN_PATH }).filter((item) => item.bar);
      const bar = bars.find((item) => item.bar.chapter.key === 'variants').bar;
      expect(chapterBarWords(bar, run, en).holds.text).toBe(`This run turns on ${words[0]}.`);
      expect(chapterBarWords(bar, run, zh).holds.text).toBe(`本次运行打开了 ${words[1]}。`);
    }
  });

  test('GQA and a window have no step of their own: the bars still say they are on', () => {
    const settings = { ...presetSettings(DEFAULT_PRESET), mask: 'causal', numHeads: 4, numKVHeads: 2, window: 2 };
    const { run } = runOf(settings);
    const bars = pipelineItems(run, { chapters: PLAIN_PATH }).filter((item) => item.bar);
    const bar = (key) => bars.find((item) => item.bar.chapter.key === key).bar;
    expect(bar('variants').steps).toEqual([]);
    expect(chapterBarWords(bar('variants'), run, en).holds.text).toBe(
      'This run turns on grouped-query attention, a sliding window.',
    );
    expect(chapterBarWords(bar('variants'), run, zh).holds.text).toBe('本次运行打开了 分组查询注意力、滑动窗口。');
    const { D } = run.result.sizes;
    expect(chapterBarWords(bar('heads'), run, en).holds.text).toBe(
      `This run splits Q into 4 heads of ${D / 4} numbers each and K and V into 2 heads that the query heads share, and joins the heads’ outputs back into ${D} numbers per token.`,
    );
    for (const t of [en, zh])
      for (const key of ['heads', 'variants'])
        expect(
          checkSentence(chapterBarWords(bar(key), run, t).holds, { result: run.result, b: 0, h: 0, decimals: 4 }),
        ).toEqual([]);
  });

  test('an open chapter none of whose steps applies says how to turn one on, with a button that closes it', () => {
    const { run } = runOf(presetSettings(DEFAULT_PRESET));
    const items = pipelineItems(run, { chapters: withChapter(PLAIN_PATH, 'variants', true) });
    const bar = items.find((item) => item.bar?.chapter.key === 'variants').bar;
    expect(bar.open).toBe(true);
    expect(chapterBarWords(bar, run, en).action.text).toBe('Close chapter 3');
    // The trained model's chapter is a setting: no bar where the shell cannot switch it.
    expect(pipelineItems(run, { chapters: PLAIN_PATH }).some((item) => item.bar?.chapter.key === 'trained')).toBe(
      false,
    );
  });
});

describe('what opens a chapter', () => {
  test('a preset opens the chapters its run uses; the default example (two heads) is the plain path', () => {
    const used = (key) => chaptersUsedBy(runOf(presetSettings(presetByKey.get(key))).run);
    expect(used('llama')).toEqual(['heads', 'variants']);
    expect(used('multi-query')).toEqual(['heads', 'variants']); // GQA: no step of its own, a variant all the same
    expect(used('tutorial')).toEqual([]);
  });

  test('turning RoPE on asks for the variants; a second head does not open the heads', () => {
    const base = presetSettings(DEFAULT_PRESET);
    const before = runOf({ ...base, numHeads: 1 }).run;
    expect(chaptersAskedBy(before, runOf(base).run)).toEqual([]);
    const rope = runOf({ ...base, 'rope.style': 'rotate-half' }).run;
    expect(chaptersAskedBy(runOf(base).run, rope)).toEqual(['variants']);
    expect(chaptersAskedBy(rope, rope)).toEqual([]); // already on: closing it stays closed
  });
});
