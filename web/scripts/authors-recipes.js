// The authors' recipes have one source, web/docs/authors.md: each is the
// code block after a `<!-- recipe: NAME -->` line. The authors' page
// (authors.html) names them, `<code data-recipe="NAME"></code>`, and this
// Vite plugin writes each one's text in at build (and in the dev server);
// the tests (tests/e2e/recipes.js) read them from here too and run them.
import { readFileSync } from 'node:fs';

export const AUTHORS_MD = new URL('../docs/authors.md', import.meta.url);

const RECIPE = /<!-- recipe: ([\w-]+) -->\n```\w+\n([\s\S]*?)\n```\n/g;

/** The recipes of `markdown` (authors.md's text by default): a Map from name to code, in the page's order. */
export function docRecipes(markdown = readFileSync(AUTHORS_MD, 'utf8')) {
  return new Map([...markdown.matchAll(RECIPE)].map(([, name, code]) => [name, code]));
}

const escapeHtml = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export const authorsRecipes = {
  name: 'attention-lab-authors-recipes',
  // 'pre': before Vite reads the page's scripts, so a recipe's <script> stays text.
  transformIndexHtml: {
    order: 'pre',
    handler(html) {
      if (!html.includes('data-recipe=')) return html;
      const recipes = docRecipes();
      return html.replace(/<code data-recipe="([\w-]+)"><\/code>/g, (_, name) => {
        if (!recipes.has(name)) throw new Error(`authors.html names recipe "${name}", which web/docs/authors.md lacks`);
        return `<code data-recipe="${name}">${escapeHtml(recipes.get(name))}</code>`;
      });
    },
  },
};
