// npm pack / publish guard: the package ships built files.
import { existsSync } from 'node:fs';

const needed = [
  'web/api/generated/attention-lab-wasm.js',
  'web/api/generated/attention-lab-tiny.js',
  'web/api/generated/schema-types.d.ts',
  'web/api/generated/element-properties.d.ts',
  'dist/attention-lab-element.js',
  'dist/attention-lab-element.standalone.js',
];
const missing = needed.filter((file) => !existsSync(new URL(`../../${file}`, import.meta.url)));
if (missing.length) {
  console.error(`attention-lab: ${missing.join(', ')} missing: run \`npm run build\` before packing.`);
  process.exit(1);
}
