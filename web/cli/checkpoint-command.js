// attention-lab --model-dir DIR (--text TEXT | --ids JSON): a Hugging Face
// checkpoint (GPT-2) read from its folder, only the tensors it needs
// (web/api/checkpoint), its forward on the text's tokens (its tokenizer.json)
// or on the ids given; printed as tables in the language of --lang, as JSON
// (--json) or as a .npz of its tensors (--format npz).
import { AttentionConfigError } from '../api/errors.js';
import { directorySources } from '../api/checkpoint/node-files.js';
import { openCheckpoint } from '../api/checkpoint/open.js';
import { loadTokenizer } from '../api/checkpoint/tokenizer.js';
import { tokenChips } from '../model/bpe-tokens.js';
import { byteSize } from '../model/format.js';
import { table, terminalColumns } from './stepper-commands.js';

const LINE_COLUMNS = 80;
const score = (v) => v.toFixed(4);

/** --ids JSON -> whole numbers, else an error on --ids. */
function idsOf(text) {
  let ids;
  try {
    ids = JSON.parse(text);
  } catch {
    ids = undefined;
  }
  if (!Array.isArray(ids) || ids.length === 0)
    throw AttentionConfigError.of('--ids', 'wrong-type', {
      field: '--ids',
      expected: 'a JSON array of token ids, e.g. [15496, 995]',
      got: text,
    });
  return ids;
}

/**
 * The checkpoint in folder `dir` run on `text` (through its tokenizer.json) or `ids` (JSON text):
 * {family, sizes, ids, tokens (labels, or null without a tokenizer), tensors, layers, headScores, bytesRead, fileBytes}.
 */
export async function runCheckpointFolder({ dir, text, ids }) {
  const model = await openCheckpoint(await directorySources(dir));
  const tokenizer = model.tokenizerJson === null ? null : loadTokenizer(model.tokenizerJson);
  let tokenIds;
  if (text !== undefined) {
    if (!tokenizer) throw AttentionConfigError.of('tokenizer.json', 'checkpoint-no-tokenizer', { dir });
    tokenIds = tokenizer.encode(text).ids;
  } else tokenIds = idsOf(ids);
  const result = model.run(tokenIds);
  model.close();
  return {
    sizes: model.sizes,
    ...result,
    tokens: tokenizer ? tokenChips(tokenizer.pieces(result.ids)).map((chip) => chip.label) : null,
    bytesRead: model.bytesRead,
    fileBytes: model.fileBytes,
  };
}

/** The tokens (or ids), each with its position ("0:Hello  1:␣world"), in lines of at most 80 columns. */
function tokensText(result) {
  const lines = [];
  result.ids.forEach((id, i) => {
    const cell = `${i}:${result.tokens ? result.tokens[i] : id}`;
    if (lines.length && terminalColumns(`${lines.at(-1)}  ${cell}`) <= LINE_COLUMNS)
      lines[lines.length - 1] += `  ${cell}`;
    else lines.push(`  ${cell}`);
  });
  return lines.join('\n');
}

/** The five likeliest next tokens: "␣the 0.4123 (id 262), …". */
function nextTokens(result) {
  const probs = result.tensors.probs.data;
  const order = Array.from(probs.keys())
    .sort((a, b) => probs[b] - probs[a])
    .slice(0, 5);
  return order.map((id) => `${id} ${score(probs[id])}`).join(', ');
}

/** The run as tables: the model's sizes, the tokens, each head's scores, the next token. */
export function checkpointText(t, result) {
  const { previousToken, induction } = result.headScores;
  const { family, layers, heads, kvHeads, headDim, dModel, vocab } = result.sizes;
  const rows = [[t('cli.tiny.head'), t('cli.tiny.previousToken'), t('cli.tiny.induction')]];
  for (let l = 0; l < layers; l++)
    for (let h = 0; h < heads; h++)
      rows.push([
        `L${l + 1}H${h + 1}`,
        previousToken ? score(previousToken[l][h]) : '—',
        induction ? score(induction[l][h]) : '—',
      ]);
  const targets = result.headScores.inductionTargets.filter((target) => target >= 0).length;
  return [
    t('cli.checkpoint.title', { family, layers, heads, kvHeads, headDim, dModel, vocab, T: result.ids.length }),
    t('cli.checkpoint.read', { read: byteSize(result.bytesRead), size: byteSize(result.fileBytes) }),
    t(result.tokens ? 'cli.checkpoint.tokens' : 'cli.checkpoint.ids'),
    tokensText(result),
    '',
    table(rows),
    '',
    t('cli.checkpoint.previousTokenHow'),
    induction ? t('cli.checkpoint.inductionHow', { count: targets }) : t('cli.checkpoint.noInduction'),
    t('cli.checkpoint.next', { list: nextTokens(result) }),
  ].join('\n');
}

/** The run's tensors for a .npz: logits, probs, … and layers.L.weights, … (L from 0). */
export function checkpointTensors(result) {
  const tensors = { ...result.tensors };
  result.layers.forEach((layer, l) => {
    for (const [name, tensor] of Object.entries(layer)) tensors[`layers.${l}.${name}`] = tensor;
  });
  return tensors;
}
