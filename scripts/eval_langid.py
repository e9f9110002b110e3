"""How often each language identifier names the right language of a note (issue 27, item 1).

Compares the stop-word counter that ``--lang auto`` used before (``phiscrub.langid``,
as ``deid._language_of`` called it) with :func:`phiscrub.language.guess_language` (py3langid plus
the short-note and Spanish/Catalan rules) and with the decision of the default setting
(:func:`phiscrub.language.decide_language`, ``default``: English unless clearly another language).
Sets: every English note set of the project, the same English notes in ALL CAPS and cut to their first
120 characters, MEDDOCAN (Spanish), the German/Spanish/French/Dutch lang-pack notes and the Nordic
notes of ``tests/data/langpack-notes``. Prints one markdown row per set: notes, and the share of notes
each method gives the set's language. No note text is printed.

Usage: ``python scripts/eval_langid.py``
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from phiscrub.document import Document
from phiscrub.langid import LANGID_LANGUAGES, detect_language
from phiscrub.language import decide_language, guess_language

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
NOTES = ROOT / "tests" / "data" / "langpack-notes"
_PLACEHOLDER = re.compile(r"\[[A-Z_]+\]")


def _txt(folder: Path, pattern: str = "*.txt") -> Iterator[str]:
    for p in sorted(folder.glob(pattern)):
        yield p.read_text(encoding="utf-8")


def english() -> Iterator[str]:
    for sub in sorted((SHARED / "realworld-notes").glob("r*")):
        yield from _txt(sub)
    for line in (SHARED / "hardforms-notes" / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        yield str(json.loads(line)["text"])
    for sub in "abcdefghij":
        yield from _txt(SHARED / "zeroshot-notes" / sub)


def _lines() -> Iterator[str]:
    """Every English line of 2-39 words as a note of its own (a seeded sample of 20,000)."""
    lines = [ln for t in english() for ln in t.split("\n") if 2 <= len(re.findall(r"[^\W\d_]{2,}", ln)) < 40]
    random.Random(1).shuffle(lines)
    yield from lines[:20000]


def _short(text: str) -> str:
    """The first 120 characters, cut at a word."""
    return text[:120].rsplit(" ", 1)[0]


SETS: dict[str, tuple[str, Callable[[], Iterator[str]]]] = {
    "en (realworld, hardforms, zeroshot a-j)": ("en", english),
    "en, ALL CAPS": ("en", lambda: (t.upper() for t in english())),
    "en, first 120 characters": ("en", lambda: (_short(t) for t in english())),
    "en, first 120 characters, ALL CAPS": ("en", lambda: (_short(t).upper() for t in english())),
    "en, one line per note (2-39 words)": ("en", _lines),
    "es (MEDDOCAN train + dev)": (
        "es", lambda: (t for s in ("train", "dev") for t in _txt(SHARED / "meddocan" / s))),
    "de (lang-pack notes, de + de2)": ("de", lambda: _txt(NOTES / "de")),
    "es (lang-pack notes es2)": ("es", lambda: _txt(NOTES / "es")),
    "fr (lang-pack notes)": ("fr", lambda: _txt(NOTES / "fr")),
    "nl (lang-pack notes)": ("nl", lambda: _txt(NOTES / "nl")),
    "nb/nn (Nordic notes)": ("nb", lambda: _txt(NOTES / "nb")),
    "da (Nordic notes)": ("da", lambda: _txt(NOTES / "da")),
    "sv (Nordic notes)": ("sv", lambda: _txt(NOTES / "sv")),
}  # fmt: skip


def main() -> int:
    print(
        "| set | notes | stop words (before) | py3langid guess (`auto`) | default decision | default: other languages |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for name, (lang, texts) in SETS.items():
        n = old = new = dflt = 0
        others: Counter[str] = Counter()
        for text in texts():
            n += 1
            plain = _PLACEHOLDER.sub(" ", text)
            ok = {lang, "nn"} if lang == "nb" else {lang}
            old += detect_language(plain, LANGID_LANGUAGES, default="en") in ok
            new += guess_language(plain).code in ok
            d = decide_language(Document("x", plain), "default")
            dflt += d in ok
            if d not in ok:
                others[d] += 1
        if n == 0:
            continue
        other = ", ".join(f"{k} {v}" for k, v in others.most_common())
        print(f"| {name} | {n} | {old / n:.3f} | {new / n:.3f} | {dflt / n:.3f} | {other} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
