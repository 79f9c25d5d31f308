// A step's named shapes with the run's sizes, for its header and the overview: [B=1, S=5, D=8].

/** The "Shape: …" text of a step: each of its shapes with letters and sizes, named where it has several. */
export const shapeLine = (shapes) =>
  shapes
    .map(
      (s) =>
        `${s.of ? `${s.of} ` : ''}[${s.letters.map((l, k) => (l === String(s.sizes[k]) ? l : `${l}=${s.sizes[k]}`)).join(', ')}]`,
    )
    .join(', ')
    .replaceAll(', → ', ' → ');

/**
 * A step's shapes with the run's sizes: [{of?, letters, sizes}], its named axes read from the step module's
 * `shapes` (a list, or a function of the run). K/V's H_kv·d_k is written D when there is no GQA.
 */
export function stepShapesOf(step, run) {
  const { B, H, S, Skv, D, dk } = run;
  const Hkv = run.Hkv ?? H;
  const size = {
    B,
    H,
    S,
    S_kv: Skv,
    D,
    d_k: dk,
    H_kv: Hkv,
    'H_kv·d_k': Hkv * dk,
    'd_k/2': dk / 2,
    'H·d_k': H * dk,
    '2H': 2 * H,
    // MLA's (run.rs.mla): the latent, the rotated part, a value head and the concat.
    ...(run.rs?.mla
      ? {
          kvRank: run.rs.mla.kvRank,
          ropeDim: run.rs.mla.ropeDim,
          'H·ropeDim': H * run.rs.mla.ropeDim,
          'kvRank + ropeDim': run.rs.mla.kvRank + run.rs.mla.ropeDim,
          d_v: run.dv,
          'H·d_v': run.Dv,
        }
      : {}),
  };
  const plainKv = Hkv === H;
  const declared = typeof step.shapes === 'function' ? step.shapes(run) : step.shapes;
  return declared.map(({ of, axes }) => {
    const letters = axes.map((l) => (plainKv && l === 'H_kv·d_k' ? 'D' : l));
    return { of, letters, sizes: letters.map((l) => size[l] ?? l) };
  });
}

/** The figures of the weights of `names` the run has: [D, cols] matrices, [1, n] biases. */
export const weightFigures = (run, names) =>
  names
    .filter((name) => run.T[name])
    .map((name) => {
      const { shape } = run.T[name];
      return shape.length === 1 ? { name, rows: 1, cols: shape[0] } : { name, rows: shape[0], cols: shape[1] };
    });
