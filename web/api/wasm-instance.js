// Instances of our wasm modules (the engine's, the tiny model's): a module
// compiled once is handed to its generated glue, which never fetches anything
// itself.

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
