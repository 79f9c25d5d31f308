// The formats a matrix's copy buttons offer, in their order: the view draws a
// button per name (its label is the i18n key export.<name>), the page's export
// code (export.js) writes each.
export const MATRIX_FORMATS = ['csv', 'json', 'latex', 'numpy', 'torch'];
