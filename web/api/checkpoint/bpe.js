// The BPE model: one pre-tokenized word (byte-level characters) to token ids
// by the merge list. Start from one symbol per character; while some adjacent
// pair is a merge, take the pair of lowest rank (earliest in the list) and
// merge every occurrence of it from left to right (GPT-2's encoder.py; Hugging
// Face's queue of (rank, position) gives the same ids for learned merge
// lists). Words repeat in text, so each word's ids are cached.

// Hugging Face's BPE keeps this many words in its cache too.
const CACHE_WORDS = 10000;

export class BytePairModel {
  #vocab;
  #pairs = new Map(); // left id * #stride + right id -> [rank, merged id]
  #stride;
  #ignoreMerges;
  #unkId;
  #cache = new Map();

  /**
   * vocab: Map token -> id; merges: [left, right][] in rank order, each part
   * and their concatenation in vocab (the caller checks); ignoreMerges: a
   * word that is itself a token is that token (Llama 3's ignore_merges);
   * unkId: the id of a character outside the vocab, or null to drop it (as
   * Hugging Face does without an unk_token).
   */
  constructor({ vocab, merges, ignoreMerges = false, unkId = null }) {
    this.#vocab = vocab;
    let largest = 0;
    for (const id of vocab.values()) largest = Math.max(largest, id);
    this.#stride = largest + 1;
    merges.forEach(([left, right], rank) => {
      const key = vocab.get(left) * this.#stride + vocab.get(right);
      // A pair listed twice keeps its first (lowest) rank.
      if (!this.#pairs.has(key)) this.#pairs.set(key, [rank, vocab.get(left + right)]);
    });
    this.#ignoreMerges = ignoreMerges;
    this.#unkId = unkId;
  }

  /** "HelloĠ" (byte-level characters of one word) -> its token ids. */
  encodeWord(word) {
    const cached = this.#cache.get(word);
    if (cached) return cached;
    const ids = this.#merge(word);
    if (this.#cache.size >= CACHE_WORDS) this.#cache.clear();
    this.#cache.set(word, ids);
    return ids;
  }

  #merge(word) {
    if (this.#ignoreMerges && this.#vocab.has(word)) return [this.#vocab.get(word)];
    let ids = [];
    for (const char of word) {
      const id = this.#vocab.get(char) ?? this.#unkId;
      if (id !== null) ids.push(id);
    }
    while (ids.length > 1) {
      let best = null;
      for (let i = 0; i + 1 < ids.length; i++) {
        const pair = this.#pairs.get(ids[i] * this.#stride + ids[i + 1]);
        if (pair && (best === null || pair[0] < best.rank))
          best = { rank: pair[0], left: ids[i], right: ids[i + 1], merged: pair[1] };
      }
      if (best === null) break;
      const next = [];
      for (let i = 0; i < ids.length; i++) {
        if (ids[i] === best.left && ids[i + 1] === best.right) {
          next.push(best.merged);
          i += 1;
        } else {
          next.push(ids[i]);
        }
      }
      ids = next;
    }
    return ids;
  }
}
