// The engine's config errors in the UI language. The engine writes its
// messages in English (cpp/core/validate.cpp); the ones a user meets by
// editing the form are matched here and said in the UI language; any other
// message is shown as the engine wrote it.
const KNOWN = [
  [/^dModel \((\d+)\) must be divisible by numHeads \((\d+)\)$/, 'error.divisible', ['D', 'H']],
  [/^text is required: type a sentence \(or give texts or input\)$/, 'error.textRequired', []],
];

/** An engine error's message ({field, message}) in the language of `t`. */
export function errorMessage(error, t) {
  for (const [pattern, key, names] of KNOWN) {
    const match = pattern.exec(error.message);
    if (match) return t(key, Object.fromEntries(names.map((name, k) => [name, match[k + 1]])));
  }
  return error.message;
}
