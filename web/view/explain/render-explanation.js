// The explanation panel's DOM: an explanation (cells.js: {lines, highlight},
// each line a sentence of model/words.js) as paragraphs and lists, and the
// matrix cell an event happened on. The only file of explain/ that touches
// the DOM; token text only ever reaches the page as textContent.

/** The matrix cell an event happened on: {td, step, i, j}, or null. */
export function cellOfEvent(event) {
  const td = event.target.closest?.('td[data-i]');
  const figure = td?.closest('[data-matrix]');
  if (!td || !figure) return null;
  return { td, step: figure.dataset.matrix, i: Number(td.dataset.i), j: Number(td.dataset.j) };
}

/** Whether an event happened on a number or label that has no explanation (a table cell, a legend). */
export const isUnexplainedNumber = (event) =>
  Boolean(event.target.closest?.('td, th, .legend, .chart, .head-multiple')) && !cellOfEvent(event);

// A list of terms: its first `shown` items, then "… (n more)".
function termList(sentence) {
  const list = document.createElement('ol');
  list.className = 'terms';
  const items = sentence.items.slice(0, sentence.shown);
  if (sentence.more) items.push(sentence.more);
  for (const item of items) {
    const li = document.createElement('li');
    li.textContent = item.text;
    list.append(li);
  }
  return list;
}

/** One sentence as a paragraph: 'formula' (monospace, not translated), 'result' (bold), 'text'. */
function paragraph(sentence) {
  const p = document.createElement('p');
  p.className = sentence.kind;
  p.textContent = sentence.text;
  if (sentence.kind === 'formula' || sentence.math) p.translate = false; // math, with tensor names and tokens
  return p;
}

/** The nodes of an explanation's lines. */
export const renderExplanation = (explanation) =>
  explanation.lines.map((sentence) => (sentence.kind === 'terms' ? termList(sentence) : paragraph(sentence)));
