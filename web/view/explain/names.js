// Which tensors and labels an explanation reads: the row and column labels,
// the q and k the scores use, the K/V head of the head shown, and the
// numbers that state a position, a feature or a head.
import { whole } from '../../model/words.js';

export const qLabel = (ctx, i) => ctx.queryLabels[i];
export const kLabel = (ctx, j) => ctx.keyLabels[j];

// The q and k the scores use: the last of Q, Q_norm, Q_rope the run has (and K's).
export const queryOf = (T) => (T.Q_rope ? 'Q_rope' : T.Q_norm ? 'Q_norm' : 'Q');
export const keyOf = (T) => (T.K_rope ? 'K_rope' : T.K_norm ? 'K_norm' : 'K');
/** The K/V head that head h reads. */
export const kvHead = (ctx) => ctx.g ?? ctx.h;
/** What the mask applied to: the last of scaled, capped, biased the run has. */
export const maskInputOf = (T) => (T.biased ? 'biased' : T.capped ? 'capped' : 'scaled');

/** Position, feature or head index n (0 <= n < the size `of`), quoted as is. */
export const indexQuote = (n, of) => whole(n, { index: n, of });
/** "head 2": head h (of H, or of H_kv for a K/V head), quoted as h + 1. */
export const headQuote = (h, of = 'H') => whole(h + 1, { headNumber: h, of });
