// A BPE encoding (loadTokenizer(...).encode(text).pieces) as token chips: one
// label per token that a chip (or the engine's `tokens` field, which takes no
// whitespace) can show. Blanks become visible signs as the tiny model's byte
// chips show them (␣ space, ↵ newline, ⇥ tab; tiny-bytes.js); another
// whitespace character is its code point ("<U+3000>"); a byte of a partial
// character stays "<0xE6>".
import { asciiText } from './tiny-bytes.js';

/** " world" -> "␣world", "\n" -> "↵", "<0xE6>" as it is. */
export function tokenLabel(text) {
  let label = '';
  for (const char of text) {
    const code = char.codePointAt(0);
    if (code < 0x80) label += code === 0x20 || code < 0x21 || code === 0x7f ? asciiText(code) : char;
    else if (/\p{White_Space}/u.test(char)) label += `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
    else label += char;
  }
  return label;
}

/**
 * Token pieces ({id, text, bytes, special}) -> chips {id, label, special}:
 * what the page shows for each token of a text a checkpoint's tokenizer read.
 */
export const tokenChips = (pieces) => pieces.map(({ id, text, special }) => ({ id, label: tokenLabel(text), special }));
