// Type-checked by tests/e2e/recipes.test.js in the VitePress site (with its Vue)
// against the packed package: "attention-lab/vue" registers <attention-lab> in
// Vue's GlobalComponents, so templates check its attributes and its events.
/// <reference types="attention-lab/vue" />
import type { GlobalComponents } from 'vue';

type LabProps = InstanceType<GlobalComponents['attention-lab']>['$props'];

export const props: LabProps = {
  text: 'The cat that the dog chased was black',
  heads: 4,
  'd-model': '16',
  theme: 'dark',
  'onAttention-change': (event) => console.log(event.detail.tensors.output?.data[0]),
};
// @ts-expect-error theme is auto, light or dark
export const badTheme: LabProps = { theme: 'blue' };
// @ts-expect-error heads is a number (or its text)
export const badHeads: LabProps = { heads: 'four' };
