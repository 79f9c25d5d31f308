// npm run bench (web/scripts/bench.js) is not run by npm test: it measures
// and asserts nothing but its own figures, and needs two more builds. Here,
// cheaply (nothing is loaded), its scripts parse and every name they import
// from this repository is exported there, so a rename elsewhere cannot break
// `npm run bench` unnoticed; the packages they import are installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const repo = new URL('../../', import.meta.url);
const scripts = new URL('web/scripts/', repo);
const SCRIPTS = ['bench.js', 'bench-page.js', 'bench-size.js', 'onnx-attention.js'];

test.each(SCRIPTS)('web/scripts/%s parses (node --check)', (name) => {
  const run = spawnSync(process.execPath, ['--check', fileURLToPath(new URL(name, scripts))], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
});

const namesIn = (list) =>
  list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** [specifier, [imported names]] of a module's imports: static ones and `const { … } = await import(…)`. */
function importsOf(text) {
  const imported = (list) => namesIn(list).map((name) => name.split(/\s+as\s+|\s*:\s*/)[0]);
  return [
    ...[...text.matchAll(/^import\s+\{([^}]*)\}\s+from\s+'([^']+)'/gm)].map((m) => [m[2], imported(m[1])]),
    ...[...text.matchAll(/^import\s+\*\s+as\s+\w+\s+from\s+'([^']+)'/gm)].map((m) => [m[1], []]),
    ...[...text.matchAll(/const\s+\{([^}]*)\}\s*=\s*await\s+import\('([^']+)'\)/g)].map((m) => [m[2], imported(m[1])]),
  ];
}

/** The names a module exports, read from its text: export function/class/const/let, and export { a, b as c }. */
function exportsOf(text) {
  return new Set([
    ...[...text.matchAll(/^export\s+(?:async\s+)?(?:function\*?|class|const|let|var)\s+([\w$]+)/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^export\s+\{([^}]*)\}/gm)].flatMap((m) =>
      namesIn(m[1]).map((name) => name.split(/\s+as\s+/).at(-1)),
    ),
  ]);
}

test.each(['bench.js', 'bench-page.js', 'bench-size.js'])(
  'every name web/scripts/%s imports is exported there',
  (name) => {
    const url = new URL(name, scripts);
    const imports = importsOf(readFileSync(url, 'utf8'));
    expect(imports.length).toBeGreaterThan(0);
    for (const [specifier, names] of imports) {
      if (!specifier.startsWith('.')) {
        if (specifier.startsWith('node:')) continue;
        const pkg = specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/');
        expect(existsSync(new URL(`node_modules/${pkg}/package.json`, repo)), `${name}: '${specifier}'`).toBe(true);
        continue;
      }
      const target = new URL(specifier, url);
      expect(existsSync(target), `${name}: '${specifier}'`).toBe(true);
      const exported = exportsOf(readFileSync(target, 'utf8'));
      for (const imported of names)
        expect([...exported], `${name}: { ${imported} } from '${specifier}'`).toContain(imported);
    }
  },
);
