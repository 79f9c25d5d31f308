// An LZMA decoder, built alone as a glue-free wasm (web/api/generated/lzma-decode.wasm) for the
// single-file builds: they carry the engine's .wasm as LZMA (xz --format=lzma -9e: 115 KB, where
// deflate, which browsers inflate themselves, gives 144 KB), and this decodes it before the engine
// compiles (web/api/wasm-binary.single.js). Browsers have no LZMA; the decoders on npm cost more than
// the saving (xz-decompress, 9.4 KB gzipped) or take about 450 ms (LZMA-JS); written in JS this one
// took 200-300 ms cold, as it runs once, before V8 optimises it. As wasm it is about 2 KB and runs
// at compiled speed from the first byte.
//
// It follows the LZMA specification's reference decoder (Igor Pavlov's LzmaSpec.cpp in the LZMA
// SDK, public domain) for the ".lzma" (LZMA-alone) format: a 13-byte header (lc/lp/pb, dictionary
// size, uncompressed size) and one range-coded stream. The whole output is one buffer, so the
// dictionary is the output itself; the header must state the size (build-single.js writes it, as
// xz writes "unknown"). tests/js/lzma-decode.test.js checks it against xz.
#include <cstddef>
#include <cstdint>

namespace {

constexpr uint32_t kTop = 1u << 24;  // the range coder renormalises below this
constexpr int kStates = 12;
constexpr int kPosStatesMax = 16;                           // 1 << pb, pb <= 4
constexpr int kLenProbs = 2 + 2 * kPosStatesMax * 8 + 256;  // choice, choice2, low[16][8], mid[16][8], high[256]
constexpr int kEndPosModel = 14;
constexpr int kFullDistances = 128;

// Where each group of probabilities starts in the one array (LzmaSpec's CLzmaDecoder members).
constexpr int kIsMatch = 0;  // [state][posState]
constexpr int kIsRep = kIsMatch + kStates * kPosStatesMax;
constexpr int kIsRepG0 = kIsRep + kStates;
constexpr int kIsRepG1 = kIsRepG0 + kStates;
constexpr int kIsRepG2 = kIsRepG1 + kStates;
constexpr int kIsRep0Long = kIsRepG2 + kStates;                           // [state][posState]
constexpr int kPosSlot = kIsRep0Long + kStates * kPosStatesMax;           // [4 length states][64]
constexpr int kPosDecoders = kPosSlot + 4 * 64;                           // [1 + kFullDistances - kEndPosModel]
constexpr int kAlign = kPosDecoders + 1 + kFullDistances - kEndPosModel;  // [16]
constexpr int kLen = kAlign + 16;                                         // the matches' CLenDecoder
constexpr int kRepLen = kLen + kLenProbs;                                 // the repeated matches'
constexpr int kLiteral = kRepLen + kLenProbs;                             // [0x300 << (lc + lp)]

// LzmaSpec's CRangeDecoder. Past the input's end it reads zeros; `at` then passes `end`, checked once.
struct RangeDecoder {
  const uint8_t* at;
  const uint8_t* end;
  uint32_t range = 0xffffffffu;
  uint32_t code = 0;
  uint16_t* probs;

  uint32_t next() { return at < end ? *at++ : (at++, 0u); }
  void normalize() {
    if (range < kTop) {
      range <<= 8;
      code = (code << 8) | next();
    }
  }
  // One bit with probs[index], the model adapted (DecodeBit).
  uint32_t bit(int index) {
    uint32_t prob = probs[index];
    uint32_t bound = (range >> 11) * prob;
    uint32_t symbol;
    if (code < bound) {
      probs[index] = static_cast<uint16_t>(prob + ((2048 - prob) >> 5));
      range = bound;
      symbol = 0;
    } else {
      probs[index] = static_cast<uint16_t>(prob - (prob >> 5));
      code -= bound;
      range -= bound;
      symbol = 1;
    }
    normalize();
    return symbol;
  }
  // The tree at probs[base + m] walked from node m until m reaches `leaves` (BitTreeDecode from m).
  uint32_t walk(int base, uint32_t m, uint32_t leaves) {
    while (m < leaves) m = (m << 1) | bit(base + static_cast<int>(m));
    return m;
  }
  uint32_t tree(int base, int bits) { return walk(base, 1, 1u << bits) - (1u << bits); }
  // The same, lowest bit first (BitTreeReverseDecode).
  uint32_t reverseTree(int base, int bits) {
    uint32_t m = 1, symbol = 0;
    for (int i = 0; i < bits; i++) {
      uint32_t b = bit(base + static_cast<int>(m));
      m = (m << 1) + b;
      symbol |= b << i;
    }
    return symbol;
  }
  // `count` bits at probability one half, the highest first (DecodeDirectBits).
  uint32_t direct(int count) {
    uint32_t result = 0;
    for (; count > 0; count--) {
      range >>= 1;
      uint32_t one = code >= range ? 1 : 0;
      if (one) code -= range;
      result = (result << 1) | one;
      normalize();
    }
    return result;
  }
  // A length, 0 for the shortest (2 bytes): the CLenDecoder at `base`.
  uint32_t length(int base, int posState) {
    if (!bit(base)) return tree(base + 2 + posState * 8, 3);
    if (!bit(base + 1)) return 8 + tree(base + 2 + (kPosStatesMax + posState) * 8, 3);
    return 16 + tree(base + 2 + 2 * kPosStatesMax * 8, 8);
  }
  // A match's distance minus one (DecodeDistance); 0xffffffff is the end marker.
  uint32_t distance(uint32_t len) {
    uint32_t posSlot = tree(kPosSlot + static_cast<int>(len < 3 ? len : 3) * 64, 6);
    if (posSlot < 4) return posSlot;
    int directCount = static_cast<int>(posSlot >> 1) - 1;
    uint32_t dist = (2 | (posSlot & 1)) << directCount;
    if (posSlot < kEndPosModel)
      return dist + reverseTree(kPosDecoders + static_cast<int>(dist) - static_cast<int>(posSlot), directCount);
    return dist + (direct(directCount - 4) << 4) + reverseTree(kAlign, 4);
  }
};

}  // namespace

// The probabilities' count for a stream whose first byte is `props` (the caller allocates them).
extern "C" uint32_t lzma_probs_count(uint32_t props) {
  uint32_t lc = props % 9, lp = props / 9 % 5;
  return kLiteral + (0x300u << (lc + lp));
}

// Decodes the .lzma stream input[0, inputSize) into out[0, outSize), outSize being the header's size;
// `probs` has lzma_probs_count(input[0]) entries. Returns 0, or what is wrong: 1 a bad header, 2 a
// corrupt stream (a distance before the start or past the size, the end marker early), 3 input
// ending early.
extern "C" int lzma_decode(const uint8_t* input, uint32_t inputSize, uint8_t* out, uint32_t outSize, uint16_t* probs) {
  if (inputSize < 18 || input[0] >= 9 * 5 * 5 || input[13] != 0) return 1;
  const uint32_t lc = input[0] % 9, lp = input[0] / 9 % 5, pb = input[0] / 45;
  for (uint32_t i = 0, count = lzma_probs_count(input[0]); i < count; i++) probs[i] = 1024;
  RangeDecoder rc{input + 18, input + inputSize};
  rc.probs = probs;
  rc.code = (uint32_t(input[14]) << 24) | (uint32_t(input[15]) << 16) | (uint32_t(input[16]) << 8) | input[17];

  const uint32_t posMask = (1u << pb) - 1, litPosMask = (1u << lp) - 1;
  int state = 0;
  uint32_t rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0, pos = 0;
  while (pos < outSize) {
    const int posState = static_cast<int>(pos & posMask);
    if (!rc.bit(kIsMatch + (state << 4) + posState)) {
      // A literal, coded in the context of the previous byte (and, just after a match, of the byte at rep0).
      const uint32_t prev = pos > 0 ? out[pos - 1] : 0;
      const int base = kLiteral + 0x300 * static_cast<int>(((pos & litPosMask) << lc) + (prev >> (8 - lc)));
      uint32_t symbol = 1;
      if (state >= 7) {
        uint32_t matchByte = out[pos - rep0 - 1];
        do {
          const uint32_t matchBit = (matchByte >> 7) & 1;
          matchByte <<= 1;
          const uint32_t b = rc.bit(base + static_cast<int>(((1 + matchBit) << 8) + symbol));
          symbol = (symbol << 1) | b;
          if (matchBit != b) break;
        } while (symbol < 0x100);
      }
      out[pos++] = static_cast<uint8_t>(rc.walk(base, symbol, 0x100) - 0x100);
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    uint32_t len;
    if (rc.bit(kIsRep + state)) {
      if (pos == 0) return 2;
      if (!rc.bit(kIsRepG0 + state)) {
        if (!rc.bit(kIsRep0Long + (state << 4) + posState)) {  // a "short rep": one byte from rep0
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - rep0 - 1];
          pos++;
          continue;
        }
      } else {
        uint32_t dist;
        if (!rc.bit(kIsRepG1 + state)) {
          dist = rep1;
        } else {
          if (!rc.bit(kIsRepG2 + state)) {
            dist = rep2;
          } else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = rc.length(kRepLen, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = rc.length(kLen, posState);
      state = state < 7 ? 7 : 10;
      rep0 = rc.distance(len);
      if (rep0 >= pos) return 2;  // also the end marker (0xffffffff) before the stated size
    }
    len += 2;
    if (len > outSize - pos) return 2;
    for (const uint32_t end = pos + len; pos < end; pos++) out[pos] = out[pos - rep0 - 1];
  }
  return rc.at > rc.end ? 3 : 0;
}
