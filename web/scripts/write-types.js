// After write-schema.js (build.sh wasm): writes the TypeScript types that come
// from the schema into web/api/generated/, beside schema.js, so the package
// ships them: schema-types.d.ts (AttentionConfig, TensorName, WeightName;
// index.d.ts re-exports them) and element-properties.d.ts (the element's
// properties; attention-lab-element.d.ts merges them into its class).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import authorsStrings from '../i18n/authors.js';
import { addStrings, translator } from '../i18n/index.js';
import { FIELDS, SCHEMA } from '../model/schema.js';
import { VIEW_OPTIONS } from '../model/view-options.js';
import { ELEMENT_ATTRIBUTES } from '../element/element-interface.js';
import { configTypes } from './config-types.js';
import { elementTypes } from './element-types.js';

addStrings(authorsStrings);
const t = translator('en');
const generated = fileURLToPath(new URL('../api/generated/', import.meta.url));

writeFileSync(`${generated}schema-types.d.ts`, configTypes(SCHEMA, t));
writeFileSync(`${generated}element-properties.d.ts`, elementTypes(FIELDS, VIEW_OPTIONS, ELEMENT_ATTRIBUTES, t));
console.log(`web/api/generated/schema-types.d.ts, element-properties.d.ts: ${FIELDS.length} fields`);
