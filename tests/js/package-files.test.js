// The package's "files" hold every module its entry points import: the API
// (index.js, and the checkpoint reader for Node), the CLI. A module left out
// is found here, in Node, before the packed package fails to install
// (tests/e2e/package.test.js packs and installs it).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const covered = (path) =>
  pkg.files.some(
    (entry) => !entry.startsWith('!') && (path === entry || (entry.endsWith('/') && path.startsWith(entry))),
  );

test('every module the entry points import (statically or by import()) is in the package', () => {
  const entries = [pkg.exports['.'].default, pkg.exports['./checkpoint/node'].default, pkg.bin['attention-lab']].map(
    (path) => path.replace(/^\.\//, ''),
  );
  const seen = new Set();
  const missing = [];
  const todo = [...entries];
  while (todo.length) {
    const path = todo.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    const text = readFileSync(root + path, 'utf8');
    for (const [, from, dynamic] of text.matchAll(
      /(?:import|export)[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g,
    )) {
      const target = relative(root, resolve(dirname(root + path), from ?? dynamic));
      if (!existsSync(root + target)) continue; // generated at build time (web/api/generated/), checked by package.test.js
      if (!covered(target)) missing.push(`${target} (imported by ${path})`);
      if (target.endsWith('.js')) todo.push(target);
    }
  }
  expect(seen.size).toBeGreaterThan(30);
  expect(missing).toEqual([]);
});

test('every file the exports name is in the package, and every .d.ts those types import', () => {
  const targets = Object.values(pkg.exports).flatMap((target) =>
    typeof target === 'string' ? [target] : Object.values(target),
  );
  const paths = targets.map((path) => path.replace(/^\.\//, ''));
  expect(paths).toEqual(expect.arrayContaining(['web/element/react.d.ts', 'web/element/vue.d.ts']));
  // npm packs package.json always
  expect(paths.filter((path) => path !== 'package.json' && !covered(path))).toEqual([]);
  // The types' own relative imports ('./attention-lab-element.js' is its .d.ts), one level deep and on.
  const missing = [];
  const todo = paths.filter((path) => path.endsWith('.d.ts') && existsSync(root + path));
  const seen = new Set();
  while (todo.length) {
    const path = todo.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    for (const [, from] of readFileSync(root + path, 'utf8').matchAll(/from\s+'(\.[^']+)'/g)) {
      const target = relative(root, resolve(dirname(root + path), from)).replace(/\.js$/, '.d.ts');
      if (!covered(target)) missing.push(`${target} (imported by ${path})`);
      else if (existsSync(root + target)) todo.push(target);
    }
  }
  expect(seen.size).toBeGreaterThan(4);
  expect(missing).toEqual([]);
});
