// GPT-2's byte-level alphabet: each of the 256 byte values as one printable
// character, so a BPE vocabulary of strings covers every byte sequence. The
// printable bytes ! .. ~, ¡ .. ¬ and ® .. ÿ stand for themselves; the other 68
// (control bytes, space, 0x7F-0xA0, 0xAD) take U+0100 upward in byte order:
// space 0x20 -> "Ġ" (U+0120), newline 0x0A -> "Ċ" (U+010A). The same table as
// GPT-2's bytes_to_unicode() and the ByteLevel pre-tokenizer and decoder of
// Hugging Face tokenizers.

const printable = (byte) => (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || byte >= 0xae;

/** BYTE_TO_CHAR[byte]: the character that stands for `byte` (256 entries). */
export const BYTE_TO_CHAR = (() => {
  const chars = [];
  let next = 0x100;
  for (let byte = 0; byte < 256; byte++) chars.push(String.fromCharCode(printable(byte) ? byte : next++));
  return Object.freeze(chars);
})();

/** The byte each of the 256 byte-level characters stands for. */
export const CHAR_TO_BYTE = new Map(BYTE_TO_CHAR.map((char, byte) => [char, byte]));

const utf8 = new TextEncoder();

/** "Hello world" -> "HelloĠworld": the text's UTF-8 bytes, one byte-level character each. */
export function toByteLevel(text) {
  let out = '';
  for (const byte of utf8.encode(text)) out += BYTE_TO_CHAR[byte];
  return out;
}

/**
 * The bytes a byte-level string stands for, or null if one of its characters
 * is not in the alphabet (an added token's content such as "<| x |>" is then
 * taken as its own UTF-8, as the ByteLevel decoder does).
 */
export function fromByteLevel(symbols) {
  const bytes = [];
  for (const char of symbols) {
    const byte = CHAR_TO_BYTE.get(char);
    if (byte === undefined) return null;
    bytes.push(byte);
  }
  return bytes;
}

/** How many bytes a UTF-8 sequence starting with `byte` has (0: not a lead byte). */
function sequenceLength(byte) {
  if (byte < 0x80) return 1;
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}

const strict = new TextDecoder('utf-8', { fatal: true });

/** "<0xE6>": a byte that is no whole character within its token. */
export const byteText = (byte) => `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`;

/**
 * A token's bytes as a reader sees them: each whole UTF-8 character as itself,
 * each byte of a partial or invalid sequence as "<0xE6>". [0xE4, 0xB8, 0xAD]
 * -> "中"; [0xE6, 0x88] (the first two bytes of 我) -> "<0xE6><0x88>".
 */
export function readableBytes(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const length = sequenceLength(bytes[i]);
    let char = null;
    if (length > 0 && i + length <= bytes.length) {
      try {
        char = strict.decode(Uint8Array.from(bytes.slice(i, i + length)));
      } catch {
        char = null; // a continuation byte missing, an overlong form or a surrogate
      }
    }
    if (char === null) {
      out += byteText(bytes[i]);
      i += 1;
    } else {
      out += char;
      i += length;
    }
  }
  return out;
}
