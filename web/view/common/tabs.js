// Sentence and head tabs, as the WAI-ARIA tabs pattern has them: a tablist
// named by its caption, tabs named "Head 1" (their number shown), one tab
// stop (the selected tab; the others tabindex −1), ← → Home End to move and
// select (the selection follows the focus), each tab controlling the
// pipeline, its tabpanel. The focus stays on the chosen tab across renders:
// the buttons are kept, and a rebuilt list refocuses the tab of the same
// number.
/**
 * Tabs into `box`: a label, then 1 … count; hidden when there is only one.
 * key: 'batch' | 'head' (the tabs' ids: "head-tab-0"); panel: the element
 * the tabs control (given an id); colorOf(k) gives tab k its colour and
 * textOf(k) the text's on it (the palette may change without a rebuild);
 * onPick(k) when tab k is chosen.
 */
export function renderTabs(box, { key, count, current, label, panel, colorOf, textOf, onPick }) {
  box.hidden = count <= 1;
  box.setAttribute('aria-label', label);
  const hadFocus = box.contains(box.getRootNode().activeElement);
  // The same tabs as last time: only the selected one changes (onPick reads the controller's current selection).
  if (box.dataset.tabs !== `${count} ${label}`) {
    box.dataset.tabs = `${count} ${label}`;
    box.replaceChildren();
    const caption = document.createElement('span');
    caption.className = 'selector-label';
    caption.setAttribute('aria-hidden', 'true'); // the tablist's name already
    caption.textContent = label;
    box.append(caption);
    for (let k = 0; k < count; k++) {
      const button = document.createElement('button');
      button.type = 'button';
      button.role = 'tab';
      button.id = `${key}-tab-${k}`;
      button.textContent = String(k + 1);
      button.setAttribute('aria-label', `${label} ${k + 1}`);
      button.addEventListener('click', () => onPick(k));
      box.append(button);
    }
    box.onkeydown = (event) => keyboard(event, box, box.tabPick);
  }
  box.tabPick = onPick;
  const tabs = [...box.querySelectorAll('[role="tab"]')];
  if (!panel.id) panel.id = 'pipeline';
  tabs.forEach((tab, k) => {
    const selected = String(k === current);
    if (tab.getAttribute('aria-selected') !== selected) tab.setAttribute('aria-selected', selected);
    tab.tabIndex = k === current ? 0 : -1;
    if (colorOf && tab.style.getPropertyValue('--tab-text') !== textOf(k)) {
      tab.style.setProperty('--tab-color', colorOf(k));
      tab.style.setProperty('--tab-text', textOf(k));
    }
    if (tab.getAttribute('aria-controls') !== panel.id) tab.setAttribute('aria-controls', panel.id);
  });
  if (hadFocus && !box.contains(box.getRootNode().activeElement)) tabs[current]?.focus();
}

/** ← → (round), Home, End: focus and select a tab. */
function keyboard(event, box, onPick) {
  const tabs = [...box.querySelectorAll('[role="tab"]')];
  const at = tabs.indexOf(event.target);
  if (at < 0) return;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const k = (moves[event.key] + tabs.length) % tabs.length;
  tabs[k].focus();
  onPick(k);
}

/** The pipeline as the tab panel of the shown tabs (labelled by the selected ones), or a plain region without tabs. */
export function markTabPanel(panel, tabLists) {
  const selected = tabLists.filter((box) => !box.hidden).map((box) => box.querySelector('[aria-selected="true"]')?.id);
  if (selected.length) {
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', selected.join(' '));
  } else {
    panel.removeAttribute('role');
    panel.removeAttribute('aria-labelledby');
  }
}
