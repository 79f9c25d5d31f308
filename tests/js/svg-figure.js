// Reading back a figure's SVG (view/figures) in the tests: its cells' texts
// and fills by (i, j), its lines, its texts in order. Regular expressions over
// the text the writers make (one element per tag, attributes in double quotes).

const unescape = (text) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]);

const attributesOf = (tag) =>
  Object.fromEntries([...tag.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, name, value]) => [name, unescape(value)]));

/** Every <name …> element of `svg` with its attributes and text (null for an empty element). */
export function elements(svg, name) {
  const pattern = new RegExp(`<${name}(\\s[^>]*?)?(?:/>|>([^<]*)</${name}>)`, 'g');
  return [...svg.matchAll(pattern)].map(([, attributes = '', text]) => ({
    ...attributesOf(attributes),
    text: text === undefined ? null : unescape(text),
  }));
}

/** The cells of a matrix figure: {fill, text} by "i,j". */
export function cells(svg) {
  const byCell = new Map();
  for (const rect of elements(svg, 'rect').filter((r) => r['data-i'] !== undefined))
    byCell.set(`${rect['data-i']},${rect['data-j']}`, { fill: rect.fill, text: null });
  for (const text of elements(svg, 'text').filter((r) => r['data-i'] !== undefined))
    byCell.get(`${text['data-i']},${text['data-j']}`).text = text.text;
  return byCell;
}

/** The figure's text as one string (title, labels, caption lines), to look for words in. */
export const allText = (svg) =>
  elements(svg, 'text')
    .map((t) => t.text)
    .join('\n');

/** The caption's lines joined (wrapped lines are broken at spaces, or between Chinese characters). */
export function captionOf(svg) {
  const group = /<g class="figure-caption"[^>]*>([\s\S]*?)<\/g>/.exec(svg)[1];
  return elements(group, 'text')
    .map((t) => t.text)
    .reduce(
      (all, line) => (all && /[\u2e80-\ua4cf\uff00-\uff60]$/u.test(all) ? all + line : all ? `${all} ${line}` : line),
      '',
    );
}
