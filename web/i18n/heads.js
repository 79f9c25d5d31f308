// The heads strings in every language ({en, zh}), for addStrings: see en-heads.js.
import en from './en-heads.js';
import zh from './zh-heads.js';

export default { en, zh };
