// attention-lab --model tiny: the tiny trained model's run as text in the
// language of --lang (its bytes, the head scores, the second copy of a text
// typed twice, the next byte), or its tensors flattened for a .npz.
import { byteLabels } from '../model/tiny-bytes.js';
import { headName, MIN_REPEAT, topNextBytes } from '../model/tiny.js';
import { table, terminalColumns } from './stepper-commands.js';

const LINE_COLUMNS = 80;
const score = (v) => v.toFixed(4);
const shownByte = (label) => (label.text.length === 1 ? `'${label.text}'` : label.text);

/** The bytes, each with its position ("0:T  1:h  2:e …"), in lines of at most 80 terminal columns. */
function bytesText(ids) {
  const lines = [];
  byteLabels(ids).forEach((label, i) => {
    const cell = `${i}:${label.text}`;
    if (lines.length && terminalColumns(`${lines.at(-1)}  ${cell}`) <= LINE_COLUMNS)
      lines[lines.length - 1] += `  ${cell}`;
    else lines.push(`  ${cell}`);
  });
  return lines.join('\n');
}

/** The five likeliest next bytes after the last one: "' ' 0.4123, 'T' 0.2001, …". */
function nextBytes(result) {
  return topNextBytes(result.tensors.probs, result.sizes.T - 1, 5)
    .map(({ p, byte }) => `${shownByte(byteLabels([byte])[0])} ${score(p)}`)
    .join(', ');
}

/** The run of model "tiny" (a TinyModelResult) as text. */
export function tinyText(t, result) {
  const { previousToken, induction, repeatTargets } = result.headScores;
  const rows = [[t('cli.tiny.head'), t('cli.tiny.previousToken'), t('cli.tiny.induction')]];
  for (let l = 0; l < result.sizes.layers; l++)
    for (let h = 0; h < result.sizes.heads; h++)
      rows.push([
        headName(l, h),
        previousToken ? score(previousToken[l][h]) : '—',
        induction ? score(induction[l][h]) : '—',
      ]);
  const lines = [
    t('cli.tiny.title', { checkpoint: result.checkpoint, T: result.sizes.T }),
    t('cli.tiny.bytes'),
    bytesText(result.ids),
    '',
    table(rows),
    '',
    t('cli.tiny.previousTokenHow'),
    induction
      ? t('cli.tiny.inductionHow', { repeat: repeatTargets.filter((target) => target >= 0).length, min: MIN_REPEAT })
      : t('cli.tiny.noInduction', { min: MIN_REPEAT }),
  ];
  const copy = result.secondCopy;
  if (copy) {
    const percent = ((100 * copy.correct) / copy.total).toFixed(1);
    lines.push(t('cli.tiny.secondCopy', { ...copy, percent, loss: copy.loss.toFixed(3) }));
  }
  lines.push(t('cli.tiny.next', { list: nextBytes(result) }));
  return lines.join('\n');
}

/** Every tensor of the run by one name ("logits", "layers.0.weights", …), for a .npz. */
export function tinyTensors(result) {
  const tensors = { ...result.tensors };
  result.layers.forEach((layer, l) => {
    for (const [name, tensor] of Object.entries(layer)) tensors[`layers.${l}.${name}`] = tensor;
  });
  return tensors;
}
