"""Nordic day-month dates written without a cue word (``nb``, ``nn``, ``da``, ``sv``).

Norwegian, Danish and Swedish notes write most dates of the current year as bare day and month:
``Innkomst 02.04. kl 16.10``, ``Ekko 15.3: EF 35 %``, ``gjenopptatt 20.03.``, ``Telefonnotat 27/2``,
``Fra søndag 10.3``, Danish ``d. 12/3``, Swedish ``12/3``, and years as ``okt -23`` or ``(utslett -98)``.
The shared pack rule (:mod:`.intl`) only takes a numeric day-month after a cue word of the pack, which
misses most of them. The rules here *propose* these forms without a cue and *drop* a proposal on positive
evidence that the number is something else (a clock time, a score, a fraction, a lab value, a dose).

Proposed (:func:`_dm_re`, day 1-31, month 1-12, the day valid for the month):

* ``D/M`` and ``DD/M(M)`` slash forms: always (``27/2``, ``t.o.m. 22/3``, ``MR columna 12/1:``);
* ``DD.MM.``, ``D.M.`` with a closing period: always (``Innlagt 11.03.``, ``SIDEN 20.2.``, ``(44 4.12.)``);
* ``DD.0M``, a two-digit day and a month with its leading zero: always (``avtalt 28.03 kl 13``); decimals
  are not written ``20.03``;
* every other dotted form (``15.3``, ``10.12``, ``3.04``): in a note that writes no decimal with a period
  and its decimals with a comma or its dates with periods (``39,1``; ``9.2.24``), always; else only with
  date evidence: ``:`` after
  (``Ekko 15.3:``), ``kl`` after (``10.3 kl 14``), a weekday before (``søndag 10.3``) or a date, procedure
  or event word right before (``operert 3.4``, :data:`_EVENT_WORDS`).

A weekday right before joins the span (``søndag 10.3``, ``söndag den 10/3``, also with a year:
``søndag 10.03.2024``). The closing period belongs to the date unless it also ends the sentence (end of
line or text, or a capitalised word follows): ``Innlagt 11.03., ...`` keeps it, ``... SIDEN 20.2.\\n``
does not.

Dropped (:func:`_day_month_ok`, :func:`_other_number`), in this order:

* an invalid day or month (``24/26``, ``130/80``, ``14/15``, ``24/30``, ``31.04``);
* a dash right before, unless it closes a range of day-months (``12/3-15/3``);
* a dotted number after a clock cue (``kl 22.30``, ``KL 21.05``, ``klokken 14.10``), after a date or a day
  word (``14.03.2024 14.10``, ``i dag 13.05``: then it is the time), or at either end of a time range
  (``14.10-15.30``: a dash joins it to a dotted number that is no day-month);
* a count, symptom or section word right before (``dag 8/10``, ``kur 3/6``, ``x 1/2``, ``Kvalme 2/10``,
  ``Punkt 3.2:``, :data:`_COUNT_WORDS`; ``i dag 12/3`` is today and a date);
* a scale or score name, or a compound ending in ``score``/``skår``/``skala``, among the three words
  before (``VAS ca 6/10``, ``Kraft UE 4/5``, ``Borg dyspné 5/10``, ``GCS 14/15``, ``MMSE 24/30``,
  :data:`_SCALE_WORDS`), unless ``:`` follows (``Blodkultur 12/3: E. coli`` is a dated result);
* a unit or count noun after it (``1/2 tablett``, ``24/26 mg``, ``2/2 flasker``, :data:`_COUNT_AFTER`), or
  ``av``/``af`` after a slash form that can be a part of a whole (``2/3 av``; ``12/3 av fastlege`` stays);
* a lab name right before a dotted number (``Hb 11.2.``, ``INR 1.05``, :data:`_LAB_WORDS`), unless ``:``
  follows (``Hb 12.03: 11,2`` is a dated result), and a dotted number after a trend arrow (``-> 12.1.``);
* without date evidence, a small fraction (``1/2``, ``1/3``, ``2/3``, ``1/4``, ``3/4``), ``24/7`` and
  ``N/10`` (a 0-10 scale: ``Fallrisiko 5/10``; ``Kontroll 5/10`` is a date);
* a numbered heading: ``D.M`` of single digits opening a line before a capitalised word (``2.1. Anamnese``).

Two-digit years (:func:`_month_yy_re`, :data:`_PAREN_YY_RE`): a month name or abbreviation and ``-YY``
(``fra okt -23``, ``mai-19``), a lower-case month and ``YY`` after a space unless a unit, a count or a
dash follows (``des 23``, ``jan 24``; not ``mai 10 dager``), and ``-YY`` after a word in an open parenthesis (``(utslett -98)``), unless
that word is a measurement (``(BE -12)``, ``(vekt -10)``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from phiscrub.calendar import MONTH_ABBRS, MONTH_NAMES, WEEKDAY_ABBRS
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import followed_by_unit, nfd_words
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_common import (
    case_forms,
    line_before,
    month_pattern,
    valid_day_month,
    weekday_pattern,
    word_set,
)

__all__ = ["nordic_day_month_rules"]

# ------------------------------------------------------------------------------------------------
# Word lists (one Nordic union: a Danish word in a Norwegian note does no harm).

#: Date, procedure and event words after which a dotted day-month needs no other evidence.
_EVENT_WORDS = (
    # cue words and prepositions of time
    "den", "d.", "dato", "datum", "fra", "frå", "från", "til", "till", "siden", "sidan", "sedan", "sist",
    "senest", "senast", "per", "pr.", "t.o.m.", "tom", "f.o.m.", "fom", "fr.o.m.", "innen", "inden", "innan",
    # admission, discharge, visits
    "innlagt", "innlagd", "innkomst", "innleggelse", "innlegges", "utskrevet", "utskriven", "utskrives",
    "utreise", "overflyttet", "indlagt", "indlæggelse", "udskrevet", "udskrives", "inlagd", "inskriven",
    "inläggning", "utskrivning", "kontroll", "kontrol", "time", "timen", "samtale", "samtal", "telefon",
    "telefonnotat", "notat", "møte", "møde", "möte", "avtalt", "aftalt", "besøk", "besøg", "besök",
    "konsultasjon", "henvist", "henvisning", "remitterad", "sett", "vurdert", "undersøkt",
    # procedures, investigations
    "operert", "opr.", "op.", "operasjon", "opereret", "operation", "opererad", "ekko", "eko",
    "ekkokardiografi", "ekokardiografi", "CT", "MR", "MRI", "rtg", "rtg.", "røntgen", "röntgen", "UL",
    "ultralyd", "PET", "angio", "angiografi", "koronarangiografi", "PCI", "biopsi", "gastroskopi",
    "koloskopi", "EKG", "lab", "prøver", "prøvesvar", "blodprøver", "prover", "blodprover",
    # treatment events
    "startet", "oppstart", "opstart", "startad", "seponert", "seponeret", "gjenopptatt", "genoptaget",
    "stoppet", "avsluttet", "insatt", "utsatt", "sykmeldt", "sygemeldt", "sjukskriven", "vaksinert",
    "død", "døde", "fall", "falt", "fjernet", "fjernes", "fjernast", "fjerna", "seponeres", "borttagen",
    "fjernede", "ulykke", "ulykken", "ulykka", "olycka", "olyckan",
)  # fmt: skip

#: Scale and score names: a slash or dotted number among the three words after one is a score.
_SCALE_WORDS = (
    "VAS", "NRS", "GCS", "MMSE", "MoCA", "Borg", "kraft", "ECOG", "NEWS", "NEWS2", "MEWS", "score", "skår",
    "poeng", "blodkultur", "blodkulturer", "blodkulturar", "bloddyrkning", "bk", "Apgar", "NIHSS", "ESAS",
    "CFS", "4AT", "TUG", "Braden", "Norton", "BT", "blodtrykk", "blodtryk", "blodtryck", "Wells", "CURB-65",
    "CRB-65", "CHADS", "CHADS2", "CHA2DS2-VASc", "HAS-BLED", "SOFA", "qSOFA", "fallrisiko", "MRC",
)  # fmt: skip

#: Count words: a slash or dotted number right after one is a count ("dag 8/10": day 8 of 10).
_COUNT_WORDS = (
    "dag", "døgn", "dygn", "kur", "kure", "syklus", "cyklus", "cykel", "serie", "x", "grad", "gr.", "dose",
    "uke", "uge", "vecka", "nr", "nr.", "fraksjon", "fraktion", "para", "gravida",
    # ESAS symptoms (0-10)
    "smerte", "smerter", "smärta", "kvalme", "illamående", "slapphet", "tungpust", "angst", "depresjon",
    "matlyst", "velvære", "munntørrhet", "døsighet",
    # sections and versions: "Punkt 3.2:", "Kap. 4.2."
    "punkt", "pkt", "kap", "kapittel", "kapitel", "avsnitt", "afsnit", "side", "sida", "versjon", "version",
    "figur", "tabell", "tabel", "vedlegg", "bilag", "bilaga",
)  # fmt: skip

#: Units and count nouns after a number (besides the shared units of ``_common``).
_COUNT_AFTER = (
    "tablett", "tabletter", "tablet", "tabl", "tbl", "tab", "del", "deler", "dele", "delar", "dose", "doser",
    "dosis", "flaske", "flasker", "flaskor", "prøver", "prøve", "kapsel", "kapsler", "stk", "st", "ganger",
    "gang", "gånger", "poeng", "point", "dager", "dage", "dagar", "døgn", "dygn", "uker", "uger", "veckor",
    "positive", "pos", "kriterier", "kriteria", "timer", "timar", "timmar", "t", "mnd", "måneder", "månader",
    "år", "m", "meter",
)  # fmt: skip

#: Lab and measurement names: a dotted number right after one is a decimal value (lab printouts).
_LAB_WORDS = (
    "Hb", "Hgb", "LPK", "TPK", "CRP", "SR", "Na", "K", "Ca", "Mg", "P", "Cl", "Kreat", "kreatinin", "eGFR",
    "INR", "APTT", "Alb", "albumin", "ALAT", "ASAT", "ALP", "GT", "GGT", "LD", "LDH", "CK", "TnT", "TnI",
    "BNP", "proBNP", "NT-proBNP", "glukose", "glukos", "BS", "HbA1c", "pH", "pCO2", "pO2", "HCO3", "BE",
    "laktat", "Temp", "T", "KMI", "BMI", "vekt", "vægt", "vikt", "ferritin", "TSH", "FT4", "T4", "Fe",
    "EVF", "Hct", "MCV", "D-dimer", "PSA", "kalium", "natrium", "urea", "urat", "bilirubin", "bili",
    "lipase", "amylase", "LDL", "HDL", "kolesterol", "TG", "FEV1", "FVC", "EF", "SpO2", "RF", "puls",
    "nøytrofile", "neutrofile", "leukocytter", "trombocytter", "osmolalitet", "ionisert", "ratio", "indeks",
    "index", "faktor", "nøytro", "lymfo", "mono", "eos", "baso", "trombo", "leuko", "retik", "faste", "fastende",
)  # fmt: skip

#: Words before ``-YY`` that make it a signed measurement rather than a year.
_SIGNED_WORDS = (*_LAB_WORDS, "BE", "score", "T-score", "Z-score", "SDS", "endring", "ned", "opp", "diff")

#: Day words after which a dotted number is the time of day (``i dag 13.05``).
_DAY_WORDS = ("i dag", "idag", "i går", "igår", "i morgen", "imorgen", "i morgon", "i förrgår")

# ------------------------------------------------------------------------------------------------
# Patterns

_DM_CORE = r"(?P<d>\d{1,2})(?P<s>(?P<dot>\.)|/)(?P<m>\d{1,2})"
# The closing period belongs to the date unless it also ends the sentence.
_SENTENCE_END = r"(?:[ \t]*(?:\n|\Z)|[ \t]+[A-ZÆØÅÄÖ])"
# After the date: no digit, letter or slash; no decimal part; a dash only before another day-month.
_DM_END = r"(?![\w/]|[.,]\d|[-–](?!\d{1,2}[./]\d)\d)"
_FRACTIONS = {(1, 2), (1, 3), (2, 3), (1, 4), (3, 4)}
# Month names of every Nordic language, for "a date right before" (``15. mars 14.10``).
_ANY_MONTH = (
    r"(?i:"
    + trie_pattern(sorted({w for code in ("nb", "da", "sv") for mo in MONTH_NAMES[code] for w in mo}))
    + ")"
)

_RX = pattern_data("intl_nordic_dates", globals())


def _calendar_lang(lang: str) -> str:
    return "nb" if lang == "nn" else lang


_EVENT_BEFORE_RE = re.compile(
    rf"(?<![\w.]){nfd_words(_EVENT_WORDS)}[ \t]*:?[ \t]*(?:(?:ca|cirka|ca\.)[ \t]+)?\Z"
)
#: A part of the day after or before a day-month (``18.4 ettermiddag``, ``kvelden 17.4.``).
_DAY_PARTS = (
    "morgen", "morgenen", "morgonen", "formiddag", "formiddagen", "ettermiddag", "ettermiddagen", "eftermiddag",
    "eftermiddagen", "kveld", "kvelden", "kveldstid", "aften", "aftenen", "natt", "natten", "natta", "nat",
    "natten", "kväll", "kvällen",
)  # fmt: skip
_DAY_PART_AFTER_RE = re.compile(rf"[ \t]+{nfd_words(_DAY_PARTS)}(?![\w])")
_DAY_PART_BEFORE_RE = re.compile(rf"(?<![\w]){nfd_words(_DAY_PARTS)}[ \t]+\Z")
_STRENGTH_WORDS = ("kraft", "kraften", "muskelkraft", "styrke", "muskelstyrke", "MRC", "Oxford", "parese")
_STRENGTH_RE = re.compile(rf"(?<![\w]){nfd_words(_STRENGTH_WORDS)}(?![\w])")
_SCALES = word_set(_SCALE_WORDS)
_SCALE_ENDINGS = ("score", "skår", "skala", "skåre")
_COUNTS = word_set(_COUNT_WORDS)
_LABS = word_set(_LAB_WORDS)
_SIGNED = word_set(_SIGNED_WORDS)
_COUNT_AFTER_RE = re.compile(rf"[ \t]+{nfd_words(_COUNT_AFTER)}(?![\w])")
_DAY_WORD_BEFORE_RE = re.compile(rf"(?<![\w]){nfd_words(_DAY_WORDS)}[ \t]*\Z")


def _weekday_abbr(code: str) -> str:
    """A weekday abbreviation: capitalised (``Ons``, ``FRE``) or with its period (``fre.``); ``man`` and
    ``tor`` without one are words ("one", a given name)."""
    words = [w for day in WEEKDAY_ABBRS[code] for w in day]
    capital = trie_pattern([f for f in case_forms(words) if not f.islower()], ignore_case=False)
    return rf"(?:(?:{capital})\.?|(?:{trie_pattern(words, ignore_case=False)})\.)"


def _dm_re(lang: str) -> re.Pattern[str]:
    """Weekday (optional), day, separator, month; a year only after a weekday; the closing period."""
    code = _calendar_lang(lang)
    # "Ons 17.4", "fre. 16.2": a weekday abbreviation (with or without its period) also joins the date.
    wd = rf"{weekday_pattern(code)}|{_weekday_abbr(code)}"
    return re.compile(
        rf"(?P<v>(?:(?P<wd>{wd}),?[ \t]+(?:(?:den|d\.)[ \t]+)?)?{_DM_CORE}"
        # "søndag 10.03.2024", "fredag 8/3-24": a year is taken only to join a weekday to a full date.
        rf"(?:(?P<ys>[./\-])(?P<y>(?:19|20)\d{{2}}|\d{{2}})(?!\d))?"
        # "Ekko fredag 15.3.": after a weekday the closing period belongs to the date even at a line end.
        rf"(?(dot)(?:(?P<cp>\.)(?(wd)|(?!{_SENTENCE_END})))?))(?(dot)(?P<cpend>\.(?={_SENTENCE_END}))?){_DM_END}"
    )


def _before(m: re.Match[str], n: int = 40) -> str:
    """The text of the same line before the date (at most ``n`` characters)."""
    return line_before(m.string, m.start("d"), n)


def _opens_line(m: re.Match[str]) -> bool:
    """Nothing but spaces before the match on its line."""
    text, start = m.string, m.start()
    return text[text.rfind("\n", 0, start) + 1 : start].strip() == ""


def _word_before(before: str) -> str:
    wm = _RX["WORD_BEFORE_RE"].search(before)
    return wm.group("w").lower().rstrip(".") if wm else ""


def _clock_time(m: re.Match[str], before: str) -> bool:
    """A dotted number that is a clock time: after ``kl``, a date or a day word, or in a time range."""
    if _RX["CLOCK_BEFORE_RE"].search(before) or _DAY_WORD_BEFORE_RE.search(before):
        return True
    # "14.03.2024 14.10", "10.3 14.10", "15. mars 14.10": a date right before.
    if _RX["DATE_BEFORE_RE"].search(before):
        return True
    after = _RX["DASH_DM_AFTER_RE"].match(m.string, m.end("m"))
    if after and not valid_day_month(int(after.group("d")), int(after.group("m"))):
        return True
    ahead = _RX["DASH_DM_BEFORE_RE"].search(before)
    return bool(ahead and not valid_day_month(int(ahead.group("d")), int(ahead.group("m"))))


def _scale_before(before: str) -> bool:
    """A scale or score name among the three words before (same sentence)."""
    sentence = re.split(r"[.;!?][ \t]+(?=[A-ZÆØÅÄÖ])|;", before)[-1]
    words = [w.strip("():,=").lower().rstrip(".") for w in sentence.split()][-3:]
    # also compounds: "smertescore", "funksjonsskår", "NEWS-score"; a value between the scale and the
    # number is the score, and the number after it its date ("4AT 6 15.2")
    for i, w in enumerate(words):
        if (w in _SCALES or w.endswith(_SCALE_ENDINGS)) and not any(
            re.fullmatch(r"\d+(?:,\d+)?", x) for x in words[i + 1 :]
        ):
            return True
    return False


def _score_run(m: re.Match[str], before: str) -> bool:
    """``smerte 5/10 -> 2/10``, ``6/10 kl 23 -> ... 3/10``: an ``N/10`` after another on its line is a
    0-10 score; ``PHQ-9 17, PC-PTSD-5: 4/5``: a number after a form named with its length is its score."""
    day, month = int(m.group("d")), int(m.group("m"))
    if month == 10 and day <= 10 and _RX["SCORE_BEFORE_RE"].search(before):
        return True
    return _RX["FORM_BEFORE_RE"].search(before) is not None


def _count_before(before: str) -> bool:
    """A count word right before ("dag 8/10", "kur 3/6"); "i dag 12/3" is today and a date."""
    word = _word_before(before)
    if word == "dag" and re.search(r"(?i)(?<![\w])i[ \t]+dag[ \t]*\Z", before):
        return False
    if word == "dose" and re.search(
        r"(?i)(?<![\w])(?:siste|første|sist|första|neste|næste)[ \t]+dose[ \t]*\Z", before
    ):
        return False  # "siste dose 12.2 kl 20": the day of the last dose
    return word in _COUNTS


def _date_evidence(m: re.Match[str], before: str) -> bool:
    """Date evidence for a form that is not a date by its shape alone."""
    text, end = m.string, m.end("m")
    return bool(
        m.group("wd")
        or _RX["COLON_AFTER_RE"].match(text, end)
        or _RX["KL_AFTER_RE"].match(text, end)
        or _EVENT_BEFORE_RE.search(before)
        or _DAY_PART_AFTER_RE.match(text, end)
        or _DAY_PART_BEFORE_RE.search(before)
        or _value_then_date(m, before)
    )


def _value_then_date(m: re.Match[str], before: str) -> bool:
    """A dotted day-month after a value in a note that writes decimals with a comma (``Kreatinin 104 14.7``)."""
    if m.group("dot") is None or not _RX["VALUE_BEFORE_RE"].search(before):
        return False
    return _comma_note(m.string)


@lru_cache(maxsize=8)
def _comma_note(text: str) -> bool:
    """A note that writes its decimals with a comma (``39,1``, ``pH 7,40``) and none with a period."""
    return _RX["COMMA_DECIMAL_RE"].search(text) is not None and _RX["DOT_DECIMAL_RE"].search(text) is None


@lru_cache(maxsize=8)
def _day_month_note(text: str) -> bool:
    """A note whose dotted numbers are dates: it writes no decimal with a period, and its decimals with a
    comma or its dates with periods (``9.2.24``): ``Var hos fastlegen 12.2``, ``Pleuradren 10.2-13.2``."""
    if _RX["DOT_DECIMAL_RE"].search(text) is not None:
        return False
    return _RX["COMMA_DECIMAL_RE"].search(text) is not None or _RX["DOTTED_DATE_RE"].search(text) is not None


def _strength_grade(m: re.Match[str], before: str) -> bool:
    """``Kraft i hø ben 4/5``, ``albue 4/5, håndgrep 3/5``, ``Klokketest 2/5``: a grade out of 5."""
    if m.group("dot") is not None or int(m.group("m")) != 5 or int(m.group("d")) > 5:
        return False
    sentence = re.split(r"[.;!?][ \t]+(?=[A-ZÆØÅÄÖ])|;", before)[-1]
    if _STRENGTH_RE.search(sentence) or _word_before(before).endswith("test"):
        return True
    text, start, end = m.string, m.start("d"), m.end("m")
    window = text[max(0, start - 40) : end + 40]
    lo = start - max(0, start - 40)
    others = [g for g in _RX["GRADE_RE"].finditer(window) if not (g.start() <= lo < g.end())]
    return bool(others)


def _time_column(m: re.Match[str]) -> bool:
    """A dotted number opening a table line next to a line that opens with a clock time (``08.30``/``12.05``)."""
    if m.group("dot") is None or not _opens_line(m):
        return False
    text = m.string
    line_start = text.rfind("\n", 0, m.start()) + 1
    prev_start = text.rfind("\n", 0, max(0, line_start - 1)) + 1
    next_start = text.find("\n", m.end()) + 1
    for pos in (prev_start if line_start > 0 else -1, next_start if next_start > 0 else -1):
        t = _RX["LINE_TIME_RE"].match(text, pos) if pos >= 0 else None
        if (
            t is not None
            and int(t.group("h")) < 24
            and not valid_day_month(int(t.group("h")), int(t.group("mi")))
        ):
            return True
    return False


def _other_number(m: re.Match[str], before: str, dotted: bool) -> bool:
    """Positive evidence that the number is no date: a time, count, score, dose, part or lab value."""
    text, end = m.string, m.end()
    day, month = int(m.group("d")), int(m.group("m"))
    colon_after = _RX["COLON_AFTER_RE"].match(text, m.end("m")) is not None
    if before.rstrip(" \t").endswith(("-", "–")) and not _RX["RANGE_START_BEFORE_RE"].search(before):
        return True  # a minus sign or a "5-9/10" run; "12/3-15/3" is a range of dates
    day_part = _DAY_PART_AFTER_RE.match(text, m.end("m")) is not None
    if dotted and (_clock_time(m, before) or (_time_column(m) and not day_part)):
        return True  # "kl 22.30", "14.03.2024 14.10", "14.10-15.30", a column of times ("14.3 kveld" stays)
    if _strength_grade(m, before):
        return True  # "Kraft i hø ben 4/5", "albue 4/5, håndgrep 3/5"
    if _count_before(before):
        return True  # "dag 8/10", "kur 3/6", "x 1/2", "Punkt 3.2:"
    if _scale_before(before) and not colon_after:
        return True  # "VAS ca 6/10", "Kraft UE 4/5"; "Blodkultur 12/3: E. coli" is a dated result
    if not dotted and _score_run(m, before):
        return True  # "smerte 5/10 -> 2/10 kl 02.30", "PC-PTSD-5: 4/5": a score after a score or a form
    if followed_by_unit(text, end) or _COUNT_AFTER_RE.match(text, end):
        return True  # "1/2 tablett", "24/26 mg", "2/2 flasker"
    if not dotted and day <= month and _RX["PART_OF_RE"].match(text, end):
        return True  # "2/3 av maten": two of three
    lab_value = _word_before(before) in _LABS or _RX["ARROW_BEFORE_RE"].search(before) is not None
    if dotted and _RX["VALUE_RANGE_AFTER_RE"].match(text, m.end("m")):
        return True  # "Hb 11.4-12.0": a range of values whose end is no day-month
    period_note = _RX["DOT_DECIMAL_RE"].search(text) or _RX["POINT_ZERO_RE"].search(text)
    if dotted and not lab_value and period_note and not _RX["VALUE_BEFORE_RE"].search(before):
        # "Hb ved utreise 8.6" in a note that writes decimals with a period: a lab name among the three
        # words before makes a dotted number its value
        lab_value = any(w.strip("(),:").rstrip(".") in _LABS for w in before.lower().split()[-3:])
    return dotted and lab_value and not colon_after  # "Hb 11.2.", "INR 1.05", "-> 12.1."


def _day_month_ok(m: re.Match[str]) -> bool:
    """Keep a proposed Nordic day-month unless something shows it is a time, score, fraction or value."""
    day, month = int(m.group("d")), int(m.group("m"))
    if not valid_day_month(day, month):
        return False
    dotted = m.group("dot") is not None
    if m.group("y") is not None:
        # A full date is the shared rules' work; this rule only joins a weekday to it.
        return m.group("wd") is not None and (m.group("ys") == m.group("s") or not dotted)
    before = _before(m)
    if _other_number(m, before, dotted):
        return False
    evidence = _date_evidence(m, before)
    if not dotted:
        # "1/2 brødskive", "2/3", "24/7", "5/10" (a 0-10 scale) need date evidence.
        small = (day, month) in _FRACTIONS or (day, month) == (24, 7) or (month == 10 and day <= 10)
        return evidence or not small
    closing = m.group("cp") is not None or m.group("cpend") is not None
    if closing:
        # "2.1. Anamnese": single digits opening a line before a capitalised word are a numbered heading.
        heading = (
            day < 10 and month < 10 and _opens_line(m) and _RX["CAPITAL_AFTER_RE"].match(m.string, m.end())
        )
        return bool(m.group("wd")) or not heading
    if len(m.group("d")) == 2 and len(m.group("m")) == 2 and m.group("m").startswith("0"):
        return True  # DD.0M: "20.03", "28.03 kl 13"
    return evidence or _day_month_note(m.string)


def _month_yy_re(lang: str) -> re.Pattern[str]:
    """A month name or abbreviation (optionally with its period) and a two-digit year: ``okt -23``."""
    return re.compile(
        rf"(?<![\w])(?:{month_pattern(_calendar_lang(lang))})\.?(?:[ \t]?[-–]|[ \t]?['’])\d{{2}}(?![\w]|[.,]\d)"
    )


def _day_month_abbr_re(lang: str) -> re.Pattern[str]:
    """A day with its period and an abbreviated month (``16. feb``, ``fre. 16. feb``, ``3. okt.``); the
    shared rule takes the full month names only."""
    code = _calendar_lang(lang)
    months = sorted({w for g in MONTH_ABBRS[code] for w in g})
    return re.compile(
        rf"(?<![\w.])(?:(?:{weekday_pattern(code)}|{_weekday_abbr(code)}),?[ \t]+)?(?:0?[1-9]|[12]\d|3[01])\.[ ]?"
        rf"(?:{trie_pattern(case_forms(months), ignore_case=False)})(?:\.(?=\s)|(?![\w.]))"
    )


def _month_space_yy_re(lang: str) -> re.Pattern[str]:
    """A lower-case month name or abbreviation, a space and a two-digit year: ``des 23``, ``jan 24``."""
    code = _calendar_lang(lang)
    months = sorted({w for g in (*MONTH_NAMES[code], *MONTH_ABBRS[code]) for w in g})
    return re.compile(
        rf"(?<![\w\-])(?:{trie_pattern(months, ignore_case=False)})\.?[ ](?P<y>\d{{2}})(?![\w]|[.,:/]\d)"
    )


def _month_space_yy_ok(m: re.Match[str]) -> bool:
    """Not a count or a measure after a month (``mai 10 dager``, ``juni 20 mg``, ``mars 12 år``)."""
    text, end = m.string, m.end()
    return not (
        followed_by_unit(text, end)
        or _COUNT_AFTER_RE.match(text, end)
        or _RX["RANGE_AFTER_RE"].match(text, end)
    )


def _paren_yy_ok(m: re.Match[str]) -> bool:
    word = m.group("w")
    if len(word) < 3 or word.lower() in _SIGNED:
        return False  # "(BE -12)", "(vekt -10)"
    line = m.string[max(0, m.start() - 80) : m.start()]
    line = line[line.rfind("\n") + 1 :]
    return line.rfind("(") > line.rfind(")")


def nordic_day_month_rules(lang: str) -> tuple[PatternRule, ...]:
    """The cue-free day-month and two-digit-year DATE rules of a Nordic language (see the module doc)."""
    return (
        PatternRule("DATE", _dm_re(lang),       group="v", validator=_day_month_ok, not_after=r"[\w/.,+−]", anchor=re.compile(r"\d[./]\d"), reach=(30, 16), score=0.75, name=f"day_month_nordic_{lang}"),
        PatternRule("DATE", _month_yy_re(lang),                                     not_after=r"[\w]",                                                  score=0.8,  name=f"month_yy_nordic_{lang}"),
        PatternRule("DATE", _month_space_yy_re(lang), validator=_month_space_yy_ok, not_after=r"[\w]",                               score=0.75, name=f"month_space_yy_nordic_{lang}"),
        PatternRule("DATE", _day_month_abbr_re(lang), validator=_month_space_yy_ok, not_after=r"[\w]",                               score=0.75, name=f"day_month_abbr_nordic_{lang}"),
        PatternRule("DATE", _RX["SEASON_YEAR_RE"],                                  not_after=r"[\w]",                                                  score=0.8,  name=f"season_year_nordic_{lang}"),
        PatternRule("DATE", _RX["HOLIDAY_RE"], group="v", score=0.7, name=f"holiday_nordic_{lang}"),
        PatternRule("DATE", _RX["PAREN_YY_RE"], group="y", validator=_paren_yy_ok,  not_after=r"[\w\-]",   anchor=re.compile(r"[-–]\d\d"), reach=(40, 4),  score=0.7,  name=f"paren_yy_nordic_{lang}"),
    )  # fmt: skip
