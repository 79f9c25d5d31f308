// The checkpoint strings in every language ({en, zh}), for addStrings: see en-checkpoint.js.
import en from './en-checkpoint.js';
import zh from './zh-checkpoint.js';

export default { en, zh };
