"""Calendar words of every supported language: month, weekday and season names (one concept: data).

Each month or weekday has a tuple of spellings; the first is the written form (what a shifted or
filled date is written with), the others are spellings read in notes ("setiembre", "Jänner",
"Sept"). Date detection (:mod:`phiscrub.detect.rules.dates`, the language packs of
:mod:`phiscrub.detect.rules.langpacks`) and date parsing, shifting and formatting
(:mod:`phiscrub.transform.dates`) read these tables; none keeps its own.

The words live in ``phiscrub/resources/langpacks/calendar.json`` with the other language
vocabulary; this module reads them once, as tuples.
"""

from __future__ import annotations

from typing import Any

from phiscrub.resources import load_json

__all__ = ["CALENDAR_LANGS", "MONTH_ABBRS", "MONTH_NAMES", "SEASONS", "WEEKDAY_ABBRS", "WEEKDAY_NAMES"]

Spellings = tuple[tuple[str, ...], ...]


def _tables(key: str) -> dict[str, Any]:
    """One table of ``calendar.json``: language code -> its spellings, lists read as tuples."""
    table = load_json("langpacks", "calendar", "calendar tables")[key]
    return {
        lang: tuple(tuple(s) if isinstance(s, list) else s for s in value) for lang, value in table.items()
    }


#: Full month names, January first.
MONTH_NAMES: dict[str, Spellings] = _tables("month_names")
#: Month abbreviations, January first (taken next to a day number or a year).
MONTH_ABBRS: dict[str, Spellings] = _tables("month_abbrs")
#: Full weekday names, Monday first.
WEEKDAY_NAMES: dict[str, Spellings] = _tables("weekday_names")
#: Weekday abbreviations, Monday first.
WEEKDAY_ABBRS: dict[str, Spellings] = _tables("weekday_abbrs")
#: Season names: spring, summer, autumn, winter (``uk`` writes "autumn" where ``en`` writes "fall").
SEASONS: dict[str, tuple[str, str, str, str]] = _tables("seasons")
#: Languages with month and weekday tables.
CALENDAR_LANGS: tuple[str, ...] = tuple(MONTH_NAMES)
