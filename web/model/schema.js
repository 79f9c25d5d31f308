// The engine's config schema (cpp/core/schema.cpp), as the build wrote it
// (web/api/generated/schema.js), so code that runs before the wasm loads —
// the form, the element's attributes, the CLI's flags, the share links —
// reads the same fields, types, defaults and limits as the engine.
import { SCHEMA } from '../api/generated/schema.js';
import { WORDS } from './segment.js';

export { SCHEMA };

/**
 * Every field: {path, name, type, group, default, choices?, min?, max?, oneOf?, usedWhen?, help}.
 * The one choice added on the JS side: tokenizer "words" (segment.js), which
 * depends on the runtime's ICU and so becomes pre-split tokens before the engine.
 */
export const FIELDS = SCHEMA.fields.map((field) =>
  field.path === 'tokenizer' ? { ...field, choices: [...field.choices, WORDS] } : field,
);
export const fieldByPath = new Map(FIELDS.map((field) => [field.path, field]));
/** By short name: the CLI flag (--d-model), the element attribute (d-model). */
export const fieldByName = new Map(FIELDS.map((field) => [field.name, field]));

/** "d-model" -> "dModel": the element property of a field. */
export const camelCase = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

const SCALAR_TYPES = new Set([
  'string',
  'integer',
  'seed',
  'number',
  'boolean',
  'enum',
  'enum|number',
  'number|number[]',
]);
/** A field set by one value (a form control, a flag, an attribute); the others take JSON. */
export const isScalar = (field) => SCALAR_TYPES.has(field.type);

/** The string[] field that a multi-line string field turns into ("text" -> "texts"), or undefined. */
export function batchFieldOf(field) {
  const plural = fieldByPath.get(`${field.path}s`);
  return field.type === 'string' && plural?.type === 'string[]' ? plural : undefined;
}

/** The schema group of the trained model's fields (model, checkpoint). */
export const TRAINED_GROUP = 'trained';
/**
 * The model the settings (`valueOf(path)`) choose, one of the schema's model
 * choices: "attention" (the one layer, also for a value that is none of them:
 * the engine says why), "tiny" (the trained model) or "checkpoint" (a
 * checkpoint the reader opens from its files).
 */
export function modelOf(valueOf) {
  const model = String(valueOf('model') ?? '').trim();
  return fieldByPath.get('model').choices.includes(model) ? model : 'attention';
}
/** Whether the settings (`valueOf(path)`) choose the tiny trained model rather than the attention layer. */
export const isTrainedModel = (valueOf) => modelOf(valueOf) === 'tiny';

/**
 * Whether `field` has an effect, given `valueOf(path)` of the other fields
 * (additiveHidden only with score "additive", the mask fill only with a mask).
 */
export function isUsed(field, valueOf) {
  // The trained model reads its own group's fields and the text, a checkpoint its own group's (its text box is
  // its view's); the attention layer's settings do nothing there.
  const model = modelOf(valueOf);
  if (model !== 'attention' && field.group !== TRAINED_GROUP && !(model === 'tiny' && field.path === 'text'))
    return false;
  const when = field.usedWhen;
  if (!when) return true;
  const value = valueOf(when.path);
  const is = (target) => String(value) === target || Number(value) === Number(target); // "0" is 0
  // A condition on a field that is itself unused holds nowhere (rope.scaling.factor without rope.style).
  const holds = when.equals !== undefined ? is(when.equals) : !is(when.differs);
  return holds && isUsed(fieldByPath.get(when.path), valueOf);
}

/** A weight that is a vector (the biases, and the additive score's v_a); the others are matrices. */
// The weights given as a vector: the biases, v_a and differential attention's five (the engine's list).
const VECTOR_WEIGHTS = new Set(SCHEMA.vectorWeights);
export const isVectorWeight = (name) => VECTOR_WEIGHTS.has(name);

/** object.a.b for "a.b" (undefined when missing). */
export function getPath(object, path) {
  let node = object;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** object.a.b = value for "a.b", creating the plain objects on the way. */
export function setPath(object, path, value) {
  const keys = path.split('.');
  let node = object;
  for (const key of keys.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
    node = node[key];
  }
  node[keys.at(-1)] = value;
}
