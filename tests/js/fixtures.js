// Reads the PyTorch fixtures (tests/reference/fixtures) and compares tensors
// with the tolerance of the engine issue: |ours - torch| <= 1e-5 + 1e-4 |torch|.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const dir = fileURLToPath(new URL('../reference/fixtures/', import.meta.url));

export const fixtureDir = dir;
export const fixtureNames = JSON.parse(readFileSync(dir + 'index.json', 'utf8'));
export const readFixture = (name) => JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8'));

// "NaN" / "Infinity" / "-Infinity" strings in the fixtures are those numbers.
const fixtureNumber = (x) => (typeof x === 'string' ? Number(x) : x);

/**
 * Compares `got` ({name: {shape, data}}) with a fixture's expected tensors.
 * `nonFiniteAs` maps a non-finite expected value to what `got` must hold
 * (the CLI prints null for them); `scaleOf(name)`, when it gives an array,
 * is what the 1e-4 is relative to instead of |torch| where larger (the size
 * of the products a sum cancels). Returns {worst, worstName, problems}.
 */
export function compareTensors(expected, got, { nonFiniteAs = (x) => x, scaleOf = () => null } = {}) {
  const problems = [];
  let worst = 0;
  let worstName = '';
  const expectedNames = Object.keys(expected).sort();
  const gotNames = Object.keys(got).sort();
  if (expectedNames.join() !== gotNames.join()) problems.push(`tensor names: ${gotNames} vs ${expectedNames}`);
  for (const name of expectedNames) {
    const want = expected[name];
    const have = got[name];
    if (!have) continue;
    if (have.shape.join() !== want.shape.join()) {
      problems.push(`${name}: shape ${have.shape} vs ${want.shape}`);
      continue;
    }
    const scale = scaleOf(name);
    for (let i = 0; i < want.data.length; i++) {
      const e = fixtureNumber(want.data[i]);
      const g = have.data[i];
      if (!Number.isFinite(e)) {
        if (!Object.is(nonFiniteAs(e), g)) problems.push(`${name}[${i}]: ${g} vs ${e}`);
        continue;
      }
      const diff = Math.abs(g - e);
      if (diff > worst || Number.isNaN(diff)) {
        worst = diff;
        worstName = name;
      }
      const relative = scale ? Math.max(Math.abs(e), scale[i]) : Math.abs(e);
      if (!(diff <= 1e-5 + 1e-4 * relative)) problems.push(`${name}[${i}]: ${g} vs torch ${e}`);
    }
  }
  return { worst, worstName, problems: problems.slice(0, 5) };
}

/**
 * Collects each fixture's compareTensors outcome and, after the file's tests,
 * prints the worst difference of them all: "`what` over N fixtures: worst
 * |ours - torch| = … (fixture: tensor)". Returns record(name, {worst, worstName}).
 */
export function reportWorst(what) {
  const rows = [];
  afterAll(() => {
    const overall = rows.reduce((a, b) => (b.worst > a.worst ? b : a), { worst: 0 });
    console.log(
      `${what} over ${rows.length} fixtures: worst |ours - torch| = ${overall.worst.toExponential(3)} (${overall.name}: ${overall.tensor})`,
    );
  });
  return (name, { worst, worstName }) => rows.push({ name, worst, tensor: worstName });
}
