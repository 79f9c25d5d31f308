// Differential attention's steps' strings in every language ({en, zh}), for addStrings: see en-diff.js.
import en from './en-diff.js';
import zh from './zh-diff.js';

export default { en, zh };
