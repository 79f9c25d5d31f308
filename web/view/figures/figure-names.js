// How figures are named beyond a matrix's data-matrix name: the links
// diagram by its step's public name, a head grid by "heads:" and its tensor's
// name ("heads:weights"). The export menus, el.exportFigure and the CLI's
// --figure read them here.
import links from '../steps/links.js';

export const LINKS_FIGURE = links.name;
export const HEADS_PREFIX = 'heads:';
/** The name of the head grid of tensor `name` (its box's data-heads). */
export const headGridName = (name) => HEADS_PREFIX + name;
