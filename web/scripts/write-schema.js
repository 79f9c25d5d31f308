// After the wasm build: asks the engine for its config schema and writes it
// to web/api/generated/schema.json (for tools and docs) and schema.js (an ES
// module, for code that runs before the wasm loads: the form, the element's
// attributes, the CLI's flags, share links). It loads the engine directly,
// not through web/api/index.js, which imports the schema.js written here.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const generated = fileURLToPath(new URL('../api/generated/', import.meta.url));
const { default: createModule } = await import(`${generated}attention-lab-wasm.js`);
const compiled = await WebAssembly.compile(readFileSync(`${generated}attention-lab-wasm.wasm`));
const engine = await createModule({
  instantiateWasm(imports, receiveInstance) {
    WebAssembly.instantiate(compiled, imports).then((instance) => receiveInstance(instance, compiled));
    return {};
  },
});
const schema = engine.schema();
const text = JSON.stringify(schema, null, 1);
writeFileSync(`${generated}schema.json`, `${text}\n`);
writeFileSync(
  `${generated}schema.js`,
  `// Written by web/scripts/write-schema.js from the engine's schema table (cpp/core/schema.cpp).\nexport const SCHEMA = Object.freeze(${text});\n`,
);
console.log(`web/api/generated/schema.json: ${schema.fields.length} fields`);
