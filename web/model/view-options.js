// How the pipeline is shown (not what it computes): declared once with type,
// default and the key of its help text, read by the element's attributes and
// the page's preferences.

import { SCHEMA } from './schema.js';

export const VIEW_OPTIONS = [
  // Which steps to show ("scores weights"); null: all.
  { name: 'steps', type: 'names', default: null, help: 'view.steps' },
  // Which chapters are open ("heads variants", view/steps/chapters.js); null: all (the page opens the basics only).
  { name: 'chapters', type: 'names', default: null, help: 'view.chapters' },
  // The UI language, a BCP 47 tag; unset: the nearest lang attribute around the element.
  { name: 'lang', type: 'string', default: 'en', help: 'view.lang' },
  // auto: the site's light/dark switch, else the reader's colour scheme (view/common/color-scheme.js), followed live.
  { name: 'theme', type: 'enum', choices: ['auto', 'light', 'dark'], default: 'auto', help: 'view.theme' },
  // Digits after the point.
  { name: 'decimals', type: 'integer', min: 0, max: 8, default: 4, help: 'view.decimals' },
  // Smaller, without formulas and meanings.
  { name: 'compact', type: 'boolean', default: false, help: 'view.compact' },
  // Numbers in X and the weights can be edited.
  { name: 'editable', type: 'boolean', default: false, help: 'view.editable' },
  // Each matrix and figure has its menu: copy as CSV, JSON, LaTeX, NumPy; download as SVG or PNG (1×, 2×, 4×).
  { name: 'exportable', type: 'boolean', default: false, help: 'view.exportable' },
  // steps: one step at a time, narrated.
  { name: 'mode', type: 'enum', choices: ['scroll', 'steps'], default: 'scroll', help: 'view.mode' },
  // The head shown first, counted from 1 as its tab says; the element refuses one the config does not have.
  { name: 'head', type: 'integer', min: 1, max: SCHEMA.limits.heads, default: 1, help: 'view.headShown' },
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
    case 'names': {
      const names = String(raw)
        .split(/[\s,]+/)
        .filter(Boolean);
      return names.length ? new Set(names) : null;
    }
    default:
      return String(raw);
  }
}
