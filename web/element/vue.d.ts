// <attention-lab> in Vue templates (the "attention-lab/vue" types): add
// `/// <reference types="attention-lab/vue" />` (or "attention-lab/vue" to
// tsconfig's "types") and Volar / vue-tsc check its attributes and its
// events (`@attention-change="(event) => event.detail.tensors"`). Vue still
// needs `isCustomElement` for the tag (the VitePress recipe shows where).
import type { DefineComponent } from 'vue';
import type { AttentionLabAttributes, AttentionLabEventMap } from './attention-lab-element.js';

/** Its events as Vue listener props: `onAttention-change` is what `@attention-change` compiles to. */
export type AttentionLabVueEvents = {
  [Name in keyof AttentionLabEventMap as `on${Capitalize<Name>}`]?: (event: AttentionLabEventMap[Name]) => void;
};

declare module 'vue' {
  interface GlobalComponents {
    'attention-lab': DefineComponent<AttentionLabAttributes & AttentionLabVueEvents>;
  }
}
