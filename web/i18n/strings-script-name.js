// Where a language's strings script (strings-script.js) leaves them, and its file name beside the
// English standalone script.
export const STRINGS_KEY = Symbol.for('attention-lab.strings');
export const scriptName = (lang) => `attention-lab-strings.${lang}.js`;
