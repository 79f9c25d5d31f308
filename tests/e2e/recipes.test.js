// The authors' recipes (web/docs/authors.md), run exactly as written there (the CDN
// address replaced by the installed file) against the packed package
// installed in a temp folder: a plain HTML page opened from file:// (and the
// same page over http with a module script), a VitePress 1.6 site built with
// `vitepress build` (light, dark, Chinese), and Jupyter notebook cells run by
// Debian's `jupyter nbconvert --execute --to html`. Each checks PyTorch's
// numbers in what the element computed and shows.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveFolder } from './browser.js';
import { expectPyTorchNumbers, packAndInstall, renderedElement, repo } from './packed.js';
import { CDN, RECIPE_NAMES, STANDALONE, backgroundLuminance, newPage, readme, recipe } from './recipes.js';
import { connectBrowser, shot } from './suite.js';

const STANDALONE_ZH = 'dist/attention-lab-element.standalone.zh.js';
const STRINGS_ZH = 'dist/standalone/zh.js';
const STRINGS_EN = 'dist/standalone/en.js';
// The cell explanations, a part each script loads once its first result is shown.
const EXPLANATIONS = 'dist/standalone/cells.js';

let dir;
let app;
let installed;
let browser;

beforeAll(async () => {
  ({ dir, app, installed } = packAndInstall('attention-lab-recipes-'));
  browser = await connectBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true }); // the symlinks go, not what they point to
});

test("the built authors' page shows every recipe of web/docs/authors.md, in its order, as it has it", () => {
  const built = readFileSync(`${repo}dist/authors.html`, 'utf8');
  const unescape = (html) => html.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  const blocks = [...built.matchAll(/<code data-recipe="([\w-]+)">([\s\S]*?)<\/code>/g)];
  expect(RECIPE_NAMES.length).toBeGreaterThanOrEqual(15); // the docs' 15 recipes, not a parser that finds none
  expect(blocks.map(([, name]) => name)).toEqual(RECIPE_NAMES);
  for (const [, name, code] of blocks) expect(unescape(code), name).toBe(recipe(name));
  // The page's source names them only (one source: the docs).
  const source = readFileSync(`${repo}web/authors.html`, 'utf8');
  expect([...source.matchAll(/<code data-recipe="[\w-]+"><\/code>/g)].length).toBe(RECIPE_NAMES.length);
  expect(built).not.toContain('YOUR-HOST');
});

test("the authors' page has a heading and a text in English and in Chinese for every site generator", async () => {
  // Each generator's recipes (`docusaurus-config`, …) sit under its heading, authors.recipes.NAME.heading.
  const source = readFileSync(`${repo}web/authors.html`, 'utf8');
  const sections = source.split(/(?=<h3 data-i18n="authors\.recipes\.)/).slice(1);
  const generators = sections.map((html) => html.match(/authors\.recipes\.([\w]+)\.heading/)[1]);
  expect(generators).toEqual(['html', 'vitepress', 'docusaurus', 'astro', 'mkdocs', 'hexo', 'jupyter']);
  const { en, zh } = (await import('../../web/i18n/authors.js')).default;
  for (const [i, html] of sections.entries()) {
    const keys = [...html.matchAll(/data-i18n(?:-html)?="(authors\.recipes\.[\w.]+)"/g)].map((m) => m[1]);
    expect(keys.length, generators[i]).toBeGreaterThanOrEqual(2);
    for (const key of keys) {
      expect(en[key], key).toBeTruthy();
      expect(zh[key], key).toBeTruthy();
    }
    // Each recipe under a generator's heading is one of its own (plain-html under html, astro-page under astro, …).
    const names = [...html.matchAll(/data-recipe="([\w-]+)"/g)].map((m) => m[1]);
    const prefix = generators[i] === 'html' ? 'plain-html' : generators[i];
    for (const name of names) expect(name.startsWith(prefix), `${name} under ${generators[i]}`).toBe(true);
  }
});

test("the builds table states each standalone file's size and gzipped size as built, each within its budget", () => {
  const kib = (bytes) => Math.round(bytes / 1024);
  for (const file of [STANDALONE, STANDALONE_ZH]) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${file}\``));
    const [, size, gzipped] = row.match(/\((?:[^()]*; )?(\d+) KiB, (\d+) KiB gzipped\)/);
    const bytes = readFileSync(`${repo}${file}`);
    console.log(`${file}: ${kib(bytes.length)} KiB, ${kib(gzipSync(bytes, { level: 9 }).length)} KiB gzipped`);
    // Within 2 KiB: the wasm and the strings change by a few bytes from one build to the next.
    expect(Math.abs(Number(size) - kib(bytes.length)), file).toBeLessThanOrEqual(2);
    expect(Math.abs(Number(gzipped) - kib(gzipSync(bytes, { level: 9 }).length)), file).toBeLessThanOrEqual(2);
    // The budget: one language's script at most 250 KB gzipped (the authors' issue).
    expect(gzipSync(bytes, { level: 9 }).length, file).toBeLessThanOrEqual(250_000);
  }
});

describe('plain HTML', () => {
  test('the recipes name real files of this version', () => {
    expect(recipe('plain-html')).toContain(`${CDN}${STANDALONE}`);
    expect(existsSync(`${installed}${STANDALONE}`)).toBe(true);
  });

  test('opened from file:// with the classic script beside it: PyTorch numbers, no network, English and Chinese', async () => {
    const site = `${app}/site`;
    mkdirSync(site, { recursive: true });
    mkdirSync(`${site}/standalone`, { recursive: true });
    for (const file of [STANDALONE, STANDALONE_ZH, STRINGS_ZH, STRINGS_EN, EXPLANATIONS])
      copyFileSync(`${installed}${file}`, `${site}/${file.replace('dist/', '')}`);
    const html = recipe('plain-html').replace(`${CDN}${STANDALONE}`, './attention-lab-element.standalone.js');
    const zh = html.replace('<html lang="en">', '<html lang="zh-CN">');
    writeFileSync(`${site}/index.html`, html);
    writeFileSync(`${site}/zh.html`, zh);
    const chineseScript = (page) =>
      page.replace('attention-lab-element.standalone.js', 'attention-lab-element.standalone.zh.js');
    writeFileSync(`${site}/zh-only.html`, chineseScript(zh));
    writeFileSync(`${site}/en-from-zh.html`, chineseScript(html));
    // Each script carries its language and loads the other from beside it.
    for (const [file, headLabel, loaded] of [
      ['index.html', 'Head', [STANDALONE]],
      ['zh.html', '注意力头', [STANDALONE, STRINGS_ZH]],
      ['zh-only.html', '注意力头', [STANDALONE_ZH]],
      ['en-from-zh.html', 'Head', [STANDALONE_ZH, STRINGS_EN]],
    ]) {
      const { context, page, problems } = await newPage(browser, { offline: true });
      const requests = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        requests.push(url);
        return url.startsWith('file://') ? route.continue() : route.abort();
      });
      await page.goto(`file://${site}/${file}`);
      const rendered = await renderedElement(page);
      expectPyTorchNumbers(rendered, `plain HTML from file:// (${file})`);
      await page.waitForFunction(
        ([label]) =>
          document.querySelector('attention-lab').shadowRoot.querySelector('.bar')?.textContent.includes(label),
        [headLabel],
      );
      await shot(page, `recipe-plain-${file.replace('.html', '')}`);
      // The explanations' part comes last, once the first result is shown.
      await expect.poll(() => requests.some((url) => url.endsWith('/standalone/cells.js'))).toBe(true);
      expect(requests).toEqual([
        `file://${site}/${file}`,
        ...[...loaded, EXPLANATIONS].map((f) => `file://${site}/${f.replace('dist/', '')}`),
      ]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  test('the same page over http with <script type="module" src>', async () => {
    const html = recipe('plain-html')
      .replace(`${CDN}${STANDALONE}`, `./${STANDALONE}`)
      .replace('<script src=', '<script type="module" src=');
    const server = await serveFolder(installed, '/', { '/module.html': html });
    try {
      const { context, page, problems } = await newPage(browser);
      await page.goto(`${server.url}module.html`);
      expectPyTorchNumbers(await renderedElement(page), 'plain HTML, module script');
      expect(problems.filter((p) => !p.includes('favicon'))).toEqual([]);
      await context.close();
    } finally {
      await server.close();
    }
  });
});

describe('VitePress 1.6', () => {
  let site;
  let server;
  let buildOutput;

  beforeAll(async () => {
    // The recipe's three files, where their first line says; a second page in Chinese.
    for (const name of ['vitepress-config', 'vitepress-theme']) {
      const code = recipe(name);
      const path = `${app}/${code.match(/^\/\/ (\S+)/)[1]}`;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, code);
    }
    const page = recipe('vitepress-page');
    writeFileSync(`${app}/docs/index.md`, page);
    writeFileSync(`${app}/docs/zh.md`, page.replace('<attention-lab ', '<attention-lab lang="zh-CN" '));
    // VitePress (and its Vue) as setup.sh --with-vitepress installs them; attention-lab from the tarball.
    const vitepress = `${repo}build/vitepress/node_modules/`;
    for (const name of ['vitepress', 'vue']) symlinkSync(`${vitepress}${name}`, `${app}/node_modules/${name}`);
    const build = spawnSync(process.execPath, [`${vitepress}vitepress/bin/vitepress.js`, 'build', 'docs'], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    expect(build.status, build.stderr + build.stdout).toBe(0);
    buildOutput = build.stderr + build.stdout;
    site = `${app}/docs/.vitepress/dist`;
    server = await serveFolder(site, '/');
  }, 240_000);

  afterAll(async () => {
    await server?.close();
  });

  test('the built site renders the element with PyTorch numbers, light and dark, following the switch', async () => {
    for (const colorScheme of ['light', 'dark']) {
      const { context, page, problems } = await newPage(browser, { colorScheme });
      await page.goto(`${server.url}index.html`);
      expectPyTorchNumbers(await renderedElement(page), `VitePress (${colorScheme})`);
      const dark = colorScheme === 'dark';
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(dark);
      expect(await page.locator('attention-lab').getAttribute('theme')).toBe(colorScheme);
      const luminance = await backgroundLuminance(page);
      expect(dark ? luminance < 0.2 : luminance > 0.9, `background luminance ${luminance}`).toBe(true);
      await shot(page, `recipe-vitepress-${colorScheme}`);
      // VitePress's appearance switch turns the element over too.
      await page.locator('.VPSwitchAppearance:visible').first().click();
      await expect.poll(() => page.locator('attention-lab').getAttribute('theme')).toBe(dark ? 'light' : 'dark');
      expect(problems.filter((p) => !p.includes('favicon'))).toEqual([]);
      await context.close();
    }
  });

  test('a page in Chinese (lang="zh-CN")', async () => {
    const { context, page, problems } = await newPage(browser);
    await page.goto(`${server.url}zh.html`);
    const rendered = await renderedElement(page);
    expectPyTorchNumbers(rendered, 'VitePress (zh-CN)');
    expect(rendered.lang).toContain('注意力头');
    await shot(page, 'recipe-vitepress-zh');
    expect(problems.filter((p) => !p.includes('favicon'))).toEqual([]);
    await context.close();
  });

  test('the build (Vite, Rollup) prints no warning from the package', () => {
    const ours = buildOutput
      .split('\n')
      .filter((line) => /warn|\(!\)|critical/i.test(line) && line.includes('attention-lab'));
    expect(ours).toEqual([]);
  });

  test('"attention-lab/vue" types <attention-lab> in Vue (GlobalComponents), with the site\'s Vue', () => {
    copyFileSync(`${repo}tests/types/vue-usage.ts`, `${app}/vue-usage.ts`);
    const options = [
      '--strict',
      '--noEmit',
      '--target',
      'ES2022',
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
    ];
    const tsc = (file) =>
      spawnSync(
        process.execPath,
        [`${repo}node_modules/typescript/bin/tsc`, ...options, '--lib', 'ES2022,DOM', '--skipLibCheck', file],
        {
          cwd: app,
          encoding: 'utf8',
        },
      );
    const out = tsc('vue-usage.ts');
    expect(out.stdout + out.stderr).toBe('');
    // Without their @ts-expect-error, the two misuses are errors.
    writeFileSync(
      `${app}/vue-misuse.ts`,
      readFileSync(`${app}/vue-usage.ts`, 'utf8').replaceAll('// @ts-expect-error', '//'),
    );
    expect(tsc('vue-misuse.ts').stdout.match(/error TS\d+/g)).toHaveLength(2);
  });

  test('the server-side render (vitepress build in Node) writes the element and its attributes into the HTML', () => {
    const html = readFileSync(`${site}/index.html`, 'utf8');
    expect(html).toMatch(/<attention-lab text="The cat that the dog chased was black" heads="4"/);
  });
});

describe('Jupyter notebook cells', () => {
  const NBCONVERT = '/usr/bin/jupyter-nbconvert';
  const notebook = (source) =>
    JSON.stringify({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
      cells: [{ cell_type: 'code', id: 'recipe', metadata: {}, execution_count: null, outputs: [], source }],
    });

  test('jupyter nbconvert --execute --to html: the CDN cell and the offline cell render the element', async () => {
    expect(existsSync(NBCONVERT), "needs Debian's jupyter-nbconvert: bash web/scripts/setup.sh --with-jupyter").toBe(
      true,
    );
    // The CDN cell's address served from the installed package.
    const cdn = await serveFolder(installed, '/');
    try {
      writeFileSync(`${app}/cdn.ipynb`, notebook(recipe('jupyter-cdn').replace(CDN, cdn.url)));
      writeFileSync(`${app}/offline.ipynb`, notebook(recipe('jupyter-offline')));
      const run = spawnSync(NBCONVERT, ['--execute', '--to', 'html', 'cdn.ipynb', 'offline.ipynb'], {
        cwd: app,
        encoding: 'utf8',
        env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: '1' },
        timeout: 180_000,
      });
      expect(run.status, run.stderr).toBe(0);
      for (const name of ['cdn', 'offline']) {
        const { context, page, problems } = await newPage(browser);
        await page.goto(`file://${app}/${name}.html`);
        expectPyTorchNumbers(await renderedElement(page), `Jupyter (${name} cell)`);
        await shot(page, `recipe-jupyter-${name}`);
        // Debian's nbconvert template links its own require.js and MathJax under /usr/share/javascript.
        const ours = problems.filter((p) => !p.includes('/usr/share/javascript/'));
        expect(ours).toEqual([]);
        await context.close();
      }
    } finally {
      await cdn.close();
    }
  }, 240_000);
});
