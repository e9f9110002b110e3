"""DATE and CONTACT rules compiled from the language packs (es, ca, de, fr, nl, zh).

:mod:`phiscrub.detect.rules.langpacks` holds the words; this module turns them into
:class:`~phiscrub.detect.rules.base.PatternRule` objects. ``date_rules`` and ``contact_rules`` of
the kind modules add these to their language-neutral rules for a pack language (the ID rules of
the packs are in :mod:`.intl_ids`).

DATE (Latin-script packs): day-month-year with month names or abbreviations (``3 de març de 2019``,
``3 d'abril``, ``12. März 2019``, ``le 1er janvier 2019``, ``3 januari 2019``, ``12-mar-19``), an
optional weekday before (``dilluns, 3 de març``), month and year (``marzo de 2019``), day and
month without year (full month names only), a bare month name or year after a cue word
(``desde marzo``, ``l'any 2019``), year ranges, and numeric day/month after a cue (``el 3/12``,
``am 10.3.``: a one-digit month after a dot only with the closing period a decimal never has) or
before a clock time (``08.05.  16:20 Uhr``).
Chinese: ``2019年3月12日``, ``2019年3月``, ``2019年``, ``3月12日``, and the same with Chinese numerals.

CONTACT: national phone shapes (German ``030 1234567``, French ``01 23 45 67 89``, Dutch
``020-1234567``, Chinese ``138-1234-5678``), and any 7-15 digit number right after a phone or fax
word of the language (``Tfno: 926232991``, ``电话：87654321``); FAX when the nearest cue is a fax word.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import followed_by_unit, nfd_words, pack_rules
from phiscrub.detect.rules.base import Labeler, PatternRule, Validator, trie_pattern
from phiscrub.detect.rules.intl_nordic import nordic_date_rules
from phiscrub.detect.rules.intl_spanish_dates import (
    SPANISH_LANGUAGES,
    spanish_date_rules,
    spanish_day_month_veto,
)
from phiscrub.detect.rules.langpacks import LANGUAGE_PACKS, LanguagePack, normalize_lang

__all__ = ["pack_contact_rules", "pack_date_rules"]


def _variants(words: tuple[str, ...] | list[str]) -> list[str]:
    """Each word as written, lower-case, Title-case and UPPER-case, composed and decomposed (NFD)."""
    out: list[str] = []
    for w in words:
        for form in (w, w.lower(), w[:1].upper() + w[1:].lower(), w.upper()):
            for spelled in (form, unicodedata.normalize("NFD", form)):
                if spelled not in out:
                    out.append(spelled)
    return out


def _flat(groups: tuple[tuple[str, ...], ...]) -> list[str]:
    return [w for g in groups for w in g]


# ================================================================================================
# DATE
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_YEAR4 = r"(?:19|20)\d{2}"

_RX = pattern_data("intl", globals())

# Not followed by a letter or a combining mark (decomposed "març" is "marc" + U+0327).
_NOT_LETTER = r"(?![^\W\d_]|[\u0300-\u036f])"


def _date_parts(pack: LanguagePack) -> dict[str, str]:
    full = _variants(_flat(pack.months))
    abbrs = _variants(_flat(pack.month_abbrs))
    abbr_words = [w for a in abbrs for w in (a, a + ".")]
    month_full = trie_pattern(full, ignore_case=False) + _NOT_LETTER
    # "janv." keeps its period; a bare abbreviation must not run into a letter.
    month_any = (
        "(?:" + trie_pattern([*full, *abbr_words], ignore_case=False) + r")(?:(?<=\.)|" + _NOT_LETTER + ")"
    )
    abbr_any = "(?:" + trie_pattern(abbr_words, ignore_case=False) + r")(?:(?<=\.)|" + _NOT_LETTER + ")"
    # Before a bare year only "Mar." or "MAR" ("des 2015" is French "of the").
    strict = [a + "." for a in abbrs] + [a for a in abbrs if a.isupper() and len(a) > 2]
    abbr_strict = "(?:" + trie_pattern(strict, ignore_case=False) + r")(?:(?<=\.)|" + _NOT_LETTER + ")"
    weekday = trie_pattern(_variants(_flat(pack.weekdays)), ignore_case=False) + _NOT_LETTER
    after_wd = rf"(?:{pack.after_weekday}[ \t]+)?" if pack.after_weekday else ""
    wd_prefix = rf"(?:{weekday},?[ \t]+{after_wd})?"
    day = rf"{_DAY}{pack.day_suffix}(?!\d)"
    return {
        "month_full": month_full,
        "month_any": month_any,
        "abbr_any": abbr_any,
        "abbr_strict": abbr_strict,
        "wd": wd_prefix,
        "day": day,
        "dm": pack.day_month,
        "my": pack.month_year,
    }


def _cue_before_re(cues: tuple[str, ...]) -> re.Pattern[str]:
    """Matches at the end of the text before a candidate when one of ``cues`` ends it."""
    return re.compile(rf"(?:(?<![\w]){nfd_words(cues)}[ \t]+|\()\Z")


def _month_date_re(p: dict[str, str]) -> re.Pattern[str]:
    return re.compile(
        # 3 de marzo de 2019 / dilluns, 3 d'abril del 2019 / 12. März 2019 / le 1er janvier 2019.
        rf"(?P<full>{p['wd']}{p['day']}{p['dm']}{p['month_any']}{p['my']}{_YEAR4})(?!\d)"
        # 12-mar-2019 / 12/MAR/19 / 12.Mär.2019.
        rf"|(?P<compact>{_DAY}(?P<s>[-/.]){p['month_any']}(?P=s)(?:{_YEAR4}|\d{{2}}))(?![\d/.\-]\d)(?!\d)"
        # marzo de 2019 / März 2019 / MAR 2019 / mar-2019.
        rf"|(?P<my>(?:{p['month_full']}{p['my']}|{p['abbr_strict']}[ \t]+"
        rf"|(?:{p['month_full']}|{p['abbr_any']})[ \t]*[-/][ \t]*){_YEAR4})(?!\d)"
        # 3 de marzo / 3 d'abril / 12. März / 3 janvier (full month names only).
        rf"|(?P<dm>{p['wd']}{p['day']}{p['dm']}{p['month_full']})"
    )


def _month_date_ok(m: re.Match[str]) -> bool:
    if m.group("dm") is not None or m.group("compact") is not None:
        return not followed_by_unit(m.string, m.end())
    return True


def _numeric_day_month_re() -> re.Pattern[str]:
    # 3/12, 03/12, 13.01 (day first, as in every pack language); the year-less numeric date.
    # "am 03.05." and "am 10.3." keep their closing period (German day-month), "el 3/12" has none.
    return re.compile(
        r"(?P<d>0?[1-9]|[12]\d|3[01])(?P<s>[/.])(?P<m>0?[1-9]|1[0-2])"
        r"(?:(?:(?<=\.\d\d)|(?<=\.\d))\.(?!\w|\.[\w.]))?(?![\d/]|[.,]\d)"
    )


def _numeric_day_month_ok(cue_re: re.Pattern[str], veto: Validator | None = None) -> Validator:
    """``veto``: the language's evidence that a cued day-month is another number (Spanish ``día 7/7``)."""

    def ok(m: re.Match[str]) -> bool:
        text, start = m.string, m.start()
        # "Untersuchung: 26.04.;": after a field label a two-digit day-month with its closing period.
        labelled = _RX["LABEL_COLON_RE"].search(text, max(0, start - 30), start) is not None and bool(
            re.fullmatch(r"\d\d\.\d\d\.", m.group())
        )
        # "Telefonnotiz  08.05.  16:20 Uhr": a day-month with its closing period before a clock time.
        clocked = _RX["CLOCK_AFTER_RE"].match(text, m.end()) is not None and bool(
            re.fullmatch(r"\d\d\.\d\d\.", m.group())
        )
        if not (labelled or clocked) and cue_re.search(text, max(0, start - 30), start) is None:
            return False
        # "13.1" is a decimal: a dotted day/month writes the month with two digits, unless the closing
        # period of a day-month follows ("am 10.3.,"; a decimal has none), and not as the end of a
        # range of numbers ("Hb 9.8 - 10.3.").
        if (
            m.group("s") == "."
            and len(m.group("m")) != 2
            and (
                not m.group().endswith(".")
                or _RX["NUMBER_RANGE_BEFORE_RE"].search(text, max(0, start - 20), start)
            )
        ):
            return False
        return not followed_by_unit(text, m.end()) and not (veto is not None and veto(m))

    return ok


def _year_re(range_words: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?P<y1>{_YEAR4})(?:[ \t]*(?:[-–]|{range_words})[ \t]*(?P<y2>{_YEAR4}))?(?![\w/]|[.\-]\d)"
    )


def _year_ok(cue_re: re.Pattern[str]) -> Validator:
    def ok(m: re.Match[str]) -> bool:
        text, start = m.string, m.start()
        if followed_by_unit(text, m.end()) or text[m.end() : m.end() + 1] in (":", "h"):
            return False
        y1 = int(m.group("y1"))
        if m.group("y2") is not None:
            y2 = int(m.group("y2"))
            clock = all(y % 100 < 60 for y in (y1, y2)) and _RX["CLOCK_CUE_RE"].search(
                text, max(0, start - 12), start
            )
            return y1 < y2 and not clock
        return cue_re.search(text, max(0, start - 40), start) is not None

    return ok


def _month_word_ok(cue_re: re.Pattern[str]) -> Validator:
    def ok(m: re.Match[str]) -> bool:
        return cue_re.search(m.string, max(0, m.start() - 40), m.start()) is not None

    return ok


_RANGE_WORDS = {
    "es": "a|al|hasta|y",
    "ca": "a|al|fins|i",
    "de": "bis|und",
    "fr": "à|a|au|et",
    "nl": "tot|en",
    "nb": "til|og",
    "nn": "til|og",
    "da": "til|og",
    "sv": "till|och",
}


def _latin_date_rules(pack: LanguagePack) -> tuple[PatternRule, ...]:
    p = _date_parts(pack)
    month_anchor = re.compile(rf"(?<![^\W\d_]){p['month_any']}")
    year_cue = _cue_before_re(pack.year_cues)
    month_cue = _cue_before_re(pack.month_cues)
    # Also a dateline: "Wien, 01.03." (a capitalised place or word opening the line, then a comma).
    day_cue = re.compile(
        rf"(?:(?<![\w]){nfd_words(pack.day_cues)}[ \t]+|\(|(?:^|\n)[ \t]*[^\W\d_][\w\-. ]{{1,30}},[ \t]*)\Z"
    )

    month_word = re.compile(rf"{p['month_full']}(?![ \t\-/.]*\d)")
    year = _year_re(_RANGE_WORDS.get(pack.code, "-"))
    code = pack.code
    veto = spanish_day_month_veto if code in SPANISH_LANGUAGES else None

    return (
        PatternRule("DATE", _month_date_re(p),        name=f"month_date_{code}",        score=0.9, validator=_month_date_ok, not_after=r"[\w/.\-]", anchor=month_anchor, reach=(60, 30)),
        PatternRule("DATE", month_word,               name=f"month_word_{code}",        score=0.7, validator=_month_word_ok(month_cue), not_after=r"[\w'’]"),
        PatternRule("DATE", year,                     name=f"year_{code}",              score=0.8, group=("y1", "y2"), validator=_year_ok(year_cue), not_after=r"[\w/.\-]"),
        PatternRule("DATE", _numeric_day_month_re(),  name=f"day_month_numeric_{code}", score=0.7, validator=_numeric_day_month_ok(day_cue, veto), not_after=r"[\w/.:,\-]"),
    )  # fmt: skip


def _zh_date_rules() -> tuple[PatternRule, ...]:
    return (
        PatternRule(
            "DATE",
            _RX["ZH_DATE_RE"],
            not_after=r"[0-9]",
            anchor=re.compile("[年月]"),
            reach=(12, 12),
            score=0.9,
            name="date_zh",
        ),
    )


@cache
def pack_date_rules(lang: str) -> tuple[PatternRule, ...]:
    """The DATE rules of the language pack of ``lang`` (empty for languages without a pack)."""
    code = normalize_lang(lang)
    if code == "zh":
        return _zh_date_rules()
    pack = LANGUAGE_PACKS.get(code)
    if pack is None or not pack.months:
        return ()
    return _latin_date_rules(pack) + nordic_date_rules(code) + spanish_date_rules(code)


# ================================================================================================
# CONTACT
_PHONE_END = r"(?![0-9A-Za-z_]|[.\-/][0-9])"
_DIGIT_RANGE: dict[str, tuple[int, int]] = {
    "de": (8, 13), "fr": (10, 10), "nl": (10, 10), "zh": (10, 12),
    "nb": (8, 11), "nn": (8, 11), "da": (8, 10), "sv": (8, 12),
}  # fmt: skip
_ZH_PHONE_EXTRA = (
    r"1[3-9]\d(?P<zhsep>[ \-])\d{4}(?P=zhsep)\d{4}"  # 138-1234-5678 / 138 1234 5678
    r"|\(0\d{2,3}\)[ ]?\d{7,8}"  # (010)12345678
    r"|0\d{2,3}[ ]\d{7,8}"  # 010 12345678
)


def _cue_words_re(words: tuple[str, ...], cjk: bool) -> str:
    body = nfd_words(words)
    return body if cjk else rf"(?<![\w]){body}(?![\w])"


def _phone_labeler(pack: LanguagePack) -> Labeler:
    """PHONE, or FAX when the nearest cue word before the number is a fax word of the language."""
    cjk = pack.code == "zh"
    cue_re = re.compile(
        rf"(?P<fax>{_cue_words_re(pack.fax_cues, cjk)})|(?P<phone>{_cue_words_re(pack.phone_cues, cjk)})"
    )

    def label(m: re.Match[str]) -> str:
        start = m.start("num") if "num" in m.re.groupindex and m.start("num") >= 0 else m.start()
        last = None
        for cue in cue_re.finditer(m.string, max(0, start - 60), start):
            last = cue
        return "FAX" if last is not None and last.group("fax") is not None else "PHONE"

    return label


def _digits(s: str) -> int:
    return sum(ch.isdigit() for ch in s)


def _national_phone_ok(lo: int, hi: int) -> Validator:
    def ok(m: re.Match[str]) -> bool:
        num = m.group("num")
        return lo <= _digits(num) <= hi and not _RX["DATE_SHAPE_RE"].fullmatch(num)

    return ok


def _cue_phone_ok(m: re.Match[str]) -> bool:
    num = m.group("num")
    if _RX["DATE_SHAPE_RE"].fullmatch(num) or re.search(r"\d[.,]\d{1,2}\Z", num):
        return False  # a date or a decimal after "contacto el ..."
    return 7 <= _digits(num) <= 15 and not followed_by_unit(m.string, m.end())


def _cue_phone_re(pack: LanguagePack) -> re.Pattern[str]:
    cjk = pack.code == "zh"
    cues = _cue_words_re((*pack.phone_cues, *pack.fax_cues), cjk)
    glue = r"(?:[ \t]*(?i:y|i|et|und|en|/|o|or|&)[ \t]*" + _cue_words_re(pack.fax_cues, cjk) + ")?"
    between = r"(?:[ \t]*(?i:n[º°o]|nr|num|núm|número|numero|nummer|numéro|de|du|del|al|au|op|unter|:))*"
    return re.compile(
        rf"{cues}\.?{glue}\.?{between}[ \t:：#=\-]*"
        rf"(?P<num>\+?\(?\d{{1,5}}\)?(?:[ .\-/]?\d{{1,5}}){{1,6}}){_PHONE_END}"
    )


@cache
def pack_contact_rules(lang: str) -> tuple[PatternRule, ...]:
    """The CONTACT rules of the language pack of ``lang`` (empty for languages without a pack)."""
    return pack_rules(LANGUAGE_PACKS, _contact_rules, lang)


def _contact_rules(code: str, pack: LanguagePack) -> tuple[PatternRule, ...]:
    labeler = _phone_labeler(pack)
    rules = [
        PatternRule("PHONE", _cue_phone_re(pack), name=f"phone_cue_{code}", score=0.85, group="num", validator=_cue_phone_ok, labeler=labeler, extra_labels=("FAX",))
    ]  # fmt: skip
    shapes = pack.phone_pattern or (_ZH_PHONE_EXTRA if code == "zh" else "")
    if shapes:
        lo, hi = _DIGIT_RANGE.get(code, (9, 13))
        rules.append(
            PatternRule(
                "PHONE",
                re.compile(rf"(?P<num>{shapes}){_PHONE_END}", re.ASCII),
                validator=_national_phone_ok(lo, hi),
                labeler=labeler,
                extra_labels=("FAX",),
                not_after=r"[A-Za-z0-9_+/.,\-]",
                score=0.8,
                name=f"phone_{code}",
            )
        )
    return tuple(rules)
