// A checkpoint folder on disk as CheckpointSources (open.js), for Node (the
// CLI): each range read with a positioned read of its file, never the whole
// file. Only config.json, tokenizer.json and *.safetensors are listed.
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AttentionConfigError } from '../errors.js';

const WANTED = /^(config\.json|tokenizer\.json|.*\.safetensors)$/;

/** The CheckpointSources of folder `dir`. */
export async function directorySources(dir) {
  const names = (await readdir(dir)).filter((name) => WANTED.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      const { size } = await stat(path);
      /** Bytes [begin, end) into `into` (a fresh array, or wasm memory), read by position. */
      async function readRange(begin, end, into) {
        const file = await open(path, 'r');
        try {
          for (let at = 0; at < end - begin;) {
            const { bytesRead } = await file.read(into(), at, end - begin - at, begin + at);
            if (bytesRead === 0)
              // The file is shorter than its header said (it changed since): the piece would be partly unread.
              throw AttentionConfigError.of(name, 'weights-file-too-short', {
                bytes: String(begin + at),
                need: String(end),
              });
            at += bytesRead;
          }
        } finally {
          await file.close();
        }
      }
      return {
        name,
        size,
        async read(begin, end) {
          const bytes = new Uint8Array(end - begin);
          await readRange(begin, end, () => bytes);
          return bytes;
        },
        readInto: (begin, end, target) => readRange(begin, end, target),
      };
    }),
  );
}
