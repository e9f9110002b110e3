"""The matching core of the site knowledge (:mod:`phiscrub.detect.site`): one Aho-Corasick automaton
over the variants of every list entry, a word-boundary check after each hit, and the checks that
decide whether an ambiguous variant (a lone name that is also an English word) counts.

Texts and entries are compared in a normalised form (:func:`normalize`): lower case, curly
apostrophes straight, runs of white space as one space. Offsets are mapped back to the original
text, so spans always index the document as given.

Variant kinds (:class:`Kind`):

``strong``
    counts wherever it occurs on word boundaries, in any case (full names, "Last, First",
    "D. Rice", multi-word facility names, lone names that are no English word).
``weak``
    a lone name or one-word entry that is also a common English word ("Rice", "Hope", "Will"):
    counts only in a name context (a title before it, a credential after it) or written
    capitalised (not ALL CAPS) and not at the start of a sentence.
``upper``
    an abbreviation ("NMC", "H.W."): counts only written in capitals, as in the list.
``initial``
    an initial and a surname ("D. Rice", "D Rice"): counts with both capitalised ("passed a stone"
    is not "A. Stone").
``floor``
    the name of a building without its building word ("Tallis" of "Tallis Building"): counts only
    followed by a floor number, and the span takes the number in ("Tallis 3").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import ahocorasick

from phiscrub.detect.pattern_data import pattern_data

_RX = pattern_data("site_match")


__all__ = [
    "Hit",
    "Kind",
    "PhraseMatcher",
    "Variant",
    "is_ambiguous_word",
    "name_context",
    "normalize",
    "sentence_initial",
]


class Kind(Enum):
    """How much context a variant needs to count (see the module docstring)."""

    STRONG = "strong"
    WEAK = "weak"
    UPPER = "upper"
    INITIAL = "initial"
    FLOOR = "floor"


@dataclass(frozen=True)
class Variant:
    """One surface form of a list entry: its label, kind and rank (lower ranks win label ties)."""

    label: str
    kind: Kind
    rank: int = 0


@dataclass(frozen=True)
class Hit:
    """An accepted match: offsets into the original text, label and rank."""

    start: int
    end: int
    label: str
    rank: int


_WS_TABLE = {ord(c): " " for c in "\t\n\r\x0b\x0c\u00a0\u2007\u202f"}
_WS_TABLE[ord("\u2019")] = "'"
_WS_TABLE[ord("\u2018")] = "'"


def _lower(text: str) -> str:
    """``text.lower()`` that keeps the length (a character whose lower case is longer stays)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def normalize(text: str) -> tuple[str, list[int] | None]:
    """The normalised text and, when runs of spaces were collapsed, each character's original offset.

    Returns:
        ``(norm, offsets)``: ``offsets[i]`` is the original offset of ``norm[i]`` (one extra entry
        for the end); None when the offsets are the same.
    """
    flat = _lower(text).translate(_WS_TABLE)
    if "  " not in flat:
        return flat, None
    offsets: list[int] = []
    parts: list[str] = []
    pos = 0
    for m in _RX["MULTI_SPACE"].finditer(flat):
        parts.append(flat[pos : m.start() + 1])
        offsets.extend(range(pos, m.start() + 1))
        pos = m.end()
    parts.append(flat[pos:])
    offsets.extend(range(pos, len(flat) + 1))
    return "".join(parts), offsets


def normalize_entry(entry: str) -> str:
    """An entry in the normalised form of :func:`normalize` (also stripped)."""
    low = _lower(entry)
    if "\u2019" in low or "\u2018" in low:
        low = low.replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(low.split())  # str.split() also splits at no-break and figure spaces


def name_context(text: str, start: int, end: int) -> bool:
    """True when a title stands before ``text[start:end]`` or a credential after it."""
    before = text[max(0, start - 16) : start]
    if _RX["TITLE_BEFORE"].search(before) or _RX["TITLE_BEFORE_CASED"].search(before):
        return True
    return bool(_RX["CREDENTIAL_AFTER"].match(text[end : end + 12]))


def sentence_initial(text: str, start: int) -> bool:
    """True when ``start`` begins the text, a line, or follows a sentence's end or a colon."""
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i < 0 or text[i] in "\n\r.!?:•-*([\"'"


def capitalised(surface: str) -> bool:
    """First letter upper case and some lower-case letter after it ("Rice", not "RICE" or "rice")."""
    return surface[:1].isupper() and any(c.islower() for c in surface[1:])


@lru_cache(maxsize=65536)
def is_ambiguous_word(word: str) -> bool:
    """True when ``word`` is a common English word, clinical vocabulary or an eponym ("rice",
    "hope", "bell", "murphy")."""
    from phiscrub.detect.clinical_vocab import is_clinical_word, is_common_word

    parts = [p for p in re.split(r"[\s-]+", word) if p]
    return any(is_common_word(p) or is_clinical_word(p) or is_eponym(p) for p in parts) or len(word) < 3


def is_eponym(word: str) -> bool:
    """True when ``word`` names a sign, scale or disease ("Murphy", "Parkinson"): a name only in a
    name context."""
    from phiscrub.detect.lexicon import EPONYMS

    return word.lower() in EPONYMS


def _boundary(text: str, start: int, end: int) -> bool:
    """Word boundaries at both ends; a one-word surface must not be half of a hyphenated compound
    ("Wong-Baker", "Baker-Smith")."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if before.isalnum() or after.isalnum():
        return False
    if " " in text[start:end]:
        return True
    hyphen_before = before == "-" and start > 1 and text[start - 2].isalpha()
    hyphen_after = after == "-" and end + 1 < len(text) and text[end + 1].isalpha()
    return not (hyphen_before or hyphen_after)


def accept(text: str, start: int, end: int, kind: Kind) -> int | None:
    """The end of the span if a hit of ``kind`` at ``text[start:end]`` counts, else None."""
    surface = text[start:end]
    if kind is Kind.STRONG:
        return end
    if kind is Kind.UPPER:
        return end if not any(c.islower() for c in surface) else None
    if kind is Kind.INITIAL:
        last = surface.replace(".", " ").split()[-1]
        return end if surface[:1].isupper() and last[:1].isupper() else None
    if kind is Kind.FLOOR:
        m = _RX["FLOOR"].match(text, end)
        return m.end() if m else None
    if name_context(text, start, end):
        return end
    if is_eponym(surface) or _RX["CALENDAR_WORDS"].match(surface) or _RX["NUMBER_AFTER"].match(text, end):
        return None  # "March 3", "May", "Page 2": a date or a numbered thing, not a name
    if capitalised(surface) and not sentence_initial(text, start):
        return end
    return None


class PhraseMatcher:
    """Variants of list entries in one automaton; :meth:`find` yields the accepted hits in a text."""

    def __init__(self) -> None:
        self._automaton = ahocorasick.Automaton()
        self._keys = 0
        self._built = False

    def __len__(self) -> int:
        return self._keys

    def add(self, key: str, variant: Variant) -> None:
        """Add ``variant`` under the (raw) surface ``key``; empty keys are ignored."""
        norm = normalize_entry(key)
        if not norm:
            return
        found = self._automaton.get(norm, None)
        if found is None:
            self._automaton.add_word(norm, (len(norm), [variant]))
            self._keys += 1
        elif variant not in found[1]:
            found[1].append(variant)
        self._built = False

    def build(self) -> PhraseMatcher:
        """Compile the automaton (done on first :meth:`find` otherwise)."""
        if not self._built and self._keys:
            self._automaton.make_automaton()
        self._built = True
        return self

    def find(self, text: str) -> Iterator[Hit]:
        """Accepted hits in ``text`` (original offsets), in no particular order."""
        if not self._keys:
            return
        self.build()
        norm, offsets = normalize(text)
        for last, (length, variants) in self._automaton.iter(norm):
            nstart, nend = last + 1 - length, last + 1
            start, end = (nstart, nend) if offsets is None else (offsets[nstart], offsets[nend - 1] + 1)
            if not _boundary(text, start, end):
                continue
            for v in variants:
                stop = accept(text, start, end, v.kind)
                if stop is not None:
                    yield Hit(start, stop, v.label, v.rank)


def best_hits(hits: Iterable[Hit]) -> list[Hit]:
    """Hits without exact duplicates (same offsets and label: the lowest rank kept), sorted."""
    best: dict[tuple[int, int, str], Hit] = {}
    for h in hits:
        k = (h.start, h.end, h.label)
        if k not in best or h.rank < best[k].rank:
            best[k] = h
    return sorted(best.values(), key=lambda h: (h.start, h.end, h.rank))
