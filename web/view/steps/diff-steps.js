// Differential attention's three steps and their words, loaded with the first run that has it (registry.js).
import diffStrings from '../../i18n/diff.js';
import { addStrings } from '../../i18n/index.js';
import diffmaps from './diff-maps.js';
import diffweights from './diff-weights.js';
import diffnorm from './diff-norm.js';

addStrings(diffStrings);

export { diffmaps, diffweights, diffnorm };
