// The tiny model's tokens are UTF-8 bytes. How one is shown: an ASCII byte as
// its character (space ␣, newline ↵, tab ⇥, other control bytes as hex), a
// byte of a multi-byte character as that character with its part (春 1/3,
// 春 2/3, 春 3/3), and a byte that is no part of a valid character as hex.
// Shared by the CLI and the view.

const SHOWN = { 0x20: '␣', 0x0a: '↵', 0x09: '⇥', 0x0d: '␍' };
/** "0xE6": a byte that is no character (or part of one) on its own. */
export const hex = (byte) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The character that `bytes` (one UTF-8 sequence) encode, or null if they are not one whole character. */
export function characterOf(bytes) {
  try {
    const text = decoder.decode(Uint8Array.from(bytes));
    return [...text].length === 1 ? text : null;
  } catch {
    return null; // continuation bytes missing or an overlong/surrogate form
  }
}

/** How many bytes a UTF-8 character starting with `byte` has (0: not a lead byte). */
export function sequenceLength(byte) {
  if (byte < 0x80) return 1;
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}

/** An ASCII byte's text: the character, ␣ ↵ ⇥ ␍ for the blanks, hex for other control bytes. */
export const asciiText = (byte) =>
  SHOWN[byte] ?? (byte < 0x20 || byte === 0x7f ? hex(byte) : String.fromCharCode(byte));

/**
 * One label per byte of `ids` (0..255): {text, char, part, of, byte}. `char` is the
 * character the byte belongs to (null for a stray byte), `part` its 1-based place in
 * that character's `of` bytes; `text` is what a cell shows ("T", "␣", "春 1/3", "0xE6").
 */
export function byteLabels(ids) {
  const labels = [];
  for (let i = 0; i < ids.length;) {
    const byte = ids[i];
    const length = sequenceLength(byte);
    const char = length > 1 && i + length <= ids.length ? characterOf(ids.slice(i, i + length)) : null;
    if (length === 1) {
      labels.push({ text: asciiText(byte), char: String.fromCharCode(byte), part: 1, of: 1, byte });
      i += 1;
    } else if (char !== null) {
      for (let part = 1; part <= length; part++)
        labels.push({ text: `${char} ${part}/${length}`, char, part, of: length, byte: ids[i + part - 1] });
      i += length;
    } else {
      labels.push({ text: hex(byte), char: null, part: 1, of: 1, byte });
      i += 1;
    }
  }
  return labels;
}
