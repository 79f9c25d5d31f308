// The variants' steps' strings in every language ({en, zh}), for addStrings: see en-variants.js.
import en from './en-variants.js';
import zh from './zh-variants.js';

export default { en, zh };
