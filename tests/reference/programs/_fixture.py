"""Not part of the tutorials. When tests/reference/generate.py runs a program,
save() writes the tensors it computed, under the program's own names, to the
JSON fixture that the preset tests compare the engine with. Run by hand, a
program only prints what its tutorial prints."""
import json
import math
import os


def _number(x):
    # JSON has no NaN or infinities; float32 values round-trip in 9 digits.
    if isinstance(x, bool) or isinstance(x, int):
        return x
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return float(f"{x:.9g}")


def save(tensors):
    path = os.environ.get("ATTENTION_LAB_FIXTURE")
    if not path:
        return
    out = {name: {"shape": list(t.shape), "data": [_number(x) for x in t.detach().flatten().tolist()]}
           for name, t in tensors.items()}
    with open(path, "w") as f:
        json.dump({"tensors": out}, f)
