// The trained strings in every language ({en, zh}), for addStrings: see en-trained.js.
import en from './en-trained.js';
import zh from './zh-trained.js';

export default { en, zh };
