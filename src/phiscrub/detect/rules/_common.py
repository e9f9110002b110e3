"""Shared pieces of the rule modules: unit look-ahead, case variants, small text helpers."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from itertools import pairwise
from typing import TypeVar

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.langpacks import normalize_lang

_RX = pattern_data("_common")


__all__ = [
    "UNIT_AFTER_RE",
    "any_of",
    "case_variants",
    "digit_runs",
    "followed_by_unit",
    "joined_runs",
    "long_runs",
    "nfd_words",
    "pack_rules",
    "text_after",
    "text_before",
]

# Units and count nouns that make a number a measurement, dose, duration or count rather than PHI.
_UNITS = (
    "mg",
    "mcg",
    "ug",
    "µg",
    "g",
    "gm",
    "gram",
    "grams",
    "kg",
    "lb",
    "lbs",
    "oz",
    "ml",
    "mls",
    "l",
    "dl",
    "cc",
    "mmol",
    "meq",
    "mosm",
    "units",
    "unit",
    "u",
    "iu",
    "mu",
    "mmhg",
    "mm",
    "cm",
    "km",
    "inch",
    "inches",
    "ft",
    "feet",
    "bpm",
    "min",
    "mins",
    "minute",
    "minutes",
    "hr",
    "hrs",
    "hour",
    "hours",
    "h",
    "day",
    "days",
    "d",
    "wk",
    "wks",
    "week",
    "weeks",
    "mo",
    "mos",
    "month",
    "months",
    "yr",
    "yrs",
    "year",
    "years",
    "x",
    "times",
    "tab",
    "tabs",
    "tablet",
    "tablets",
    "cap",
    "caps",
    "capsule",
    "capsules",
    "puff",
    "puffs",
    "drop",
    "drops",
    "gtt",
    "gtts",
    "spray",
    "sprays",
    "cells",
    "k",
    "ng",
    "pg",
    "sec",
    "secs",
    "second",
    "seconds",
    "beats",
    "breaths",
    "kcal",
    "cal",
    "ppm",
    "bottle",
    "bottles",
    "set",
    "sets",
    "pack",
    "packs",
    "pk",
    "dose",
    "doses",
    "vial",
    "vials",
    "fr",
    "french",
    "gauge",
    "ga",
    "mmhg",
    "pounds",
    "kilograms",
    "liters",
    "litres",
    "lpm",
    "nc",
    "meters",
    "mph",
    "steps",
    "servings",
    "drinks",
    "beers",
    "cigarettes",
    "ppd",
    "pack-years",
    "mbq",
    "mci",
    "gy",
    "cgy",
    "mv",
    "ms",
    "hz",
    "joules",
    "watts",
    "mets",
    "kpa",
    "cmh2o",
    "iu/l",
    "u/l",
    "db",
    "am",
    "pm",
)

#: Matches right after a number when a unit, ``%`` or a per-sign follows (so it is a measurement).
UNIT_AFTER_RE = re.compile(
    r"[ \t]?(?:%|°|/(?:min|hr|h|d|day|kg|dl|l|ul|μl|µl|mm3|hpf|lpf)\b|(?:"
    + "|".join(re.escape(u) for u in sorted(set(_UNITS), key=len, reverse=True))
    + r")(?![A-Za-z]))",
    re.IGNORECASE,
)


def followed_by_unit(text: str, end: int) -> bool:
    """True when a unit, percent sign or per-unit follows ``text[end:]`` (after at most one space)."""
    return UNIT_AFTER_RE.match(text, end) is not None


def text_before(m: re.Match[str], n: int, group: int | str = 0) -> str:
    """The ``n`` characters before the match (or group) start."""
    start = m.start(group)
    return m.string[max(0, start - n) : start]


def text_after(m: re.Match[str], n: int, group: int | str = 0) -> str:
    """The ``n`` characters after the match (or group) end."""
    end = m.end(group)
    return m.string[end : end + n]


def case_variants(words: Iterable[str], *, lower: bool = True) -> list[str]:
    """Title, UPPER (and optionally lower) spellings of each word, for case-sensitive alternations."""
    out: list[str] = []
    for w in words:
        forms = [w, w.upper()] + ([w.lower()] if lower else [])
        for f in forms:
            if f not in out:
                out.append(f)
    return out


# --- shared numeric anchors ---------------------------------------------------------------------
# Many rules only need to look near digits. One pass finds the digit runs of a text (cached, so
# the date, contact and ID detectors share it) and each rule derives its anchor hits from them in
# Python, instead of running its own "\d{3}"-style anchor regex over the whole text.
AnchorFn = Callable[[str], list[tuple[int, int]]]


@lru_cache(maxsize=16)
def digit_runs(text: str) -> tuple[tuple[int, int], ...]:
    """``(start, end)`` of every run of ASCII digits in ``text`` (cached for the last texts)."""
    return tuple(m.span() for m in _RX["DIGITS_RE"].finditer(text))


def long_runs(min_len: int) -> AnchorFn:
    r"""Anchor hits: digit runs of at least ``min_len`` digits (``\d{3}``, ``\d{5}`` ...)."""

    def hits(text: str) -> list[tuple[int, int]]:
        return [(s, e) for s, e in digit_runs(text) if e - s >= min_len]

    return hits


def joined_runs(seps: str, left_min: int = 1, right_min: int = 1, then: str = "") -> AnchorFn:
    r"""Anchor hits: two digit runs joined by one character of ``seps`` (``\d/\d``, ``\d{2}-\d{4}``),
    or, with ``then``, by one of ``seps`` and one of ``then`` after it (``"2024. 8"``: ``then=" \t"``)."""
    gap = 2 if then else 1

    def hits(text: str) -> list[tuple[int, int]]:
        runs = digit_runs(text)
        out = []
        for (s1, e1), (s2, e2) in pairwise(runs):
            if (
                s2 == e1 + gap
                and text[e1] in seps
                and (not then or text[e1 + 1] in then)
                and e1 - s1 >= left_min
                and e2 - s2 >= right_min
            ):
                out.append((s1, e2))
        return out

    return hits


def any_of(*anchors: AnchorFn) -> AnchorFn:
    """Anchor hits of several anchors, sorted by start."""

    def hits(text: str) -> list[tuple[int, int]]:
        return sorted(h for anchor in anchors for h in anchor(text))

    return hits


def nfd_words(words: Iterable[str]) -> str:
    """Case-insensitive alternation (prefix tree) of ``words``, composed and decomposed (NFD)."""
    return trie_pattern({f for w in words for f in (w, unicodedata.normalize("NFD", w))})


_Words = TypeVar("_Words")


def pack_rules(
    table: Mapping[str, _Words], build: Callable[[str, _Words], tuple[PatternRule, ...]], lang: str
) -> tuple[PatternRule, ...]:
    """``build(code, table[code])`` for the language code of ``lang``; no rules for a code not in ``table``."""
    code = normalize_lang(lang)
    words = table.get(code)
    return () if words is None else build(code, words)
