// The page's first module (main.js imports it before anything else): the
// engine's .wasm, already requested by the <link rel="preload"> in the page's
// head, starts compiling and instantiating now, while the rest of the page's
// modules are evaluated and the form is built, instead of when the first run
// asks for it.
import { loadAttentionLab } from '../api/index.js';

loadAttentionLab().catch(() => {}); // a failure is reported by the first run, which tries again
