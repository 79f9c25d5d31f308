// The figures of a rendered view (the page's pipeline, an element's shadow
// root) by name, as the page's export menus and el.exportFigure ask for them:
// a matrix by its data-matrix name (a stepper's frames too), the links
// diagram by its step's name, a head grid as "heads:" and its tensor's. Each is
// drawn from the view it shows now (its numbers, labels and palette) by the
// pure SVG writers, and made a PNG at 1×, 2× or 4× on request. Browser only;
// loaded when a figure is first asked for (the controller's exportFigure).
import { figureCaption } from './caption.js';
import { headsSvg } from './heads-svg.js';
import { linksSvg } from './links-svg.js';
import { matrixSvg } from './matrix-svg.js';
import { pngOf } from './png.js';
import { HEADS_PREFIX, LINKS_FIGURE, shownFigureNames } from './figure-names.js';
import { FIGURE_SCALES } from '../../model/matrix-formats.js';

function nodeOf(root, name) {
  if (name === LINKS_FIGURE) return root.querySelector('svg.links');
  if (name.startsWith(HEADS_PREFIX))
    return root.querySelector(`.head-multiples[data-heads="${CSS.escape(name.slice(HEADS_PREFIX.length))}"]`);
  return root.querySelector(`figure.matrix-figure[data-matrix="${CSS.escape(name)}"]`);
}

/**
 * The SVG of figure `name` shown in `root` ({svg, width, height}), or null when none is shown.
 * context: {t (the view's translator), result (the run shown), b (its sentence shown), theme}.
 */
export function shownFigureSvg(root, name, { t, result, b, theme }) {
  const node = nodeOf(root, name);
  if (!node) return null;
  const options = { caption: figureCaption(t, result, { b }), lang: t.lang ?? 'en' };
  if (node.matrixView) return matrixSvg(node.matrixView, options);
  if (node.linksView) return linksSvg({ ...node.linksView, theme }, { ...options, title: t('step.links.title') });
  const view = node.multiplesView;
  return headsSvg(view, { ...options, t, title: t('heads.multiples', { name: view.name, count: view.H }) });
}

/**
 * Figure `name` as a Blob: {format: 'svg' | 'png', scale: 1 | 2 | 4 (PNG)}. Rejects with a RangeError
 * naming the figures shown when `name` is not one of them, or the scales when `scale` is not one.
 */
export async function shownFigureBlob(root, name, { format = 'svg', scale = 1 } = {}, context) {
  if (format !== 'svg' && format !== 'png')
    throw new RangeError(`format must be "svg" or "png", got ${JSON.stringify(format)}`);
  if (!FIGURE_SCALES.includes(scale)) throw new RangeError(`scale must be ${FIGURE_SCALES.join(', ')}, got ${scale}`);
  const figure = context.result ? shownFigureSvg(root, name, context) : null;
  if (!figure)
    throw new RangeError(
      `no figure "${name}" is shown; the figures shown: ${shownFigureNames(root).join(', ') || 'none'}`,
    );
  if (format === 'svg') return new Blob([figure.svg], { type: 'image/svg+xml' });
  return pngOf(figure, scale);
}
