// The entry of dist/attention-lab-strings.zh.js: the Chinese strings as a
// classic script, which the English standalone script adds to the page when an
// element speaks Chinese (loaders.script.js). It leaves them under one symbol
// key of globalThis and defines nothing else.
import zh from './zh.js';
import { STRINGS_KEY } from './strings-script-name.js';

(globalThis[STRINGS_KEY] ??= {}).zh = zh;
