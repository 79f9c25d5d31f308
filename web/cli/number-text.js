// Numbers beyond the range of a double (1e400, a 400-digit seed) in the CLI's
// config, from the file or a flag. JSON.parse and Number() make them Infinity,
// and the engine could then only say "got Infinity" (or, of a flag, that its
// text is no number). The CLI keeps each one's text instead and hands the
// engine JSON text that holds it, so the CLI says what lab.run of that JSON
// text says: "dModel (1e400) must be between 1 and 4096".

/** A number kept as its JSON text. */
export class NumberText {
  constructor(text) {
    this.text = text;
  }
}

const JSON_NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A flag's value: a NumberText when it is a JSON number beyond a double, else as it is. */
export function keepBeyondDouble(value) {
  const beyond = typeof value === 'string' && JSON_NUMBER.test(value) && !Number.isFinite(Number(value));
  return beyond ? new NumberText(value) : value;
}

// A cheap look before the walk: a number beyond a double has a 3-digit exponent or 309 digits in a row.
const MAYBE_BEYOND = /[eE]\+?\d{3}|\d{309}/;
// The tokens of JSON text that place a number: a string (whole, so that digits inside one are not read as
// a number), a number, or {}[],: (literals and whitespace are skipped).
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[{}[\],:]/g;

/** Where in valid JSON text each number beyond a double stands: [{path: keys and indices, text}]. */
function numbersBeyondDouble(text) {
  const found = [];
  const open = []; // per open array {index}, per open object {key, keyNext}
  for (const [token] of text.matchAll(TOKEN)) {
    const top = open.at(-1);
    if (token === '{') open.push({ key: null, keyNext: true });
    else if (token === '[') open.push({ index: 0 });
    else if (token === '}' || token === ']') open.pop();
    else if (token === ',') {
      if (top.keyNext === undefined) top.index++;
      else top.keyNext = true;
    } else if (token === ':') continue;
    else if (token[0] === '"') {
      if (top?.keyNext) Object.assign(top, { key: JSON.parse(token), keyNext: false });
    } else if (!Number.isFinite(Number(token))) {
      found.push({ path: open.map((place) => place.index ?? place.key), text: token });
    }
  }
  return found;
}

/** Valid JSON text as JSON.parse reads it, but each number beyond a double inside it a NumberText. */
export function parseKeepingNumbers(text) {
  const value = JSON.parse(text);
  if (!MAYBE_BEYOND.test(text)) return value;
  for (const { path, text: number } of numbersBeyondDouble(text)) {
    if (path.length === 0) continue; // the whole text: no config object (an error of its own)
    let holder = value;
    for (const step of path.slice(0, -1)) holder = holder[step];
    holder[path.at(-1)] = new NumberText(number);
  }
  return value;
}

const holdsNumberText = (value) =>
  value instanceof NumberText ||
  (value !== null && typeof value === 'object' && Object.values(value).some(holdsNumberText));

/** JSON text of `value`, each NumberText in it written as its text. */
function jsonText(value) {
  if (value instanceof NumberText) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => jsonText(item) ?? 'null').join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const members = Object.entries(value).filter(([, item]) => item !== undefined);
  return `{${members.map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`).join(',')}}`;
}

/** The config for the engine: the object, or JSON text when it holds a number beyond a double. */
export const engineConfig = (config) => (holdsNumberText(config) ? jsonText(config) : config);
