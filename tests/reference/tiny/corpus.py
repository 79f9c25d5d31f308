"""Training text from Debian packages, and the batches train.py draws from it.

English: the fortunes package and the license texts in /usr/share/common-licenses.
Chinese: fortunes-zh (chinese, tang300, song100). The colour escapes of fortunes-zh
are stripped. Everything is UTF-8 bytes, so one Han character is three tokens.
"""
import glob
import os
import random
import re

import torch

FORTUNES = "/usr/share/games/fortunes"
LICENSES = "/usr/share/common-licenses"
CHINESE = ("chinese", "tang300", "song100")  # the files of fortunes-zh
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def read(path):
    with open(path, "rb") as f:
        return ANSI.sub("", f.read().decode("utf-8", errors="ignore"))


def load_texts():
    """(english, chinese): each a list of paragraphs (fortunes split at their '%' lines)."""
    english, chinese = [], []
    for path in sorted(glob.glob(os.path.join(FORTUNES, "*"))):
        name = os.path.basename(path)
        if "." in name or not os.path.isfile(path):
            continue  # .dat indexes, .u8 links
        items = [t.strip() for t in read(path).split("\n%\n") if t.strip()]
        (chinese if name in CHINESE else english).extend(items)
    for path in sorted(glob.glob(os.path.join(LICENSES, "*"))):
        if os.path.isfile(path):
            english.extend(p.strip() for p in read(path).split("\n\n") if len(p.strip()) > 40)
    if not english or not chinese:
        raise SystemExit("corpus: install the Debian packages fortunes and fortunes-zh")
    return english, chinese


class Batches:
    """Rows of `context` byte ids. Half are natural text (English 3 : Chinese 1); half
    are a segment repeated until the row is full: a text snippet or random characters,
    8 to 32 bytes long, so that copying the earlier copy is the only way to predict."""

    def __init__(self, english, chinese, context, seed):
        self.rng = random.Random(seed)
        self.context = context
        self.english = "\n".join(english).encode()
        self.chinese = "\n".join(chinese).encode()
        self.characters = sorted(set("\n".join(english[:2000]) + "\n".join(chinese[:400])))

    def window(self, data, n):
        start = self.rng.randrange(len(data) - n)
        chunk = data[start : start + n + 4].decode("utf-8", errors="ignore").encode()  # whole characters
        return chunk[:n]

    def row(self):
        n = self.context
        kind = self.rng.random()
        if kind < 0.5:
            data = self.english if self.rng.random() < 0.75 else self.chinese
            return self.window(data, n).ljust(n, b"\n")
        length = self.rng.randint(8, 32)
        if kind < 0.75:
            data = self.english if self.rng.random() < 0.75 else self.chinese
            segment = self.window(data, length)
        else:
            segment = "".join(self.rng.choice(self.characters) for _ in range(length)).encode()[:length]
        segment = segment or b"?"
        return (segment * (n // len(segment) + 1))[:n]

    def next(self, batch):
        return torch.tensor([list(self.row()) for _ in range(batch)], dtype=torch.long)
