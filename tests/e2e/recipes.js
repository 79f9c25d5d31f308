// What the recipes' tests share (recipes.test.js, recipe-sites.test.js): the
// recipes as web/docs/authors.md writes them, a browser page that records
// errors, the element's rendered background, and a site folder with the
// generator that web/scripts/setup.sh --with-NAME installed in build/NAME.
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AUTHORS_MD, docRecipes } from '../../web/scripts/authors-recipes.js';
import { repo } from './packed.js';

export const readme = readFileSync(AUTHORS_MD, 'utf8');
const RECIPES = docRecipes(readme);
const { version } = JSON.parse(readFileSync(`${repo}package.json`, 'utf8'));
export const STANDALONE = 'dist/attention-lab-element.standalone.js';
export const CDN = `https://cdn.jsdelivr.net/npm/attention-lab@${version}/`;

/** The code block that follows `<!-- recipe: name -->` in web/docs/authors.md. */
export function recipe(name) {
  if (!RECIPES.has(name)) throw new Error(`web/docs/authors.md: no recipe "${name}"`);
  return RECIPES.get(name);
}

/** The names of web/docs/authors.md's recipes, in its order. */
export const RECIPE_NAMES = [...RECIPES.keys()];

/** Writes `text` to `folder`/`path`, making the folders on the way. */
export function writeInto(folder, path, text) {
  mkdirSync(dirname(`${folder}/${path}`), { recursive: true });
  writeFileSync(`${folder}/${path}`, text);
}

/**
 * Writes a recipe where its first comment line says (`// src/x.js`, `// src/pages/index.astro`), changed by
 * `edit` (another recipe's lines added); its path.
 */
export function writeRecipe(folder, name, edit = (code) => code) {
  const code = recipe(name);
  const path = code.match(/^(?:---\n)?\/\/ (\S+)/)[1];
  writeInto(folder, path, edit(code));
  return path;
}

/**
 * A site folder: node_modules holding the packed package (`installed`) and every package that
 * setup.sh --with-`generator` installed in build/`generator` (as symlinks: nothing is copied).
 */
export function siteFolder(folder, generator, installed, packageJson = { name: `${generator}-site`, private: true }) {
  const modules = `${repo}build/${generator}/node_modules`;
  if (!existsSync(modules)) throw new Error(`needs ${generator}: bash web/scripts/setup.sh --with-${generator}`);
  mkdirSync(`${folder}/node_modules`, { recursive: true });
  writeFileSync(`${folder}/package.json`, JSON.stringify(packageJson));
  symlinkSync(installed, `${folder}/node_modules/attention-lab`);
  for (const name of readdirSync(modules))
    if (name !== 'attention-lab' && !name.startsWith('.'))
      symlinkSync(`${modules}/${name}`, `${folder}/node_modules/${name}`);
  return folder;
}

/** A fresh browser context that records page errors and console errors (a missing favicon aside). */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()} (${m.location().url})`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
  return { context, page, problems };
}

/** The element's background as rendered: its relative luminance from 0 (black) to 1 (white). */
export const backgroundLuminance = (page, selector = 'attention-lab') =>
  page.$eval(selector, (el) => {
    const [r, g, b] = getComputedStyle(el).backgroundColor.match(/\d+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  });
