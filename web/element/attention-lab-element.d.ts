// Types of the <attention-lab> custom element (the "attention-lab/element" export).
import type { AttentionResult } from '../api/index.js';

export declare class AttentionLabElement extends HTMLElement {
  /** The last result, or null before the first run / while the attributes are invalid. */
  readonly result: AttentionResult | null;
  text: string | null;
  contextText: string | null;
  dModel: string | null;
  heads: string | null;
  seed: string | null;
  init: string | null;
  layout: string | null;
  qkvBias: boolean;
  outProj: string | null;
  weightsSeed: string | null;
  scale: string | null;
  mask: string | null;
  maskFill: string | null;
  dropout: string | null;
  dropoutSeed: string | null;
  positional: string | null;
  maxLen: string | null;
  /** JSON text (or an object, which is serialized) merged over the attribute fields. */
  config: string | null;
  steps: string | null;
  lang: string;
  theme: string | null;
  decimals: string | null;
  compact: boolean;
  editable: boolean;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lab': AttentionLabElement;
  }
  interface HTMLElementEventMap {
    'attention-change': CustomEvent<AttentionResult>;
    'attention-error': CustomEvent<{ field: string; message: string }>;
  }
}
