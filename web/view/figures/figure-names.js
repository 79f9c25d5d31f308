// How figures are named beyond a matrix's data-matrix name: the links
// diagram by its step's public name, a head grid by "heads:" and its tensor's
// name ("heads:weights"), differential attention's two maps by their number
// ("halfWeights_2"). The export menus, el.exportFigure and the CLI's --figure
// read them here, and the names a rendered view shows.
import links from '../steps/links.js';

export const LINKS_FIGURE = links.name;
export const HEADS_PREFIX = 'heads:';
/** The name of the head grid of tensor `name` (its box's data-heads). */
export const headGridName = (name) => HEADS_PREFIX + name;

/** Differential attention's map s (0 or 1) of `name` (halfMasked, halfWeights), as its step names it: "halfWeights_2". */
export const mapFigureName = (name, s) => `${name}_${s + 1}`;

/** The map a figure name shows, {name, s}, or null: "halfWeights_2" -> {name: "halfWeights", s: 1}. */
export function mapOfFigure(figure) {
  const match = /^(half(?:Masked|Weights))_([12])$/.exec(figure);
  return match ? { name: match[1], s: Number(match[2]) - 1 } : null;
}

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
