// The Chinese standalone script's languages: Chinese inside it (English, the
// fallback of every string, always is), so it loads nothing.
import zh from './zh.js';

export const LOADERS = { zh: () => Promise.resolve({ default: zh }) };
