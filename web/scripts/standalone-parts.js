// Builds the standalone element's parts (web/element/standalone-parts.js says
// what they are): in the standalone script each import('./x.js') of our code
// becomes loadPart('x'), and each such x is built as a classic script
// (standalone/x.js) whose imports of modules the standalone script also has
// read them from the registry the script fills, so no module is there twice.
//
//   1. each script once, not written: which modules it has, which parts it loads;
//   2. each part, written, with those modules as externals: which of them it reads;
//   3. the script (in each language), written, filling the registry with those.
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { REGISTRY_KEY, partFile } from '../element/standalone-parts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNTIME = fileURLToPath(new URL('../element/standalone-parts.js', import.meta.url));
const ENTRY = fileURLToPath(new URL('../element/standalone.js', import.meta.url));
const REGISTRY = 'attention-lab-standalone-registry';
const DYNAMIC_IMPORT = /\bimport\((['"])(\.{1,2}\/[^'"]+)\1\)/g;
// The modules the standalone script loads as parts; its other import()s (the engine's glue, needed at
// once) stay inside it.
const PARTS = [
  'web/i18n/zh.js',
  'web/i18n/en.js',
  // The presets' notes: loaded when a preset's note is first shown.
  'web/i18n/preset-notes.js',
  'web/model/export.js',
  'web/view/figures/shown-figures.js',
  // The cell explanations: loaded once the first result is shown (or a number is first pointed at), as on
  // the page, where they are a chunk of their own.
  'web/view/explain/cells.js',
  // Multi-head latent attention's steps and words: loaded with the first MLA run; differential attention's
  // with the first run that has it.
  'web/view/steps/mla-steps.js',
  'web/view/steps/diff-steps.js',
  // And those of QK-norm, RoPE, softcap, ALiBi and the output gate, with the first run that has one.
  'web/view/steps/variant-steps.js',
  'web/view/trained/trained-view.js',
  'web/view/checkpoint/checkpoint-view.js',
  'web/api/generated/attention-lab-tiny.js',
  'web/api/generated/attention-lab-checkpoint.js',
];

const partName = (path) => basename(path).replace(/\.js$/, '');
/** A module's key in the registry: its path in the repository. */
const keyOf = (id) => relative(ROOT, id);
const isOurs = (id) => id.startsWith(`${ROOT}web/`) && !id.includes('/generated/') && !id.includes('?');

/**
 * The script's plugin: records every module in `modules` and every part in `parts` (name -> path), and,
 * given `exposed` (module ids), makes the entry fill the registry with them.
 */
function scriptPlugin({ modules, parts, exposed = [] }) {
  return {
    name: 'attention-lab-standalone-script',
    enforce: 'pre',
    resolveId: (id) => (id === REGISTRY ? `\0${REGISTRY}` : null),
    load(id) {
      if (id !== `\0${REGISTRY}`) return null;
      const names = exposed.map((_, i) => `m${i}`);
      return [
        `import { registry } from ${JSON.stringify(RUNTIME)};`,
        ...exposed.map((module, i) => `import * as ${names[i]} from ${JSON.stringify(module)};`),
        `Object.assign(registry.modules, {${exposed.map((module, i) => `${JSON.stringify(keyOf(module))}: ${names[i]}`).join(', ')}});`,
      ].join('\n');
    },
    transform(code, id) {
      modules.add(id);
      if (!isOurs(id)) return null;
      let out = code.replace(DYNAMIC_IMPORT, (call, quote, specifier) => {
        const target = resolve(dirname(id), specifier);
        if (!PARTS.includes(keyOf(target))) return call;
        parts.set(partName(target), target);
        return `__loadPart(${JSON.stringify(partName(target))})`;
      });
      if (out !== code) out = `import { loadPart as __loadPart } from ${JSON.stringify(RUNTIME)};\n${out}`;
      if (id === ENTRY) out = `import ${JSON.stringify(REGISTRY)};\n${out}`;
      return out === code ? null : out;
    },
  };
}

/** Builds the standalone script of `mode` (vite.standalone.config.js), the plugin's hooks given. */
const buildScript = (configFile, mode, plugin, write) =>
  build({ configFile, mode, logLevel: 'warn', plugins: [plugin], build: { write } });

/**
 * Builds the standalone scripts of `modes` and their parts into dist/ (parts under standalone/).
 * Returns the parts' names.
 */
export async function buildStandalone(configFile, modes) {
  // Each script loads its own parts (the English one the Chinese strings, the Chinese one the English).
  const scripts = [];
  for (const mode of modes) {
    const modules = new Set();
    const parts = new Map();
    await buildScript(configFile, mode, scriptPlugin({ modules, parts }), false);
    const inScript = [...parts.values()].filter((path) => modules.has(path));
    if (inScript.length)
      throw new Error(`standalone ${mode}: ${inScript.map(keyOf)} both imported and loaded as a part`);
    scripts.push({ modules, parts });
  }
  const parts = new Map(scripts.flatMap((script) => [...script.parts]));
  const unused = PARTS.filter((key) => ![...parts.values()].map(keyOf).includes(key));
  if (unused.length) throw new Error(`standalone: no import() of ${unused}, listed as parts`);
  // What a part may read from the registry: the modules every script has (each script's strings are
  // its own, so a part that needs them carries them).
  const modules = new Set([...scripts[0].modules].filter((id) => scripts.every((script) => script.modules.has(id))));

  const exposed = new Set();
  for (const [name, path] of parts) {
    const entry = `${ROOT}web/element/standalone-part.${name}.js`; // made by the plugin, not a file
    await build({
      configFile,
      mode: modes[0],
      logLevel: 'warn',
      plugins: [
        {
          name: 'attention-lab-standalone-part',
          enforce: 'pre',
          resolveId: (id) => (id === entry ? id : null),
          load: (id) =>
            id === entry
              ? `import * as part from ${JSON.stringify(path)};\nimport { registry } from ${JSON.stringify(RUNTIME)};\nregistry.parts[${JSON.stringify(name)}] = part;\n`
              : null,
        },
      ],
      build: {
        emptyOutDir: false,
        lib: { entry, formats: ['iife'], name: 'AttentionLabPart', fileName: () => partFile(name) },
        rollupOptions: {
          // A module the script has is read from its registry (decided on resolved paths, aliases applied).
          external: (id, _importer, resolved) => {
            const shared = Boolean(resolved) && modules.has(id) && id !== path;
            if (shared) exposed.add(id);
            return shared;
          },
          output: {
            globals: (id) =>
              `globalThis[Symbol.for(${JSON.stringify(REGISTRY_KEY)})].modules[${JSON.stringify(keyOf(id))}]`,
          },
        },
      },
    });
  }
  for (const mode of modes)
    await buildScript(
      configFile,
      mode,
      scriptPlugin({ modules: new Set(), parts: new Map(), exposed: [...exposed] }),
      true,
    );
  return [...parts.keys()];
}
