// Runs many Python programs with Debian's PyTorch in one process: importing
// torch takes about two seconds, a process per program took most of the time
// of the tests that check our generated scripts. Each program runs as its own
// __main__ with a fresh namespace and its own stdout; if it leaves a dict
// `tensors` of torch tensors, they come back as {shape, data} (non-finite
// numbers as JS numbers).
import { spawnSync } from 'node:child_process';

const RUNNER = `
import contextlib, io, json, math, sys
import torch
results = []
for script in json.load(sys.stdin):
    out = io.StringIO()
    namespace = {"__name__": "__main__"}
    torch.set_printoptions(profile="default")
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(script, "<script>", "exec"), namespace)
        tensors = {name: {"shape": list(t.shape), "data": [x if math.isfinite(x) else str(x) for x in t.flatten().tolist()]}
                   for name, t in namespace.get("tensors", {}).items()}
        results.append({"printed": out.getvalue(), "tensors": tensors})
    except Exception as error:
        results.append({"printed": out.getvalue(), "error": repr(error)})
print(json.dumps(results))
`;

const number = (x) => (typeof x === 'string' ? Number(x.replace('inf', 'Infinity')) : x);

/** Runs `scripts` (Python source texts) in one python3, in `cwd`: [{printed, tensors}] in their order. */
export function runPythonScripts(scripts, { cwd } = {}) {
  const out = spawnSync('/usr/bin/python3', ['-c', RUNNER], {
    input: JSON.stringify(scripts),
    encoding: 'utf8',
    cwd,
    maxBuffer: 256 << 20,
  });
  if (out.status !== 0) throw new Error(`python3 failed:\n${out.stderr}`);
  return JSON.parse(out.stdout).map((ran, i) => {
    if (ran.error) throw new Error(`script ${i} failed: ${ran.error}\n${ran.printed}\n--- script ---\n${scripts[i]}`);
    for (const t of Object.values(ran.tensors)) t.data = t.data.map(number);
    return ran;
  });
}
