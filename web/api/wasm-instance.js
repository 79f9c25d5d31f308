// Instances of our wasm modules (the engine's, the tiny model's): each
// compiled once, and handed to its generated glue, which never fetches
// anything itself.

/**
 * `compile()` run once: its promise is kept, unless it failed (then a later
 * call tries again), with `failure` in front of the reason when given.
 */
export function once(compile, failure = undefined) {
  let compiled = null;
  return () => {
    compiled ??= compile().catch((error) => {
      compiled = null;
      throw failure ? new Error(`${failure}: ${error.message}`) : error;
    });
    return compiled;
  };
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
