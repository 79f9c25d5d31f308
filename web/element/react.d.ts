// <attention-lab> in React's JSX (the "attention-lab/react" types): add
// `/// <reference types="attention-lab/react" />` (or "attention-lab/react" to
// tsconfig's "types") and `<attention-lab heads={4} />` type-checks. React 19
// sets a prop the element has as a property (heads, theme, config …) and any
// other as an attribute (d-model …), and listens to `onattention-change` as the
// attention-change event; React 18 writes every prop as an attribute and has
// no custom-element events (add a listener through a ref there).
// React 18.3 and 19 read React.JSX (the module augmentation); older React 18
// types read the global JSX namespace, declared too.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { AttentionLabAttributes, AttentionLabElement, AttentionLabEventMap } from './attention-lab-element.js';

/** Its events as React 19 props: `on` + the event's name. */
export type AttentionLabEventProps = {
  [Name in keyof AttentionLabEventMap as `on${Name}`]?: (event: AttentionLabEventMap[Name]) => void;
};

/** The props of <attention-lab>: React's HTML props, its attributes and its events. */
export type AttentionLabProps = DetailedHTMLProps<HTMLAttributes<AttentionLabElement>, AttentionLabElement> &
  AttentionLabAttributes &
  AttentionLabEventProps;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'attention-lab': AttentionLabProps;
    }
  }
}

declare global {
  namespace JSX {
    interface IntrinsicElements {
      'attention-lab': AttentionLabProps;
    }
  }
}
