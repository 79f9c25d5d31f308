// The mask tensor in the run's mask convention (result.settings.maskConvention):
// "blocked" holds 1 where a key is blocked, "keep" 1 where it is kept, and
// "additive" the fill value where it is blocked and 0 elsewhere.

/** Whether the mask number `value` blocks its key, in the convention of `settings`. */
export const blocksKey = (settings, value) => (settings.maskConvention === 'keep' ? value === 0 : value !== 0);
