// How the pipeline is shown (not what it computes): declared once with type
// and default, read by the element's attributes and the page's preferences.

export const VIEW_OPTIONS = [
  { name: 'steps', type: 'steps', default: null }, // which steps to show ("scores weights"); null: all
  { name: 'lang', type: 'string', default: 'en' }, // UI language, a BCP 47 tag
  { name: 'theme', type: 'enum', choices: ['light', 'dark'], default: 'light' },
  { name: 'decimals', type: 'integer', min: 0, max: 8, default: 4 }, // digits after the point
  { name: 'compact', type: 'boolean', default: false }, // smaller, without formulas and meanings
  { name: 'editable', type: 'boolean', default: false }, // numbers in X and the weights can be edited
  { name: 'mode', type: 'enum', choices: ['scroll', 'steps'], default: 'scroll' }, // steps: one step at a time, narrated
];

export const viewOptionByName = new Map(VIEW_OPTIONS.map((option) => [option.name, option]));

/**
 * The typed value of an option from its attribute or stored text; null and
 * text that is not valid give the default, numbers are clamped to the range.
 */
export function readViewOption(option, raw) {
  if (raw === null || raw === undefined) return option.default;
  switch (option.type) {
    case 'boolean':
      return typeof raw === 'boolean' ? raw : String(raw).trim().toLowerCase() !== 'false';
    case 'integer': {
      const n = Math.round(Number(raw));
      return String(raw).trim() === '' || !Number.isFinite(n)
        ? option.default
        : Math.min(option.max, Math.max(option.min, n));
    }
    case 'enum':
      return option.choices.includes(raw) ? raw : option.default;
    case 'steps': {
      const steps = String(raw)
        .split(/[\s,]+/)
        .filter(Boolean);
      return steps.length ? new Set(steps) : null;
    }
    default:
      return String(raw);
  }
}
