"""Shared pieces of the rule modules: unit look-ahead, case variants, small text helpers."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "UNIT_AFTER_RE",
    "case_variants",
    "followed_by_unit",
    "text_after",
    "text_before",
]

# Units and count nouns that make a number a measurement, dose, duration or count rather than PHI.
_UNITS = (
    "mg", "mcg", "ug", "µg", "g", "gm", "gram", "grams", "kg", "lb", "lbs", "oz", "ml", "mls", "l", "dl",
    "cc", "mmol", "meq", "mosm", "units", "unit", "u", "iu", "mu", "mmhg", "mm", "cm", "km",
    "inch", "inches", "ft", "feet", "bpm", "min", "mins", "minute", "minutes", "hr", "hrs", "hour",
    "hours", "h", "day", "days", "d", "wk", "wks", "week", "weeks", "mo", "mos", "month", "months",
    "yr", "yrs", "year", "years", "x", "times", "tab", "tabs", "tablet", "tablets", "cap", "caps",
    "capsule", "capsules", "puff", "puffs", "drop", "drops", "gtt", "gtts", "spray", "sprays", "cells",
    "k", "ng", "pg", "sec", "secs", "second", "seconds", "beats", "breaths", "kcal", "cal", "ppm",
    "bottle", "bottles", "set", "sets", "pack", "packs", "pk", "dose", "doses", "vial", "vials", "fr",
    "french", "gauge", "ga", "mmhg", "pounds", "kilograms", "liters", "litres", "lpm", "nc", "meters",
    "mph", "steps", "servings", "drinks", "beers", "cigarettes", "ppd", "pack-years", "mbq", "mci",
    "gy", "cgy", "mv", "ms", "hz", "joules", "watts", "mets", "kpa", "cmh2o", "iu/l", "u/l",
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
