"""The identifier value shared by the English ID rules (:mod:`.ids`) and the language packs (:mod:`.intl_ids`).

A value is an alphanumeric token with at least one digit (optionally with ``-`` and ``.``
separators), perhaps followed by up to two UPPER/digit chunks (``7ABC 123``). :func:`value_ok`
rejects values that are too short, decimals, fractions, calendar dates, ages and month codes;
:func:`item_ok` checks the later items of a value list (``W25-1906, S11-31816``).
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import followed_by_unit

_RX = pattern_data("id_values")


__all__ = [
    "CHUNK",
    "ITEM_RE",
    "MONTH_PART_RE",
    "MORE",
    "NOT_ID_RE",
    "VALUE",
    "VALUE_END",
    "checked_label",
    "first_item",
    "first_value",
    "item_ok",
    "value_ok",
]

# First chunk: letters/digits with inner separators, containing a digit. Optional further chunks
# separated by one space must be UPPER/digits with a digit ("7ABC 123", "1EG4 TE5 MK72").
CHUNK = r"(?=[A-Za-z0-9.\-]*\d)[A-Za-z0-9](?:[A-Za-z0-9]|[\-.](?=[A-Za-z0-9])){1,39}"
MORE = r"(?-i:(?:[ ](?=[A-Z0-9\-]*\d)[A-Z0-9]{3,}(?:-[A-Z0-9]+)*){0,2})"
VALUE = rf"{CHUNK}{MORE}"
VALUE_END = r"(?![\w]|[\-.][A-Za-z0-9])"
#: One value of a list, not glued to a word, hyphen or period before it.
ITEM_RE = re.compile(rf"(?<![\w\-.]){VALUE}{VALUE_END}")

MONTH_PART_RE = re.compile(r"(?i)jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec")


def _is_calendar_date(value: str) -> bool:
    m = _RX["NUMERIC_DATE_RE"].fullmatch(value)
    if m is None:
        return False
    a, b, c = (int(x) for x in m.groups())
    if len(m.group(1)) == 4:
        return 1 <= b <= 12 and 1 <= c <= 31
    return (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)


#: Values that are ages ("74-year-old"), decades ("70S-80S"), cycle/day codes ("C3D15") or counts.
NOT_ID_RE = re.compile(
    r"(?i)\d+-(?:years?|yrs?|months?|weeks?|days?)(?:-old)?|\d+s(?:-\d+s)?|c\d+d\d+|\d+x\d+"
)


def value_ok(value: str, min_alnum: int = 4, dates_ok: bool = False) -> bool:
    """Reject values that are too short, measurements, fractions, dates (unless ``dates_ok``) or ages."""
    if sum(ch.isalnum() for ch in value) < min_alnum:
        return False
    return not (
        _RX["DECIMAL_RE"].fullmatch(value)
        or _RX["FRACTION_RE"].fullmatch(value)
        or (not dates_ok and _is_calendar_date(value))
        or NOT_ID_RE.fullmatch(value)
        or any(p.isalpha() and MONTH_PART_RE.fullmatch(p) for p in re.split(r"[\-.]", value))
    )


def first_item(item_re: re.Pattern[str], m: re.Match[str]) -> re.Match[str] | None:
    """The first list item of the value group ``v`` of ``m``."""
    return item_re.match(m.string, m.start("v"), m.end("v"))


def first_value(item_re: re.Pattern[str], m: re.Match[str]) -> str:
    """The text of the first list item of the value group ``v`` (the whole group if none)."""
    first = first_item(item_re, m)
    return first.group() if first else m.group("v")


def checked_label(label: str | None, value: str) -> str | None:
    """``label`` when ``value`` passes :func:`value_ok` for it, else None.

    Unit and plate numbers may be short ("unit 86"), so VEHICLE passes as is; other identifiers
    have 4+ characters. A date-shaped value is an identifier after "MRN" but a date after
    "report" or "study" (IDNUM context words).
    """
    if label is None or label == "VEHICLE":
        return label
    return label if value_ok(value, dates_ok=label != "IDNUM") else None


def item_ok(im: re.Match[str]) -> bool:
    """The first value was checked with the match; later list items must look like identifiers."""
    if followed_by_unit(im.string, im.end()):
        return False
    if _RX["LATER_ITEM_RE"].search(im.string, max(0, im.start() - 12), im.start()) is None:
        return True
    return value_ok(im.group())
