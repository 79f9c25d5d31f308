// Multi-head latent attention's four steps and their words, loaded with the first MLA run (registry.js).
import mlaStrings from '../../i18n/mla.js';
import { addStrings } from '../../i18n/index.js';
import mlalatent from './mla-latent.js';
import mlarope from './mla-rope.js';
import mlapaths from './mla-paths.js';
import mlacache from './mla-cache.js';

addStrings(mlaStrings);

export { mlalatent, mlarope, mlapaths, mlacache };
