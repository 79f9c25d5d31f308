// Steps whose code travels as a part of its own (MLA's, differential attention's: registry.js): a stub with its key, name, chapter and
// applies from the start, the rest loaded with the first run that needs it, and a clear error before.
import { describe, expect, test } from 'vitest';
import { loadStepsFor, stepByKey, STEP_NAMES } from '../../web/view/steps/registry.js';
import { runSettings } from '../../web/model/run-settings.js';

const MLA_STEPS = ['mlalatent', 'mlarope', 'mlapaths', 'mlacache'];

describe('steps loaded with the run that needs them', () => {
  test('before: names and chapters are there, the words are not', () => {
    for (const key of MLA_STEPS) {
      const step = stepByKey(key);
      expect(STEP_NAMES[key]).toBe(step.name);
      expect(step.applies({ mla: true })).toBe(true);
      expect(step.applies({ mla: false })).toBe(false);
      expect(() => step.words).toThrow(/not loaded/);
    }
  });

  test('a run without MLA loads none of them; one with MLA loads all four', async () => {
    await loadStepsFor(runSettings({ dModel: 8 }));
    expect(() => stepByKey('mlapaths').render).toThrow(/not loaded/);
    await loadStepsFor(runSettings({ 'mla.kvRank': 4, 'mla.nopeDim': 2, 'mla.ropeDim': 2, 'mla.valueDim': 2 }));
    for (const key of MLA_STEPS) expect(typeof stepByKey(key).words).toBe('function');
  });
});
