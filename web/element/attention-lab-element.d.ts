// Types of the <attention-lab> custom element (the "attention-lab/element" export).
// Every config field of the engine's schema is an attribute (named as the
// CLI's flag) and a typed property, as is every view option: the build writes
// those properties from the schema and the view options (web/scripts/write-types.js,
// into web/api/generated/element-properties.d.ts) and the interface below merges
// them into the class. `npm test` type-checks real usage against it.
import type { AttentionConfig, AttentionResult } from '../api/index.js';
import type {
  AttentionLabAttributes,
  AttentionLabConfigProperties,
  AttentionLabViewProperties,
} from '../api/generated/element-properties.js';

export type { AttentionLabAttributes };

// Config fields: reading one gives the attribute as its type, or, when it is not set, the value the engine
// used in the last run (its default before one). View options: how it is shown (steps, lang, theme, head, …).
export interface AttentionLabElement extends AttentionLabConfigProperties, AttentionLabViewProperties {}

export declare class AttentionLabElement extends HTMLElement {
  /** The last result, or null before the first run / while the attributes are invalid. */
  readonly result: AttentionResult | null;

  /** The config attribute as an object, merged over the config attributes. */
  config: AttentionConfig | null;
  /** A preset key ("tutorial", "multi-head", …): its settings under the config attributes, and its note shown. */
  preset: string | null;

  /** The figures shown, by the names exportFigure takes: a matrix's ("weights", "Q_h"), "links", "heads:weights". */
  readonly figureNames: string[];
  /**
   * Figure `name` as shown, with its caption (tokens, d_model, heads, mask, seed) in the element's language:
   * an SVG (text as <text>, the palette's colours) or a PNG at `scale` × the SVG's size. Rejects with a
   * RangeError naming the figures shown when `name` is not one of them.
   */
  exportFigure(name: string, options?: { format?: 'svg' | 'png'; scale?: 1 | 2 | 4 }): Promise<Blob>;
}

/** What an attention-error event tells: the attribute at fault and why. */
export interface AttentionErrorDetail {
  field: string;
  /** A code of SCHEMA.errors, e.g. "out-of-range" (undefined for an error without one). */
  code: string | undefined;
  params: Record<string, string>;
  /** The English message. */
  message: string;
}

/** The events it fires (bubbling, composed), by name: the frameworks' declarations (react.d.ts, vue.d.ts) read it. */
export interface AttentionLabEventMap {
  'attention-change': CustomEvent<AttentionResult>;
  'attention-error': CustomEvent<AttentionErrorDetail>;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lab': AttentionLabElement;
  }
  interface HTMLElementEventMap extends AttentionLabEventMap {}
}
