// After the wasm build: asks the engine for its config schema and writes it
// to web/api/generated/schema.json (for tools and docs) and schema.js (an ES
// module, for code that runs before the wasm loads: the form, the element's
// attributes, the CLI's flags, share links).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const generated = fileURLToPath(new URL('../api/generated/', import.meta.url));
const { default: createModule } = await import(`${generated}attention-lab-wasm.js`);
const schema = (await createModule()).schema();
const text = JSON.stringify(schema, null, 1);
writeFileSync(`${generated}schema.json`, `${text}\n`);
writeFileSync(`${generated}schema.js`, `// Written by web/scripts/write-schema.js from the engine's schema table (cpp/core/schema.cpp).\nexport const SCHEMA = Object.freeze(${text});\n`);
console.log(`web/api/generated/schema.json: ${schema.fields.length} fields`);
