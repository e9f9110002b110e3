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

import calendar
import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

__all__ = ["DateValue", "ParsedDate", "format_date", "parse_date", "shift_date"]

# --------------------------------------------------------------------------------------------
# Vocabulary

_MONTHS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("January", "Jan"), ("February", "Feb"), ("March", "Mar"), ("April", "Apr"), ("May", "May"),
        ("June", "Jun"), ("July", "Jul"), ("August", "Aug"), ("September", "Sep"), ("October", "Oct"),
        ("November", "Nov"), ("December", "Dec"),
    ),
    "es": (
        ("enero", "ene"), ("febrero", "feb"), ("marzo", "mar"), ("abril", "abr"), ("mayo", "may"),
        ("junio", "jun"), ("julio", "jul"), ("agosto", "ago"), ("septiembre", "sep"),
        ("octubre", "oct"), ("noviembre", "nov"), ("diciembre", "dic"),
    ),
    "ca": (
        ("gener", "gen"), ("febrer", "febr"), ("març", "març"), ("abril", "abr"), ("maig", "maig"),
        ("juny", "juny"), ("juliol", "jul"), ("agost", "ag"), ("setembre", "set"), ("octubre", "oct"),
        ("novembre", "nov"), ("desembre", "des"),
    ),
    "de": (
        ("Januar", "Jan"), ("Februar", "Feb"), ("März", "Mär"), ("April", "Apr"), ("Mai", "Mai"),
        ("Juni", "Jun"), ("Juli", "Jul"), ("August", "Aug"), ("September", "Sep"), ("Oktober", "Okt"),
        ("November", "Nov"), ("Dezember", "Dez"),
    ),
    "fr": (
        ("janvier", "janv"), ("février", "févr"), ("mars", "mars"), ("avril", "avr"), ("mai", "mai"),
        ("juin", "juin"), ("juillet", "juil"), ("août", "août"), ("septembre", "sept"), ("octobre", "oct"),
        ("novembre", "nov"), ("décembre", "déc"),
    ),
    "nl": (
        ("januari", "jan"), ("februari", "feb"), ("maart", "mrt"), ("april", "apr"), ("mei", "mei"),
        ("juni", "jun"), ("juli", "jul"), ("augustus", "aug"), ("september", "sep"), ("oktober", "okt"),
        ("november", "nov"), ("december", "dec"),
    ),
}  # fmt: skip
_MONTH_ALIASES: dict[str, tuple[int, str, bool]] = {
    "sept": (9, "en", False),
    "setiembre": (9, "es", True),
    "marc": (3, "ca", True),
    "jänner": (1, "de", True),
    "maerz": (3, "de", True),
    "mrz": (3, "de", False),
    "fevrier": (2, "fr", True),
    "aout": (8, "fr", True),
    "decembre": (12, "fr", True),
    "fevr": (2, "fr", False),
}
_WEEKDAYS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("Monday", "Mon"), ("Tuesday", "Tue"), ("Wednesday", "Wed"), ("Thursday", "Thu"),
        ("Friday", "Fri"), ("Saturday", "Sat"), ("Sunday", "Sun"),
    ),
    "es": (
        ("lunes", "lun"), ("martes", "mar"), ("miércoles", "mié"), ("jueves", "jue"),
        ("viernes", "vie"), ("sábado", "sáb"), ("domingo", "dom"),
    ),
    "ca": (
        ("dilluns", "dl"), ("dimarts", "dt"), ("dimecres", "dc"), ("dijous", "dj"),
        ("divendres", "dv"), ("dissabte", "ds"), ("diumenge", "dg"),
    ),
    "de": (
        ("Montag", "Mo"), ("Dienstag", "Di"), ("Mittwoch", "Mi"), ("Donnerstag", "Do"), ("Freitag", "Fr"),
        ("Samstag", "Sa"), ("Sonntag", "So"),
    ),
    "fr": (
        ("lundi", "lun"), ("mardi", "mar"), ("mercredi", "mer"), ("jeudi", "jeu"), ("vendredi", "ven"),
        ("samedi", "sam"), ("dimanche", "dim"),
    ),
    "nl": (
        ("maandag", "ma"), ("dinsdag", "di"), ("woensdag", "wo"), ("donderdag", "do"), ("vrijdag", "vr"),
        ("zaterdag", "za"), ("zondag", "zo"),
    ),
}  # fmt: skip
_WEEKDAY_ALIASES: dict[str, tuple[int, str, bool]] = {
    "tues": (1, "en", False),
    "thur": (3, "en", False),
    "thurs": (3, "en", False),
    "miercoles": (2, "es", True),
    "sabado": (5, "es", True),
}
_SEASONS: dict[str, tuple[str, str, str, str]] = {  # spring, summer, autumn, winter
    "en": ("spring", "summer", "fall", "winter"),
    "uk": ("spring", "summer", "autumn", "winter"),
    "es": ("primavera", "verano", "otoño", "invierno"),
    "ca": ("primavera", "estiu", "tardor", "hivern"),
}
# Middle of each season (month, day): spring, summer, autumn, winter (northern hemisphere).
_SEASON_MIDDLE = ((5, 5), (8, 6), (11, 5), (2, 4))
# Words allowed inside a date span and kept verbatim.
_FILLER = frozenset(
    [
        "of",
        "the",
        "de",
        "del",
        "d",
        "en",
        "at",
        "on",
        "y",
        "el",
        "la",
        "early",
        "mid",
        "late",
        "end",
        "beginning",
        "principios",
        "mediados",
        "finales",
        "inicio",
        "inicios",
        "fin",
        "final",
        "h",
        "am",
        "pm",
        "den",
    ]
)
_RANGE_WORDS = frozenset(
    ["to", "through", "thru", "until", "till", "al", "a", "hasta", "fins", "and", "i", "y", "至", "到"]
)
_RANGE_SEPS = frozenset(["-", "–", "—", "~", "～"])
_EU_LANGS = frozenset({"es", "ca", "fr", "de", "it", "nl", "pt", "uk", "gb", "en_gb", "en-gb"})
_CJK_UNITS = {"年": "year", "月": "month", "日": "day", "号": "day"}


def _build_lookup() -> dict[str, list[tuple[int, str, bool]]]:
    """casefolded word -> [(number, lang, is_full)], months then weekdays kept apart by caller."""
    table: dict[str, list[tuple[int, str, bool]]] = {}

    def add(langs: tuple[str, ...]) -> None:
        for lang in langs:
            for i, (full, abbr) in enumerate(_MONTHS[lang], start=1):
                table.setdefault(full.casefold(), []).append((i, lang, True))
                if abbr.casefold() != full.casefold():
                    table.setdefault(abbr.casefold(), []).append((i, lang, False))

    # English, Spanish and Catalan (and their aliases: "sept" is English) come first; without a
    # language hint a word shared with German, French or Dutch reads as theirs.
    add(("en", "es", "ca"))
    for word, (num, lang, full) in _MONTH_ALIASES.items():
        if lang in ("en", "es", "ca"):
            table.setdefault(word, []).append((num, lang, full))
    add(tuple(lang for lang in _MONTHS if lang not in ("en", "es", "ca")))
    for word, (num, lang, full) in _MONTH_ALIASES.items():
        if lang not in ("en", "es", "ca"):
            table.setdefault(word, []).append((num, lang, full))
    return table


def _build_weekdays() -> dict[str, list[tuple[int, str, bool]]]:
    table: dict[str, list[tuple[int, str, bool]]] = {}
    for lang, names in _WEEKDAYS.items():
        for i, (full, abbr) in enumerate(names):
            table.setdefault(full.casefold(), []).append((i, lang, True))
            # Spanish/Catalan weekday abbreviations clash with months and words ("mar", "dj"): en only.
            if lang == "en":
                table.setdefault(abbr.casefold(), []).append((i, lang, False))
    for word, entry in _WEEKDAY_ALIASES.items():
        table.setdefault(word, []).append(entry)
    return table


def _build_seasons() -> dict[str, list[tuple[int, str]]]:
    table: dict[str, list[tuple[int, str]]] = {}
    for lang, names in _SEASONS.items():
        for i, name in enumerate(names):
            if (i, lang) not in table.get(name, []):
                table.setdefault(name, []).append((i, lang))
    return table


_MONTH_WORDS = _build_lookup()
_WEEKDAY_WORDS = _build_weekdays()
_SEASON_WORDS = _build_seasons()

# --------------------------------------------------------------------------------------------
# Data


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
class _Tag:
    name: str  # YYYY, YY, M, MM, D, DD, Do, DO, Dº, month names, weekday names, season names, de
    lang: str = "en"
    group: int = 0
    extra: str = ""  # the apostrophe of Catalan "d'"

    def text(self) -> str:
        suffix = f":{self.lang}" if self.lang != "en" else ""
        if self.extra:
            suffix += f":{self.extra}"
        group = "#2" if self.group else ""
        return "{" + self.name + suffix + group + "}"


_Part = str | _Tag


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
    _parts: tuple[_Part, ...] = field(default=(), repr=False, compare=False)
    _shown: tuple[frozenset[str], ...] = field(default=(), repr=False, compare=False)

    @property
    def year(self) -> int | None:
        """Year of the (first) date."""
        return self.values[0].year

    @property
    def month(self) -> int | None:
        """Month of the (first) date."""
        return self.values[0].month

    @property
    def day(self) -> int | None:
        """Day of the (first) date."""
        return self.values[0].day

    @property
    def weekday(self) -> int | None:
        """Weekday (0 = Monday) of the (first) date, when written."""
        return self.values[0].weekday

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
        new = tuple(_shift_value(v, days) for v in self.values)
        return _render(self._parts, new, self._shown)


# --------------------------------------------------------------------------------------------
# Lexing and parsing

_LEX = re.compile(
    r"(?P<time>\d{1,2}:\d{2}(?::\d{2})?)"
    r"|(?P<ord>\d{1,2})(?P<suf>(?i:st|nd|rd|th|er)|[ºª])(?![^\W\d_])"
    r"|(?P<num>\d+)"
    r"|(?P<cjk>[年月日号])"
    r"|(?P<word>[^\W\d_]+)"
    r"|(?P<sep>\s+|.)",
    re.DOTALL,
)


@dataclass
class _Tok:
    kind: str  # time ord num cjk word sep
    text: str
    suffix: str = ""


def _lex(surface: str) -> list[_Tok]:
    out: list[_Tok] = []
    for m in _LEX.finditer(surface):
        kind = m.lastgroup or "sep"
        if kind == "suf":
            kind = "ord"
        if kind == "ord":
            out.append(_Tok("ord", m.group("ord"), m.group("suf")))
        else:
            out.append(_Tok(kind, m.group(0)))
    return out


def _case(word: str) -> str:
    if len(word) > 1 and word.isupper():
        return "upper"
    if word.islower():
        return "lower"
    return "title"


def _styled(base: str, case: str) -> str:
    """A tag name in a case style: base is the Title form ("Month", "Mon", "Weekday"...)."""
    if case == "upper":
        return base.upper()
    if case == "lower":
        return base.lower()
    return base


def _pick_lang(candidates: list[tuple[int, str, bool]], hint: str | None) -> tuple[int, str, bool]:
    if hint is not None:
        for cand in candidates:
            if cand[1] == hint:
                return cand
    return candidates[0]


def _pivot(yy: int) -> int:
    # Fixed pivot (not today's date) so that parsing is deterministic.
    return 2000 + yy if yy < 50 else 1900 + yy


def _valid(year: int | None, month: int | None, day: int | None) -> bool:
    if month is not None and not 1 <= month <= 12:
        return False
    if year is not None and not 1000 <= year <= 2999:
        return False
    if day is not None:
        if month is None:
            return 1 <= day <= 31
        return 1 <= day <= calendar.monthrange(year if year is not None else 2000, month)[1]
    return True


def _clamp_day(year: int | None, month: int | None, day: int | None) -> int | None:
    """A day past the end of a real month (Feb 30, Apr 31, Feb 29 of 2019) -> the month's last day.

    Typos like "02/30/2019" are still dates: read as the nearest valid date, they shift like any
    other date instead of turning into keyed digits. Days outside 1-31 and months outside 1-12 are
    left for :func:`_valid` to reject.
    """
    if day is None or month is None or not 1 <= month <= 12 or not 29 <= day <= 31:
        return day
    if year is not None and not 1000 <= year <= 2999:
        return day
    return min(day, calendar.monthrange(year if year is not None else 2000, month)[1])


@dataclass
class _Group:
    parts: list[_Part]
    value: DateValue
    has_month_word: bool


def _hint_from_words(tokens: list[_Tok], hint: str | None) -> str | None:
    words = [t.text.casefold() for t in tokens if t.kind == "word"]
    if hint in ("es", "ca"):
        return hint
    if "d" in words:
        return "ca"
    for w in words:
        for _num, lang, _full in _MONTH_WORDS.get(w, []) + _WEEKDAY_WORDS.get(w, []):
            if lang in ("es", "ca") and not any(c[1] == "en" for c in _MONTH_WORDS.get(w, [])):
                return lang
    if "de" in words or "del" in words:
        return "es"
    return hint


def _resolve(tokens: list[_Tok], hint: str | None, mode: str = "normal", group: int = 0) -> _Group | None:
    """Turn one group of tokens into parts + value, or None when it is not a date.

    ``mode="day_year"``: the month comes from the other side of a range, numbers are day or year.
    """
    hint = _hint_from_words(tokens, hint)
    parts: list[_Part] = []
    num_idx: list[int] = []  # positions in ``parts`` of numbers still to assign
    month = weekday = season = None
    month_lang: str | None = None
    year = day = None
    has_month_word = False
    assigned: dict[int, str] = {}  # part index -> field
    for i, tok in enumerate(tokens):
        if tok.kind in ("sep", "time"):
            parts.append(tok.text)
            continue
        if tok.kind == "cjk":
            # Unit after a number: 2019年3月12日.
            if not parts or not num_idx or num_idx[-1] != len(parts) - 1:
                return None
            field_name = _CJK_UNITS[tok.text]
            pos = num_idx.pop()
            assigned[pos] = field_name
            parts.append(tok.text)
            continue
        if tok.kind in ("num", "ord"):
            if tok.kind == "ord":
                assigned[len(parts)] = "day"
            else:
                num_idx.append(len(parts))
            parts.append(tok.text + ("\x00" + tok.suffix if tok.kind == "ord" else ""))
            continue
        word = tok.text.casefold()
        if word in _MONTH_WORDS and month is None:
            num, lang, full = _pick_lang(_MONTH_WORDS[word], hint)
            month, month_lang, has_month_word = num, lang, True
            base = "Month" if full else "Mon"
            parts.append(_Tag(_styled(base, _case(tok.text)), lang, group))
            continue
        if word in _WEEKDAY_WORDS and weekday is None:
            num, lang, full = _pick_lang(_WEEKDAY_WORDS[word], hint)
            weekday = num
            base = "Weekday" if full else "Wkd"
            parts.append(_Tag(_styled(base, _case(tok.text)), lang, group))
            continue
        if word in _SEASON_WORDS and season is None:
            cands = _SEASON_WORDS[word]
            s_num, s_lang = cands[0]
            for cand in cands:
                if cand[1] == hint:
                    s_num, s_lang = cand
            season = s_num
            parts.append(_Tag(_styled("Season", _case(tok.text)), s_lang, group))
            continue
        if word in _FILLER:
            parts.append(tok.text)
            continue
        return None
    if season is not None and (month is not None or weekday is not None):
        return None

    def num_text(pos: int) -> str:
        text = parts[pos]
        assert isinstance(text, str)
        return text.split("\x00")[0]

    def apostrophe_before(pos: int) -> bool:
        return pos > 0 and isinstance(parts[pos - 1], str) and parts[pos - 1] in ("'", "’", "`")

    # CJK units assigned directly.
    for pos, name in list(assigned.items()):
        if name == "day" and parts[pos] and "\x00" in str(parts[pos]):
            continue
        value = int(num_text(pos))
        if name == "year":
            year = value if len(num_text(pos)) == 4 else _pivot(value)
        elif name == "month":
            month = value
        elif name == "day":
            day = value
    ords = [p for p, n in assigned.items() if "\x00" in str(parts[p])]
    if len(ords) > 1:
        return None
    if ords:
        day = int(num_text(ords[0]))
    if any(_CJK_UNITS.get(str(p)) for p in parts) and num_idx:
        return None  # stray number next to CJK units

    nums = list(num_idx)
    numeric_sep = ""
    year_first = False
    if has_month_word or season is not None or mode == "day_year":
        for pos in nums:
            text = num_text(pos)
            value = int(text)
            if len(text) == 4 and year is None:
                year, assigned[pos] = value, "year4"
            elif len(text) == 2 and apostrophe_before(pos) and year is None:
                year, assigned[pos] = _pivot(value), "year2"
            elif day is None and season is None and 1 <= value <= 31 and len(text) <= 2:
                day, assigned[pos] = value, "day"
            elif year is None and len(text) == 2:
                year, assigned[pos] = _pivot(value), "year2"
            else:
                return None
    elif nums:
        texts = [num_text(p) for p in nums]
        values = [int(t) for t in texts]
        seps = {str(parts[p + 1]).strip() for p in nums[:-1] if p + 1 < len(parts)}
        if len(nums) == 1:
            text, value = texts[0], values[0]
            if len(text) == 2 and apostrophe_before(nums[0]):
                year, assigned[nums[0]] = _pivot(value), "year2"
            elif len(text) == 4 and 1800 <= value <= 2200:
                year, assigned[nums[0]] = value, "year4"
            elif len(text) == 8 and _valid(int(text[:4]), int(text[4:6]), int(text[6:])):
                year, month, day = int(text[:4]), int(text[4:6]), int(text[6:])
                assigned[nums[0]] = "compact"
            elif mode == "day" and 1 <= value <= 31 and len(text) <= 2:
                day, assigned[nums[0]] = value, "day"
            else:
                return None
        elif len(nums) in (2, 3):
            if not seps <= {"/", "-", ".", ""} or len(seps) > 1:
                return None
            sep = next(iter(seps))
            numeric_sep = sep
            eu = sep == "." or (hint or "").lower() in _EU_LANGS
            order: tuple[str, ...]
            if len(nums) == 2:
                a, b = texts
                if len(a) == 4:
                    order = ("year4", "month")
                    year_first = True
                elif len(b) == 4:
                    order = ("month", "year4")
                else:
                    va, vb = values
                    if va > 12 >= vb:
                        eu = True
                    elif vb > 12 >= va:
                        eu = False
                    order = ("day", "month") if eu else ("month", "day")
            else:
                a, b, c = texts
                if len(a) == 4:
                    order = ("year4", "month", "day")
                    year_first = True
                elif len(a) <= 2 and len(b) <= 2 and len(c) in (2, 4):
                    va, vb = values[0], values[1]
                    if va > 12 >= vb:
                        eu = True
                    elif vb > 12 >= va:
                        eu = False
                    ylab = "year4" if len(c) == 4 else "year2"
                    order = ("day", "month", ylab) if eu else ("month", "day", ylab)
                else:
                    return None
            for pos, text, value, name in zip(nums, texts, values, order):
                if name == "year4":
                    year = value
                elif name == "year2":
                    year = _pivot(value)
                elif name == "month":
                    month = value
                else:
                    day = value
                assigned[pos] = name
        else:
            return None
    if year is None and month is None and day is None and weekday is None and season is None:
        return None
    if day is not None and month is None and mode not in ("day_year", "day"):
        return None
    day = _clamp_day(year, month, day)
    if not _valid(year, month, day):
        return None

    # Zero padding: explicit leading zero, or another numeric field of the date has one.
    numeric = [p for p, n in assigned.items() if n in ("month", "day")]
    padded_any = any(num_text(p).startswith("0") for p in numeric)
    # Year-first ("2021-10-16") and dotted ("16.10.2021") numeric dates are conventionally padded.
    padded_style = bool(numeric) and ((year_first and numeric_sep == "-") or numeric_sep == ".")
    out: list[_Part] = []
    for pos, part in enumerate(parts):
        kind = assigned.get(pos)
        if kind is None:
            out.append(part)
            continue
        text = num_text(pos)
        if "\x00" in str(part):
            suffix = str(part).split("\x00")[1]
            if suffix.lower() == "er":
                out.append(_Tag("Der", "fr", group))  # "1er" (French writes only the first with it)
                continue
            out.append(_Tag("Dº" if suffix in "ºª" else ("DO" if suffix.isupper() else "Do"), "en", group))
            continue
        if kind == "compact":
            out.extend([_Tag("YYYY", "en", group), _Tag("MM", "en", group), _Tag("DD", "en", group)])
            continue
        if kind in ("year", "year4", "year2"):
            out.append(_Tag("YYYY" if len(text) == 4 else "YY", "en", group))
            continue
        letter = "M" if kind == "month" else "D"
        pad = text.startswith("0") or (len(text) == 2 and (padded_any or padded_style))
        out.append(_Tag(letter * 2 if pad else letter, "en", group))
    # Catalan "de març" / "d'abril": the connective follows the month.
    if month_lang == "ca":
        out = _catalan_connective(out, group)
    return _Group(out, DateValue(year, month, day, weekday, season), has_month_word)


def _catalan_connective(parts: list[_Part], group: int) -> list[_Part]:
    out: list[_Part] = []
    i = 0
    while i < len(parts):
        nxt = parts[i + 2] if i + 2 < len(parts) else None
        is_month = isinstance(nxt, _Tag) and nxt.name.lower() in ("month", "mon")
        cur = parts[i]
        if is_month and isinstance(cur, str) and isinstance(parts[i + 1], str):
            sep = str(parts[i + 1])
            if cur.casefold() == "de" and sep == " ":
                out.append(_Tag("DE" if cur.isupper() else "de", "ca", group))
                i += 2
                continue
            if cur.casefold() == "d" and sep in ("'", "’"):
                out.append(
                    _Tag("DE" if cur.isupper() else "de", "ca", group, extra=sep if sep != "'" else "")
                )
                i += 2
                continue
        out.append(cur)
        i += 1
    return out


def _has_month_word(tokens: list[_Tok]) -> bool:
    return any(t.kind == "word" and t.text.casefold() in _MONTH_WORDS for t in tokens)


def parse_date(surface: str, *, lang: str | None = None) -> ParsedDate | None:
    """Parse a date surface into its fields and format template.

    Args:
        surface: the date text, e.g. "03/12/2019", "12th of March", "2019年3月12日", "Spring 2019".
        lang: language hint ("en", "es", "ca", "en_GB", ...): European languages read "03/12/2019"
            as day/month; it also picks Spanish vs Catalan for words both share.

    Returns:
        The parsed date, or None when the surface is not a date this module understands.
    """
    tokens = _lex(surface)
    if not tokens:
        return None
    hint = lang.lower() if lang else None
    if hint and hint.startswith("en_gb"):
        hint = "uk"
    single = _resolve(tokens, hint)
    if single is not None:
        return _make((single,), (single.value.fields(),), hint)
    # A range: split at a separator where both sides are dates.
    for i, tok in enumerate(tokens):
        is_sep = (tok.kind == "sep" and tok.text.strip() in _RANGE_SEPS) or (
            tok.kind == "word" and tok.text.casefold() in _RANGE_WORDS
        )
        if not is_sep:
            continue
        left, right = tokens[:i], tokens[i + 1 :]
        lmode = "day_year" if not _has_month_word(left) and _has_month_word(right) else "normal"
        rmode = "day_year" if not _has_month_word(right) and _has_month_word(left) else "normal"
        g1 = _resolve(left, hint, "day" if lmode == "day_year" else "normal", 0)
        if g1 is None and lmode == "day_year":
            g1 = _resolve(left, hint, lmode, 0)
        g2 = _resolve(right, hint, rmode, 1)
        if g1 is None or g2 is None:
            continue
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
        v1 = replace(v1, day=_clamp_day(v1.year, v1.month, v1.day))
        v2 = replace(v2, day=_clamp_day(v2.year, v2.month, v2.day))
        if not (_valid(v1.year, v1.month, v1.day) and _valid(v2.year, v2.month, v2.day)):
            continue
        g1.value, g2.value = v1, v2
        parts = (*g1.parts, tok.text, *g2.parts)
        merged = _Group(list(parts), v1, g1.has_month_word)
        return _make((merged, g2), shown, hint)
    return None


def _make(groups: Sequence[_Group], shown: tuple[frozenset[str], ...], hint: str | None) -> ParsedDate:
    parts = tuple(groups[0].parts)
    langs = [p.lang for p in parts if isinstance(p, _Tag) and p.name.lower() not in _NUMERIC_TAGS]
    template = "".join(
        p.text() if isinstance(p, _Tag) else p.replace("{", "{{").replace("}", "}}") for p in parts
    )
    return ParsedDate(
        values=tuple(g.value for g in groups),
        template=template,
        lang=langs[0] if langs else None,
        _parts=parts,
        _shown=shown,
    )


_NUMERIC_TAGS = frozenset({"yyyy", "yy", "m", "mm", "d", "dd", "do", "dº", "der"})

# --------------------------------------------------------------------------------------------
# Shifting and rendering


def _season_of(day: dt.date) -> tuple[int, int]:
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


def _shift_value(v: DateValue, days: int) -> DateValue:
    ref = _reference(v)
    if ref is None:
        weekday = None if v.weekday is None else (v.weekday + days) % 7
        return replace(v, weekday=weekday)
    new = ref + dt.timedelta(days=days)
    season, season_year = _season_of(new)
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


def _render_tag(tag: _Tag, v: DateValue) -> str:
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
        names = _SEASONS.get(tag.lang, _SEASONS["en"])
        return _apply_case(names[need(v.season)], name)
    if key == "de":
        vowel = need(v.month) in (4, 8, 10)  # abril, agost, octubre
        text = ("d" + (tag.extra or "'")) if vowel else "de "
        return text.upper() if name == "DE" else text
    raise ValueError(f"unknown date template tag {tag.text()}")


def _render(parts: Sequence[_Part], values: Sequence[DateValue], shown: Sequence[frozenset[str]]) -> str:
    out: list[str] = []
    month_tag = next(
        (p for p in parts if isinstance(p, _Tag) and p.group == 0 and p.name.lower() in ("month", "mon")),
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


def _parse_template(template: str) -> list[_Part]:
    parts: list[_Part] = []
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
            parts.append(_Tag(name, lang, 1 if group else 0, extra))
        pos = m.end()
    literal(template[pos:])
    return parts


def format_date(day: dt.date, template: str) -> str:
    """Render a date with a template such as ``"{Month} {Do}, {YYYY}"`` or ``"{D} de {month:es} de {YYYY}"``.

    Raises:
        ValueError: an unknown tag or unbalanced braces.
    """
    season, season_year = _season_of(day)
    parts = _parse_template(template)
    has_season = any(isinstance(p, _Tag) and p.name.lower() == "season" for p in parts)
    value = DateValue(season_year if has_season else day.year, day.month, day.day, day.weekday(), season)
    return "".join(p if isinstance(p, str) else _render_tag(p, value) for p in parts)


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
