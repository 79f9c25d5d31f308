// The language inside the build (English: every string's fallback, and what
// shows first) and how each other one arrives: here a separate chunk of the
// built page, imported when asked for. The Chinese standalone script puts
// loaders.bundled-zh.js in its place (vite.standalone.config.js), and the
// standalone scripts load these import()s as parts beside them
// (element/standalone-parts.js).
import en from './en.js';

export const BUNDLED = { en };
export const LOADERS = { zh: () => import('./zh.js') };
