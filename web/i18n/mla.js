// MLA's steps' strings in every language ({en, zh}), for addStrings: see en-mla.js.
import en from './en-mla.js';
import zh from './zh-mla.js';

export default { en, zh };
