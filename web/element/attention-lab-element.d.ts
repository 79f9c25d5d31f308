// Types of the <attention-lab> custom element (the "attention-lab/element" export).
// Every config field of the engine's schema is an attribute (named as the
// CLI's flag) and a typed property; `npm test` checks that this file names
// every schema field and type-checks real usage against it.
import type { AttentionConfig, AttentionResult, CellEdit, GivenValues, RandomInput, WeightName } from '../api/index.js';

type Weights = NonNullable<AttentionConfig['weights']>;

export declare class AttentionLabElement extends HTMLElement {
  /** The last result, or null before the first run / while the attributes are invalid. */
  readonly result: AttentionResult | null;

  // Config fields. Reading one gives the attribute as its type, or, when it is
  // not set, the value the engine used in the last run (its default before one).
  /** text: one sentence; several lines make a batch. */
  text: string | null;
  /** texts: a batch, one sentence per row. */
  texts: string[] | null;
  /** tokens: pre-split tokens, one list per sentence. */
  tokens: string[][] | null;
  /** input: {randn: [B, S, dModel]} or {rand: [B, S, dModel]} instead of tokens. */
  input: RandomInput | null;
  /** context-text: keys and values from this sentence (cross-attention). */
  contextText: string | null;
  /** context-texts */
  contextTexts: string[] | null;
  /** context-tokens */
  contextTokens: string[][] | null;
  /** context-input */
  contextInput: RandomInput | null;
  /** vocab: token id = index. */
  vocab: string[] | null;
  /** tokenizer (default "auto") */
  tokenizer: NonNullable<AttentionConfig['tokenizer']>;
  /** max-len */
  maxLen: number | null;
  /** d-model (default 8) */
  dModel: number;
  /** heads: numHeads (default 2) */
  heads: number;
  /** seed (default 0) */
  seed: number;
  /** positional: embedding.positional */
  positional: 'none' | 'sinusoidal';
  /** embedding-values: embedding.values */
  embeddingValues: GivenValues | null;
  /** embedding-edits: embedding.edits */
  embeddingEdits: [row: string | number, column: number, value: number][] | null;
  /** init: weights.init */
  init: NonNullable<Weights['init']>;
  /** layout: weights.layout */
  layout: NonNullable<Weights['layout']>;
  /** qkv-bias: weights.qkvBias (unset: true for torch-mha and torch-linear-clones) */
  qkvBias: boolean;
  /** out-proj: weights.outProj (default true) */
  outProj: boolean;
  /** weights-seed: weights.seed */
  weightsSeed: number | null;
  /** weight-values: weights.values */
  weightValues: Partial<Record<WeightName, GivenValues>> | null;
  /** weight-edits: weights.edits */
  weightEdits: Partial<Record<WeightName, CellEdit[]>> | null;
  /** score (default "dot") */
  score: NonNullable<AttentionConfig['score']>;
  /** additive-hidden: additiveHidden (default 8) */
  additiveHidden: number;
  /** scale */
  scale: NonNullable<AttentionConfig['scale']>;
  /** mask */
  mask: NonNullable<AttentionConfig['mask']>;
  /** mask-convention: maskConvention (default "blocked") */
  maskConvention: NonNullable<AttentionConfig['maskConvention']>;
  /** mask-fill: maskFill */
  maskFill: NonNullable<AttentionConfig['maskFill']>;
  /** dropout: dropout.p */
  dropout: number;
  /** dropout-seed: dropout.seed */
  dropoutSeed: number | null;
  /** qk-norm: qkNorm (default false) */
  qkNorm: boolean;
  /** rope: rope.style (default "none") */
  rope: NonNullable<NonNullable<AttentionConfig['rope']>['style']>;
  /** rope-base: rope.base (default 10000) */
  ropeBase: number;
  /** kv-heads: numKVHeads (unset: numHeads) */
  kvHeads: number | null;
  /** window */
  window: number | null;
  /** sink-tokens: sinkTokens (default 0) */
  sinkTokens: number;
  /** sink-logit: sinkLogit */
  sinkLogit: number | null;
  /** alibi (default false) */
  alibi: boolean;
  /** softcap */
  softcap: number | null;
  /** model (default "attention"); "tiny": the tiny trained model, which reads only the text and the checkpoint */
  model: NonNullable<AttentionConfig['model']>;
  /** checkpoint (default 3000): the tiny model's training step, one of TINY_MODEL.checkpoints */
  checkpoint: number;

  /** The config attribute as an object, merged over the attributes above. */
  config: AttentionConfig | null;
  /** A preset key ("tutorial", "multi-head", …): its settings under the attributes above, and its note shown. */
  preset: string | null;

  // How it is shown.
  /** Step names, space-separated ("scores weights output"); null: all. An unknown name is an inline error listing them. */
  steps: string | null;
  /** A BCP 47 tag (en, zh, zh-CN, zh-Hans, en-US); unset: the nearest lang around the element, followed when it changes. */
  lang: string;
  /** "auto" (the default) follows prefers-color-scheme, live; "light" and "dark" force it. */
  theme: 'auto' | 'light' | 'dark';
  /**
   * The head shown, counted from 1 as its tab: the head attribute's, or the tab a reader picked since.
   * Setting one the setup does not have (0, or more than heads) shows an inline error naming head.
   */
  head: number;
  decimals: number;
  compact: boolean;
  editable: boolean;
  /** "steps": one step at a time with a narration, moved with ←/→ (for teaching); default "scroll". */
  mode: 'scroll' | 'steps';
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lab': AttentionLabElement;
  }
  interface HTMLElementEventMap {
    'attention-change': CustomEvent<AttentionResult>;
    'attention-error': CustomEvent<{
      field: string;
      /** A code of SCHEMA.errors, e.g. "out-of-range" (undefined for an error without one). */
      code: string | undefined;
      params: Record<string, string>;
      /** The English message. */
      message: string;
    }>;
  }
}
