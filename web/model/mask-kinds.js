// What each mask choice blocks, as the engine's schema says it (the mask
// field's `kinds`: "causal+padding" holds causal and padding), so no code
// reads it out of a mask's name.
import { fieldByPath } from './schema.js';

const KINDS_OF = fieldByPath.get('mask').kinds;

/** The masks of one kind that the others combine, in schema order: ["causal", "padding"]. */
export const MASK_KINDS = [...new Set(Object.values(KINDS_OF).flat())];

/**
 * A flag per mask kind for the mask choice `mask`: {causal: true, padding: false} for "causal".
 * A name the schema does not have holds none.
 */
export function maskKindsOf(mask) {
  const holds = Object.hasOwn(KINDS_OF, mask) ? KINDS_OF[mask] : [];
  return Object.fromEntries(MASK_KINDS.map((kind) => [kind, holds.indexOf(kind) >= 0]));
}
