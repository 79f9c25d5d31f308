// A checkpoint folder on disk as CheckpointSources (open.js), for Node (the
// CLI): each range read with a positioned read of its file, never the whole
// file. Only config.json, tokenizer.json and *.safetensors are listed.
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const WANTED = /^(config\.json|tokenizer\.json|.*\.safetensors)$/;

/** The CheckpointSources of folder `dir`. */
export async function directorySources(dir) {
  const names = (await readdir(dir)).filter((name) => WANTED.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      const { size } = await stat(path);
      return {
        name,
        size,
        async read(begin, end) {
          const file = await open(path, 'r');
          try {
            const bytes = new Uint8Array(end - begin);
            for (let at = 0; at < bytes.length;) {
              const { bytesRead } = await file.read(bytes, at, bytes.length - at, begin + at);
              if (bytesRead === 0) break; // the file shrank: the loader says the piece is short
              at += bytesRead;
            }
            return bytes;
          } finally {
            await file.close();
          }
        },
      };
    }),
  );
}
