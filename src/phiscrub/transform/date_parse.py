"""Reading a date surface: tokens, then the date fields and the template parts of one date.

:func:`resolve` reads one group of tokens (a whole surface, or one side of a range) into its
:class:`~phiscrub.transform.date_format.DateValue` and template parts: month, weekday and season
words (:mod:`phiscrub.calendar`), CJK units, ordinals, then the numbers (a year of four digits or
after an apostrophe, month/day order from the separators and the language hint).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass

from phiscrub.calendar import MONTH_ABBRS, MONTH_NAMES, SEASONS, WEEKDAY_ABBRS, WEEKDAY_NAMES
from phiscrub.transform.date_format import DateValue, Part, Tag

__all__ = [
    "RANGE_SEPS",
    "RANGE_WORDS",
    "Group",
    "Tok",
    "clamp_day",
    "has_month_word",
    "lex",
    "resolve",
    "valid",
]

# Variant spellings (beyond the written forms) that the parser reads, as (language, word, is full
# name); the detection rules read every spelling of :mod:`phiscrub.calendar`.
_READ_VARIANTS = frozenset(
    {("en", "sept", False), ("es", "setiembre", True), ("ca", "marc", True), ("de", "jänner", True)}
    | {("de", "maerz", True), ("de", "mrz", False), ("fr", "fevrier", True), ("fr", "aout", True)}
    | {("fr", "decembre", True), ("fr", "fevr", False), ("en", "tues", False), ("en", "thur", False)}
    | {("en", "thurs", False), ("es", "miercoles", True), ("es", "sabado", True)}
)
_EARLY_LANGS = ("en", "es", "ca")


def _build_months() -> dict[str, list[tuple[int, str, bool]]]:
    """casefolded word -> [(month, lang, is_full)].

    English, Spanish and Catalan (and their variants: "sept" is English) come first; without a
    language hint a word shared with German, French or Dutch reads as theirs.
    """
    table: dict[str, list[tuple[int, str, bool]]] = {}
    late = tuple(lang for lang in MONTH_NAMES if lang not in _EARLY_LANGS)
    for langs in (_EARLY_LANGS, late):
        for lang in langs:
            for i, (names, abbrs) in enumerate(zip(MONTH_NAMES[lang], MONTH_ABBRS[lang]), start=1):
                table.setdefault(names[0].casefold(), []).append((i, lang, True))
                if abbrs[0].casefold() != names[0].casefold():
                    table.setdefault(abbrs[0].casefold(), []).append((i, lang, False))
        for lang in langs:
            for i, (names, abbrs) in enumerate(zip(MONTH_NAMES[lang], MONTH_ABBRS[lang]), start=1):
                for spellings, full in ((names, True), (abbrs, False)):
                    for word in (s.casefold() for s in spellings[1:]):
                        if (lang, word, full) in _READ_VARIANTS:
                            table.setdefault(word, []).append((i, lang, full))
    return table


def _build_weekdays() -> dict[str, list[tuple[int, str, bool]]]:
    table: dict[str, list[tuple[int, str, bool]]] = {}
    for lang, names in WEEKDAY_NAMES.items():
        for i, (full, abbrs) in enumerate(zip(names, WEEKDAY_ABBRS[lang])):
            table.setdefault(full[0].casefold(), []).append((i, lang, True))
            # Spanish/Catalan weekday abbreviations clash with months and words ("mar", "dj"): en only.
            if lang == "en":
                table.setdefault(abbrs[0].casefold(), []).append((i, lang, False))
    for lang, names in WEEKDAY_NAMES.items():
        for i, (full, abbrs) in enumerate(zip(names, WEEKDAY_ABBRS[lang])):
            for spellings, is_full in ((full, True), (abbrs, False)):
                for word in (s.casefold() for s in spellings[1:]):
                    if (lang, word, is_full) in _READ_VARIANTS:
                        table.setdefault(word, []).append((i, lang, is_full))
    return table


def _build_seasons() -> dict[str, list[tuple[int, str]]]:
    table: dict[str, list[tuple[int, str]]] = {}
    for lang, names in SEASONS.items():
        for i, name in enumerate(names):
            if (i, lang) not in table.get(name, []):
                table.setdefault(name, []).append((i, lang))
    return table


_MONTH_WORDS = _build_months()
_WEEKDAY_WORDS = _build_weekdays()
_SEASON_WORDS = _build_seasons()

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
RANGE_WORDS = frozenset(
    ["to", "through", "thru", "until", "till", "al", "a", "hasta", "fins", "and", "i", "y", "至", "到"]
)
RANGE_SEPS = frozenset(["-", "–", "—", "~", "～"])
_EU_LANGS = frozenset({"es", "ca", "fr", "de", "it", "nl", "pt", "uk", "gb", "en_gb", "en-gb"})
_CJK_UNITS = {"年": "year", "月": "month", "日": "day", "号": "day"}


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
class Tok:
    """One token of a date surface."""

    kind: str  # time ord num cjk word sep
    text: str
    suffix: str = ""


def lex(surface: str) -> list[Tok]:
    """The tokens of a date surface: times, ordinals, numbers, CJK units, words, separators."""
    out: list[Tok] = []
    for m in _LEX.finditer(surface):
        kind = m.lastgroup or "sep"
        if kind == "suf":
            kind = "ord"
        if kind == "ord":
            out.append(Tok("ord", m.group("ord"), m.group("suf")))
        else:
            out.append(Tok(kind, m.group(0)))
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


def valid(year: int | None, month: int | None, day: int | None) -> bool:
    """Whether the fields can be one calendar date (any year when the year is unknown)."""
    if month is not None and not 1 <= month <= 12:
        return False
    if year is not None and not 1000 <= year <= 2999:
        return False
    if day is not None:
        if month is None:
            return 1 <= day <= 31
        return 1 <= day <= calendar.monthrange(year if year is not None else 2000, month)[1]
    return True


def clamp_day(year: int | None, month: int | None, day: int | None) -> int | None:
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
class Group:
    """One date of a surface: its template parts and value."""

    parts: list[Part]
    value: DateValue
    has_month_word: bool


def _hint_from_words(tokens: list[Tok], hint: str | None) -> str | None:
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


class _Fields:
    """The date fields and template parts of one group of tokens, filled in step by step."""

    def __init__(self, hint: str | None, mode: str, group: int) -> None:
        self.hint = hint
        self.mode = mode
        self.group = group
        self.parts: list[Part] = []
        self.num_idx: list[int] = []  # positions in ``parts`` of numbers still to assign
        self.assigned: dict[int, str] = {}  # part index -> field
        self.year: int | None = None
        self.month: int | None = None
        self.day: int | None = None
        self.weekday: int | None = None
        self.season: int | None = None
        self.month_lang: str | None = None
        self.has_month_word = False
        self.numeric_sep = ""
        self.year_first = False

    # -- tokens ----------------------------------------------------------------------------------

    def read(self, tokens: list[Tok]) -> bool:
        """Take every token; False when one cannot be part of a date."""
        for tok in tokens:
            if tok.kind in ("sep", "time"):
                self.parts.append(tok.text)
            elif tok.kind == "cjk":
                # Unit after a number: 2019年3月12日.
                if not self.parts or not self.num_idx or self.num_idx[-1] != len(self.parts) - 1:
                    return False
                self.assigned[self.num_idx.pop()] = _CJK_UNITS[tok.text]
                self.parts.append(tok.text)
            elif tok.kind == "ord":
                self.assigned[len(self.parts)] = "day"
                self.parts.append(tok.text + "\x00" + tok.suffix)
            elif tok.kind == "num":
                self.num_idx.append(len(self.parts))
                self.parts.append(tok.text)
            elif not self._word(tok):
                return False
        return self.season is None or (self.month is None and self.weekday is None)

    def _word(self, tok: Tok) -> bool:
        word = tok.text.casefold()
        case = _case(tok.text)
        if word in _MONTH_WORDS and self.month is None:
            num, lang, full = _pick_lang(_MONTH_WORDS[word], self.hint)
            self.month, self.month_lang, self.has_month_word = num, lang, True
            self.parts.append(Tag(_styled("Month" if full else "Mon", case), lang, self.group))
        elif word in _WEEKDAY_WORDS and self.weekday is None:
            num, lang, full = _pick_lang(_WEEKDAY_WORDS[word], self.hint)
            self.weekday = num
            self.parts.append(Tag(_styled("Weekday" if full else "Wkd", case), lang, self.group))
        elif word in _SEASON_WORDS and self.season is None:
            cands = _SEASON_WORDS[word]
            s_num, s_lang = cands[0]
            for cand in cands:
                if cand[1] == self.hint:
                    s_num, s_lang = cand
            self.season = s_num
            self.parts.append(Tag(_styled("Season", case), s_lang, self.group))
        elif word in _FILLER:
            self.parts.append(tok.text)
        else:
            return False
        return True

    def num_text(self, pos: int) -> str:
        """The digits of the number at ``pos`` (an ordinal without its suffix)."""
        text = self.parts[pos]
        assert isinstance(text, str)
        return text.split("\x00")[0]

    def _apostrophe_before(self, pos: int) -> bool:
        return pos > 0 and isinstance(self.parts[pos - 1], str) and self.parts[pos - 1] in ("'", "’", "`")

    # -- fields ----------------------------------------------------------------------------------

    def assign_units(self) -> bool:
        """Numbers fixed by a CJK unit or an ordinal suffix; False on two ordinals or a stray number."""
        for pos, name in list(self.assigned.items()):
            if name == "day" and self.parts[pos] and "\x00" in str(self.parts[pos]):
                continue
            value = int(self.num_text(pos))
            if name == "year":
                self.year = value if len(self.num_text(pos)) == 4 else _pivot(value)
            elif name == "month":
                self.month = value
            elif name == "day":
                self.day = value
        ords = [p for p in self.assigned if "\x00" in str(self.parts[p])]
        if len(ords) > 1:
            return False
        if ords:
            self.day = int(self.num_text(ords[0]))
        # A stray number next to CJK units is no date.
        return not (any(_CJK_UNITS.get(str(p)) for p in self.parts) and self.num_idx)

    def assign_numbers(self) -> bool:
        """The remaining numbers: around a month or season word, or a numeric date."""
        if self.has_month_word or self.season is not None or self.mode == "day_year":
            return all(self._number_near_words(pos) for pos in self.num_idx)
        if not self.num_idx:
            return True
        if len(self.num_idx) == 1:
            return self._lone_number(self.num_idx[0])
        if len(self.num_idx) in (2, 3):
            return self._numeric_date()
        return False

    def _set(self, pos: int, name: str, value: int) -> None:
        self.assigned[pos] = name
        if name == "year4":
            self.year = value
        elif name == "year2":
            self.year = _pivot(value)
        elif name == "month":
            self.month = value
        else:
            self.day = value

    def _number_near_words(self, pos: int) -> bool:
        text = self.num_text(pos)
        value = int(text)
        if len(text) == 4 and self.year is None:
            self._set(pos, "year4", value)
        elif len(text) == 2 and self._apostrophe_before(pos) and self.year is None:
            self._set(pos, "year2", value)
        elif self.day is None and self.season is None and 1 <= value <= 31 and len(text) <= 2:
            self._set(pos, "day", value)
        elif self.year is None and len(text) == 2:
            self._set(pos, "year2", value)
        else:
            return False
        return True

    def _lone_number(self, pos: int) -> bool:
        text = self.num_text(pos)
        value = int(text)
        if len(text) == 2 and self._apostrophe_before(pos):
            self._set(pos, "year2", value)
        elif len(text) == 4 and 1800 <= value <= 2200:
            self._set(pos, "year4", value)
        elif len(text) == 8 and valid(int(text[:4]), int(text[4:6]), int(text[6:])):
            self.year, self.month, self.day = int(text[:4]), int(text[4:6]), int(text[6:])
            self.assigned[pos] = "compact"
        elif self.mode == "day" and 1 <= value <= 31 and len(text) <= 2:
            self._set(pos, "day", value)
        else:
            return False
        return True

    def _numeric_date(self) -> bool:
        """Two or three numbers with one separator kind: "3/12", "03/12/2019", "2019-03-12"."""
        nums = self.num_idx
        seps = {str(self.parts[p + 1]).strip() for p in nums[:-1] if p + 1 < len(self.parts)}
        if not seps <= {"/", "-", ".", ""} or len(seps) > 1:
            return False
        self.numeric_sep = next(iter(seps))
        texts = [self.num_text(p) for p in nums]
        order = self._order(texts, [int(t) for t in texts])
        if order is None:
            return False
        for pos, text, name in zip(nums, texts, order):
            self._set(pos, name, int(text))
        return True

    def _order(self, texts: list[str], values: list[int]) -> tuple[str, ...] | None:
        """The field of each number, from their widths, values, separator and language."""
        if len(texts[0]) == 4:
            self.year_first = True
            return ("year4", "month") if len(texts) == 2 else ("year4", "month", "day")
        if len(texts) == 2 and len(texts[1]) == 4:
            return ("month", "year4")
        if len(texts) == 3 and not (len(texts[0]) <= 2 and len(texts[1]) <= 2 and len(texts[2]) in (2, 4)):
            return None
        eu = self.numeric_sep == "." or (self.hint or "").lower() in _EU_LANGS
        va, vb = values[0], values[1]
        if va > 12 >= vb:
            eu = True
        elif vb > 12 >= va:
            eu = False
        order = ("day", "month") if eu else ("month", "day")
        if len(texts) == 3:
            return (*order, "year4" if len(texts[2]) == 4 else "year2")
        return order

    def check(self) -> bool:
        """Whether the fields make a date (a day past the month's end is clamped first)."""
        if all(f is None for f in (self.year, self.month, self.day, self.weekday, self.season)):
            return False
        if self.day is not None and self.month is None and self.mode not in ("day_year", "day"):
            return False
        self.day = clamp_day(self.year, self.month, self.day)
        return valid(self.year, self.month, self.day)

    # -- template --------------------------------------------------------------------------------

    def template(self) -> list[Part]:
        """The parts with every number replaced by its tag (zero padding kept)."""
        # Zero padding: explicit leading zero, or another numeric field of the date has one.
        numeric = [p for p, n in self.assigned.items() if n in ("month", "day")]
        padded_any = any(self.num_text(p).startswith("0") for p in numeric)
        # Year-first ("2021-10-16") and dotted ("16.10.2021") numeric dates are conventionally padded.
        padded_style = bool(numeric) and (
            (self.year_first and self.numeric_sep == "-") or self.numeric_sep == "."
        )
        out: list[Part] = []
        for pos, part in enumerate(self.parts):
            kind = self.assigned.get(pos)
            if kind is None:
                out.append(part)
            elif "\x00" in str(part):
                out.append(self._ordinal_tag(str(part).split("\x00")[1]))
            elif kind == "compact":
                out.extend(
                    [Tag("YYYY", "en", self.group), Tag("MM", "en", self.group), Tag("DD", "en", self.group)]
                )
            elif kind in ("year", "year4", "year2"):
                out.append(Tag("YYYY" if len(self.num_text(pos)) == 4 else "YY", "en", self.group))
            else:
                text = self.num_text(pos)
                letter = "M" if kind == "month" else "D"
                pad = text.startswith("0") or (len(text) == 2 and (padded_any or padded_style))
                out.append(Tag(letter * 2 if pad else letter, "en", self.group))
        # Catalan "de març" / "d'abril": the connective follows the month.
        if self.month_lang == "ca":
            out = _catalan_connective(out, self.group)
        return out

    def _ordinal_tag(self, suffix: str) -> Tag:
        if suffix.lower() == "er":
            return Tag("Der", "fr", self.group)  # "1er" (French writes only the first with it)
        return Tag("Dº" if suffix in "ºª" else ("DO" if suffix.isupper() else "Do"), "en", self.group)


def resolve(tokens: list[Tok], hint: str | None, mode: str = "normal", group: int = 0) -> Group | None:
    """Turn one group of tokens into parts + value, or None when it is not a date.

    ``mode="day_year"``: the month comes from the other side of a range, numbers are day or year;
    ``mode="day"``: a lone number may be a day.
    """
    fields = _Fields(_hint_from_words(tokens, hint), mode, group)
    if not (fields.read(tokens) and fields.assign_units() and fields.assign_numbers() and fields.check()):
        return None
    value = DateValue(fields.year, fields.month, fields.day, fields.weekday, fields.season)
    return Group(fields.template(), value, fields.has_month_word)


def _catalan_connective(parts: list[Part], group: int) -> list[Part]:
    out: list[Part] = []
    i = 0
    while i < len(parts):
        nxt = parts[i + 2] if i + 2 < len(parts) else None
        is_month = isinstance(nxt, Tag) and nxt.name.lower() in ("month", "mon")
        cur = parts[i]
        if is_month and isinstance(cur, str) and isinstance(parts[i + 1], str):
            sep = str(parts[i + 1])
            if cur.casefold() == "de" and sep == " ":
                out.append(Tag("DE" if cur.isupper() else "de", "ca", group))
                i += 2
                continue
            if cur.casefold() == "d" and sep in ("'", "’"):
                out.append(Tag("DE" if cur.isupper() else "de", "ca", group, extra=sep if sep != "'" else ""))
                i += 2
                continue
        out.append(cur)
        i += 1
    return out


def has_month_word(tokens: list[Tok]) -> bool:
    """Whether the tokens hold a month name."""
    return any(t.kind == "word" and t.text.casefold() in _MONTH_WORDS for t in tokens)
