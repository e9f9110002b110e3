"""Date values, template tags and rendering: how :mod:`phiscrub.transform.dates` writes a date.

A template (``"{MM}/{DD}/{YYYY}"``, ``"{D} de {month:es} de {YYYY}"``) is a list of literal text
and :class:`Tag` parts; :func:`render` writes the parts with a :class:`DateValue` per group,
:func:`shift_value` moves a value by a number of days through a reference day. Month, weekday and
season names come from :mod:`phiscrub.calendar`.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from phiscrub.calendar import MONTH_ABBRS, MONTH_NAMES, SEASONS, WEEKDAY_ABBRS, WEEKDAY_NAMES

__all__ = ["DateValue", "Part", "Tag", "format_date", "render", "season_of", "shift_value"]

# Written forms: (full, abbreviation) of each month and weekday, by language.
_MONTHS = {
    lang: tuple((n[0], a[0]) for n, a in zip(MONTH_NAMES[lang], MONTH_ABBRS[lang])) for lang in MONTH_NAMES
}
_WEEKDAYS = {
    lang: tuple((n[0], a[0]) for n, a in zip(WEEKDAY_NAMES[lang], WEEKDAY_ABBRS[lang]))
    for lang in WEEKDAY_NAMES
}
# Middle of each season (month, day): spring, summer, autumn, winter (northern hemisphere).
_SEASON_MIDDLE = ((5, 5), (8, 6), (11, 5), (2, 4))


@dataclass(frozen=True)
class DateValue:
    """The fields of one date; None where the surface does not say.

    ``season`` is 0..3 (spring, summer, autumn, winter); ``weekday`` is 0..6 (Monday first).
    """

    year: int | None = None
    month: int | None = None
    day: int | None = None
    weekday: int | None = None
    season: int | None = None

    def fields(self) -> frozenset[str]:
        """Names of the fields present."""
        return frozenset(
            k for k in ("year", "month", "day", "weekday", "season") if getattr(self, k) is not None
        )


@dataclass(frozen=True)
class Tag:
    """One field of a template: its name (case style included), language and range group."""

    name: str  # YYYY, YY, M, MM, D, DD, Do, DO, Dº, month names, weekday names, season names, de
    lang: str = "en"
    group: int = 0
    extra: str = ""  # the apostrophe of Catalan "d'"

    def text(self) -> str:
        """The tag as written in a template ("{Month:es}", "{DD#2}")."""
        suffix = f":{self.lang}" if self.lang != "en" else ""
        if self.extra:
            suffix += f":{self.extra}"
        group = "#2" if self.group else ""
        return "{" + self.name + suffix + group + "}"


Part = str | Tag


def season_of(day: dt.date) -> tuple[int, int]:
    """(season index, season year) of a date; December belongs to the next year's winter."""
    md = (day.month, day.day)
    if (3, 20) <= md < (6, 21):
        return 0, day.year
    if (6, 21) <= md < (9, 23):
        return 1, day.year
    if (9, 23) <= md < (12, 21):
        return 2, day.year
    return 3, day.year + 1 if day.month == 12 else day.year


def _reference(v: DateValue) -> dt.date | None:
    # Without a year, shift in a common (non-leap) year, except for 29 February.
    if v.month is not None and v.day is not None:
        year = v.year if v.year is not None else 2001
        if v.month == 2 and v.day == 29 and not calendar.isleap(year):
            year = 2000
        return dt.date(year, v.month, v.day)
    if v.month is not None:
        return dt.date(v.year if v.year is not None else 2001, v.month, 15)
    if v.season is not None:
        month, day = _SEASON_MIDDLE[v.season]
        return dt.date(v.year if v.year is not None else 2001, month, day)
    if v.year is not None:
        return dt.date(v.year, 7, 2)
    return None


def shift_value(v: DateValue, days: int) -> DateValue:
    """The value moved by ``days`` through its reference day (a weekday alone moves by ``days % 7``)."""
    ref = _reference(v)
    if ref is None:
        weekday = None if v.weekday is None else (v.weekday + days) % 7
        return replace(v, weekday=weekday)
    new = ref + dt.timedelta(days=days)
    season, season_year = season_of(new)
    year = season_year if v.season is not None else new.year
    return DateValue(year, new.month, new.day, new.weekday(), season)


def _ordinal(day: int) -> str:
    if 11 <= day % 100 <= 13:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _apply_case(word: str, tag: str) -> str:
    if tag.isupper() and len(tag) > 1:
        return word.upper()
    if tag.islower():
        return word.lower()
    return word[:1].upper() + word[1:]


def _render_tag(tag: Tag, v: DateValue) -> str:
    name = tag.name
    key = name.lower()

    def need(x: int | None) -> int:
        if x is None:
            raise ValueError(f"date template tag {tag.text()} has no value")
        return x

    if name == "YYYY":
        return f"{need(v.year):04d}"
    if name == "YY":
        return f"{need(v.year) % 100:02d}"
    if name in ("M", "MM"):
        return f"{need(v.month):0{len(name)}d}"
    if name in ("D", "DD"):
        return f"{need(v.day):0{len(name)}d}"
    if name in ("Do", "DO"):
        suffix = _ordinal(need(v.day))
        return f"{v.day}{suffix.upper() if name == 'DO' else suffix}"
    if name == "Der":
        return f"{need(v.day)}er" if v.day == 1 else str(v.day)
    if name == "Dº":
        return f"{need(v.day)}º"
    lang = tag.lang if tag.lang in _MONTHS else "en"
    if key in ("month", "mon"):
        full, abbr = _MONTHS[lang][need(v.month) - 1]
        return _apply_case(full if key == "month" else abbr, name)
    if key in ("weekday", "wkd"):
        full, abbr = _WEEKDAYS[lang][need(v.weekday)]
        return _apply_case(full if key == "weekday" else abbr, name)
    if key == "season":
        names = SEASONS.get(tag.lang, SEASONS["en"])
        return _apply_case(names[need(v.season)], name)
    if key == "de":
        vowel = need(v.month) in (4, 8, 10)  # abril, agost, octubre
        text = ("d" + (tag.extra or "'")) if vowel else "de "
        return text.upper() if name == "DE" else text
    raise ValueError(f"unknown date template tag {tag.text()}")


def render(parts: Sequence[Part], values: Sequence[DateValue], shown: Sequence[frozenset[str]]) -> str:
    """The template parts written with one value per range group."""
    out: list[str] = []
    month_tag = next(
        (p for p in parts if isinstance(p, Tag) and p.group == 0 and p.name.lower() in ("month", "mon")),
        None,
    )
    inserted = False
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        v = values[part.group]
        # A range whose second date hid its month ("March 30-31") needs it once months differ.
        if (
            part.group == 1
            and not inserted
            and month_tag is not None
            and len(shown) > 1
            and "month" not in shown[1]
            and part.name in ("D", "DD", "Do", "DO", "Dº", "Der")
            and v.month != values[0].month
        ):
            out.append(_render_tag(replace(month_tag, group=1), v) + " ")
            inserted = True
        out.append(_render_tag(part, v))
    return "".join(out)


_TEMPLATE_TAG = re.compile(r"\{\{|\}\}|\{([^{}:#]+)(?::([^{}:#]+))?(?::([^{}#]+))?(#2)?\}")


def _parse_template(template: str) -> list[Part]:
    parts: list[Part] = []
    pos = 0

    def literal(text: str) -> None:
        if "{" in text or "}" in text:
            raise ValueError("unbalanced braces in date template")
        if text:
            parts.append(text)

    for m in _TEMPLATE_TAG.finditer(template):
        literal(template[pos : m.start()])
        text = m.group(0)
        if text in ("{{", "}}"):
            parts.append(text[0])
        else:
            name, lang, extra, group = m.group(1), m.group(2) or "en", m.group(3) or "", m.group(4)
            parts.append(Tag(name, lang, 1 if group else 0, extra))
        pos = m.end()
    literal(template[pos:])
    return parts


def format_date(day: dt.date, template: str) -> str:
    """Render a date with a template such as ``"{Month} {Do}, {YYYY}"`` or ``"{D} de {month:es} de {YYYY}"``.

    Raises:
        ValueError: an unknown tag or unbalanced braces.
    """
    season, season_year = season_of(day)
    parts = _parse_template(template)
    has_season = any(isinstance(p, Tag) and p.name.lower() == "season" for p in parts)
    value = DateValue(season_year if has_season else day.year, day.month, day.day, day.weekday(), season)
    return "".join(p if isinstance(p, str) else _render_tag(p, value) for p in parts)
