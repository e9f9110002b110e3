"""Date parsing, shifting and formatting that keep a date's written format.

:func:`parse_date` reads a date surface ("03/12/2019", "March 12th, 2019", "12 de març de 2019",
"2019年3月12日", "Spring 2019", "'92", "3/1-3/5/2019", ...) into a :class:`ParsedDate`: the date
fields present and a format template such as ``"{MM}/{DD}/{YYYY}"`` or ``"{Month} {Do}, {YYYY}"``.
:func:`shift_date` moves the date by a number of days and writes it back in the same template, so
two-digit years, zero padding, ordinal suffixes, month-name abbreviations, language and case survive.
:func:`format_date` renders a :class:`datetime.date` with a template (the placeholder filler uses it).

Template tags (literal braces are doubled)::

    {YYYY} {YY}           year, 4 or 2 digits ("'92" is the literal ' then {YY})
    {M} {MM} {D} {DD}     month and day, plain or zero-padded
    {Do} {DO} {Dº}        day with ordinal suffix (12th, 12TH, 12º)
    {Der}                 French day: "1er" for the first, the plain number otherwise
    {Month} {MONTH} {month} {Mon} {MON} {mon}       month name, full or abbreviated, by case
    {Weekday} {WEEKDAY} {weekday} {Wkd} {WKD} {wkd} weekday name
    {Season} {SEASON} {season}                      season name
    {de}                  Catalan "de " / "d'" before a month name (chosen by the month)

Names take a language suffix for Spanish, Catalan, German, French and Dutch (``{month:es}``,
``{Season:ca}``, ``{Month:de}``, ``{month:fr}``, ``{month:nl}``; ``:uk`` writes "autumn" rather than
"fall"); tags of the second date of a range end in ``#2``.

A day past the end of its month ("02/30/2019", "April 31") is read as the month's last day (the
nearest valid date) and shifts from there. Partial dates shift through a reference day: a year alone through 2 July of that year, a month and
year through the 15th, a season through its middle; a day and month without a year shift within a
common year. Weekday names alone move by ``days % 7``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import overload

from phiscrub.transform.date_format import DateValue, Part, Tag, format_date, render, shift_value
from phiscrub.transform.date_parse import (
    RANGE_SEPS,
    RANGE_WORDS,
    Group,
    Tok,
    clamp_day,
    has_month_word,
    lex,
    resolve,
    valid,
)

__all__ = ["DateValue", "ParsedDate", "format_date", "parse_date", "shift_date"]


class _FirstDateField:
    """A field of a parsed date's first value, read as an attribute (``parsed.year``)."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> _FirstDateField: ...

    @overload
    def __get__(self, obj: ParsedDate, objtype: type | None = None) -> int | None: ...

    def __get__(self, obj: ParsedDate | None, objtype: type | None = None) -> int | None | _FirstDateField:
        if obj is None:
            return self
        value: int | None = getattr(obj.values[0], self.name)
        return value


@dataclass(frozen=True)
class ParsedDate:
    """A parsed date surface: one value (or two for a range) and its format template.

    Attributes:
        values: the date of each group (one, or two for a range like "3/1-3/5/2019"), with fields
            inherited inside a range (the first date takes the second one's year).
        template: the surface with fields replaced by tags, e.g. ``"{MM}/{DD}/{YYYY}"``.
        lang: language of month/weekday names when the surface has any, else None.
    """

    values: tuple[DateValue, ...]
    template: str
    lang: str | None = None
    _parts: tuple[Part, ...] = field(default=(), repr=False, compare=False)
    _shown: tuple[frozenset[str], ...] = field(default=(), repr=False, compare=False)

    year = _FirstDateField("Year of the (first) date.")
    month = _FirstDateField("Month of the (first) date.")
    day = _FirstDateField("Day of the (first) date.")
    weekday = _FirstDateField("Weekday (0 = Monday) of the (first) date, when written.")

    @property
    def fields(self) -> frozenset[str]:
        """Fields written in the surface (all groups together)."""
        out: set[str] = set()
        for shown in self._shown:
            out |= shown
        return frozenset(out)

    @property
    def is_range(self) -> bool:
        """True for two dates ("3/1-3/5/2019")."""
        return len(self.values) == 2

    def shift(self, days: int) -> str:
        """The surface moved by ``days`` (negative: earlier), in the same format."""
        new = tuple(shift_value(v, days) for v in self.values)
        return render(self._parts, new, self._shown)


def parse_date(surface: str, *, lang: str | None = None) -> ParsedDate | None:
    """Parse a date surface into its fields and format template.

    Args:
        surface: the date text, e.g. "03/12/2019", "12th of March", "2019年3月12日", "Spring 2019".
        lang: language hint ("en", "es", "ca", "en_GB", ...): European languages read "03/12/2019"
            as day/month; it also picks Spanish vs Catalan for words both share.

    Returns:
        The parsed date, or None when the surface is not a date this module understands.
    """
    tokens = lex(surface)
    if not tokens:
        return None
    hint = lang.lower() if lang else None
    if hint and hint.startswith("en_gb"):
        hint = "uk"
    single = resolve(tokens, hint)
    if single is not None:
        return _make((single,), (single.value.fields(),), hint)
    # A range: split at a separator where both sides are dates.
    for i, tok in enumerate(tokens):
        is_sep = (tok.kind == "sep" and tok.text.strip() in RANGE_SEPS) or (
            tok.kind == "word" and tok.text.casefold() in RANGE_WORDS
        )
        parsed = _parse_range(tokens[:i], tok, tokens[i + 1 :], hint) if is_sep else None
        if parsed is not None:
            return parsed
    return None


def _parse_range(left: list[Tok], sep: Tok, right: list[Tok], hint: str | None) -> ParsedDate | None:
    """Two dates around a range separator, each side taking the fields the other one shows."""
    left_month, right_month = has_month_word(left), has_month_word(right)
    lmode = "day_year" if not left_month and right_month else "normal"
    rmode = "day_year" if not right_month and left_month else "normal"
    g1 = resolve(left, hint, "day" if lmode == "day_year" else "normal", 0)
    if g1 is None and lmode == "day_year":
        g1 = resolve(left, hint, lmode, 0)
    g2 = resolve(right, hint, rmode, 1)
    if g1 is None or g2 is None:
        return None
    v1, v2 = g1.value, g2.value
    shown = (v1.fields(), v2.fields())
    if v2.month is None and v1.month is not None and v2.day is not None:
        v2 = replace(v2, month=v1.month)
    if v1.month is None and v2.month is not None and v1.day is not None:
        v1 = replace(v1, month=v2.month)
    if v1.year is None and v2.year is not None:
        back = v1.month is not None and v2.month is not None and v1.month > v2.month
        v1 = replace(v1, year=v2.year - 1 if back else v2.year)
    if v2.year is None and v1.year is not None:
        v2 = replace(v2, year=v1.year)
    v1 = replace(v1, day=clamp_day(v1.year, v1.month, v1.day))
    v2 = replace(v2, day=clamp_day(v2.year, v2.month, v2.day))
    if not (valid(v1.year, v1.month, v1.day) and valid(v2.year, v2.month, v2.day)):
        return None
    g1.value, g2.value = v1, v2
    merged = Group([*g1.parts, sep.text, *g2.parts], v1, g1.has_month_word)
    return _make((merged, g2), shown, hint)


def _make(groups: Sequence[Group], shown: tuple[frozenset[str], ...], hint: str | None) -> ParsedDate:
    parts = tuple(groups[0].parts)
    langs = [p.lang for p in parts if isinstance(p, Tag) and p.name.lower() not in _NUMERIC_TAGS]
    template = "".join(
        p.text() if isinstance(p, Tag) else p.replace("{", "{{").replace("}", "}}") for p in parts
    )
    return ParsedDate(
        values=tuple(g.value for g in groups),
        template=template,
        lang=langs[0] if langs else None,
        _parts=parts,
        _shown=shown,
    )


_NUMERIC_TAGS = frozenset({"yyyy", "yy", "m", "mm", "d", "dd", "do", "dº", "der"})


def shift_date(surface: str, days: int, *, lang: str | None = None) -> str:
    """Move a date surface by ``days`` (negative: earlier), keeping its format.

    Args:
        surface: the date text.
        days: the shift; multiples of 7 keep weekdays.
        lang: language hint, see :func:`parse_date`.

    Raises:
        ValueError: the surface is not a parseable date (the message holds no text of it).
    """
    parsed = parse_date(surface, lang=lang)
    if parsed is None:
        raise ValueError("unparseable date surface")
    return parsed.shift(days)
