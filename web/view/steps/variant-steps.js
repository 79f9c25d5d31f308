// The steps of QK-norm, RoPE, softcap, ALiBi and the output gate, and their words: loaded with the first run
// that has one of them (registry.js).
import variantStrings from '../../i18n/variants.js';
import { addStrings } from '../../i18n/index.js';
import qkNorm from './qk-norm.js';
import rope from './rope.js';
import softcap from './softcap.js';
import alibi from './alibi.js';
import gate from './gate.js';

addStrings(variantStrings);

export { qkNorm, rope, softcap, alibi, gate };
