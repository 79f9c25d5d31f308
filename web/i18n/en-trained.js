// English strings of the trained model's view (view/trained*.js), registered
// by it (addEnglish), so they load with the mode. Chinese has them in zh.js.
export default {
  // ---- the trained model (view/trained.js) ----
  'trained.title': 'A trained model: 2 layers, 4 heads, on bytes',
  'trained.intro':
    'A tiny transformer trained by `tests/reference/tiny/train.py` (attention only: no MLP, no LayerNorm), {parameters} parameters, reading up to {context} bytes. Its heads are named by scores measured now, on your text.',
  'trained.bytesNote':
    'Each token is one UTF-8 byte: ␣ is a space, ↵ a newline; a character of several bytes is shown once per byte with its part (a Chinese character is 3 bytes: 春 1/3, 春 2/3, 春 3/3).',
  'trained.text.label': 'Text (1 to {max} UTF-8 bytes)',
  'trained.text.name': 'Text',
  'trained.text.count': '{bytes} of {max} bytes',
  'trained.twice.button': 'Type it twice',
  'trained.twice.title': 'Type it twice: the second copy predicted from the first',
  'trained.twice.accuracy':
    'Second copy: {correct}/{total} next bytes predicted right ({percent}%), mean loss {loss} nats.',
  'trained.twice.notTwice':
    'This text repeats no run of {min} bytes or more: press “Type it twice” (or type something again yourself) to see the second copy predicted.',
  'trained.twice.bytes': 'The bytes of the text; pick one to follow it below',
  'trained.twice.byte': 'byte {i}: {label}',
  'trained.twice.right': 'predicted right',
  'trained.twice.wrong': 'predicted wrong (the model said {predicted})',
  'trained.twice.how':
    '✓: the model’s most likely next byte after the byte before was this one; ✗: it was another (shown). The second copy is {repeat} bytes: wherever a run of at least {min} bytes is typed again (twice in a row, with a space or “. ” between, or a third time), its later copy; its first byte is not counted, nothing announces it.',
  'trained.heads.title': 'The heads, named by what they do',
  'trained.heads.how':
    'Each square is a head’s attention weights (row: the query byte, column: the key byte; darker is more weight). Previous-token score: the mean over positions i ≥ 1 of `weights[i, i−1]`; 0.5 or more names a previous-token head. Induction score, on a text with a second copy (a run of at least {min} bytes typed again): the mean over its bytes i of `weights[i, t(i)]`, t(i) the byte that followed the earlier copy (the latest of the longest matching runs); 0.3 or more names an induction head (with no preference it is about 1/(i+1)). The dashed bands outline those cells on the layer-2 head with the highest induction score.',
  'trained.measured.start': 'Measured on this text at step {step}:',
  'trained.measured.induction': '{head} is an induction head ({value})',
  'trained.measured.previousToken': '{head} is a previous-token head ({value})',
  'trained.measured.none': 'no head scores high enough to be named.',
  'trained.measured.and': '; ',
  'trained.composition.title': 'Layer 1 feeds layer 2',
  'trained.composition.pickSecondCopy':
    'Pick a byte of the second copy (a run typed again, marked ✓ or ✗ above) to see how the two layers find the next byte.',
  'trained.composition.layer1':
    'Layer 1, {head} (the highest previous-token score): at byte {key} it looks at the byte before, {match}, with weight {weight}; from then on the residual stream at byte {key} carries which byte came before it.',
  'trained.composition.layer2':
    'Layer 2, {head} (the highest induction score): the query at byte {query} looks for a key whose byte before was its own byte; that key is byte {key}, which it gives weight {weight}.',
  'trained.composition.row': 'weights of {head}, row {i}',
  'trained.composition.elsewhere': '{head} gives its largest weight to byte {best} instead.',
  'trained.composition.copies':
    'It copies what it read, byte {key}, into position {i}: the model’s next bytes after it are in the table.',
  'trained.next.caption': 'The most likely next bytes after byte {i} ({label})',
  'trained.next.byte': 'Byte',
  'trained.next.probability': 'Probability',
  'trained.checkpoint.label': 'Training step',
  'trained.checkpoint.step': 'step {step}',
  'trained.curve.steps': 'training step',
  'trained.curve.induction': 'Best induction score during training',
  'trained.curve.score': 'score',
  'trained.curve.loss': 'Loss on the second copy during training',
  'trained.curve.nats': 'loss (nats)',
  'trained.curve.saved': 'saved checkpoint (the slider’s stops)',
  'trained.curve.note':
    'The curves are the training report’s, measured every {every} steps on {texts} random strings typed twice ({separated} of them with a separator or a third copy); the scores of the heads below are measured now on your text. Between steps {from} and {to} the induction head forms: the best induction score rises from {fromScore} to {toScore} and the loss on the second copy falls from {fromLoss} to {toLoss} nats.',
  'trained.tensors.title': 'Every tensor, with its shape',
  'trained.tensors.pick': 'Tensor',
  'trained.tensors.input': 'Embeddings',
  'trained.tensors.output': 'Output',
  'trained.download': 'Download the weights ({file}, {size} KB)',
  'trained.copied': 'Copied: it downloads the weights file and prints the same numbers.',
  'trained.copyShown': 'The program is below: copy it from there.',
  'trained.error.twiceEmpty': 'Text: type something first, then it can be typed twice.',
  'trained.error.at': '{label}: {message}',
};
