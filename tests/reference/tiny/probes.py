"""The fixed inputs the training report measures the heads on (and the tests re-measure
with the engine). Written into report.json, so the tests read them from there."""
import random

# Natural sentences, each typed twice (s + s) as a learner would.
SENTENCES = {
    "en": "The cat sat on the warm mat.",
    "zh": "今天我们学习注意力。",
    "mixed": "Attention 注意力 is all.",
}
# Typed with something between the copies, or three times: (s, separator, copies).
SEPARATED = {
    "en-space": ("the cat sat.", " ", 2),
    "en-newline": ("Free software is a matter of liberty.", "\n", 2),
    "zh-three": ("注意力机制很有趣。", "", 3),
}

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def random_strings(seed=2024, count=8, shortest=15, longest=24):
    """Random ASCII letters and digits, `shortest` to `longest` of them, each to be typed twice."""
    rng = random.Random(seed)
    return ["".join(rng.choice(LETTERS) for _ in range(rng.randint(shortest, longest))) for _ in range(count)]


def random_repeats():
    """The random strings typed twice: 8 as s + s, 4 more with a separator or a third copy."""
    plain = [s + s for s in random_strings()]
    separated = [s + sep + s + (sep + s if copies == 3 else "")
                 for s, (sep, copies) in zip(random_strings(seed=2025, count=4),
                                             [(" ", 2), (". ", 2), ("\n", 2), (" ", 3)])]
    return plain + separated


def typed(s, separator="", copies=2):
    return separator.join([s] * copies)


# Natural text for the previous-token score (not typed twice).
PLAIN = [
    "The quick brown fox jumps over the lazy dog, and then it runs away.",
    "Free software is a matter of liberty, not price.",
    "床前明月光，疑是地上霜。举头望明月，低头思故乡。",
]


def fit(text, limit=256):
    """The longest prefix of whole characters within `limit` bytes."""
    out = ""
    for c in text:
        if len((out + c).encode()) > limit:
            break
        out += c
    return out
