// The formats a matrix's copy buttons offer, in their order: the view draws a
// button per name (its label is the i18n key export.<name>), the page's export
// code (export.js) writes each.
export const MATRIX_FORMATS = ['csv', 'json', 'latex', 'numpy', 'torch'];

/** The scales a figure's PNG is drawn at (its SVG's width and height times this). */
export const FIGURE_SCALES = [1, 2, 4];

/** A figure's download buttons, in their order: its SVG, then its PNG at each scale (labels export.svg, export.png). */
export const FIGURE_FORMATS = [{ format: 'svg' }, ...FIGURE_SCALES.map((scale) => ({ format: 'png', scale }))];
