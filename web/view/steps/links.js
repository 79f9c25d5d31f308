// Step "links": the weights as lines from each query token to every key token, one colour per head
// (every head while H·S·S_kv fits, else the selected one), darker for a larger weight.
import { say } from '../../model/words.js';
import { sentenceIndex } from '../../model/selection.js';
import { element } from '../common/dom.js';
import { figureMenu } from '../common/matrix.js';
import { renderLinks } from './links-diagram.js';

// The step's public name (steps="links"), its figure's name too (view/figures/figure-names.js).
const NAME = 'links';

// Above this many links (heads × queries × keys), the links view draws the selected head only.
const MAX_ALL_HEAD_LINKS = 20000;

/** "All heads | Head 2 only" for the links view. */
function linksToggle(t, allHeads, allHeadsFit, h, showAllHeads) {
  const box = element('div', 'toggle');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', t('links.show'));
  const button = (label, pressed, value, disabled = false) => {
    const el = element('button', null, label);
    el.type = 'button';
    el.setAttribute('aria-pressed', String(pressed));
    el.disabled = disabled;
    el.dataset.allHeads = String(value);
    el.addEventListener('click', () => showAllHeads(value));
    return el;
  };
  box.append(
    button(t('links.allHeads'), allHeads, true, !allHeadsFit),
    button(t('links.oneHead', { h: h + 1 }), !allHeads, false),
  );
  return box;
}

function renderLinksStep(run, kit) {
  const { T, b, h, H, S, Skv, multiHead } = run;
  const allHeadsFit = H * S * Skv <= MAX_ALL_HEAD_LINKS;
  const allHeads = multiHead && kit.view.linksAllHeads !== false && allHeadsFit;
  const svg = renderLinks(
    {
      weights: T.weights.data,
      b: sentenceIndex(T.weights, b), // every head of it (allHeads)
      H,
      S,
      Skv,
      queryLabels: run.queryLabels,
      keyLabels: run.keyLabels,
      heads: allHeads ? Array.from({ length: H }, (_, k) => k) : [h],
      focus: run.focus,
      onFocus: kit.on.focus,
      label: kit.t('step.links.title'),
      later: kit.later,
    },
    kit.previousLinks,
  );
  // The diagram in a box that scrolls sideways on a narrow screen.
  const scroller = element('div', 'links-scroller');
  scroller.append(kit.keep(svg, kit.previousLinks));
  return [
    ...(multiHead ? [linksToggle(kit.t, allHeads, allHeadsFit, h, kit.on.showAllHeads)] : []),
    scroller,
    ...(kit.view.exportable ? [figureMenu(kit.t, NAME, kit.t('step.links.title'))] : []),
  ];
}

export default {
  key: 'links',
  // Differential attention's two maps per head stand in its place (diff-maps.js, diff-weights.js).
  applies: (run) => !run.diff,
  chapter: 'basics',
  name: NAME,
  shapes: [],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: () => [],
  formula: (run, t) => t('formula.links'),
  words: (run, t) => ({
    meaning: [say(t, 'step.links.meaning')],
    notes: [],
    narration: [say(t, 'step.links.narration')],
  }),
  render: (run, kit) => () => renderLinksStep(run, kit),
};
