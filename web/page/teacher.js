// For teachers: the text-size menu (one factor, --text-scale, for the numbers
// and the text of the steps; remembered like the theme) and presentation mode
// (?present, or the Present button): the step-by-step mode of the view as
// slides (present-pages.js), in type sized from the screen's height, without
// the page's header and settings; the explanation over the text column while
// it explains a number. The keys are step-by-step's (→ ← PageDown PageUp Space Home End,
// Escape leaves), plus F for full screen.
import { isTypingTarget } from '../view/teach/step-by-step.js';
import { wirePresentPages } from './present-pages.js';

export const TEXT_SIZES = ['0.85', '1', '1.25', '1.5', '2'];

/** A stored or given text size: one of TEXT_SIZES, else '1'. */
export const readTextSize = (raw) => (TEXT_SIZES.includes(String(raw)) ? String(raw) : '1');

/**
 * parts: {select (the text-size menu), toggle (the Present button), stepsToggle,
 * pipeline, stepper, pageLabel (presentation's figure-page counter)};
 * controller: the page's PipelineController; prefs: {load(name), save(name, value)};
 * t: the page's strings now, a function (key, params).
 */
export function wireTeacherTools({ select, toggle, stepsToggle, pipeline, stepper, pageLabel }, controller, prefs, t) {
  const root = document.documentElement;
  wirePresentPages({ root, pipeline, stepper, label: pageLabel }, t);
  const setTextSize = (value) => {
    select.value = readTextSize(value);
    root.style.setProperty('--text-scale', select.value);
  };
  setTextSize(prefs.load('textSize'));
  select.addEventListener('change', () => {
    setTextSize(select.value);
    prefs.save('textSize', select.value);
  });

  const presenting = () => root.classList.contains('presenting');
  const present = (on) => {
    if (on === presenting()) return;
    root.classList.toggle('presenting', on);
    toggle.setAttribute('aria-pressed', String(on));
    if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {});
    // Presenting is step by step; leaving it goes back to the whole pipeline.
    controller.setOptions({ mode: on ? 'steps' : 'scroll' });
    // Where the keys start: the step (its title), so → works at once.
    const title = on && document.querySelector('.pipeline .step.is-current h2');
    if (title) {
      title.tabIndex = -1;
      title.focus({ preventScroll: true });
    }
  };
  toggle.addEventListener('click', () => present(!presenting()));
  // Step by step left (its Exit button, Escape, the Step-by-step button): presenting ends with it.
  new MutationObserver(() => {
    if (presenting() && stepsToggle.getAttribute('aria-pressed') === 'false') present(false);
  }).observe(stepsToggle, { attributes: true, attributeFilter: ['aria-pressed'] });
  document.addEventListener('keydown', (event) => {
    const fullscreenKey = event.key === 'f' || event.key === 'F';
    if (!presenting() || !fullscreenKey || event.altKey || event.ctrlKey || event.metaKey) return;
    if (isTypingTarget(event.target) || !document.fullscreenEnabled) return;
    event.preventDefault();
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else root.requestFullscreen().catch(() => {});
  });
  return { present, presenting };
}

/** Whether the page's URL asks for presentation mode (?present, ?present=1; not ?present=0). */
export function wantsPresentation(search) {
  const value = new URLSearchParams(search).get('present');
  return value !== null && value !== '0' && value !== 'false';
}
