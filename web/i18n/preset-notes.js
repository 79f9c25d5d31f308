// The presets' notes in every language ({en, zh}), for addStrings: see en-preset-notes.js.
import en from './en-preset-notes.js';
import zh from './zh-preset-notes.js';

export default { en, zh };
