// A preset's note (the program it mirrors, its quirks), for the page and the element: the notes' words are
// a part of their own (i18n/preset-notes.js), loaded when a note is first shown, not with the first numbers.
import { addStrings } from '../../i18n/index.js';

let loading = null;

/** Resolves once every language's preset notes can be had from t(`preset.${key}.note`). */
export const loadPresetNotes = () =>
  (loading ??= import('../../i18n/preset-notes.js').then((module) => addStrings(module.default)));
