// The page's first module (main.js imports it before anything else): the
// engine's instance is asked for now, so it is ready (its .wasm compiled by
// compile-engine.js on the hosted page, decoded from the inlined copy in the
// single file) while the rest of the page's modules run and build the form,
// instead of when the first run asks for it.
import { loadAttentionLab } from '../api/index.js';

loadAttentionLab().catch(() => {}); // a failure is reported by the first run, which tries again
