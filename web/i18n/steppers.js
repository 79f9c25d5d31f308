// The steppers' strings in every language ({en, zh}), for addStrings: see en-steppers.js.
import en from './en-steppers.js';
import zh from './zh-steppers.js';

export default { en, zh };
