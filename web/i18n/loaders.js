// How each language other than English arrives: here a separate chunk of the
// built page, imported when asked for. The standalone scripts put their own in
// its place (vite.standalone.config.js): loaders.script.js (a script beside
// the English one) or loaders.bundled-zh.js (inside the Chinese one).
export const LOADERS = { zh: () => import('./zh.js') };
