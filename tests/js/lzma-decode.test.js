// The single-file builds' LZMA decoder (cpp/wasm/lzma_decode.cpp through web/api/lzma-decode.js)
// against xz, the compressor build-single.js uses: every stream decodes to the exact bytes xz was
// given, with the settings xz chooses and with others that exercise other paths (literal contexts,
// position states), and a damaged stream is refused rather than decoded to something else.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lzmaDecode } from '../../web/api/lzma-decode.js';
import { WASM_LZMA_OPTIONS } from '../../web/scripts/wasm-lzma.js';

const generated = new URL('../../web/api/generated/', import.meta.url);
const decoder = readFileSync(new URL('lzma-decode.wasm', generated));
const engine = readFileSync(new URL('attention-lab-wasm.wasm', generated));

/** `bytes` as xz writes them in .lzma, with the size written into the header as build-single.js does. */
function compress(bytes, options = '-9e') {
  const stream = execFileSync('xz', ['--format=lzma', ...options.split(' '), '--stdout'], {
    input: bytes,
    maxBuffer: 64 << 20,
  });
  stream.writeBigUInt64LE(BigInt(bytes.length), 5);
  return stream;
}

const text = Buffer.from(
  Array.from({ length: 4000 }, (_, i) => `row ${i % 37}: the cat sat on the mat 猫坐在垫子上 ${i % 5}\n`).join(''),
);

describe('the LZMA decoder', () => {
  const cases = [
    ['the engine wasm at the build’s options', engine, WASM_LZMA_OPTIONS],
    ['the engine wasm at the strongest preset', engine, '-9e'],
    ['the engine wasm, lc=0 lp=2 pb=0', engine, '--lzma1=preset=6,lc=0,lp=2,pb=0'],
    ['the engine wasm, lc=4 lp=0 pb=4', engine, '--lzma1=preset=9,lc=4,lp=0,pb=4'],
    ['text with long repeats (rep matches, long lengths)', text, '-9e'],
    ['64 KiB of random bytes (literals only)', randomBytes(65536), '-6'],
    ['one byte', Buffer.from([42]), '-9'],
    ['nothing', Buffer.alloc(0), '-9'],
  ];
  for (const [name, bytes, options] of cases)
    it(`decodes ${name} to the bytes xz was given`, async () => {
      const decoded = await lzmaDecode(decoder, compress(bytes, options));
      expect(decoded.length).toBe(bytes.length);
      expect(Buffer.compare(Buffer.from(decoded), bytes)).toBe(0);
    });

  it('refuses a stream cut short, one that claims more bytes than it holds, and a header with no size', async () => {
    const stream = compress(text);
    await expect(lzmaDecode(decoder, stream.subarray(0, stream.length >> 1))).rejects.toThrow(
      /lzma: a stream that ends early|lzma: a corrupt stream/,
    );
    const longer = Buffer.from(stream);
    longer.writeBigUInt64LE(BigInt(text.length + 100), 5);
    await expect(lzmaDecode(decoder, longer)).rejects.toThrow(/lzma: a corrupt stream/);
    const unsized = Buffer.from(stream);
    unsized.fill(0xff, 5, 13);
    await expect(lzmaDecode(decoder, unsized)).rejects.toThrow(/states no size/);
  });
});
