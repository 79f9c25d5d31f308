// html-custom-data.json: <attention-lab> for editors that read VS Code's HTML
// custom data (format 1.1; "html.customData" in a workspace's settings):
// the tag, each attribute with its help and, for a choice, its values.
// Written from the Custom Elements Manifest (write-element-manifest.js), so
// both say the same; `npm run docs` rewrites it and a test checks it is current.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { elementManifest } from './write-element-manifest.js';

export const CUSTOM_DATA_PATH = fileURLToPath(new URL('../element/html-custom-data.json', import.meta.url));

/** The quoted choices of a manifest type text ('"auto" | "light" | "dark"'), or [] for a free value. */
const choicesOf = (typeText) => [...typeText.matchAll(/"([^"]*)"/g)].map((m) => m[1]);

/** The custom data as an object. */
export function customData(manifest = elementManifest()) {
  const tags = manifest.modules.flatMap((module) =>
    module.declarations
      .filter((declaration) => declaration.customElement)
      .map((declaration) => ({
        name: declaration.tagName,
        description: `${declaration.summary}\n\n${declaration.description}`,
        attributes: declaration.attributes.map(({ name, type, description, default: value }) => {
          const values = choicesOf(type.text);
          return {
            name,
            description: value === undefined ? description : `${description} Default: ${value}.`,
            ...(values.length ? { values: values.map((choice) => ({ name: choice })) } : {}),
            ...(type.text === 'boolean' ? { valueSet: 'v' } : {}),
          };
        }),
        references: [{ name: 'README', url: 'https://www.npmjs.com/package/attention-lab' }],
      })),
  );
  return { version: 1.1, tags };
}

export const customDataText = () => `${JSON.stringify(customData(), null, 2)}\n`;

export function writeCustomData() {
  writeFileSync(CUSTOM_DATA_PATH, customDataText());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeCustomData();
  console.log('html-custom-data.json: written from the element manifest');
}
