// After the wasm build: asks the engine's core for its config schema
// (build/wasm/schema_dump.js: cpp/fuzz/schema_dump.cpp on the same core objects
// as the engine's wasm) and writes it to web/api/generated/schema.json (for
// tools and docs) and schema.js (an ES module: the form, the element's
// attributes, the CLI's flags, share links, lab.schema and the API's English
// error messages read it).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const generated = `${root}web/api/generated/`;
const schema = JSON.parse(execFileSync(process.execPath, [`${root}build/wasm/schema_dump.js`], { encoding: 'utf8' }));
const text = JSON.stringify(schema, null, 1);
writeFileSync(`${generated}schema.json`, `${text}\n`);
writeFileSync(
  `${generated}schema.js`,
  `// Written by web/scripts/write-schema.js from the engine's schema table (cpp/core/schema.cpp).\nexport const SCHEMA = Object.freeze(${text});\n`,
);
console.log(`web/api/generated/schema.json: ${schema.fields.length} fields`);
