"""German day-month dates written without a cue word (second fresh German set).

German ward notes, letters and lab printouts write the dates of the current year as a bare day and month
with its closing period: ``Echokardiographie 31.1.: LVEF``, ``frühestens 12.03. nachmittags``, a lab
table header ``29.01.   31.01.   02.02.``, a nursing entry opening a line ``14.10. fd``, ``Stürze, zuletzt
08.10. (ambulant ...)``, ``INR-Einstellung: 3.7. 1,4 / 8.7. 1,8``, the end of a range ``(11.10.-18.10.)``
and a weekday before (``ab Mi., 29.05.``). The shared pack rule (:mod:`.intl`) takes such a day-month only
after a cue word. German writes decimals with a comma, so a dotted ``D.M.`` with its closing period is a
date by its shape; the rule here proposes it without a cue and drops it on evidence of another number:

* an invalid day or month (``31.4.``, ``12.13.``);
* a dash right before that does not close a range of day-months (``9,8-10.3.``);
* single digits opening a line before a capitalised word (``2.1. Anamnese``: a numbered heading);
* a section, page, version or count word right before (``Kap. 4.2.``, ``Abb. 3.1.``, ``Nr. 1.2.``);
* a lab name right before unless a colon follows (``Hb 11.2.``; ``Labor 10.9.:`` is a dated result);
* a unit or ``Uhr`` after it (``12.5. mg``, ``um 14.10. Uhr``; the shared unit test would also take a
  nursing shift, ``14.10. fd``).

:func:`german_date_rules` returns nothing for other languages; it is carried by the German place rules
(:func:`.intl_german.german_place_rules`), since the shared date rules have no German slot.
"""

from __future__ import annotations

import calendar as _stdcal
import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule

_RX = pattern_data("intl_german_dates")


__all__ = ["german_date_rules"]

#: Words after which a dotted number is a section, page, version or count, not a date.
_NOT_DATE_WORDS = frozenset(
    (
        "kap", "kapitel", "abschnitt", "abs", "punkt", "pkt", "nr", "no", "ziffer", "ziff", "s", "seite",
        "abb", "abbildung", "tab", "tabelle", "anlage", "version", "vers", "v", "icd", "ops", "gop", "ebm",
        "goä", "stufe", "grad", "zyklus", "tag", "woche", "ssw", "runde", "x",
    )
)  # fmt: skip
#: Lab and measurement names: a dotted number right after one is a value (unless a colon follows).
_LAB_WORDS = frozenset(
    w.lower()
    for w in (
        "Hb", "Hgb", "Hk", "Hkt", "Leuko", "Leukos", "Thrombo", "Thrombos", "Ery", "CRP", "PCT", "Na", "K",
        "Ca", "Mg", "Cl", "P", "Krea", "Kreatinin", "GFR", "eGFR", "Harnstoff", "INR", "Quick", "PTT", "aPTT",
        "Alb", "GOT", "GPT", "AST", "ALT", "AP", "GGT", "yGT", "LDH", "CK", "CK-MB", "TnT", "TnI", "BNP",
        "NT-proBNP", "BZ", "HbA1c", "pH", "pCO2", "pO2", "HCO3", "BE", "Laktat", "Temp", "T", "BMI", "TSH",
        "fT3", "fT4", "Ferritin", "Lipase", "Bili", "Bilirubin", "LDL", "HDL", "TG", "FEV1", "FVC", "EF",
        "LVEF", "SpO2", "SaO2", "AF", "HF", "RR", "Puls", "Gew", "Gewicht", "Vit", "Mio", "Tsd", "Kalium",
        "Natrium", "Calcium", "Kalzium", "Magnesium", "Phosphat", "Hämoglobin", "Albumin", "Glukose", "Glucose",
        "Leukozyten", "Thrombozyten", "Erythrozyten", "Hämatokrit", "Troponin", "Harnsäure", "Cholesterin",
        "Triglyceride", "Eisen", "Transferrin", "Procalcitonin", "Wert", "Werte", "Spiegel",
    )
)  # fmt: skip


def _valid(day: int, month: int) -> bool:
    # 2024 is a leap year: 29.2. is a date whatever the year.
    return 1 <= month <= 12 and 1 <= day <= _stdcal.monthrange(2024, month)[1]


def _day_month_ok(m: re.Match[str]) -> bool:
    day, month = int(m.group("d")), int(m.group("m"))
    if not _valid(day, month):
        return False
    text, start, end = m.string, m.start("d"), m.end()
    line = text[text.rfind("\n", 0, start) + 1 : start]
    before = line[-40:]
    if before.rstrip(" \t").endswith(("-", "–")) and not _RX["RANGE_START_BEFORE_RE"].search(before):
        return False  # a minus sign or the end of a range of numbers ("9,8-10.3.")
    heading = m.group("wd") is None and line.strip() == "" and day < 10 and month < 10
    if heading and _RX["CAPITAL_AFTER_RE"].match(text, end):
        return False  # "2.1. Anamnese": a numbered heading
    wm = _RX["WORD_BEFORE_RE"].search(before) if m.group("wd") is None else None
    word = wm.group("w").lower() if wm else ""
    if word in _NOT_DATE_WORDS:
        return False  # "Kap. 4.2.", "Abb. 3.1."
    if word in _LAB_WORDS and _RX["COLON_AFTER_RE"].match(text, end) is None:
        return False  # "Hb 11.2."
    return _RX["UNIT_AFTER_RE"].match(text, end) is None and _RX["UHR_AFTER_RE"].match(text, end) is None


def _month_year_ok(m: re.Match[str]) -> bool:
    """ "01/24" is a month and year unless a score, scale or dose word stands right before it ("08/15" is
    an idiom)."""
    if m.group(0) == "08/15":
        return False
    before = m.string[max(0, m.start() - 20) : m.start()]
    return _RX["SCORE_BEFORE_RE"].search(before) is None


def german_date_rules(lang: str) -> tuple[PatternRule, ...]:
    """The cue-free day-month DATE rule of German and the forms of the third set, a day of the current
    month (``3. d.M.``) and a month with a two-digit year (``01/24``), none for other languages."""
    if lang != "de":
        return ()
    return (
        PatternRule(
            "DATE",
            _RX["DM_RE"],
            validator=_day_month_ok,
            anchor=re.compile(r"\d\.\d{1,2}\."),
            reach=(30, 8),
            score=0.75,
            name="day_month_de",
        ),
        PatternRule("DATE", _RX["THIS_MONTH_RE"], score=0.75, name="this_month_de"),
        PatternRule("DATE", _RX["MONTH_YEAR_RE"], validator=_month_year_ok, score=0.7, name="month_year_de"),
    )
