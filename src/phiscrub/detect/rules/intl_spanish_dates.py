"""Spanish and Catalan dates written without a cue word (``es``, ``ca``): Spanish hospital notes.

Ward, nursing and discharge notes of Spanish hospitals write the dates of the current admission as bare
day and month (``Control 07/03: Leuc 9.800``, ``INR 14/03 de 2,6``, ``turno noche 08/03``, ``(última
dosis 21/03)``), name a day by its weekday or as "the day N" (``control INR el lunes 18``, ``retirada de
grapas el día 20 o 21``), list days before a day-month (``metilprednisolona (5, 6 y 7/2)``) and write past
events as month and two-digit year (``colecistitis aguda (nov-23)``). The shared pack rule (:mod:`.intl`)
takes a numeric day-month only after a cue word (``el 3/12``, ``(3/12)``). As :mod:`.intl_nordic_dates`
does for the Nordic notes, the rules here *propose* these forms and *drop* a proposal on evidence that the
number is something else; the same evidence vetoes the shared rule's slash day-months
(:func:`spanish_day_month_veto`: ``día 7/7 de antibiótico`` and ``bolos (3/3)`` are counts).

Proposed (:func:`_slash_ok`): ``D/M`` and ``DD/MM`` (day 1-31, month 1-12, the day valid for the month),
with a weekday before joining the span (``lunes 18/3``). Dotted forms are left to the shared rule: Spanish
writes thousands with a dot (``Leuc 9.800``, ``1.500 ml``).

Other numbers (:func:`_other_number`; each drops a proposal and vetoes the shared rule):

* a dash or a slash right before (``5-9/10``, ``c/8h`` never matches);
* a scale or score name among the three words before (``EVA 7/10``, ``fuerza 4/5``, ``GCS 14/15``,
  ``Barthel 45/100``, ``hemocultivos 2/2``, :data:`_SCALE_WORDS`) unless ``:`` follows;
* a pair of values named with a slash before (``GOT/GPT 34/41``, ``C3/C4``);
* a fraction that is no date, or a weak one (below), shortly before on the line: a list of scores
  (``índice de actividad 11/24, cronicidad 2/12``, ``L2 3/3, L3 3/2``, ``EVA 7/10, al alta 3/10``);
* a count word right before and a day no greater than the month, a "k of n" (``día 7/7``, ``día 5/7 de
  ceftriaxona``, ``dosis 2/3``; ``el día 7/7`` and ``1ª dosis 14/02`` are dates, :data:`_COUNT_WORDS`), or
  such a "k of n" before ``de``/``del`` (``hasta 2/3 del espesor``: a part of a whole);
* a unit or count noun after (``1/2 comp``, ``2/2 frascos``, ``2/3 partes``, :data:`_COUNT_AFTER`).

Forms that need date evidence (:func:`_weak`): a day no greater than the month, which reads as "k of n"
(``3/3`` bolus counts, ``2/4`` grades, ``4/7`` days of a week, ``1/2``, ``N/10`` scales), and ``24/7``.
Evidence (:func:`_evidence`): a cue word right before (``el``, ``desde``, ``hasta``, ``fecha``), a weekday,
``:`` or a clock time after, both parts written with two digits and one with a leading zero (``03/03``),
the number opening its line, or a date, visit, procedure or treatment word right before
(:data:`_EVENT_WORDS`: ``control``, ``analítica``, ``TC``, ``dosis``, ``ingresó``).

Also:

* a weekday and a day number (``el lunes 18``, ``jueves día 12``; not before a clock time, a unit or
  ``de <month>``, which the shared rule reads);
* ``el día N`` (``retirada de grapas el día 20 o 21``): the day after an article, at the end of the clause
  or before ``o``/``y`` and another day, with a plan or event word before it in its clause, a clock time
  after it or a second day; ``día 3`` alone, ``el día 3 de ingreso`` and ``completa el día 9`` are counts;
* the days listed before a day-month (``(5, 6 y 7/2)``, ``los días 5 y 6 de marzo``), rising to it;
* a month name or abbreviation and a two-digit year (``nov-23``, ``dic/22``, ``marzo-23``);
* a year closing a parenthesis after a comma, the bracket or a diagnosis word (``(dx en México, 2017)``,
  ``colecistectomía (2015)``, ``(IQ 2015)``);
* a month in Roman numerals (``5/III/2024``) and a day-month with a dash after a cue (``el 21-10``, ``Data:
  12-3``; a day no greater than its month only after ``fecha``/``data``);
* joined to the same rule (:data:`_MORE_DAYS`): a day and a month abbreviation with a cue, opening its line or
  list entry or before a colon (``- 12 feb: retiro``), an abbreviation alone after ``en``/``desde``/``hasta``
  closing its clause (``(84,9 en nov)``), a bare day after ``desde el``/``hasta el`` (``en planta desde el
  25.``), ``día N`` as a field's value (``Ingreso: día 3``), rising days before a slash month in brackets or
  after a cue (``(15-16/6)``) and the formal ``a los veintidós días del mes de julio``.

A list bullet (``- 08/02: ...``) is no minus sign before a slash date.
"""

from __future__ import annotations

import itertools
import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import followed_by_unit, nfd_words
from phiscrub.detect.rules.base import PatternRule
from phiscrub.detect.rules.intl_common import (
    line_before,
    month_pattern,
    valid_day_month,
    weekday_pattern,
    word_set,
)

_RX = pattern_data("intl_spanish_dates")


__all__ = ["SPANISH_LANGUAGES", "spanish_date_rules", "spanish_day_month_veto"]

#: The pack languages these rules serve.
SPANISH_LANGUAGES: tuple[str, ...] = ("es", "ca")

# ------------------------------------------------------------------------------------------------
# Word lists (one Spanish/Catalan union).

#: Scale and score names: a slash number among the three words after one is a score or a count.
_SCALE_WORDS = (
    "EVA", "EVN", "ENV", "END", "NRS", "GCS", "Glasgow", "fuerza", "força", "balance", "BM", "Barthel",
    "Braden", "Norton", "Downton", "Pfeiffer", "MMSE", "MEC", "Lobo", "MoCA", "Lawton", "Apgar", "NIHSS",
    "Rankin", "ECOG", "Karnofsky", "Tinetti", "Charlson", "CURB", "CURB-65", "CRB-65", "CHA2DS2-VASc",
    "HAS-BLED", "Wells", "SOFA", "qSOFA", "APACHE", "Child", "Child-Pugh", "MELD", "Gleason", "Killip",
    "NYHA", "RASS", "EMINA", "Zarit", "Gijón", "FRAIL", "índice", "index", "índex", "score", "escala",
    "puntuación", "puntuació", "test", "ratio", "cociente", "actividad", "cronicidad", "dolor", "hemocultivos",
    "hemocultius", "urocultivos", "cultivos", "cultius", "criterios", "criteris", "puntos", "punts", "reflejos",
    "ROT", "pulsos", "soplo", "grado", "grau", "estadio", "BI-RADS", "Lung-RADS", "PI-RADS", "TI-RADS", "ANA",
    "título", "dilución", "tanner",
)  # fmt: skip

#: Count words: a "k/n" right after one is a count when k is no greater than n ("día 7/7", "ciclo 2/6").
_COUNT_WORDS = (
    "día", "dia", "ciclo", "ciclos", "cicle", "sesión", "sesiones", "sessió", "dosis", "dosi", "bolo", "bolos",
    "fracción", "fracciones", "fracció", "semana", "sem", "setmana", "tanda", "x", "nº", "n.º", "núm",
    "número", "punto", "apartado", "toma", "tomas", "pauta", "comprimido", "intento", "paso",
)  # fmt: skip

#: Units and count nouns after a number (besides the shared units of ``_common``).
_COUNT_AFTER = (
    "comp", "comprimido", "comprimidos", "comprimit", "comprimits", "cp", "cps", "cápsula", "cápsulas",
    "càpsula", "sobre", "sobres", "ampolla", "ampollas", "vial", "viales", "frasco", "frascos", "toma", "tomas",
    "dosis", "punto", "puntos", "punts", "parte", "partes", "part", "parts", "bandeja", "veces", "vegades",
    "días", "dies", "semanas", "setmanes", "meses", "mesos", "años", "anys", "horas", "hores", "positivos",
    "positivas", "negativos", "negativas", "positius", "negatius", "pos", "neg", "ciclos", "sesiones",
    "bolos", "gotas", "puff", "puffs", "inh", "inhalaciones", "UI",
)  # fmt: skip

#: Date, visit and procedure words after which a weak slash form is a date.
_EVENT_WORDS = (
    "el", "del", "al", "desde", "hasta", "des", "fins", "fecha", "data", "a partir del", "control",
    "analítica", "analitica", "analítica de control", "AS", "ingreso", "ingresa", "ingresó", "ingresado",
    "ingresada", "ingrés", "alta", "IQ", "cirugía", "intervención", "intervenido", "intervenida", "operado",
    "operada", "TC", "TAC", "RM", "RMN", "Rx", "ECO", "ecografía", "ETT", "ECG", "biopsia", "cita", "citado",
    "citada", "revisión", "revisió", "consulta", "visita", "visto", "vista", "valorado", "valorada", "dosis",
    "última", "último", "primera", "1ª", "2ª", "inicio", "inicia", "inició", "iniciado", "iniciada", "fin",
    "finaliza", "suspende", "suspendió", "suspendido", "retira", "retiró", "retirado", "retirada",
    "realizado", "realizada", "programado", "programada", "previsto", "prevista", "turno", "nota",
    "evolución", "llamada", "contacto", "urgencias", "URG", "hoy", "ayer", "mañana", "INR", "cultivo",
    "hemocultivo", "extracción", "vacuna", "vacunado", "vacunada", "caída", "traslado", "trasladado",
    "trasladada", "éxitus", "parto", "FUR", "FPP",
)  # fmt: skip

# ------------------------------------------------------------------------------------------------
# Patterns


_SCALES = word_set(_SCALE_WORDS)
_COUNTS = word_set(_COUNT_WORDS)
_SCALE_ENDINGS = ("score", "escala", "índice")
_COUNT_AFTER_RE = re.compile(rf"[ \t]*{nfd_words(_COUNT_AFTER)}(?![\w])")
_EVENT_BEFORE_RE = re.compile(rf"(?<![\w.]){nfd_words(_EVENT_WORDS)}\.?[ \t]*[:(]?[ \t]*\Z")


def _word_before(before: str) -> str:
    wm = _RX["WORD_BEFORE_RE"].search(before)
    return wm.group("w").lower().rstrip(".") if wm else ""


def _scale_before(before: str) -> bool:
    """A scale or score name among the three words before (same clause)."""
    clause = re.split(r"[.;:][ \t]+|;|,[ \t]+(?=[A-ZÁÉÍÓÚ])", before)[-1]
    words = [w.strip("():,=").lower().rstrip(".") for w in clause.split()][-3:]
    return any(w in _SCALES or w.endswith(_SCALE_ENDINGS) for w in words)


def _other_number(text: str, start: int, end: int, day: int, month: int) -> bool:
    """Positive evidence that the slash number at ``text[start:end]`` is a count, score, ratio or dose."""
    before = line_before(text, start)
    if (
        _RX["SIGN_BEFORE_RE"].search(before)
        and not _RX["RANGE_START_BEFORE_RE"].search(before)
        and not _RX["BULLET_BEFORE_RE"].search(before)
    ):
        return True  # "5-9/10", "x 2/2"; "12/3-15/3" is a range of dates, "- 08/02: ..." a list entry
    cued = _RX["STRONG_CUE_RE"].search(before) is not None
    colon_after = _RX["COLON_AFTER_RE"].match(text, end) is not None
    if _scale_before(before) and not (colon_after or cued):
        return True  # "EVA 7/10", "fuerza 4/5", "hemocultivos 2/2"; "TC 12/3: ..." is a dated result
    word = _word_before(before)
    if "/" in word.rstrip("/") and not _RX["UNIT_WORD_RE"].fullmatch(word):
        return True  # "GOT/GPT 34/41": a pair of values ("mg/dl (20/02)": a unit, then a date)
    prev = _RX["NON_DATE_FRACTION_RE"].search(before)
    if prev and not cued:
        a, b = int(prev.group("a")), int(prev.group("b"))
        if not valid_day_month(a, b) or _weak(a, b):
            return True  # "actividad 11/24, cronicidad 2/12", "EVA 7/10, al alta 3/10": a list of scores
    if word in _COUNTS and day <= month and not _RX["ARTICLE_DAY_RE"].search(before):
        return True  # "día 7/7", "día 5/7 de ceftriaxona": k of n
    if day <= month and _RX["PART_OF_RE"].match(text, end):
        return True  # "hasta 2/3 del espesor": a part of a whole
    return followed_by_unit(text, end) or _COUNT_AFTER_RE.match(text, end) is not None


def _weak(day: int, month: int) -> bool:
    """A slash form that is as often a count, fraction, grade or score as a date: it needs date evidence.

    A day no greater than the month reads as "k of n" (``3/3``, ``2/4``, ``4/7``, ``1/2``, ``7/10``), as does
    ``24/7``.
    """
    return day <= month or (day, month) == (24, 7)


def _evidence(text: str, start: int, end: int, d: str, m: str, weekday: bool) -> bool:
    """Date evidence: a weekday, a zero-padded form, ``:`` or a clock time after, a cue or event word before,
    or the number opening its line (a dated entry: ``4/7 Evolución``)."""
    before = line_before(text, start)
    zero = len(d) == 2 and len(m) == 2 and (d.startswith("0") or m.startswith("0"))
    return bool(
        weekday
        or zero
        or not before.strip()
        or _RX["COLON_AFTER_RE"].match(text, end)
        or _RX["CLOCK_AFTER_RE"].match(text, end)
        or _RX["STRONG_CUE_RE"].search(before)
        or _EVENT_BEFORE_RE.search(before)
    )


def spanish_day_month_veto(m: re.Match[str]) -> bool:
    """True when a slash day-month the shared pack rule took after a cue is a count, score or dose.

    ``m`` has the groups ``d``, ``s`` (the separator) and ``m``; dotted forms are never vetoed.
    """
    if m.group("s") != "/":
        return False
    day, month = int(m.group("d")), int(m.group("m"))
    text, start, end = m.string, m.start("d"), m.end("m")
    if _other_number(text, start, end, day, month):
        return True
    return _weak(day, month) and not _evidence(text, start, end, m.group("d"), m.group("m"), False)


def _slash_re(lang: str) -> re.Pattern[str]:
    wd = weekday_pattern(lang)
    return re.compile(
        rf"(?P<v>(?:(?P<wd>{wd}),?[ \t]+(?:(?:d[ií]a)[ \t]+)?)?(?P<d>\d{{1,2}})/(?P<m>\d{{1,2}}))(?![\w/]|[.,]\d)"
    )


def _slash_ok(m: re.Match[str]) -> bool:
    d, mo = m.group("d"), m.group("m")
    day, month = int(d), int(mo)
    if not valid_day_month(day, month):
        return False
    text, start, end = m.string, m.start("d"), m.end("m")
    if _other_number(text, start, end, day, month):
        return False
    return not _weak(day, month) or _evidence(text, start, end, d, mo, m.group("wd") is not None)


def _weekday_day_re(lang: str) -> re.Pattern[str]:
    wd = weekday_pattern(lang)
    month = month_pattern(lang, abbrs=True)
    return re.compile(
        rf"(?<![\w])(?P<v>(?:{wd})[ \t]+(?:(?:d[ií]a)[ \t]+)?(?P<d>\d{{1,2}}))"
        rf"(?![\w/:.,]\d|[\w/]|[ \t]*(?:h\b|hrs?\b|horas|hores|:\d)|[ \t]+(?:de|d['’]|del)[ \t]*(?:{month}))"
    )


def _day_ok(m: re.Match[str]) -> bool:
    text, end = m.string, m.end("d")
    return (
        1 <= int(m.group("d")) <= 31
        and not followed_by_unit(text, end)
        and not _COUNT_AFTER_RE.match(text, end)
    )


def _article_day_ok(m: re.Match[str]) -> bool:
    """A day of the month: before another day (``el día 20 o 21``), a clock time, or after a plan or event
    word of its clause (``retirada ... el día 20``); ``el día 9`` of a treatment or a poisoning is a count."""
    day = int(m.group("d"))
    if not 1 <= day <= 31:
        return False
    second = m.group("v2")
    if second is not None:
        return day < int(second) <= 31
    text, start = m.string, m.start()
    # A clock time after, or a colon opening what happened that day ("el día 8: fiebre").
    timed = re.match(r"[ \t]*(?:a[ \t]+las|por[ \t]+la\b|:(?!\d))", text[m.end() :]) is not None
    return timed or _RX["PLAN_BEFORE_RE"].search(text, max(0, start - 60), start) is not None


def _day_list_re(lang: str) -> re.Pattern[str]:
    """Days listed before a day-month: ``(5, 6 y 7/2)``, ``los días 5 y 6 de marzo``, ``del 5 al 7/2``."""
    month = month_pattern(lang, abbrs=False)
    day = r"(?:0?[1-9]|[12]\d|3[01])"
    return re.compile(
        rf"(?<![\w/.,\-])(?P<a1>{day})(?:,[ ](?P<a2>{day}))?(?:,[ ](?P<a3>{day}))?[ ](?:y|e|i|al|a)[ ](?:el[ ])?"
        rf"(?P<last>{day})(?=/(?P<m>\d{{1,2}})(?![\w/]|[.,]\d)|[ ](?:de[ ]|d['’])(?:{month}))"
    )


def _day_list_ok(m: re.Match[str]) -> bool:
    days = [int(m.group(g)) for g in ("a1", "a2", "a3") if m.group(g) is not None] + [int(m.group("last"))]
    if any(a >= b for a, b in itertools.pairwise(days)):
        return False  # a list of days rises to the dated one
    if m.group("m") is None:
        return True
    month = int(m.group("m"))
    text, start = m.string, m.start("last")
    end = m.end("last") + 1 + len(m.group("m"))
    return valid_day_month(days[-1], month) and not _other_number(text, start, end, days[-1], month)


def _short_year_re(lang: str) -> re.Pattern[str]:
    """A month name or abbreviation and a two-digit year (group ``my``: ``nov-23``, ``dic/22``,
    ``marzo-23``), a year closing a parenthesis (group ``y``) after a comma, the bracket or a diagnosis
    or surgery word (``(dx en México, 2017)``, ``colecistectomía (2015)``, ``(IQ 2015)``), a month in Roman
    numerals (group ``rv``: ``5/III/2024``) or a day-month with a dash after a cue (group ``dv``)."""
    return re.compile(
        rf"(?<![\w\-/])(?P<my>(?:{month_pattern(lang, abbrs=True)})\.?[\-/'’]\d{{2}})(?![\w/]|[.,]\d)"
        r"|(?:,[ ]|\([ ]?|(?<![\w])(?:dx|Dx|DX|IQ|diagnosticad[oa]|intervenid[oa]|operad[oa]|diagnóstico|diagnòstic)"
        r"\.?:?[ ])(?P<y>(?:19[2-9]\d|20[0-3]\d))(?=[ ]?\))"
        rf"|{_RX.text('ROMAN_MONTH')}|{_RX.text('DASH_DAY_MONTH')}"
        + "".join(f"|{_RX.text(name)}" for name in _MORE_DAYS)
        + rf"|{_RX.text('LEGAL_DAYS')}(?=[ \t]+(?:{month_pattern(lang, abbrs=False)}))"
    )


def _dash_day_month_ok(m: re.Match[str]) -> bool:
    """A valid day-month that is no count or dose; a day no greater than its month only after ``fecha``."""
    day, month = int(m.group("dd")), int(m.group("dm"))
    text, end = m.string, m.end("dm")
    if not valid_day_month(day, month) or followed_by_unit(text, end) or _COUNT_AFTER_RE.match(text, end):
        return False
    return m.group("df") is not None or not _weak(day, month)


def _short_year_ok(m: re.Match[str]) -> bool:
    if m.group("dv") is not None:
        return _dash_day_month_ok(m)
    if any(m.group(g) is not None for g in _MORE_GROUPS):
        return _more_day_ok(m)
    if m.group("y") is None:
        return True
    line = line_before(m.string, m.start("y"), 80)
    return line.rfind("(") > line.rfind(")")  # inside an open parenthesis


def _day_abbr_ok(m: re.Match[str]) -> bool:
    """A day of a month abbreviation with a cue before, opening its line or entry, or before a colon."""
    text, start, end = m.string, m.start("av"), m.end("av")
    if not 1 <= int(m.group("ad")) <= 31 or followed_by_unit(text, end):
        return False
    before = line_before(text, start)
    return bool(
        not before.strip()
        or _RX["BULLET_BEFORE_RE"].search(before)
        or _RX["STRONG_CUE_RE"].search(before)
        or _RX["COLON_AFTER_RE"].match(text, end)
    )


def _day_range_ok(m: re.Match[str]) -> bool:
    """``(15-16/6)``: rising days of a valid day-month, in brackets or after a cue, no score or count."""
    a, b, month = int(m.group("ga")), int(m.group("gb")), int(m.group("gm"))
    if not (1 <= a < b and valid_day_month(b, month)):
        return False
    text, start, end = m.string, m.start("gv"), m.end("gv")
    before = line_before(text, start)
    if _other_number(text, start, end, b, month):
        return False
    bracketed = before.endswith("(") and text[end : end + 1] == ")"
    return bracketed or _RX["STRONG_CUE_RE"].search(before) is not None


def _more_day_ok(m: re.Match[str]) -> bool:
    """The forms joined to the short-year rule after :data:`_MORE_DAYS` (see the module doc)."""
    if m.group("av") is not None:
        return _day_abbr_ok(m)
    if m.group("gv") is not None:
        return _day_range_ok(m)
    if m.group("sv") is not None:
        return 1 <= int(m.group("sv")) <= 31
    if m.group("fv") is not None:
        return 1 <= int(m.group("fd")) <= 31
    return True  # "en nov)", "a los veintidós días del mes de"


#: Day forms joined to the short-year rule: a day and a month abbreviation (``12 feb:``), an abbreviation
#: alone (``en nov)``), a bare day after ``desde el`` (``desde el 25.``), ``día N`` as a field's value
#: (``Ingreso: día 3``), a range of days before a month (``(15-16/6)``) and the formal ``a los veintidós
#: días del mes de julio``.
_MORE_DAYS = ("DAY_ABBR_MONTH", "BARE_ABBR_MONTH", "SINCE_DAY", "FIELD_DAY", "DAY_RANGE_SLASH")
_MORE_GROUPS = ("av", "bv", "sv", "fv", "gv", "lv")


def spanish_date_rules(lang: str) -> tuple[PatternRule, ...]:
    """The cue-free DATE rules of Spanish and Catalan (none for other languages; see the module doc)."""
    if lang not in SPANISH_LANGUAGES:
        return ()
    return (
        PatternRule("DATE", _slash_re(lang),           group="v",                     validator=_slash_ok,        not_after=r"[\w/.,\-+]", anchor=re.compile(r"\d/\d"), reach=(30, 8), score=0.75, name=f"day_month_es_{lang}"),
        PatternRule("DATE", _weekday_day_re(lang),     group="v",                     validator=_day_ok,                                   score=0.75, name=f"weekday_day_es_{lang}"),
        PatternRule("DATE", _RX["ARTICLE_DAY_NUM_RE"], group=("v", "v2"),             validator=_article_day_ok,                           score=0.7,  name=f"article_day_es_{lang}"),
        PatternRule("DATE", _day_list_re(lang),        group=("a1", "a2", "a3"),      validator=_day_list_ok,                              score=0.7,  name=f"day_list_es_{lang}"),
        PatternRule("DATE", _short_year_re(lang),      group=("my", "y", "rv", "dv", *_MORE_GROUPS), validator=_short_year_ok,                      score=0.75, name=f"short_year_es_{lang}"),
    )  # fmt: skip
