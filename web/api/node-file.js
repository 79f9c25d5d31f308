// A file: URL read from disk when running in Node, for the modules that fetch
// their wasm and weights in browsers (wasm-binary.js, tiny-weights.js,
// checkpoint/wasm-file.js). Node's fs comes from process.getBuiltinModule
// (Node 20.16+; the package needs 20.19), not from an import(): a dynamic
// import of a variable made every bundler that takes the element in
// (webpack and rspack in Docusaurus, Rollup in Vite and Astro, esbuild) warn
// "the request of a dependency is an expression", and a magic comment to
// hush it does not survive the minified build.

/** The bytes of `url` (a Buffer) read from disk in Node; null elsewhere (a browser fetches it). */
export function readInNode(url) {
  if (url.protocol !== 'file:' || typeof process !== 'object' || !process.getBuiltinModule) return null;
  return process.getBuiltinModule('node:fs/promises').readFile(url);
}
