"""Dates and ages.

Keyed (redaction): dates move back by the patient's (else the document's) offset and keep their
written format (:mod:`phiscrub.transform.dates`); unparseable dates get keyed digits of the same
shape; ages over 89 become "90+" (HIPAA Safe Harbor), younger ages are kept or moved a few years.
Seeded (filling): dates cluster around the note's invented admission date in many formats (a
birth date after "DOB", a bare year after "since", month/day in running text, month/two-digit year
in a history list); ages are the patient's, in months where the note says "months old".
"""

from __future__ import annotations

import datetime as dt
import re

from phiscrub.transform.dates import format_date, parse_date
from phiscrub.transform.surrogate.cues import (
    DOB_BEFORE,
    HISTORY_BEFORE,
    KIN,
    LIST_LINE,
    OPEN_ENDED_BEFORE,
    PROSE_DATE_BEFORE,
    TIME_AFTER,
    YEARISH_BEFORE,
)
from phiscrub.transform.surrogate.draw import NoteDraw
from phiscrub.transform.surrogate.identifiers import keyed_shape
from phiscrub.transform.surrogate.source import Source, Streams, shape_like, weighted
from phiscrub.transform.surrogate.wordlists import (
    DATE_FORMATS,
    EN_HISTORY_FORMATS,
    EN_MONTH_DAY,
    YEARISH_FORMATS,
)

__all__ = ["draw_age_value", "draw_date", "keyed_age", "keyed_date"]


# --- keyed ---------------------------------------------------------------------------------------


def keyed_date(streams: Streams, surface: str, offset: int, *, doc_id: str | None, lang: str | None) -> str:
    """The date moved back by ``offset`` days, in its original format.

    A year alone, a season or a weekday name may come out unchanged (the shift moves a mid-year
    reference day, and whole weeks keep weekdays). Dates that cannot be parsed get keyed digits
    of the same shape, never the original.
    """
    parsed = parse_date(surface, lang=lang)
    if parsed is not None:
        return parsed.shift(-offset)
    stream = streams("date-fallback", doc_id or "", surface)
    for _ in range(20):
        result = (
            _plausible_digits(surface, stream) if re.search(r"\d", surface) else shape_like(surface, stream)
        )
        if result != surface:
            return result
    return keyed_shape(streams, surface, "DATE")


def _plausible_digits(surface: str, stream: Source) -> str:
    """Digit runs redrawn so that years stay years and days/months stay small."""
    out: list[str] = []
    for m in re.finditer(r"\d+|\D", surface):
        run = m.group(0)
        if run.isdigit() and len(run) == 4 and 1900 <= int(run) <= 2099:
            out.append(str(1950 + stream.randrange(76)))
        elif run.isdigit() and len(run) == 2 and int(run) <= 31:
            out.append(str(10 + stream.randrange(19)))
        elif run.isdigit() and len(run) == 1:
            out.append(str(1 + stream.randrange(9)))
        elif run.isdigit():
            out.append(shape_like(run, stream))
        else:
            out.append(run)
    return "".join(out)


def keyed_age(streams: Streams, surface: str, *, over_89: str, perturb: int) -> str:
    """Ages over 89 -> "90+" (unless ``over_89="keep"``); others kept or moved by up to ``perturb``."""
    match = re.search(r"\d+", surface)
    if match is None:
        return surface
    value = int(match.group(0))
    if value > 89:
        if over_89 == "keep":
            return surface
        new = "90+"
    elif perturb > 0:
        stream = streams("age", str(value))
        deltas = [d for d in range(-perturb, perturb + 1) if d and 0 <= value + d <= 89]
        if not deltas:
            return surface
        new = str(value + deltas[stream.randrange(len(deltas))])
    else:
        return surface
    return surface[: match.start()] + new + surface[match.end() :]


# --- seeded --------------------------------------------------------------------------------------


def draw_date(ctx: NoteDraw, before: str, after: str) -> str:
    """A date near the note's admission date, in a format the context asks for."""
    rng = ctx.rng
    lang = ctx.lang
    timed = bool(TIME_AFTER.search(after))
    if DOB_BEFORE.search(before):
        # Born patient_age years (and some days) before the index date.
        years_back = ctx.state.patient_age * 365 + rng.randint(1, 364)
        day = ctx.state.base - dt.timedelta(days=years_back)
        formats = [f for f in DATE_FORMATS[lang] if "Y" in f[0]]
        return format_date(day, weighted(rng, formats))
    # English running text writes "since 4/7", "from 3/14" as often as "since 2004".
    open_ended = lang == "en" and OPEN_ENDED_BEFORE.search(before) is not None
    yearish_p = 0.45 if open_ended else 0.75
    if not timed and YEARISH_BEFORE.search(before) and rng.random() < yearish_p:
        day = ctx.state.base - dt.timedelta(days=rng.randint(60, 365 * 30))
        return format_date(day, weighted(rng, YEARISH_FORMATS[lang]))
    if lang == "en" and not timed:
        prose = _en_running_text(ctx, before[before.rfind("\n") + 1 :])
        if prose is not None:
            return prose
    delta = int(rng.triangular(-400, 120, -5)) if rng.random() < 0.9 else rng.randint(-3000, 400)
    day = ctx.state.base + dt.timedelta(days=delta)
    if rng.random() < 0.5:
        return format_date(day, ctx.state.house_format)
    formats = DATE_FORMATS[lang]
    if timed:
        formats = [f for f in formats if "Weekday" not in f[0]]
    return format_date(day, weighted(rng, formats))


def _en_running_text(ctx: NoteDraw, line: str) -> str | None:
    """A history-list or running-text date ("CABG 2004", "BCx 3/14") when the line asks for one."""
    rng = ctx.rng
    if HISTORY_BEFORE.search(line) or (LIST_LINE.match(line) and re.search(r"[A-Za-z]\s*$", line)):
        # Past history: "CABG 2004", "CVA 3/98", "breast ca dx 11/2019".
        if rng.random() < 0.6:
            day = ctx.state.base - dt.timedelta(days=rng.randint(180, 365 * 30))
            return format_date(day, weighted(rng, EN_HISTORY_FORMATS))
    elif PROSE_DATE_BEFORE.search(line) and rng.random() < 0.45:
        # Running text drops the year: "BCx 3/14 NGTD", "since 4/7", "seen jan 3", "on Mar 14th".
        day = ctx.state.base + dt.timedelta(days=int(rng.triangular(-120, 30, -3)))
        return format_date(day, weighted(rng, EN_MONTH_DAY))
    return None


def draw_age_value(ctx: NoteDraw, before: str, after: str) -> str:
    """An age: the patient's, a relative's, or months, weeks or days where the unit says so."""
    rng = ctx.rng
    unit = after.lstrip(" -").lower()
    if re.match(r"(?:months?|mos?\b|mo\b|m/o|meses|mesos|个月|月龄)", unit):
        return str(rng.randint(1, 23))
    if re.match(r"(?:weeks?|wks?\b|semanas|setmanes|周)", unit):
        return str(rng.randint(1, 40))
    if re.match(r"(?:days?|d\b|días|dies|天)", unit):
        return str(rng.randint(1, 28))
    # The patient's age unless a relative is named just before.
    if not KIN.search(before[-40:]) and rng.random() < 0.85:
        return str(ctx.state.patient_age)
    return str(ctx.draw_age())
