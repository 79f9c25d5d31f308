// A user of the npm package gets the types the build writes from the schema:
// the files `npm pack` would ship hold them, and a TypeScript program that
// imports "attention-lab" and "attention-lab/element" type-checks against the
// shipped .d.ts files alone (copied into a node_modules of their own).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = `${root}node_modules/typescript/bin/tsc`;

let shipped;
let dir;
beforeAll(() => {
  // --ignore-scripts: prepack wants the built site (dist/), which the types do not need
  const out = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  shipped = JSON.parse(out.stdout)[0].files.map((file) => file.path);
  dir = mkdtempSync(`${tmpdir()}/attention-lab-types-`);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const CONSUMER = `
import { loadAttentionLab, type AttentionConfig, type TensorName, type WeightName } from 'attention-lab';
import type { AttentionLabElement } from 'attention-lab/element';

export async function usage(): Promise<number> {
  const config: AttentionConfig = {
    texts: ['the cat', 'a dog sat'],
    mask: 'causal+padding',
    maskFill: -1e9,
    weights: { init: 'torch-mha', edits: { W_Q: [[0, 1, 0.5]] } },
    dropout: { p: 0.1, seed: 7 },
    window: null,
  };
  const tensors: TensorName[] = ['weights', 'output'];
  const weight: WeightName = 'b_O';
  const lab = await loadAttentionLab();
  return lab.run(config, { tensors }).headDim + weight.length;
}

export function element(el: AttentionLabElement): number {
  el.mask = 'causal';
  el.tokenizer = 'words';
  el.theme = 'dark';
  el.maxLen = null;
  return el.dModel + el.decimals + el.head;
}

// @ts-expect-error mask is one of the schema's choices
export const badMask: AttentionConfig = { text: 'a', mask: 'future' };
// @ts-expect-error dModel is a number
export const badDModel: AttentionConfig = { text: 'a', dModel: '8' };
export function badElement(el: AttentionLabElement): void {
  // @ts-expect-error the API's tokenizer has no "words" (the element resolves it), but the element's has
  const config: AttentionConfig = { tokenizer: el.tokenizer };
  void config;
}
`;

/** Copies package.json and the shipped .d.ts files into `folder`/node_modules/attention-lab/; that folder. */
function installShippedTypes(folder) {
  const installed = `${folder}/node_modules/attention-lab/`;
  for (const file of ['package.json', ...shipped.filter((path) => path.endsWith('.d.ts'))]) {
    mkdirSync(dirname(`${installed}${file}`), { recursive: true });
    cpSync(`${root}${file}`, `${installed}${file}`);
  }
  return installed;
}

describe('the packed types', () => {
  test('npm pack ships the .d.ts files the build wrote from the schema', () => {
    for (const file of [
      'web/api/index.d.ts',
      'web/api/generated/schema-types.d.ts',
      'web/api/generated/element-properties.d.ts',
      'web/element/attention-lab-element.d.ts',
      'web/element/react.d.ts',
      'web/element/vue.d.ts',
    ])
      expect(shipped, file).toContain(file);
  });

  test('a TypeScript user of the package type-checks against the shipped .d.ts files alone', () => {
    const installed = installShippedTypes(dir);
    writeFileSync(`${dir}/package.json`, JSON.stringify({ name: 'types-user', private: true, type: 'module' }));
    writeFileSync(`${dir}/user.ts`, CONSUMER);
    writeFileSync(
      `${dir}/tsconfig.json`,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          skipLibCheck: false,
        },
        files: ['user.ts'],
      }),
    );
    const out = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    expect(out.stdout + out.stderr).toBe('');
    expect(out.status).toBe(0);
    // the schema's choices reached the user: the shipped AttentionConfig names the mask choices
    expect(readFileSync(`${installed}web/api/generated/schema-types.d.ts`, 'utf8')).toContain(
      "mask?: 'none' | 'causal' | 'padding' | 'causal+padding';",
    );
  }, 120_000);
});

// tests/types/react-usage.tsx with each React's types (devDependencies: @types/react is 19, @types/react-18
// is 18.3), in a folder of its own whose node_modules holds those types and the shipped .d.ts files.
describe.each([
  ['19', '@types/react'],
  ['18', '@types/react-18'],
])('<attention-lab> in JSX with React %s types', (major, types) => {
  test('attributes, events and React props type-check; misuse is an error', () => {
    const folder = `${dir}/react-${major}`;
    installShippedTypes(folder);
    const modules = `${root}node_modules/`;
    cpSync(`${modules}${types}`, `${folder}/node_modules/@types/react`, { recursive: true });
    for (const dependency of ['csstype', '@types/prop-types'])
      cpSync(`${modules}${dependency}`, `${folder}/node_modules/${dependency}`, { recursive: true });
    const version = JSON.parse(readFileSync(`${folder}/node_modules/@types/react/package.json`, 'utf8')).version;
    expect(version.split('.')[0]).toBe(major);
    cpSync(`${root}tests/types/react-usage.tsx`, `${folder}/react-usage.tsx`);
    writeFileSync(`${folder}/package.json`, JSON.stringify({ name: 'react-user', private: true, type: 'module' }));
    writeFileSync(
      `${folder}/tsconfig.json`,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          jsx: 'react-jsx',
          lib: ['ES2022', 'DOM'],
          types: [],
          skipLibCheck: true, // React's own .d.ts are not ours to check
        },
        files: ['react-usage.tsx'],
      }),
    );
    const out = spawnSync(process.execPath, [tsc, '-p', folder], { encoding: 'utf8' });
    expect(out.stdout + out.stderr).toBe('');
    expect(out.status).toBe(0);
    // The misuse lines are errors: without their @ts-expect-error, tsc reports each.
    const unchecked = readFileSync(`${folder}/react-usage.tsx`, 'utf8').replaceAll('// @ts-expect-error', '//');
    writeFileSync(`${folder}/react-usage.tsx`, unchecked);
    const misuse = spawnSync(process.execPath, [tsc, '-p', folder], { encoding: 'utf8' });
    expect(misuse.stdout.match(/error TS\d+/g)).toHaveLength(5);
  }, 120_000);
});
