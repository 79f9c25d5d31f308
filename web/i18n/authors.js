// The authors strings in every language ({en, zh}), for addStrings: see en-authors.js.
import en from './en-authors.js';
import zh from './zh-authors.js';

export default { en, zh };
