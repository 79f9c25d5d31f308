// Type-checked by tests/js/package-types.test.js against the packed .d.ts files,
// with React 19's types and React 18's: <attention-lab> in JSX takes its
// attributes typed (numbers, the schema's choices), React's own props, and its
// events as React 19 listens to them (`on` + the event's name).
/// <reference types="attention-lab/react" />
import { useRef } from 'react';
import type { AttentionResult } from 'attention-lab';
import type { AttentionLabElement } from 'attention-lab/element';

export function Lab({ onResult }: { onResult: (result: AttentionResult) => void }) {
  const ref = useRef<AttentionLabElement>(null);
  return (
    <attention-lab
      ref={ref}
      className="lab"
      text="The cat that the dog chased was black"
      heads={4}
      d-model="16"
      mask="causal"
      steps="scores weights output"
      theme="dark"
      editable
      onattention-change={(event) => onResult(event.detail)}
      onattention-error={(event) => console.log(event.detail.field, event.detail.code)}
    />
  );
}

// The global JSX namespace (React 18's types before 18.3 read it) has the element too.
export type LabProps = JSX.IntrinsicElements['attention-lab'];
export const props: LabProps = { heads: 2, theme: 'auto' };

// @ts-expect-error heads is a number (or its text)
export const badHeads = <attention-lab heads="four" />;
// @ts-expect-error theme is auto, light or dark
export const badTheme = <attention-lab theme="blue" />;
// @ts-expect-error mask is one of the schema's choices
export const badMask = <attention-lab mask="future" />;
// @ts-expect-error no such attribute (a name with a hyphen, as d-model, TypeScript lets through)
export const badName = <attention-lab headCount={4} />;
export const badListener = (
  // @ts-expect-error the event's detail is a result, not a string
  <attention-lab onattention-change={(event: CustomEvent<string>) => event.detail.length} />
);
