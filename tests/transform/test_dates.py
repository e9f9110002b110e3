"""Format-preserving date parsing, shifting and formatting."""

from __future__ import annotations

import datetime as dt

import pytest

from phiscrub.transform.dates import DateValue, format_date, parse_date, shift_date

# (surface, days, expected): every format keeps its shape; 2019-03-12 minus 28 days is 2019-02-12.
SHIFT_TABLE = [
    ("03/12/2019", -28, "02/12/2019"),
    ("3/12/19", -28, "2/12/19"),
    ("12 Mar 2019", -28, "12 Feb 2019"),
    ("March 12th, 2019", -28, "February 12th, 2019"),
    ("March 12th", -28, "February 12th"),
    ("12th of March", -28, "12th of February"),
    ("the 12th of March, 2019", -28, "the 12th of February, 2019"),
    ("3-12", -28, "2-12"),
    ("7/23", -28, "6/25"),
    ("2019-03-12", -28, "2019-02-12"),
    ("12.03.2019", -28, "12.02.2019"),
    ("2019", -196, "2018"),
    ("2019", -28, "2019"),
    ("March 2019", -28, "February 2019"),
    ("Spring 2019", -196, "Fall 2018"),
    ("AUTUMN 2018", -196, "SPRING 2018"),
    ("'92", -196, "'91"),
    ("Tuesday", -28, "Tuesday"),
    ("Tuesday", -1, "Monday"),
    ("3/1-3/5/2019", -28, "2/1-2/5/2019"),
    ("March 1-5, 2019", -28, "February 1-5, 2019"),
    ("1-5 March 2019", -28, "1-5 February 2019"),
    ("March 30-April 2, 2019", -28, "March 2-March 5, 2019"),
    ("2019-03-01 to 2019-03-05", -28, "2019-02-01 to 2019-02-05"),
    ("MARCH 12, 2019", -28, "FEBRUARY 12, 2019"),
    ("Mar. 12, 2019", -28, "Feb. 12, 2019"),
    ("mar 12", -28, "feb 12"),
    ("Sept. 3, 2019", -28, "Aug. 6, 2019"),
    ("12-Mar-2019", -28, "12-Feb-2019"),
    ("12MAR2019", -28, "12FEB2019"),
    ("20190312", -28, "20190212"),
    ("03/2019", -28, "02/2019"),
    ("2019-03", -28, "2019-02"),
    ("03/12/2019 14:30", -28, "02/12/2019 14:30"),
    ("Tuesday, March 12, 2019", -28, "Tuesday, February 12, 2019"),
    ("12 de marzo de 2019", -28, "12 de febrero de 2019"),
    ("del 1 al 5 de marzo", -28, "del 1 al 5 de febrero"),
    ("12 de març de 2019", -196, "28 d'agost de 2018"),
    ("12 d'abril de 2019", -28, "15 de març de 2019"),
    ("2019年3月12日", -28, "2019年2月12日"),
    ("2019年3月", -28, "2019年2月"),
    ("3月12日", -28, "2月12日"),
    ("12/31/2019", 1, "1/1/2020"),
    ("12/03/2019", 30, "01/02/2020"),
    ("12/3/2019", 30, "1/2/2020"),
]


@pytest.mark.parametrize(("surface", "days", "expected"), SHIFT_TABLE)
def test_shift_date_keeps_the_original_format(surface: str, days: int, expected: str) -> None:
    assert shift_date(surface, days) == expected


@pytest.mark.parametrize(
    ("surface", "template"),
    [
        ("03/12/2019", "{MM}/{DD}/{YYYY}"),
        ("3/12/19", "{M}/{D}/{YY}"),
        ("March 12th, 2019", "{Month} {Do}, {YYYY}"),
        ("12 MAR 2019", "{D} {MON} {YYYY}"),
        ("'92", "'{YY}"),
        ("Spring 2019", "{Season} {YYYY}"),
        ("12 de marzo de 2019", "{D} de {month:es} de {YYYY}"),
        ("12 d'abril de 2019", "{D} {de:ca}{month:ca} de {YYYY}"),
        ("2019年3月12日", "{YYYY}年{M}月{D}日"),
        ("3/1-3/5/2019", "{M}/{D}-{M#2}/{D#2}/{YYYY#2}"),
        ("20190312", "{YYYY}{MM}{DD}"),
    ],
)
def test_parse_date_reports_the_format_template(surface: str, template: str) -> None:
    parsed = parse_date(surface)
    assert parsed is not None and parsed.template == template


@pytest.mark.parametrize(
    ("surface", "lang", "fields"),
    [
        ("03/12/2019", None, (2019, 3, 12)),
        ("03/12/2019", "es", (2019, 12, 3)),
        ("03/12/2019", "en_GB", (2019, 12, 3)),
        ("13/03/2019", None, (2019, 3, 13)),
        ("12.03.2019", None, (2019, 3, 12)),
        ("2019/3/12", None, (2019, 3, 12)),
        ("7/23", None, (None, 7, 23)),
        ("23/7", None, (None, 7, 23)),
        ("'92", None, (1992, None, None)),
        ("3/12/19", None, (2019, 3, 12)),
        ("March 92", None, (1992, 3, None)),
    ],
)
def test_parse_date_reads_fields_and_day_month_order(
    surface: str, lang: str | None, fields: tuple[int | None, int | None, int | None]
) -> None:
    parsed = parse_date(surface, lang=lang)
    assert parsed is not None
    assert (parsed.year, parsed.month, parsed.day) == fields


def test_parse_date_reads_weekday_and_range() -> None:
    tuesday = parse_date("Tuesday")
    assert tuesday is not None and tuesday.weekday == 1 and tuesday.fields == {"weekday"}
    span = parse_date("3/1-3/5/2019")
    assert span is not None and span.is_range
    assert span.values == (DateValue(2019, 3, 1), DateValue(2019, 3, 5))


@pytest.mark.parametrize(
    "surface", ["", "Christmas", "foo 12", "12 março 2019", "99/99/9999", "Q3 2019", "12th"]
)
def test_parse_date_returns_none_for_non_dates(surface: str) -> None:
    assert parse_date(surface) is None


def test_shift_date_raises_without_echoing_the_surface() -> None:
    with pytest.raises(ValueError) as info:
        shift_date("Xmasday 2019", -28)
    assert "Xmasday" not in str(info.value)


PAIRS = [
    ("03/01/2019", "03/11/2019"),
    ("February 25, 2020", "March 6, 2020"),
    ("2019-12-28", "2020-01-07"),
    ("1 de marzo de 2019", "11 de marzo de 2019"),
    ("2019年3月1日", "2019年3月11日"),
]


@pytest.mark.parametrize(("first", "second"), PAIRS)
@pytest.mark.parametrize("days", [-28, -91, -364])
def test_shift_keeps_intervals_between_dates(first: str, second: str, days: int) -> None:
    def as_date(surface: str) -> dt.date:
        parsed = parse_date(surface)
        assert parsed is not None and parsed.year and parsed.month and parsed.day
        return dt.date(parsed.year, parsed.month, parsed.day)

    before = as_date(second) - as_date(first)
    after = as_date(shift_date(second, days)) - as_date(shift_date(first, days))
    assert before == after == dt.timedelta(days=10)


@pytest.mark.parametrize("weeks", [4, 13, 52])
def test_shift_by_whole_weeks_keeps_weekdays(weeks: int) -> None:
    shifted = shift_date("Tuesday, March 12, 2019", -7 * weeks)
    assert shifted.startswith("Tuesday, ")
    parsed = parse_date(shifted)
    assert parsed is not None and parsed.year and parsed.month and parsed.day
    assert dt.date(parsed.year, parsed.month, parsed.day).weekday() == 1
    assert shift_date("Wed", -7 * weeks) == "Wed"


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{MM}/{DD}/{YYYY}", "03/05/2019"),
        ("{M}/{D}/{YY}", "3/5/19"),
        ("{Month} {Do}, {YYYY}", "March 5th, 2019"),
        ("{DD}-{MON}-{YYYY}", "05-MAR-2019"),
        ("{Weekday}, {Mon} {D}", "Tuesday, Mar 5"),
        ("{D} de {month:es} de {YYYY}", "5 de marzo de 2019"),
        ("{D} {de:ca}{month:ca} de {YYYY}", "5 de març de 2019"),
        ("{YYYY}年{M}月{D}日", "2019年3月5日"),
        ("{Season} {YYYY}", "Winter 2019"),
        ("'{YY}", "'19"),
        ("{{{D}}}", "{5}"),
    ],
)
def test_format_date_renders_templates(template: str, expected: str) -> None:
    assert format_date(dt.date(2019, 3, 5), template) == expected


@pytest.mark.parametrize("template", ["{Nope}", "{D", "D}"])
def test_format_date_rejects_bad_templates(template: str) -> None:
    with pytest.raises(ValueError):
        format_date(dt.date(2019, 3, 5), template)


@pytest.mark.parametrize(
    "template",
    [
        "{MM}/{DD}/{YYYY}",
        "{M}/{D}/{YY}",
        "{YYYY}-{MM}-{DD}",
        "{Month} {D}, {YYYY}",
        "{Mon} {Do}, {YYYY}",
        "{D} {MON} {YYYY}",
        "{D} de {month:es} de {YYYY}",
        "{YYYY}年{M}月{D}日",
    ],
)
def test_formatted_dates_parse_back_to_the_same_template(template: str) -> None:
    # Each date has a one-digit month or day, so zero padding is visible in the text.
    for day in (dt.date(2019, 3, 12), dt.date(2020, 11, 5), dt.date(2001, 1, 1)):
        parsed = parse_date(format_date(day, template))
        assert parsed is not None and parsed.template == template
        assert parsed.month == day.month and parsed.day == day.day


# -- issue 18, case 4: impossible days are read as the month's last day -------------------------


@pytest.mark.parametrize(
    ("surface", "year", "month", "day", "shifted"),
    [
        ("02/30/2019", 2019, 2, 28, "02/21/2019"),
        ("31/04/2019", 2019, 4, 30, "23/04/2019"),
        ("April 31, 2019", 2019, 4, 30, "April 23, 2019"),
        ("Feb 29 2019", 2019, 2, 28, "Feb 21 2019"),
        ("Feb 29 2020", 2020, 2, 29, "Feb 22 2020"),  # a real leap day is kept
    ],
)
def test_case4_invalid_day_is_read_as_the_last_day_of_its_month(
    surface: str, year: int, month: int, day: int, shifted: str
) -> None:
    parsed = parse_date(surface)
    assert parsed is not None
    assert (parsed.year, parsed.month, parsed.day) == (year, month, day)
    assert parsed.shift(-7) == shifted


@pytest.mark.parametrize("surface", ["13/45/2019", "02/32/2019", "00/12/2019"])
def test_days_and_months_out_of_any_range_are_still_no_date(surface: str) -> None:
    assert parse_date(surface) is None
