// The web code's layers, one folder each, import only downward:
//   api, i18n  <  model  <  view  <  page, element, cli
// A sideways import (page <-> element, api <-> i18n) or an upward one fails.
// The HTML entry points load one top layer each.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const web = fileURLToPath(new URL('../../web/', import.meta.url));
const RANK = { api: 0, i18n: 0, model: 1, view: 2, page: 3, element: 3, cli: 3 };
// The model has no DOM: it runs in Node (the CLI, the tests) as well as in pages.
const NO_DOM = ['model', 'api', 'i18n'];

const layerOf = (file) => relative(web, file).split('/')[0];

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/gms),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/import\(\s*['"`]([^'"`]+)['"`]\s*\)/g),
    ...text.matchAll(/new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\)/g),
  ].map((m) => m[1]);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => join(dirname(file), s.replace(/\?.*$/, '')));
}

const files = Object.keys(RANK).flatMap((layer) =>
  readdirSync(web + layer, { recursive: true })
    .filter((f) => f.endsWith('.js') && !f.startsWith('generated'))
    .map((f) => `${web}${layer}/${f}`),
);

describe('layers', () => {
  test('every import goes down a layer or stays in its folder', () => {
    const wrong = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (to === from) continue;
        // The package's manifest is no layer: the CLI reads its version from it.
        if (relative(web, target) === '../package.json' && from === 'cli') continue;
        if (!(to in RANK) || RANK[to] >= RANK[from]) wrong.push(`${relative(web, file)} -> ${relative(web, target)}`);
      }
    }
    expect(files.length).toBeGreaterThan(20);
    expect(wrong).toEqual([]);
  });

  test('the model, api and i18n layers use no DOM', () => {
    const wrong = files.filter(
      (file) => NO_DOM.includes(layerOf(file)) && /\b(document|window)\./.test(readFileSync(file, 'utf8')),
    );
    expect(wrong.map((f) => relative(web, f))).toEqual([]);
  });

  test('the page and the element share one host (view/host/host.js); neither has its own copy of it', () => {
    const uses = (layer) =>
      files
        .filter((f) => layerOf(f) === layer)
        .some((f) => /from '\.\.\/view\/host\/host\.js'/.test(readFileSync(f, 'utf8')));
    expect(uses('page')).toBe(true);
    expect(uses('element')).toBe(true);
    const own = files.filter(
      (f) =>
        ['page', 'element'].includes(layerOf(f)) &&
        /explainCell|renderPipeline|renderTabs|new PipelineController/.test(readFileSync(f, 'utf8')),
    );
    expect(own.map((f) => relative(web, f))).toEqual([]);
    // The engine and its worker, the UI language, the colour scheme and the trained view: the host's too.
    const shells = ['page/main.js', 'element/attention-lab-element.js'];
    const hostOnly = /createEngineClient|loadAttentionLab|loadLanguage\(|watchColorScheme|trained-view\.js/;
    expect(shells.filter((f) => hostOnly.test(readFileSync(web + f, 'utf8')))).toEqual([]);
  });

  test('each HTML entry point loads one top layer', () => {
    const entry = (name) =>
      [...readFileSync(`${web}${name}`, 'utf8').matchAll(/src="\.\/([a-z]+)\//g)].map((m) => m[1]);
    expect(entry('index.html')).toEqual(['page']);
    expect(entry('embed.html')).toEqual(['element']);
    expect(entry('authors.html')).toEqual(['element']);
  });

  test('the checker sees a sideways import', () => {
    // Guards the regexes above: a page module importing the element must be caught.
    const fake = `${web}page/fake.js`;
    const text = "import { AttentionLabElement } from '../element/attention-lab-element.js';";
    const found = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/gms)].map((m) =>
      join(dirname(fake), m[1]),
    );
    expect(found.map(layerOf)).toEqual(['element']);
  });
});
