// The npm package as a user gets it: npm pack, install the tarball into an
// empty folder, then use the API from Node, the CLI through npx, the element
// in Chromium from the installed files (the module and the standalone
// script); and `npm publish --dry-run` ships what the README promises.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compareTensors, readFixture } from '../js/fixtures.js';
import { CSP } from '../../web/vite.config.js';
import { serveFolder } from './browser.js';
import { FIXTURE_ATTRIBUTES, expectPyTorchNumbers, packAndInstall, renderedElement, repo } from './packed.js';
import { connectBrowser } from './suite.js';

const { en } = JSON.parse(readFileSync(new URL('../reference/tiny/report.json', import.meta.url), 'utf8')).final
  .sentences;

let dir;
let app;
let installed;

beforeAll(() => {
  ({ dir, app, installed } = packAndInstall());
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed package', () => {
  test('ships what it exports, and no sources it does not need', () => {
    const pkg = JSON.parse(readFileSync(`${installed}package.json`, 'utf8'));
    expect(pkg.exports['.'].types).toBe('./web/api/index.d.ts');
    expect(pkg.exports['./element/standalone']).toBe('./dist/attention-lab-element.standalone.js');
    for (const file of [
      'web/api/index.js',
      'web/api/index.d.ts',
      'web/api/generated/schema-types.d.ts', // the types the build wrote from the schema
      'web/api/generated/element-properties.d.ts',
      'web/api/generated/attention-lab-wasm.js',
      'web/cli/attention-lab.js',
      'web/i18n/index.js',
      'web/model/export.js',
      'web/model/schema.js',
      'web/model/settings.js',
      'dist/attention-lab-element.js',
      'dist/attention-lab-element.standalone.js',
      'dist/attention-lab-element.standalone.zh.js',
      'dist/standalone/zh.js', // … and what it loads when needed, beside it
      'dist/standalone/trained-view.js',
      'dist/attention-lab.html',
      'web/element/attention-lab-element.d.ts',
      'web/element/react.d.ts', // the frameworks' and the editors' declarations of the tag
      'web/element/vue.d.ts',
      'web/element/html-custom-data.json',
      'web/api/node-file.js', // how the API reads its wasm and weights from disk in Node
      'web/api/tiny/step-3000.safetensors', // the tiny model's weights and wasm: read by the Node API and the CLI …
      'web/api/generated/attention-lab-tiny.wasm',
      'dist/tiny/step-0750.safetensors', // … and fetched by the built page, the single file and the standalone element
      'dist/tiny/attention-lab-tiny.wasm',
      'web/api/generated/attention-lab-checkpoint.wasm', // a checkpoint's engine: read by the Node API and the CLI …
      'web/api/checkpoint/node-files.js',
      'dist/checkpoint/attention-lab-checkpoint.wasm', // … and fetched by the built page when a model is opened
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
    // The tiny trained model, its weights read from the install.
    const tiny = spawnSync('npx', ['--offline', 'attention-lab', '--model', 'tiny', '--lang', 'en', en.text], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(tiny.status, tiny.stderr).toBe(0);
    // What PyTorch measured on the shipped weights (tests/reference/tiny/report.json).
    expect(tiny.stdout).toContain(`second copy: ${en.correct} of ${en.total} bytes predicted from the earlier copy`);
  });

  test('the element loads in Chromium from the installed files', async () => {
    const server = await serveFolder(`${installed}dist`, '/', {
      '/test.html': `<!doctype html><meta charset="utf-8"><attention-lab id="a" text="The cat that the dog chased was black" heads="4"></attention-lab>
        <script type="module" src="./attention-lab-element.js"></script>`,
    });
    const browser = await connectBrowser();
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

describe('the standalone element from the package', () => {
  test('attention-lab/element/standalone resolves to the one-file build', () => {
    const out = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "console.log(import.meta.resolve('attention-lab/element/standalone'))"],
      { cwd: app, encoding: 'utf8' },
    );
    expect(out.stdout.trim()).toBe(`file://${installed}dist/attention-lab-element.standalone.js`);
  });

  test("a classic <script src> of the installed file, under the pages' strict CSP, renders PyTorch's numbers and fetches only its explanations' part", async () => {
    const server = await serveFolder(`${installed}dist`, '/', {
      '/classic.html': `<!doctype html><html lang="en"><meta charset="utf-8"><title>classic</title><link rel="icon" href="data:,">
        <meta http-equiv="Content-Security-Policy" content="${CSP}">
        <script src="./attention-lab-element.standalone.js"></script>
        <attention-lab ${FIXTURE_ATTRIBUTES}></attention-lab>`,
    });
    const browser = await connectBrowser();
    try {
      const page = await browser.newPage();
      const problems = [];
      const requests = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      // The cell explanations are a part (standalone/cells.js), fetched once the first result is shown.
      const explanations = page.waitForRequest((r) => r.url().endsWith('/standalone/cells.js'));
      await page.goto(`${server.url}classic.html`);
      expectPyTorchNumbers(await renderedElement(page), 'packed standalone, classic script');
      await explanations;
      // No global but the element, and no chunk, wasm or stylesheet fetched beside it.
      expect(await page.evaluate(() => typeof customElements.get('attention-lab'))).toBe('function');
      expect(requests).toEqual(['/classic.html', '/attention-lab-element.standalone.js', '/standalone/cells.js']);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
  test('its parts load from standalone/ beside it when needed: the Chinese strings, the trained model, the checkpoint view', async () => {
    const server = await serveFolder(`${installed}dist`, '/', {
      '/parts.html': `<!doctype html><html lang="en"><meta charset="utf-8"><title>parts</title><link rel="icon" href="data:,">
        <meta http-equiv="Content-Security-Policy" content="${CSP}">
        <script src="./attention-lab-element.standalone.js"></script>
        <attention-lab id="tiny" model="tiny" lang="zh"></attention-lab>
        <attention-lab id="ck" model="checkpoint"></attention-lab>`,
    });
    const browser = await connectBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
      const problems = [];
      const requests = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      await page.goto(`${server.url}parts.html`);
      await page.waitForFunction(() => document.getElementById('tiny').result?.model === 'tiny', null, {
        timeout: 60_000,
      });
      // The trained model's view, in Chinese: its heads measured by the engine, its labels in Chinese.
      const tiny = await page.$('#tiny');
      expect(await tiny.evaluate((el) => el.result.layers.length)).toBe(2);
      await page.waitForFunction(() =>
        /[\u4e00-\u9fff]/.test(document.getElementById('tiny').shadowRoot.querySelector('.trained-box').textContent),
      );
      // The checkpoint view: its file field, before any file is chosen.
      await page.waitForFunction(() => document.getElementById('ck').shadowRoot.querySelector('input[type="file"]'));
      const parts = requests.filter((path) => path.startsWith('/standalone/')).sort();
      expect(parts).toEqual(
        ['attention-lab-tiny', 'checkpoint-view', 'trained-view', 'zh'].map((name) => `/standalone/${name}.js`),
      );
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});

describe('npm publish --dry-run', () => {
  // The user's own npm config (~/.npmrc, and the npm_config_* variables an npm
  // that runs the tests passes down) is no part of the package: none, offline.
  const publish = () => {
    const userconfig = `${tmpdir()}/attention-lab-empty-npmrc`;
    writeFileSync(userconfig, '');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
    return spawnSync('npm', ['publish', '--dry-run', '--json', '--offline', '--no-update-notifier'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...env, npm_config_userconfig: userconfig },
    });
  };

  test('exits 0, warns only that no one is logged in, and ships what the README promises (no tests, no sources)', () => {
    const out = publish();
    expect(out.status, out.stderr).toBe(0);
    const warnings = out.stderr.split('\n').filter((line) => /^npm (warn|error)/i.test(line));
    expect(warnings.filter((line) => !/requires you to be logged in/.test(line))).toEqual([]);
    const files = JSON.parse(out.stdout)['attention-lab'].files.map((file) => file.path);
    const readme = ['README.md', 'web/docs/authors.md', 'web/authors.html']
      .map((f) => readFileSync(`${repo}${f}`, 'utf8'))
      .join('\n');
    const version = JSON.parse(readFileSync(`${repo}package.json`, 'utf8')).version;
    // Every CDN path in the README and the authors' page is a file of this version's tarball.
    const cdnPaths = [
      ...readme.matchAll(/https:\/\/(?:cdn\.jsdelivr\.net\/npm|unpkg\.com)\/attention-lab@([^/]+)\/([\w./-]+)/g),
    ];
    expect(cdnPaths.length).toBeGreaterThan(1);
    for (const [url, at, path] of cdnPaths) {
      expect(at, url).toBe(version);
      expect(files, url).toContain(path);
    }
    for (const file of [
      'dist/attention-lab-element.standalone.js',
      'dist/attention-lab-element.standalone.zh.js',
      'dist/standalone/zh.js',
      'dist/attention-lab-element.js',
      'dist/attention-lab.html',
      'web/api/index.d.ts',
      'web/element/attention-lab-element.d.ts',
      'web/cli/attention-lab.js',
      'README.md',
      'LICENSE',
    ]) {
      expect(files).toContain(file);
    }
    expect(files.filter((file) => /^(tests|cpp|build)\/|\.test\.js$|^dist\/\.vite\//.test(file))).toEqual([]);
  });
});
