// The cli strings in every language ({en, zh}), for addStrings: see en-cli.js.
import en from './en-cli.js';
import zh from './zh-cli.js';

export default { en, zh };
