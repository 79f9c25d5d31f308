// embed.html: one <attention-lab> configured from the URL fragment (the same
// versioned encoding as share links), reporting its height to the parent so
// the iframe can be sized to fit:
//   window.addEventListener('message', (e) => { if (e.data?.type === 'attention-lab:height') iframe.style.height = e.data.height + 'px'; });
import '../element/attention-lab-element.js';
import { attributesFromForm } from '../element/attributes.js';
import { applyEdits } from './edits.js';
import { restoreFromLocation } from './share-ui.js';

const element = document.getElementById('embedded');
const notice = document.getElementById('notice');

async function apply() {
  const restored = await restoreFromLocation();
  if (!restored) return element.setAttribute('text', 'He sat by the bank of the river');
  notice.hidden = !restored.error;
  notice.textContent = restored.error ? `This link could not be read (${restored.error}). Showing the default example instead.` : '';
  for (const [name, value] of attributesFromForm(restored.form)) element.setAttribute(name, value);
  const weights = applyEdits({}, { weights: restored.edits.weights, embedding: {} }).weights;
  if (weights) element.setAttribute('config', JSON.stringify({ weights: { values: weights.values } }));
}

const postHeight = () => parent.postMessage({ type: 'attention-lab:height', height: document.documentElement.scrollHeight }, '*');
new ResizeObserver(postHeight).observe(document.body);
window.addEventListener('hashchange', apply);
apply();
