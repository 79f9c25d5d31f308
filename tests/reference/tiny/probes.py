"""The fixed inputs the training report measures the heads on (and the tests re-measure
with the engine). Written into report.json, so the tests read them from there."""
import random

# Sentences for "type it twice": each at most 32 bytes, so that s + s fits in 64.
SENTENCES = {
    "en": "The cat sat on the warm mat.",
    "zh": "今天我们学习注意力。",
    "mixed": "Attention 注意力 is all.",
}


def random_repeats(seed=2024, count=8, n=24):
    """Random printable ASCII strings of n bytes, each to be typed twice."""
    rng = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return ["".join(rng.choice(alphabet) for _ in range(n)) for _ in range(count)]


# Natural text for the previous-token score (not typed twice).
PLAIN = [
    "The quick brown fox jumps over the lazy dog, and then it runs away.",
    "Free software is a matter of liberty, not price.",
    "床前明月光，疑是地上霜。举头望明月，低头思故乡。",
]


def fit(text, limit=64):
    """The longest prefix of whole characters within `limit` bytes."""
    out = ""
    for c in text:
        if len((out + c).encode()) > limit:
            break
        out += c
    return out
