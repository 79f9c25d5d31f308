// The page's input panel: for the queries and for the context, where the
// vectors come from (the sentence's tokens, torch.randn or torch.rand with a
// shape), the tokens with their ids as chips, and an optional vocabulary.
// It reads and writes the settings by config path: text / input,
// contextText / contextInput, vocab. A sentence hidden by choosing a random
// input is kept and comes back when tokens are chosen again.

const RANDOM = ['randn', 'rand'];
// Each side: its sentence setting, its random-input setting, its element ids.
export const SIDES = [
  { text: 'text', random: 'input', id: 'input', chips: 'chips-text', lengthLabel: 'S' },
  { text: 'contextText', random: 'contextInput', id: 'context', chips: 'chips-context', lengthLabel: 'S_kv' },
];

/** "randn" | "rand" | "text": where a side's vectors come from in `settings`. */
export function sourceOf(settings, side) {
  const random = settings[side.random];
  return random && typeof random === 'object' ? (RANDOM.find((kind) => kind in random) ?? 'text') : 'text';
}

/** The vocabulary box's text as the vocab setting: tokens split on whitespace; none -> undefined. */
export function vocabOf(text) {
  const tokens = text.split(/\s+/).filter(Boolean);
  return tokens.length ? tokens : undefined;
}

/** The random inputs of `settings` redrawn at width dModel (their third size follows dModel). */
export function followDModel(settings, dModel) {
  for (const side of SIDES) {
    const kind = sourceOf(settings, side);
    if (kind === 'text') continue;
    const [B, S] = settings[side.random][kind];
    settings[side.random] = { [kind]: [B, S, dModel] };
  }
}

const $ = (id) => document.getElementById(id);

/**
 * Wires the panel. host: {settings(), set(changes), dModel()}: set({path:
 * value}) applies the changes and runs once; an undefined value removes a
 * setting. Returns {sync(), renderChips(result, t), applyLanguage(t)}.
 */
export function wireInputPanel(host) {
  const keptText = {}; // sentence per side, kept while a random input is shown

  function shapeOf(side) {
    const B = Number($(`${side.id}-batch`).value); // 0 or empty: the engine names input.randn[0]
    const S = Number($(`${side.id}-length`).value);
    return [B, S, host.dModel()];
  }

  function onSource(side) {
    const source = $(`${side.id}-source`).value;
    const settings = host.settings();
    if (source === 'text') {
      host.set({ [side.random]: undefined, [side.text]: keptText[side.id] ?? settings[side.text] ?? '' });
    } else {
      if (sourceOf(settings, side) === 'text') keptText[side.id] = settings[side.text] ?? '';
      host.set({ [side.text]: undefined, [side.random]: { [source]: shapeOf(side) } });
    }
    sync();
  }

  function onShape(side) {
    const source = $(`${side.id}-source`).value;
    if (source !== 'text') host.set({ [side.random]: { [source]: shapeOf(side) } });
    sync();
  }

  /** The controls from the settings (a preset, a link, a dModel change). */
  function sync() {
    const settings = host.settings();
    for (const side of SIDES) {
      const source = sourceOf(settings, side);
      $(`${side.id}-source`).value = source;
      const random = source !== 'text';
      $(`${side.id}-random`).hidden = !random;
      $(`${side.id}-text-box`).hidden = random;
      if (random) {
        // The drawn shape is the input's own [B, S, D]; the last run's dModel may be another preset's.
        const [B, S, D] = settings[side.random][source];
        $(`${side.id}-batch`).value = B;
        $(`${side.id}-length`).value = S;
        $(`${side.id}-shape`).textContent = `[${B}, ${S}, ${D}]`;
      }
    }
    $('input-vocab').value = (settings.vocab ?? []).join(' ');
    $('vocab-panel').open ||= Boolean(settings.vocab);
  }

  for (const side of SIDES) {
    $(`${side.id}-source`).addEventListener('change', () => onSource(side));
    for (const part of ['batch', 'length']) $(`${side.id}-${part}`).addEventListener('input', () => onShape(side));
  }
  $('input-vocab').addEventListener('input', () => host.set({ vocab: vocabOf($('input-vocab').value) }));

  /** Token chips with their ids, one row per sentence; <pad> greyed. */
  function renderChips(result, t) {
    const sides = [
      [SIDES[0], result.tokens, result.ids, 'input.tokens'],
      [SIDES[1], result.contextTokens ?? [], result.contextIds ?? [], 'input.contextTokens'],
    ];
    for (const [side, lines, ids, label] of sides) {
      const container = $(side.chips);
      if (container.getAttribute('aria-label') !== t(label)) container.setAttribute('aria-label', t(label));
      // Updated in place: a keystroke changes a chip or two, not the hundreds around them.
      while (container.children.length > lines.length) container.lastChild.remove();
      lines.forEach((line, b) => {
        let rowEl = container.children[b];
        if (!rowEl) {
          rowEl = document.createElement('div');
          rowEl.className = 'chip-row';
          rowEl.dataset.batch = b;
          container.append(rowEl);
        }
        while (rowEl.children.length > line.length) rowEl.lastChild.remove();
        line.forEach((token, s) => {
          let chip = rowEl.children[s];
          if (!chip) {
            chip = document.createElement('span');
            const text = document.createElement('span');
            text.translate = false; // a token is data, never translated
            const tokenId = document.createElement('sub');
            tokenId.className = 'chip-id';
            chip.append(text, tokenId);
            rowEl.append(chip);
          }
          const className = token === '<pad>' ? 'chip pad' : 'chip';
          if (chip.className !== className) chip.className = className;
          const [text, tokenId] = chip.children;
          if (text.textContent !== token) text.textContent = token; // text, never markup
          const id = String(ids[b]?.[s] ?? '');
          if (tokenId.textContent !== id) tokenId.textContent = id;
          const title = t('input.tokenId', { id });
          if (chip.title !== title) chip.title = title;
        });
      });
    }
  }

  /** Labels of the source menus in the UI language. */
  function applyLanguage(t) {
    for (const side of SIDES) {
      const menu = $(`${side.id}-source`);
      const value = menu.value;
      menu.replaceChildren(
        new Option(t(side.id === 'input' ? 'input.source.text' : 'input.source.contextText'), 'text'),
        ...RANDOM.map((kind) => new Option(t(`input.source.${kind}`, { S: side.lengthLabel }), kind)),
      );
      menu.value = value || 'text';
    }
  }

  return { sync, renderChips, applyLanguage };
}
