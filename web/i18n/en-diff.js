// English strings of differential attention's steps (view/steps/diff-*.js): registered by
// steps/diff-steps.js, loaded with the first run that has differential attention, so they travel with the steps' code.
export default {
  'step.diffmaps.title': 'Differential attention: two maps per head',
  'step.diffmaps.meaning':
    'The Diff Transformer gives each head two attention maps instead of one: it splits the head’s query and key columns into two halves, scores the keys with each half on its own and takes a softmax of each. The next step subtracts the second map from the first.',
  'step.diffmaps.short': 'diff: two maps',
  'step.diffmaps.narration':
    'Head {head} splits its {dk} query and key columns into two halves of {d}, and each half scores the keys on its own (q is multiplied by 1/√d before the product, as the Diff Transformer does). For “{token}”, the first map gives its largest weight to “{top1}” ({w1}), the second to “{top2}” ({w2}).',
  'diff.off':
    'This run has no differential attention: set “Differential attention: layer depth” in the settings to give each head two maps, A = A₁ − λ·A₂.',
  'step.diffweights.title': 'Differential attention: A = A₁ − λ·A₂',
  'step.diffweights.meaning':
    'Both maps give some weight to keys that do not matter. Subtracting λ times the second map from the first cancels what they share, as a differential amplifier cancels the noise common to its two inputs. λ is learned through four vectors and starts near λ_init.',
  'step.diffweights.short': 'diff: A₁ − λ·A₂',
  'step.diffweights.narration':
    'λ = exp({dot1}) − exp({dot2}) + λ_init = {exp1} − {exp2} + {init} = {lambda}, with λ_init = {init} for a layer at depth {depth}. For “{token}”, the second map weighs “{key}” most; there A keeps {w1} − {lambda} × {w2} = {a}. Each row of A sums to 1 − λ = {rest}, not to one, and {negatives} of head {head}’s {cells} weights are negative.',
  'diff.noise': 'λ·A₂: what the subtraction removes ({head})',
  'step.diffnorm.title': 'Differential attention: RMSNorm and 1 − λ_init',
  'step.diffnorm.meaning':
    'Each head’s output A·V is normalized row by row (RMSNorm, with the learned weight subln), then multiplied by 1 − λ_init, so that every head reaches W_O on the same scale whatever λ is.',
  'step.diffnorm.short': 'diff: RMSNorm',
  'step.diffnorm.narration':
    'Row “{token}” of head {head}’s context has a root mean square of {rms}: RMSNorm divides the row by it and multiplies it by subln, then every number is multiplied by 1 − λ_init = {scale}. Its first number goes {c} → {n} → {o}.',
};
