// How figures are named beyond a matrix's data-matrix name: the links
// diagram by its step's public name, a head grid by "heads:" and its tensor's
// name ("heads:weights"). The export menus, el.exportFigure and the CLI's
// --figure read them here, and the names a rendered view shows.
import links from '../steps/links.js';

export const LINKS_FIGURE = links.name;
export const HEADS_PREFIX = 'heads:';
/** The name of the head grid of tensor `name` (its box's data-heads). */
export const headGridName = (name) => HEADS_PREFIX + name;

/** The names of the figures `root` shows, in page order. */
export function shownFigureNames(root) {
  return [...root.querySelectorAll('figure.matrix-figure[data-matrix], svg.links, .head-multiples[data-heads]')].map(
    (node) =>
      node.matches('svg.links')
        ? LINKS_FIGURE
        : node.dataset.heads !== undefined
          ? headGridName(node.dataset.heads)
          : node.dataset.matrix,
  );
}
