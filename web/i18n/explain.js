// The cell explanations' strings in every language ({en, zh}), for addStrings: see en-explain.js.
import en from './en-explain.js';
import zh from './zh-explain.js';

export default { en, zh };
