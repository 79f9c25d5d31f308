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


LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
SEPARATORS = (b"", b" ", b". ", b"\n")


class Batches:
    """Rows of `context` byte ids, as learners type them. A fifth are natural text
    (English 3 : Chinese 1); two fifths one segment typed again and again to the end (the
    copies that make the heads form); the others repeats back to back, or natural text
    with one to three repeats at random places (one row of four from its start): a segment typed twice or three times, with
    or without a separator (space, ". ", newline). The segment is random characters of
    the corpus, random ASCII letters and digits, or a snippet of text, 4 to 48 bytes
    long; where it is random, copying the earlier copy is the only way to predict it."""

    def __init__(self, english, chinese, context, seed):
        self.rng = random.Random(seed)
        self.context = context
        self.english = "\n".join(english).encode()
        self.chinese = "\n".join(chinese).encode()
        self.characters = sorted(set("\n".join(english[:2000]) + "\n".join(chinese[:400])))

    def text(self):
        return self.english if self.rng.random() < 0.75 else self.chinese

    def window(self, data, n):
        start = self.rng.randrange(len(data) - n)
        chunk = data[start : start + n + 4].decode("utf-8", errors="ignore").encode()  # whole characters
        return chunk[:n]

    def random_text(self, alphabet, n):
        out = b""
        while True:
            c = self.rng.choice(alphabet).encode()
            if len(out) + len(c) > n:
                return out
            out += c

    def segment(self):
        """Random ASCII letters and digits (a quarter), random characters of the corpus (a fifth), or a
        snippet of natural text (the rest): 4 to 48 bytes. The snippets' share is what teaches the
        heads to follow natural text typed again, where one byte of context does not say which
        earlier copy to follow (the random ones teach them to copy at all)."""
        length = self.rng.randint(4, 48)
        kind = self.rng.random()
        if kind < 0.25:
            segment = self.random_text(LETTERS, length)
        elif kind < 0.45:
            segment = self.random_text(self.characters, length)
        else:
            segment = self.window(self.text(), length)
        return (segment or b"?") + self.rng.choice(SEPARATORS)

    def repeat(self):
        """A segment typed twice or three times, with the same separator (or none) between the copies."""
        segment = self.segment()
        return segment * (3 if self.rng.random() < 0.25 else 2)

    def row(self, n):
        kind = self.rng.random()
        if kind < 0.2:
            return self.window(self.text(), n).ljust(n, b"\n")
        if kind < 0.6:
            # One segment typed again and again until the row is full, as the first rows of a lesson.
            segment = self.segment()
            return (segment * (n // len(segment) + 1))[:n]
        if kind < 0.75:
            # Repeats back to back, each with a little text or a space before it.
            out = b""
            while len(out) < n:
                out += (self.window(self.text(), self.rng.randint(0, 12)) if self.rng.random() < 0.5 else b" ") + self.repeat()
            return out[:n]
        out = b"" if self.rng.random() < 0.25 else self.window(self.text(), self.rng.randint(1, n // 2))
        for _ in range(self.rng.randint(1, 3)):
            out += self.repeat()
            if len(out) >= n:
                break
            out += self.window(self.text(), self.rng.randint(0, 40)) if self.rng.random() < 0.7 else b" "
        if len(out) < n:
            out += self.window(self.text(), n - len(out))
        return out[:n].ljust(n, b"\n")

    def next(self, batch, context=None):
        """(batch, context) byte ids; context defaults to the model's."""
        n = context or self.context
        return torch.tensor([list(self.row(n)) for _ in range(batch)], dtype=torch.long)
