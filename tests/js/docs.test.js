// The README and the pages it links (web/docs/): a README read in a minute, in
// English and Chinese, whose every relative link and #anchor reaches a file and
// a heading of this checkout.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, test } from 'vitest';

const repo = new URL('../../', import.meta.url).pathname;
const PAGES = [
  'README.md',
  ...readdirSync(join(repo, 'web/docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `web/docs/${f}`),
];
const read = (path) => readFileSync(join(repo, path), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The headings' anchors of a markdown file (code blocks skipped). */
function anchors(text) {
  const outside = text.replace(/```[\s\S]*?```/g, '');
  return new Set([...outside.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1])));
}

/** [target, anchor] of every relative link (images too) outside code blocks. */
function links(text) {
  const outside = text.replace(/```[\s\S]*?```/g, '');
  return [...outside.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => href.split('#'));
}

describe('the README and web/docs', () => {
  test.each(PAGES)('%s: every relative link and anchor resolves', (page) => {
    for (const [target, anchor] of links(read(page))) {
      const path = target ? normalize(join(dirname(page), target)) : page;
      expect(existsSync(join(repo, path)), `${page} → ${target}`).toBe(true);
      if (anchor) expect(anchors(read(path)), `${page} → ${target}#${anchor}`).toContain(anchor);
    }
  });

  test('the README reads in a minute: under 80 lines, a picture, both commands, the three doors', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(80);
    expect(readme).toMatch(/!\[[^\]]+\]\(web\/docs\/screenshot\.png\)/);
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
    expect(readme).toMatch(/## Three doors/);
  });

  test('the Chinese README links the same pages as the English one', () => {
    const pagesOf = (page) =>
      new Set(
        links(read(page))
          .map(([target]) => normalize(join(dirname(page), target)))
          .filter((p) => p !== 'README.md' && p !== 'web/docs/README.zh.md'),
      );
    expect([...pagesOf('web/docs/README.zh.md')].sort()).toEqual([...pagesOf('README.md')].sort());
    expect(read('README.md')).toContain('](web/docs/README.zh.md)');
  });
});
