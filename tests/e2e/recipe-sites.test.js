// The authors' recipes for Docusaurus 3 (webpack, and rspack with Docusaurus
// Faster), Astro 5, MkDocs Material and Hexo 7 (web/docs/authors.md), each
// written into a fresh site exactly as the page says (the CDN address
// replaced by the installed file), built by the generator
// web/scripts/setup.sh --with-NAME installed (build/NAME; MkDocs from
// Debian), with the packed package installed in a temp folder. Each build's
// warnings are counted (Docusaurus's, Astro's and esbuild's: none at all;
// MkDocs's and Hexo's are printed), the built site is served and its element
// shows PyTorch's numbers, in English and in Chinese, light on a light site
// and dark on a dark one: it follows the site's own switch, not the reader's
// OS (each check asks the browser for the other scheme than the site's).
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveFolder } from './browser.js';
import { expectPyTorchNumbers, packAndInstall, renderedElement, repo } from './packed.js';
import {
  CDN,
  STANDALONE,
  backgroundLuminance,
  newPage,
  recipe,
  siteFolder,
  writeInto,
  writeRecipe,
} from './recipes.js';
import { connectBrowser, shot } from './suite.js';

const ZH = '注意力头'; // the Chinese bar's "Head"
const isLight = (luminance) => luminance > 0.9;
const isDark = (luminance) => luminance < 0.2;

let dir;
let installed;
let browser;

beforeAll(async () => {
  ({ dir, installed } = packAndInstall('attention-lab-sites-'));
  browser = await connectBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true }); // the symlinks go, not what they point to
});

/** Runs a build; its output, its exit status and its seconds (printed, to keep CI's time in view). */
function build(label, command, args, cwd) {
  const start = performance.now();
  const run = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 400_000,
  });
  const seconds = (performance.now() - start) / 1000;
  console.log(`${label}: built in ${seconds.toFixed(1)} s`);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.status, output).toBe(0);
  return output;
}

/** The lines of a build's output that warn, and those of them that name the package. */
function warnings(label, output, pattern) {
  const all = output.split('\n').filter((line) => pattern.test(line));
  const ours = all.filter((line) => line.includes('attention-lab'));
  console.log(`${label}: ${all.length} warnings, ${ours.length} from attention-lab`);
  return { all, ours };
}

/** Opens `url` (a dark OS), checks PyTorch's numbers and the language; the page, still open. */
async function openSite(url, label, { lang = 'Head', colorScheme = 'dark' } = {}) {
  const opened = await newPage(browser, { colorScheme });
  await opened.page.goto(url);
  const rendered = await renderedElement(opened.page);
  expectPyTorchNumbers(rendered, label);
  expect(rendered.lang).toContain(lang);
  return opened;
}

/** The element's background is light (or dark) as the site is, polled while the element follows. */
async function expectElementTheme(page, dark, label) {
  await expect
    .poll(() => backgroundLuminance(page), { timeout: 5_000, message: `${label}: element ${dark ? 'dark' : 'light'}` })
    .toSatisfy(dark ? isDark : isLight);
}

// What the sites' themes fetch from the web (this machine has no network): MkDocs Material's Roboto
// from Google Fonts, Hexo landscape's icon font from jsDelivr. The element fetches nothing from there.
const THEMES_OWN = ['https://fonts.googleapis.com/', 'https://cdn.jsdelivr.net/npm/fork-awesome@'];
const noProblems = (problems) =>
  expect(problems.filter((p) => !p.includes('favicon') && !THEMES_OWN.some((url) => p.includes(url)))).toEqual([]);

/**
 * The element follows the site's light/dark, not the reader's OS: light on the light site with the OS dark,
 * and dark once `switchToDark` (the site's own switch) made the site dark, with the OS light.
 */
function themeTests(name, url, { isSiteDark, switchToDark }) {
  test(`${name}: PyTorch's numbers; the element light on the light site, the OS dark`, async () => {
    const { context, page, problems } = await openSite(url(), name, { colorScheme: 'dark' });
    expect(await page.evaluate(isSiteDark)).toBe(false);
    await shot(page, `recipe-${name.toLowerCase()}-light`);
    await expectElementTheme(page, false, `${name} light, OS dark`);
    noProblems(problems);
    await context.close();
  });

  test(`${name}: the element dark after the site's switch made the site dark, the OS light`, async () => {
    const { context, page, problems } = await openSite(url(), name, { colorScheme: 'light' });
    await switchToDark(page);
    expect(await page.evaluate(isSiteDark)).toBe(true);
    await shot(page, `recipe-${name.toLowerCase()}-dark`);
    await expectElementTheme(page, true, `${name} switched dark, OS light`);
    noProblems(problems);
    await context.close();
  });
}

// Docusaurus 3 as the recipe writes it, bundled by webpack (its default; --no-minify: the same modules and
// warnings, in less of CI's time), and with the page's Docusaurus Faster line added to the config: rspack,
// SWC and Lightning CSS, minified as a site ships (here 21 s, against webpack's 58 s unminified).
const withFaster = (config) => config.replace(/\n};$/, `\n${recipe('docusaurus-faster')}\n};`);
describe.each([
  { bundler: 'webpack', name: 'Docusaurus', config: (text) => text, args: ['--no-minify'] },
  { bundler: 'rspack', name: 'Docusaurus-rspack', config: withFaster, args: [] },
])('Docusaurus 3 ($bundler)', ({ bundler, name, config, args }) => {
  let server;
  let output;
  let site;

  beforeAll(async () => {
    // Docusaurus's generated modules use require.resolveWeak: the site's package.json is CommonJS.
    site = siteFolder(`${dir}/${name.toLowerCase()}`, 'docusaurus', installed);
    writeRecipe(site, 'docusaurus-config', config);
    writeRecipe(site, 'docusaurus-client');
    const page = recipe('docusaurus-page');
    writeInto(site, 'docs/index.md', page);
    writeInto(
      site,
      'docs/zh.md',
      page.replace('slug: /', 'slug: /zh').replace('<attention-lab ', '<attention-lab lang="zh-CN" '),
    );
    const cli = `${site}/node_modules/@docusaurus/core/bin/docusaurus.mjs`;
    output = build(name, process.execPath, [cli, 'build', ...args], site);
    server = await serveFolder(`${site}/build`, '/');
  }, 600_000);

  afterAll(async () => {
    await server?.close();
  });

  test(`${bundler} built it`, () => {
    // Each bundler keeps its build cache in node_modules/.cache/NAME; only the one that ran wrote one.
    const other = bundler === 'webpack' ? 'rspack' : 'webpack';
    expect(existsSync(`${site}/node_modules/.cache/${bundler}`)).toBe(true);
    expect(existsSync(`${site}/node_modules/.cache/${other}`)).toBe(false);
  });

  test(`the build (${bundler}, client and server) prints no warning`, () => {
    // Docusaurus prints each of the bundler's warnings as one [WARNING] line (rspack's as JSON naming the module).
    const { all, ours } = warnings(name, output, /\[WARNING\]|Critical dependency/);
    expect(ours).toEqual([]);
    expect(all).toEqual([]);
  });

  themeTests(name, () => server.url, {
    isSiteDark: () => document.documentElement.dataset.theme === 'dark',
    switchToDark: (page) => page.locator('button[aria-label*="dark and light mode"]:visible').first().click(),
  });

  test('a page in Chinese', async () => {
    const { context, page, problems } = await openSite(`${server.url}zh/`, `${name} (zh-CN)`, { lang: ZH });
    await shot(page, `recipe-${name.toLowerCase()}-zh`);
    noProblems(problems);
    await context.close();
  });
});

describe('Astro 5', () => {
  let server;
  let output;

  beforeAll(async () => {
    const site = siteFolder(`${dir}/astro`, 'astro', installed, { name: 'astro-site', private: true, type: 'module' });
    const path = writeRecipe(site, 'astro-page');
    writeInto(site, path.replace('index.astro', 'zh.astro'), recipe('astro-page').replace('lang="en"', 'lang="zh-CN"'));
    writeInto(site, 'astro.config.mjs', 'export default {};\n');
    output = build('Astro', process.execPath, [`${site}/node_modules/astro/astro.js`, 'build'], site);
    server = await serveFolder(`${site}/dist`, '/');
  }, 600_000);

  afterAll(async () => {
    await server?.close();
  });

  test('the build (Vite, Rollup) prints no warning', () => {
    const { all, ours } = warnings('Astro', output, /warn/i);
    expect(ours).toEqual([]);
    expect(all).toEqual([]);
  });

  // Astro has no theme of its own: a site's switch commonly sets a dark class on <html>.
  themeTests('Astro', () => server.url, {
    isSiteDark: () => document.documentElement.classList.contains('dark'),
    switchToDark: (page) => page.evaluate(() => document.documentElement.classList.add('dark')),
  });

  test('a page in Chinese (<html lang="zh-CN">)', async () => {
    const { context, page, problems } = await openSite(`${server.url}zh/`, 'Astro (zh-CN)', { lang: ZH });
    await shot(page, 'recipe-astro-zh');
    noProblems(problems);
    await context.close();
  });
});

describe('esbuild', () => {
  test("bundling import 'attention-lab/element' prints no warning", async () => {
    // Astro's esbuild (Vite's dependency optimizer), as setup.sh --with-astro installed it.
    const site = siteFolder(`${dir}/esbuild`, 'astro', installed);
    const { build: bundle } = await import(`${site}/node_modules/esbuild/lib/main.js`);
    const result = await bundle({
      stdin: { contents: "import 'attention-lab/element';", resolveDir: site },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      outdir: `${site}/out`,
    });
    console.log(`esbuild: ${result.warnings.length} warnings`);
    expect(result.warnings.map((w) => w.text)).toEqual([]);
    expect(result.outputFiles.length).toBeGreaterThan(0);
  });
});

describe('MkDocs Material', () => {
  const MKDOCS = '/usr/bin/mkdocs';
  let server;

  beforeAll(async () => {
    // The CDN address as the saved file's; a second site in Chinese (theme.language).
    const config = recipe('mkdocs-config').replace(`${CDN}${STANDALONE}`, 'attention-lab-element.standalone.js');
    for (const [name, text] of [
      ['en', config],
      ['zh', config.replace('  name: material\n', '  name: material\n  language: zh\n')],
    ]) {
      const site = `${dir}/mkdocs-${name}`;
      writeInto(site, 'mkdocs.yml', text);
      writeInto(site, 'docs/index.md', recipe('mkdocs-page'));
      // Saved into docs/ as the page says: the script and the parts it loads from beside it.
      copyFileSync(`${installed}${STANDALONE}`, `${site}/docs/attention-lab-element.standalone.js`);
      cpSync(`${installed}dist/standalone`, `${site}/docs/standalone`, { recursive: true });
      const output = build(`MkDocs (${name})`, MKDOCS, ['build', '--strict'], site);
      warnings(`MkDocs (${name})`, output, /WARNING/);
    }
    server = await serveFolder(dir, '/');
  }, 300_000);

  afterAll(async () => {
    await server?.close();
  });

  themeTests('MkDocs', () => `${server.url}mkdocs-en/site/`, {
    isSiteDark: () => document.body.dataset.mdColorScheme === 'slate',
    switchToDark: (page) => page.locator('label.md-header__button[for^="__palette"]:visible').first().click(),
  });

  test('a site in Chinese (theme.language: zh, so <html lang="zh">)', async () => {
    const { context, page, problems } = await openSite(`${server.url}mkdocs-zh/site/`, 'MkDocs (zh)', { lang: ZH });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh');
    await shot(page, 'recipe-mkdocs-zh');
    noProblems(problems);
    await context.close();
  });
});

describe('Hexo 7', () => {
  let server;

  beforeAll(async () => {
    // Hexo loads the plugins (renderers, the theme) that the site's package.json depends on.
    const versions = readFileSync(`${repo}build/hexo/version`, 'utf8').trim().split(/\s+/);
    const dependencies = Object.fromEntries(versions.map((spec) => spec.split(/(?<=.)@/)));
    const site = siteFolder(`${dir}/hexo`, 'hexo', installed, {
      name: 'hexo-site',
      private: true,
      hexo: { version: dependencies.hexo },
      dependencies,
    });
    writeRecipe(site, 'hexo-script');
    writeInto(site, '_config.yml', 'title: Attention notes\nlanguage: en\ntheme: landscape\n');
    writeInto(site, 'source/_posts/attention.md', recipe('hexo-post'));
    writeInto(
      site,
      'source/zh/index.md',
      recipe('hexo-post').replace('<attention-lab ', '<attention-lab lang="zh-CN" '),
    );
    const script = `const Hexo = require('hexo'); const hexo = new Hexo(process.cwd(), { silent: true });
      hexo.init().then(() => hexo.call('generate')).then(() => hexo.exit()).catch((e) => { console.error(e); process.exit(1); });`;
    const output = build('Hexo', process.execPath, ['-e', script], site);
    warnings('Hexo', output, /WARN/);
    server = await serveFolder(`${site}/public`, '/');
  }, 300_000);

  afterAll(async () => {
    await server?.close();
  });

  test("PyTorch's numbers on the landscape theme's home page, light (the theme has no dark mode)", async () => {
    const { context, page, problems } = await openSite(server.url, 'Hexo', { colorScheme: 'light' });
    await expectElementTheme(page, false, 'Hexo light');
    await shot(page, 'recipe-hexo');
    noProblems(problems);
    await context.close();
  });

  test('a page in Chinese', async () => {
    const { context, page, problems } = await openSite(`${server.url}zh/`, 'Hexo (zh-CN)', { lang: ZH });
    await shot(page, 'recipe-hexo-zh');
    noProblems(problems);
    await context.close();
  });
});
