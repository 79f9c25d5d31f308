// The printed handout's head (shown on paper only, styles.css): the sentence,
// the preset, the seed and every setting of the run, in the page's language,
// so that a printed page says what it computed. Rendered after every run.
import { settingsSummary } from '../view/host/settings-form.js';

function line(label, value, className) {
  const p = document.createElement('p');
  p.className = className;
  const name = document.createElement('span');
  name.className = 'print-label';
  name.textContent = `${label}: `;
  const text = document.createElement('span');
  text.textContent = value;
  text.setAttribute('translate', 'no'); // the user's words and numbers
  p.append(name, text);
  return p;
}

/**
 * Fills `box`. state: {t, settings (what the user set), effective (the run's
 * resolved settings), preset (the preset shown, or null: settings of one's own)}.
 */
export function renderPrintHeader(box, { t, settings, effective = {}, preset }) {
  const summary = settingsSummary(t, settings, effective);
  // Not headings: the page keeps its one h1 (and the header shows on paper only).
  const title = document.createElement('p');
  title.className = 'print-title';
  title.textContent = t('app.title');
  const presetTitle = !preset
    ? t('print.noPreset')
    : preset.key === 'default'
      ? t('print.defaultPreset')
      : t(`preset.${preset.key}`);
  const seed = summary.find((item) => item.path === 'seed');
  const list = document.createElement('dl');
  list.className = 'print-settings';
  for (const { path, label, value } of summary) {
    const term = document.createElement('dt');
    term.textContent = label;
    const data = document.createElement('dd');
    data.textContent = value || '—'; // an optional setting left unset
    data.setAttribute('translate', 'no');
    const item = document.createElement('div');
    item.dataset.field = path;
    item.append(term, data);
    list.append(item);
  }
  const heading = document.createElement('p');
  heading.className = 'print-heading';
  heading.textContent = t('controls.heading');
  box.replaceChildren(
    title,
    line(t('print.sentence'), settings.text ?? effective.text ?? '', 'print-sentence'),
    ...(settings.contextText ? [line(t('field.contextText'), settings.contextText, 'print-context')] : []),
    line(t('print.preset'), presetTitle, 'print-preset'),
    ...(seed ? [line(seed.label, seed.value, 'print-seed')] : []),
    heading,
    list,
  );
}
