// The standalone element's parts. What the module build imports only when it
// is needed (the trained model's and the checkpoint's views, their wasm glue,
// the other language's strings) the standalone script loads as classic scripts from
// standalone/ beside it, so the one script a page names stays small. A classic
// script loads from file:// too, and under a policy that allows the
// standalone's folder. Each part reads the modules it shares with the script
// (the view's common code, the strings' table, …) from the registry the script
// fills (web/scripts/standalone-parts.js builds both sides), so there is one
// copy of each and of its state. The registry is the one global it adds,
// under a symbol key.
export const REGISTRY_KEY = 'attention-lab.standalone';
export const registry = (globalThis[Symbol.for(REGISTRY_KEY)] ??= { modules: {}, parts: {} });

/** A part's file, relative to the standalone script. */
export const partFile = (name) => `standalone/${name}.js`;

// The standalone's own address, read while it runs: a classic script's currentScript; as a module, or
// inlined in a page, none: then the script element that names it, if any.
const standaloneUrl =
  typeof document === 'undefined'
    ? null
    : document.currentScript?.src ||
      document.querySelector('script[src*="attention-lab-element.standalone"]')?.src ||
      null;

const loading = {};

/** The part's module (its exports), its script added beside the standalone the first time. */
export function loadPart(name) {
  if (registry.parts[name]) return Promise.resolve(registry.parts[name]);
  loading[name] ??= new Promise((resolve, reject) => {
    if (!standaloneUrl) throw new Error(`the standalone script has no address to load its part ${partFile(name)} from`);
    const script = document.createElement('script');
    script.src = new URL(partFile(name), standaloneUrl).href;
    script.onload = () =>
      registry.parts[name] ? resolve(registry.parts[name]) : reject(new Error(`${script.src} defined nothing`));
    script.onerror = () => {
      script.remove();
      reject(new Error(`${script.src} did not load`));
    };
    document.head.append(script);
  }).catch((error) => {
    delete loading[name]; // a later ask tries again
    throw error;
  });
  return loading[name];
}
