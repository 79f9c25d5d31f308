// Type-checked by `tsc -p web/tsconfig.json` in npm test: the element's .d.ts
// (with the properties the build writes from the schema and the view options)
// accepts the documented usage and rejects misuse.
import type { AttentionLabElement } from '../../web/element/attention-lab-element.js';
import type { AttentionResult } from '../../web/api/index.js';

function usage(el: AttentionLabElement): number {
  el.dModel = 16;
  el.heads = 4;
  el.qkvBias = false;
  el.outProj = true;
  el.mask = 'causal';
  el.maskFill = -1e9;
  el.scale = 0.5;
  el.dropout = 0.1;
  el.maxLen = null;
  el.config = { weights: { edits: { W_Q: [[0, 1, 0.5]], b_Q: [[2, 0.1]] } } };
  el.embeddingEdits = [['cat', 0, 9]];
  el.editable = true;
  el.decimals = 3;
  el.theme = 'dark';
  el.theme = 'auto';
  el.head = 2;
  el.lang = 'zh-CN';
  el.addEventListener('attention-change', (event) => {
    const result: AttentionResult = event.detail;
    console.log(result.tensors.output?.data[0]);
  });
  const found: AttentionLabElement | null = document.querySelector('attention-lab');
  const result = el.result;
  const names: string[] = el.figureNames;
  const svg: Promise<Blob> = el.exportFigure(names[0] ?? 'weights', { format: 'svg' });
  void el.exportFigure('links', { format: 'png', scale: 2 });
  void svg;
  return el.dModel + el.heads + (result ? result.headDim : 0) + (found ? 1 : 0);
}

function misuse(el: AttentionLabElement): void {
  // @ts-expect-error dModel is a number
  el.dModel = '16';
  // @ts-expect-error qkvBias is a boolean
  el.qkvBias = 'false';
  // @ts-expect-error mask is an enum
  el.mask = 'future';
  // @ts-expect-error theme is auto, light or dark
  el.theme = 'blue';
  // @ts-expect-error head is a number (from 1)
  el.head = '2';
  // @ts-expect-error a PNG is drawn at 1, 2 or 4 times the SVG's size
  void el.exportFigure('weights', { format: 'png', scale: 3 });
  // @ts-expect-error figures are SVG or PNG
  void el.exportFigure('weights', { format: 'pdf' });
}

export { usage, misuse };
