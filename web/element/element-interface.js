// What <attention-lab> offers authors besides the config fields (model/schema.js)
// and the view options (view/view-options.js): its own attributes, its
// events, the CSS custom properties that theme it and the parts it exposes,
// each with the key of its help text. The element, the authors' page and the
// custom-elements.json manifest (scripts/write-element-manifest.js) read
// these lists; nothing here touches the DOM, so Node can import it.
import { CONFIG_ATTRIBUTE, PRESET_ATTRIBUTE } from '../model/element-config.js';
import { DEFAULT_COLORS, HEAD_COLORS } from '../view/common/colors.js';

/** Attributes that are neither config fields nor view options. */
export const ELEMENT_ATTRIBUTES = [
  { name: CONFIG_ATTRIBUTE, type: 'string', help: 'element.attribute.config' },
  { name: PRESET_ATTRIBUTE, type: 'string', help: 'element.attribute.preset' },
];

/** The events it fires (bubbling, composed). */
export const ELEMENT_EVENTS = [
  { name: 'attention-change', type: 'CustomEvent<AttentionResult>', help: 'element.event.change' },
  {
    name: 'attention-error',
    type: 'CustomEvent<{ field: string; code: string | undefined; params: Record<string, string>; message: string }>',
    help: 'element.event.error',
  },
];

/**
 * The colours of the heatmaps and heads as custom properties: each fills a
 * slot of the palette (view/colors.js customPalette); `index` is the place in
 * a list slot (the probability scale's two ends, the heads).
 */
export const COLOR_PROPERTIES = [
  {
    name: '--attention-lab-negative',
    slot: 'negative',
    default: DEFAULT_COLORS.negative,
    help: 'element.css.negative',
  },
  { name: '--attention-lab-zero', slot: 'zero', default: 'var(--attention-lab-background)', help: 'element.css.zero' },
  {
    name: '--attention-lab-positive',
    slot: 'positive',
    default: DEFAULT_COLORS.positive,
    help: 'element.css.positive',
  },
  {
    name: '--attention-lab-probability-low',
    slot: 'probability',
    index: 0,
    default: DEFAULT_COLORS.probability[0],
    help: 'element.css.probabilityLow',
  },
  {
    name: '--attention-lab-probability-high',
    slot: 'probability',
    index: 1,
    default: DEFAULT_COLORS.probability.at(-1),
    help: 'element.css.probabilityHigh',
  },
  ...HEAD_COLORS.map((color, k) => ({
    name: `--attention-lab-head-${k + 1}`,
    slot: 'heads',
    index: k,
    default: color,
    help: 'element.css.head',
  })),
];

/** The custom properties of its surface (element.css reads them; their defaults are there). */
export const SURFACE_PROPERTIES = [
  'background',
  'color',
  'muted',
  'line',
  'panel',
  'accent',
  'error',
  'chip',
  'font',
  'mono',
  'radius',
].map((name) => ({ name: `--attention-lab-${name}`, help: `element.css.${name}` }));

/** The shadow parts authors can style with ::part(). */
export const ELEMENT_PARTS = [
  'heads',
  'follow',
  'overview',
  'stepper',
  'note',
  'error',
  'step',
  'chapter', // a closed chapter's bar (chapters="…")
  'title',
  'formula',
  'shape',
  'meaning',
  'matrix',
  'explain',
  'trained', // the trained model's view (model="tiny")
  'checkpoint', // the checkpoint view (model="checkpoint": a model the reader opens from its files)
];
