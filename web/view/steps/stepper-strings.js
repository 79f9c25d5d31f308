// The steppers' words arrive with their code (steppers.js loads it when a stepper is first on the page).
import stepperStrings from '../../i18n/steppers.js';
import { addStrings } from '../../i18n/index.js';

addStrings(stepperStrings);
