// "Copy as PyTorch": the button, its status, and the program shown under the
// controls (opened when copied, in case the clipboard says no).
import { element } from '../common/dom.js';

/** {t, program() -> the PyTorch program's text} -> {copy (the button), copyStatus, programBox}. */
export function renderPytorchCopy({ t, program }) {
  const copy = element('button', 'trained-copy', t('export.pytorch'));
  copy.type = 'button';
  const copyStatus = element('span', 'trained-copy-status');
  copyStatus.setAttribute('role', 'status');
  const programBox = element('details', 'trained-program');
  programBox.hidden = true;
  const programSummary = element('summary', '', t('export.pytorchTitle'));
  const programText = element('textarea');
  programText.readOnly = true;
  programText.rows = 16;
  programText.spellcheck = false;
  programText.setAttribute('aria-label', t('export.pytorchTitle'));
  programBox.append(programSummary, programText);
  copy.addEventListener('click', async () => {
    const script = program();
    programText.value = script;
    programBox.hidden = false;
    programBox.open = true;
    try {
      await navigator.clipboard.writeText(script);
      copyStatus.textContent = t('trained.copied');
    } catch {
      copyStatus.textContent = t('trained.copyShown');
    }
  });
  return { copy, copyStatus, programBox };
}
