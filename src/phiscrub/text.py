"""Offset-keeping tokenizer and sentence splitter.

The project tokenizer (``phiscrub-word-v1``) is used by the token-level metrics and the tagger:

* a run of letters/digits/underscore is one token, except CJK ideographs, kana and hangul, which are
  one token per character (Chinese has no spaces);
* every other non-space character is a token of its own.

So ``"DOB: 03/12/2019."`` gives ``DOB`` ``:`` ``03`` ``/`` ``12`` ``/`` ``2019`` ``.``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["TOKENIZER_NAME", "Token", "sentences", "tokenize"]

TOKENIZER_NAME = "phiscrub-word-v1"

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN_RE = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]")


@dataclass(frozen=True)
class Token:
    """A token with its half-open character offsets."""

    text: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into :class:`Token` objects with character offsets (``phiscrub-word-v1``)."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]


# Abbreviations after which a period does not end a sentence.
_ABBREV = frozenset(
    (
        "dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "vs", "no", "approx", "pt", "e.g", "i.e", "etc",
        "dra", "sra", "srta", "fig", "mg", "ml", "p.o", "b.i.d", "t.i.d", "q.d", "a.m", "p.m", "inc", "co",
        "ave", "blvd", "apt", "ste", "u.s",
    )
)  # fmt: skip
_WORD_BEFORE_RE = re.compile(r"([\w.]+)$")
_SENT_END_RE = re.compile(r"[.!?。！？]+[\"')\]]*(?=\s)|[。！？]+|\n\s*\n|\n")


def sentences(text: str) -> list[tuple[int, int]]:
    """Split ``text`` into sentence ranges ``(start, end)``, stripped of surrounding whitespace.

    Line breaks end sentences (clinical notes are line oriented); so do ``.!?`` followed by space
    unless the word before is a known abbreviation or a single letter (initials).
    """
    ranges: list[tuple[int, int]] = []
    start = 0
    for m in _SENT_END_RE.finditer(text):
        if m.group()[0] == ".":
            # The word before the period; look back a bounded stretch (not the whole sentence so
            # far), so a long run of abbreviations on one line stays linear in its length.
            word = _WORD_BEFORE_RE.search(text[max(start, m.start() - 64) : m.start()])
            if word and (word.group(1).lower().rstrip(".") in _ABBREV or len(word.group(1)) == 1):
                continue
            nxt = text[m.end() : m.end() + 3].lstrip()
            if nxt and nxt[0].islower():
                continue
        end = m.end()
        ranges.append((start, end))
        start = end
    ranges.append((start, len(text)))
    out: list[tuple[int, int]] = []
    for s, e in ranges:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out
