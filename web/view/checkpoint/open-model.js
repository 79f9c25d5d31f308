// Opening a checkpoint from the files the reader picked or dropped: the
// model (web/api/checkpoint/open.js, which reads only the tensors the forward
// needs, telling the bytes read as it goes) and, when the folder has one, its
// tokenizer. A tokenizer.json that cannot be read does not stop the model:
// its error comes back with it, and the reader types ids instead.
import { fileSource, openCheckpoint } from '../../api/checkpoint/open.js';
import { loadTokenizer } from '../../api/checkpoint/tokenizer.js';

/**
 * files: File[] (the picker's, a drop's). onProgress({read, total}): bytes of
 * the weights read so far. Resolves {model, tokenizer (or null),
 * tokenizerError (or null)}; rejects with the open's AttentionConfigError.
 */
export async function openModel(files, { onProgress }) {
  const model = await openCheckpoint(files.map(fileSource), { onProgress });
  if (!model.tokenizerJson) return { model, tokenizer: null, tokenizerError: null };
  try {
    return { model, tokenizer: loadTokenizer(model.tokenizerJson), tokenizerError: null };
  } catch (error) {
    return { model, tokenizer: null, tokenizerError: error };
  }
}

/** The files of a drop: its files, and those of any folder dropped (read through its entries, every level). */
export async function droppedFiles(dataTransfer) {
  const entries = [...(dataTransfer.items ?? [])].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.some((entry) => entry.isDirectory)) return [...dataTransfer.files];
  const files = [];
  const walk = async (entry) => {
    if (entry.isFile) {
      files.push(await new Promise((resolve, reject) => entry.file(resolve, reject)));
      return;
    }
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child);
    }
  };
  for (const entry of entries) await walk(entry);
  return files;
}
