// The English standalone script's other languages: each is a classic script
// beside it (attention-lab-strings.zh.js, strings-script.js built for zh),
// added to the page when an element first speaks that language. A classic
// script loads from file:// too, and under a policy that allows the
// standalone's own folder. Where the standalone has no address (its text
// inlined in a page, as in a notebook), the language cannot load and the
// element stays in English: the Chinese standalone carries its strings.
import { STRINGS_KEY, scriptName } from './strings-script-name.js';

// The standalone's own address, read while it runs (a classic script's currentScript; as a module, no
// currentScript: the script element that names it).
const standaloneUrl =
  typeof document === 'undefined'
    ? null
    : document.currentScript?.src ||
      document.querySelector('script[src*="attention-lab-element.standalone"]')?.src ||
      null;

/** Adds the language's script beside the standalone and resolves with its strings once it has run. */
function loadScript(lang) {
  if (!standaloneUrl) return Promise.reject(new Error(`the standalone has no address to load "${lang}" from`));
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL(scriptName(lang), standaloneUrl).href;
    script.onload = () => {
      const strings = globalThis[STRINGS_KEY]?.[lang];
      if (strings) resolve({ default: strings });
      else reject(new Error(`${script.src} gave no "${lang}" strings`));
    };
    script.onerror = () => {
      script.remove(); // a later ask tries again
      reject(new Error(`${script.src} did not load`));
    };
    document.head.append(script);
  });
}

export const LOADERS = { zh: () => loadScript('zh') };
