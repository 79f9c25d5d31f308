// The hosted pages' first script (the build puts it in their <head>, see
// vite.config.js): it hands the preloaded .wasm to compileStreaming as soon as
// this small file arrives, while the browser still fetches and parses the
// page's larger modules. It imports nothing else, so it runs at once.
import { compileEngine } from '../api/wasm-binary.js';

compileEngine().catch(() => {}); // a failure is reported by the first run, which tries again
