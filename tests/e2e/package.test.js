// The npm package as a user gets it: npm pack, install the tarball into an
// empty folder, then use the API from Node, the CLI through npx, and the
// element in Chromium from the installed files.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { compareTensors, readFixture } from '../js/fixtures.js';
import { launchBrowser, serveFolder } from './browser.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let app;
let installed;

beforeAll(() => {
  const dir = mkdtempSync(`${tmpdir()}/attention-lab-pack-`);
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repo, encoding: 'utf8' }),
  );
  app = `${dir}/app`;
  mkdirSync(app);
  writeFileSync(`${app}/package.json`, JSON.stringify({ name: 'pack-test', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', `${dir}/${packed[0].filename}`], {
    cwd: app,
    stdio: 'pipe',
  });
  installed = `${app}/node_modules/attention-lab/`;
}, 120_000);

describe('the packed package', () => {
  test('ships what it exports, and no sources it does not need', () => {
    const pkg = JSON.parse(readFileSync(`${installed}package.json`, 'utf8'));
    expect(pkg.exports['.'].types).toBe('./web/api/index.d.ts');
    for (const file of [
      'web/api/index.js',
      'web/api/index.d.ts',
      'web/api/generated/attention-lab-wasm.js',
      'web/cli/attention-lab.js',
      'web/i18n/index.js',
      'web/model/export.js',
      'web/model/schema.js',
      'web/model/settings.js',
      'dist/attention-lab-element.js',
      'dist/attention-lab.html',
      'web/element/attention-lab-element.d.ts',
    ]) {
      expect(() => readFileSync(installed + file), file).not.toThrow();
    }
    expect(() => readFileSync(`${installed}cpp/core/attention.cpp`)).toThrow();
  });

  test('the API works from Node', () => {
    const script = `
      import { loadAttentionLab, AttentionConfigError } from 'attention-lab';
      const lab = await loadAttentionLab();
      const fixture = ${JSON.stringify(readFixture('cat-4-heads').config)};
      const result = lab.run(fixture, { tensors: ['weights', 'output'] });
      let field = null;
      try { lab.run({ text: 'a', dModel: 6, numHeads: 4 }); } catch (e) { field = e instanceof AttentionConfigError && e.field; }
      console.log(JSON.stringify({ field, tensors: Object.fromEntries(Object.entries(result.tensors).map(([k, t]) => [k, { shape: t.shape, data: Array.from(t.data) }])) }));`;
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' });
    expect(out.stderr).toBe('');
    const { field, tensors } = JSON.parse(out.stdout);
    expect(field).toBe('numHeads');
    const { expected } = readFixture('cat-4-heads');
    expect(
      compareTensors({ weights: expected.tensors.weights, output: expected.tensors.output }, tensors).problems,
    ).toEqual([]);
  });

  test('npx attention-lab works from the install', () => {
    const out = spawnSync(
      'npx',
      [
        '--offline',
        'attention-lab',
        '--text',
        'The cat that the dog chased was black',
        '--heads',
        '4',
        '--tensors',
        'output',
      ],
      { cwd: app, encoding: 'utf8' },
    );
    expect(out.status).toBe(0);
    const { expected } = readFixture('cat-4-heads');
    expect(compareTensors({ output: expected.tensors.output }, JSON.parse(out.stdout).tensors).problems).toEqual([]);
    const bad = spawnSync('npx', ['--offline', 'attention-lab', '--text', ''], { cwd: app, encoding: 'utf8' });
    expect(bad.status).toBe(3); // a bad config (2 is now bad flags, 1 the engine stopping)
    expect(bad.stderr).toContain('text is empty');
  });

  test('the element loads in Chromium from the installed files', async () => {
    const server = await serveFolder(`${installed}dist`, '/', {
      '/test.html': `<!doctype html><meta charset="utf-8"><attention-lab id="a" text="The cat that the dog chased was black" heads="4"></attention-lab>
        <script type="module" src="./attention-lab-element.js"></script>`,
    });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}test.html`);
      await page.waitForFunction(() => document.getElementById('a').result);
      const output = await page.evaluate(() => Array.from(document.getElementById('a').result.tensors.output.data));
      const { expected } = readFixture('cat-4-heads');
      expect(
        compareTensors(
          { output: expected.tensors.output },
          { output: { shape: expected.tensors.output.shape, data: output } },
        ).problems,
      ).toEqual([]);
      expect(
        await page.evaluate(() => document.getElementById('a').shadowRoot.querySelectorAll('table.matrix').length),
      ).toBeGreaterThan(10);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
