// A step whose code (its shapes, figures, formula, words and render) is loaded with its strings when a run
// first needs it: the variants' steps travel as parts of their own (variant-steps.js, diff-steps.js,
// mla-steps.js). The stub holds what the pipeline, the chapters and the element's steps="…" read before the
// code is there: key, name, chapter, variant, applies; loadWhen(rs) says from a run's settings
// (run-settings.js) whether it needs the code.

const MEMBERS = ['shapes', 'figures', 'formula', 'words', 'render'];

/** The step of `stub`, whose other members come from `load()`'s module (its export named stub.key). */
export function lazyStep(stub, load) {
  let code = null;
  // A load that failed (a standalone script inlined in a notebook has no address to load parts from): the step
  // then applies to no run, and the rest of the pipeline is shown without it.
  let failed = false;
  const step = {
    ...stub,
    applies: (run) => !failed && stub.applies(run),
    /** Loads the step's code once; resolves when it is there, or when it cannot be. */
    async load() {
      if (code || failed) return step;
      try {
        code = (await load())[stub.key];
      } catch {
        failed = true;
      }
      return step;
    },
  };
  for (const member of MEMBERS)
    Object.defineProperty(step, member, {
      enumerable: true,
      get() {
        if (!code)
          throw new Error(
            `step ${stub.key}: its code is not loaded (await loadStepsFor(runSettings(result.settings)) first)`,
          );
        return code[member];
      },
    });
  return step;
}
