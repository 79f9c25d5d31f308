// Instances of our wasm modules (the engine's, the tiny model's, the
// checkpoint's): a module compiled once is handed to its generated glue,
// which never fetches anything itself. A page whose Content-Security-Policy
// forbids compiling WebAssembly gets an error that says what to allow.
import { AttentionEngineError } from './errors.js';

/**
 * Whether `error` is the browser refusing to compile or instantiate
 * WebAssembly under a Content-Security-Policy without 'wasm-unsafe-eval'
 * (Chromium: a CompileError naming 'unsafe-eval'; others: a CompileError or
 * EvalError naming the policy).
 */
export function isWasmBlockedByCsp(error) {
  const kind = error?.name === 'CompileError' || error?.name === 'EvalError';
  return kind && /unsafe-eval|Content[ -]Security[ -]Policy|\bCSP\b/i.test(String(error.message));
}

/** `error` as the error to show: a CSP refusal is AttentionEngineError engine-blocked-by-csp (its cause the browser's). */
const shown = (error) => (isWasmBlockedByCsp(error) ? AttentionEngineError.of('engine-blocked-by-csp', error) : error);

/** WebAssembly.compile of `bytes`, a CSP refusal said as what to allow. */
export async function compileWasm(bytes) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (error) {
    throw shown(error);
  }
}

/** WebAssembly.compileStreaming of `response` (a promise), a CSP refusal said as what to allow. */
export async function compileWasmStreaming(response) {
  try {
    return await WebAssembly.compileStreaming(response);
  } catch (error) {
    throw shown(error);
  }
}

/** An instance of the Emscripten factory that `glue` (an import()) exports, on the compiled `module`. */
export async function instantiate(glue, module) {
  const [{ default: create }, compiled] = await Promise.all([glue, module]);
  return create({
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(compiled, imports).then((instance) => receiveInstance(instance, compiled));
      return {}; // instantiated asynchronously
    },
  });
}
