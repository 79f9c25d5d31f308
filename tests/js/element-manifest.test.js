// The element under server-side rendering (imported in Node, no DOM) and its
// custom-elements.json manifest: current (npm run docs writes it), of the
// Custom Elements Manifest schema 2.x, naming every attribute the element
// observes, every custom property element.css reads and every part it shows.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { CUSTOM_DATA_PATH, customDataText } from '../../web/scripts/write-custom-data.js';
import { MANIFEST_PATH, elementManifest, manifestText } from '../../web/scripts/write-element-manifest.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('server-side rendering', () => {
  test('the element module imports without a DOM, defines nothing and adds no globals', async () => {
    expect(typeof HTMLElement).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    const module = await import('../../web/element/attention-lab-element.js');
    expect(typeof module.AttentionLabElement).toBe('function');
    expect(module.AttentionLabElement.observedAttributes).toContain('head');
    expect(typeof customElements).toBe('undefined');
    expect(Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name))).toEqual([]);
  });
});

describe('custom-elements.json', () => {
  const manifest = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8'));
  const declaration = manifest.modules[0].declarations[0];

  test('is current: npm run docs writes it from the schema, the view options and the element interface', () => {
    expect(readFileSync(MANIFEST_PATH, 'utf8'), 'custom-elements.json is stale: run npm run docs').toBe(manifestText());
  });

  test('has the shape of the Custom Elements Manifest schema 2.x, and package.json points to it', () => {
    expect(manifest.schemaVersion).toMatch(/^2\.\d+\.\d+$/);
    expect(manifest.modules).toHaveLength(1);
    const [module] = manifest.modules;
    expect(module.kind).toBe('javascript-module');
    expect(module.exports).toEqual([
      { kind: 'js', name: 'AttentionLabElement', declaration: { name: 'AttentionLabElement', module: module.path } },
      {
        kind: 'custom-element-definition',
        name: 'attention-lab',
        declaration: { name: 'AttentionLabElement', module: module.path },
      },
    ]);
    expect(declaration).toMatchObject({ kind: 'class', customElement: true, tagName: 'attention-lab' });
    for (const attribute of declaration.attributes) {
      expect(Object.keys(attribute).sort(), attribute.name).toEqual(
        expect.arrayContaining(['name', 'fieldName', 'type', 'description']),
      );
      expect(typeof attribute.type.text).toBe('string');
      expect(attribute.description.length, attribute.name).toBeGreaterThan(5);
      // Each attribute's property is a member that says so.
      expect(declaration.members.find((m) => m.name === attribute.fieldName)?.attribute).toBe(attribute.name);
    }
    for (const list of ['events', 'cssProperties', 'cssParts'])
      for (const entry of declaration[list]) expect(typeof entry.name, list).toBe('string');
    for (const property of declaration.cssProperties) expect(property.name).toMatch(/^--attention-lab-[a-z0-9-]+$/);
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(pkg.customElements).toBe('web/element/custom-elements.json');
    expect(pkg.files).toContain('web/element/custom-elements.json');
    expect(Object.values(pkg.exports['./element'])).toContain(`./${manifest.modules[0].path}`);
  });

  test('names every observed attribute, every custom property of element.css and every part of the view', async () => {
    const { AttentionLabElement } = await import('../../web/element/attention-lab-element.js');
    const names = declaration.attributes.map((a) => a.name);
    expect([...names].sort()).toEqual([...AttentionLabElement.observedAttributes].sort());
    const css = readFileSync(`${root}web/element/element.css`, 'utf8');
    const cssNames = new Set(css.match(/--attention-lab-[a-z0-9-]+/g));
    const manifestCss = declaration.cssProperties.map((p) => p.name);
    for (const name of cssNames) expect(manifestCss).toContain(name);
    expect(manifestCss).toContain('--attention-lab-negative');
    expect(manifestCss).toContain('--attention-lab-head-8');
    // part="…" in markup and setAttribute('part', '…') in the view and the element.
    const sources = ['web/view', 'web/element'].flatMap((dir) =>
      readdirSync(`${root}${dir}`, { recursive: true })
        .filter((f) => f.endsWith('.js'))
        .map((f) => readFileSync(`${root}${dir}/${f}`, 'utf8')),
    );
    const parts = new Set(
      sources.flatMap((text) =>
        [...text.matchAll(/part="([\w-]+)"|setAttribute\('part', '([\w-]+)'\)/g)].map((m) => m[1] ?? m[2]),
      ),
    );
    expect(declaration.cssParts.map((p) => p.name).sort()).toEqual([...parts].sort());
    expect(elementManifest()).toEqual(manifest);
  });
});

describe('html-custom-data.json (VS Code custom data)', () => {
  const data = JSON.parse(readFileSync(CUSTOM_DATA_PATH, 'utf8'));
  const { attributes } = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')).modules[0].declarations[0];

  test('is current: npm run docs writes it from custom-elements.json', () => {
    expect(readFileSync(CUSTOM_DATA_PATH, 'utf8'), 'html-custom-data.json is stale: run npm run docs').toBe(
      customDataText(),
    );
  });

  test('has the tag and every attribute of the manifest, the choices as values; the package exports it', () => {
    expect(data.version).toBe(1.1);
    expect(data.tags.map((tag) => tag.name)).toEqual(['attention-lab']);
    const [tag] = data.tags;
    expect(tag.attributes.map((a) => a.name)).toEqual(attributes.map((a) => a.name));
    expect(tag.attributes.find((a) => a.name === 'theme').values).toEqual([
      { name: 'auto' },
      { name: 'light' },
      { name: 'dark' },
    ]);
    expect(tag.attributes.find((a) => a.name === 'mask').values.map((v) => v.name)).toContain('causal');
    expect(tag.attributes.find((a) => a.name === 'editable').valueSet).toBe('v');
    expect(tag.attributes.find((a) => a.name === 'heads').values).toBeUndefined();
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(pkg.exports['./html-custom-data.json']).toBe('./web/element/html-custom-data.json');
    expect(pkg.files).toContain('web/element/html-custom-data.json');
  });
});
