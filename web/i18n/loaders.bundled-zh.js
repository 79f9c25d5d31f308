// The Chinese standalone script's languages: Chinese inside it; English, when
// an element asks for it, loaded as a part beside the script (standalone/en.js).
import zh from './zh.js';

export const BUNDLED = { zh };
export const LOADERS = { en: () => import('./en.js') };
