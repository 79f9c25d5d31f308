// The npm package as a user gets it: `npm pack` this checkout, then install
// the tarball into an empty folder (offline: it has no dependencies). Used by
// the package test and the recipes' tests, so both prove the published files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { compareTensors, readFixture } from '../js/fixtures.js';

export const repo = fileURLToPath(new URL('../../', import.meta.url));

/** {dir, app, installed}: the temp folder, the app folder in it, and the installed package's folder (with a /). */
export function packAndInstall(prefix = 'attention-lab-pack-') {
  const dir = mkdtempSync(`${tmpdir()}/${prefix}`);
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repo, encoding: 'utf8' }),
  );
  const app = `${dir}/app`;
  mkdirSync(app);
  writeFileSync(`${app}/package.json`, JSON.stringify({ name: 'pack-test', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', `${dir}/${packed[0].filename}`], {
    cwd: app,
    stdio: 'pipe',
  });
  return { dir, app, installed: `${app}/node_modules/attention-lab/` };
}

// The sentence and heads of the PyTorch fixture cat-4-heads: every recipe's element shows them.
export const FIXTURE = 'cat-4-heads';
export const FIXTURE_ATTRIBUTES = 'text="The cat that the dog chased was black" heads="4"';

/**
 * What the first <attention-lab> matching `selector` computed and shows: its
 * output tensor, the numbers of the output matrix's first row as rendered
 * (to the element's 4 decimals), and how many matrices it drew. Waits for
 * the result (scrolling the element into view: it loads when seen).
 */
export async function renderedElement(page, selector = 'attention-lab') {
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  await page.waitForFunction((s) => document.querySelector(s)?.result, selector, { timeout: 60_000 });
  return page.evaluate((s) => {
    const element = document.querySelector(s);
    const cells = element.shadowRoot.querySelectorAll(
      'table[data-matrix="output"]:not(.sr-only) tbody tr:first-child td',
    );
    return {
      output: Array.from(element.result.tensors.output.data),
      firstRow: Array.from(cells, (td) => Number(td.textContent.replace('\u2212', '-'))),
      matrices: element.shadowRoot.querySelectorAll('table.matrix').length,
      lang: element.shadowRoot.querySelector('.bar')?.textContent ?? '',
    };
  }, selector);
}

/** Checks a renderedElement() against PyTorch's numbers (the fixture), printing the worst difference. */
export function expectPyTorchNumbers(rendered, label) {
  const { expected } = readFixture(FIXTURE);
  const { shape, data } = expected.tensors.output;
  const { worst, problems } = compareTensors({ output: { shape, data } }, { output: { shape, data: rendered.output } });
  console.log(`${label}: output vs PyTorch (${FIXTURE}), worst difference ${worst.toExponential(2)}`);
  expect(problems).toEqual([]);
  // The first row as shown, to 4 decimals: within half a unit of the last digit of PyTorch's value.
  expect(rendered.firstRow).toHaveLength(shape[2]);
  rendered.firstRow.forEach((shown, j) => expect(Math.abs(shown - data[j]), `column ${j}`).toBeLessThanOrEqual(5.1e-5));
  expect(rendered.matrices).toBeGreaterThan(0);
}
