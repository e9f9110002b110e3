"""Helpers shared by the language modules of the pack rules (``intl_*``).

The cue-free day-month rules (:mod:`.intl_nordic_dates`, :mod:`.intl_spanish_dates`) build their weekday
and month alternations, word sets and line context the same way; the German and Spanish name rules
(:mod:`.intl_german`, :mod:`.intl_spanish_names`) tell a note written all in lower case the same way.
"""

from __future__ import annotations

import calendar as _stdcal
import re
from functools import lru_cache

from phiscrub.calendar import MONTH_ABBRS, MONTH_NAMES, WEEKDAY_NAMES
from phiscrub.detect.rules.base import trie_pattern

__all__ = [
    "case_forms",
    "line_before",
    "lower_case_note",
    "month_pattern",
    "valid_day_month",
    "weekday_pattern",
    "word_set",
]


def case_forms(words: tuple[str, ...] | list[str]) -> list[str]:
    """Each word as written, lower-case, Title-case and UPPER-case."""
    return sorted({f for w in words for f in (w, w.lower(), w[:1].upper() + w[1:].lower(), w.upper())})


def word_set(words: tuple[str, ...]) -> frozenset[str]:
    """The words lower-cased, without a closing period, for look-ups of a folded word."""
    return frozenset(w.lower().rstrip(".") for w in words)


def weekday_pattern(code: str) -> str:
    """A case-sensitive alternation of the weekday names of a calendar language, in every case form."""
    names = [w for day in WEEKDAY_NAMES[code] for w in day]
    return trie_pattern(case_forms(names), ignore_case=False)


def month_pattern(code: str, *, abbrs: bool = True) -> str:
    """A case-sensitive alternation of the month names (and abbreviations) of a calendar language."""
    groups = (*MONTH_NAMES[code], *(MONTH_ABBRS[code] if abbrs else ()))
    return trie_pattern(case_forms([w for g in groups for w in g]), ignore_case=False)


def valid_day_month(day: int, month: int) -> bool:
    """A day that exists in its month."""
    # 2024 is a leap year: 29/2 is a date whatever the year.
    return 1 <= month <= 12 and 1 <= day <= _stdcal.monthrange(2024, month)[1]


def line_before(text: str, start: int, n: int = 40) -> str:
    """The text of the same line before ``start`` (at most ``n`` characters)."""
    before = text[max(0, start - n) : start]
    return before[before.rfind("\n") + 1 :]


@lru_cache(maxsize=8)
def lower_case_note(text: str) -> bool:
    """A note written in lower case: almost no capitalised word (German capitalises every noun, and
    neither language writes one lower case at a sentence's start)."""
    words = re.findall(r"(?<![\w\-])[^\W\d_]{4,}", text)
    if len(words) < 20:
        return False
    titled = sum(1 for w in words if w[0].isupper() and not w.isupper())
    return titled / len(words) < 0.05
