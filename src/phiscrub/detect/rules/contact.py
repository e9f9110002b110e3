"""CONTACT rules: PHONE, FAX, EMAIL, URL, IPADDRESS.

Phone numbers are labelled FAX when the nearest contact word before them is a fax word
(``Fax:``, ``faxed to ... at``), PHONE otherwise. E-mail, URL and IP patterns are
language-neutral; the phone context words are English (``lang="en"``), but the number shapes
(``+34 912 345 678``) are not.
"""

from __future__ import annotations

import ipaddress
import re

from phiscrub.detect.rules._common import AnchorFn, followed_by_unit, long_runs, text_after
from phiscrub.detect.rules.base import PatternRule, RuleDetector, Validator, trie_pattern
from phiscrub.detect.rules.intl import pack_contact_rules

__all__ = [
    "CONTACT_RULES_EN",
    "CONTACT_RULES_ES",
    "CONTACT_RULES_NEUTRAL",
    "CONTACT_RULES_ZH",
    "contact_detector",
    "contact_rules",
]

# --- fax or phone? --------------------------------------------------------------------------
_FAX_WORD = r"fax(?:ed|ing|es)?|facsimile|telefax|fx"
# Words that say "this number is a telephone" (they beat an earlier fax word).
_PHONE_CUE = (
    r"phone|telephone|tel|ph|cell|cellphone|mobile|mob|call|called|calling|pager|pgr|beeper|ext|extension"
    r"|hotline|helpline|text|sms|whatsapp|tel[eè]fon|tel[eé]fono|m[oò]bil|m[oó]vil"
)
# Letterheads abbreviate: "T (617) 555-0134 | F (617) 555-0199".
_CUE_RE = re.compile(
    rf"\b(?:(?P<fax>{_FAX_WORD}|(?-i:F))|(?P<phone>{_PHONE_CUE}|(?-i:T|P|M)))\b(?![/\-])"
    r"|(?P<fax_zh>传真)|(?P<phone_zh>电话|手机|联系方式)",
    re.IGNORECASE,
)
_CUE_WORDS = (
    trie_pattern(
        (
            "fax",
            "faxed",
            "faxing",
            "faxes",
            "facsimile",
            "telefax",
            "fx",
            "phone",
            "telephone",
            "tel",
            "ph",
            "cell",
            "cellphone",
            "mobile",
            "mob",
            "call",
            "called",
            "calling",
            "pager",
            "pgr",
            "beeper",
            "ext",
            "extension",
            "hotline",
            "helpline",
            "text",
            "sms",
            "whatsapp",
            "telefon",
            "telèfon",
            "teléfono",
            "telefono",
            "mobil",
            "mòbil",
            "móvil",
            "movil",
            "line",
            "number",
            "contact",
            "reach",
            "reached",
            "reachable",
        )
    )
    + r"(?![\w])"
)
_SHORT_WORDS = trie_pattern(("ext", "ext.", "extension", "pager", "pgr", "beeper", "paging")) + r"(?![\w])"


def _nearest_cue_is_fax(m: re.Match[str], window: int = 60) -> bool:
    """True when the last contact word within ``window`` characters before the match is a fax word."""
    text = m.string
    # The number is the last named group; a cue inside the match ("Fax: ...") counts.
    start = m.start(m.lastgroup) if m.lastgroup else m.start()
    lo = max(0, start - window)
    last = None
    for cue in _CUE_RE.finditer(text, lo, start):
        last = cue
    return last is not None and (last.group("fax") is not None or last.group("fax_zh") is not None)


def _digit_count(s: str) -> int:
    return sum(ch.isdigit() for ch in s)


def _phone_label(m: re.Match[str]) -> str:
    return "FAX" if _nearest_cue_is_fax(m) else "PHONE"


def _phone_rule(
    pattern: re.Pattern[str],
    name: str,
    score: float,
    *,
    group: int | str | tuple[int | str, ...] = 0,
    validator: Validator | None = None,
    not_after: str = "",
    anchor: re.Pattern[str] | AnchorFn | None = None,
    reach: tuple[int, int] = (40, 40),
) -> PatternRule:
    """A PHONE rule whose label turns FAX when the nearest cue word before the number is a fax word."""
    return PatternRule(
        "PHONE",
        pattern,
        group=group,
        validator=validator,
        labeler=_phone_label,
        extra_labels=("FAX",),
        not_after=not_after,
        anchor=anchor,
        reach=reach,
        score=score,
        name=name,
    )


_EXT = r"(?:[ \t]*(?:x|ext\.?|extension|#)[ \t]*\d{1,6})?"
_END = r"(?![\w]|[.\-]\d)"
_US_CORE = r"(?:\(\d{3}\)[ \t]?|\d{3}[.\-])\d{3}[.\-]\d{4}"

# One pass for every phone shape; the named group says which shape matched. Every alternative
# starts with a digit, "+", "(" or a cue word, so ``re`` can skip ahead quickly.
_PHONE_RE = re.compile(
    # +1 617 555 0134 / 1-800-555-0199 / 001-617-555-0134 x123
    rf"(?P<us>(?:\+1|001|1)[ \t.\-]?(?:\(\d{{3}}\)[ \t]?|\d{{3}}[ .\-])\d{{3}}[ .\-]\d{{4}}{_EXT}"
    # (617) 555-0134 / 617-555-0134 / 617.555.0134 / (617) 555 0134
    rf"|{_US_CORE}{_EXT}|\(\d{{3}}\)[ \t]?\d{{3}}[ \t]\d{{4}}{_EXT}){_END}"
    # 617 555 0134 (spaces only: checked against the North American numbering plan)
    rf"|(?P<spaced>[2-9]\d\d[ ][2-9]\d\d[ ]\d{{4}}{_EXT}){_END}"
    # ext. 4521 / pager 61234 (short internal numbers).
    rf"|(?<![\w]){_SHORT_WORDS}[ \t]*#?:?[ \t]*(?P<short>\d{{3,7}})(?![\w/]|[.\-]\d)"
    # Any 7-15 digit number right after a phone or fax word: "cell 555-0134", "Tel 020 7946 0958".
    rf"|(?<![\w]){_CUE_WORDS}\.?(?:[ \t]*(?i:no\.?|number|#|nr\.?|num\.?|is|at|to|line))*[ \t:#=\-]*"
    rf"(?P<ctx>\(?\d{{2,5}}\)?(?:[ .\-]\d{{2,5}}){{0,3}}[ .\-]?\d{{3,5}}{_EXT}){_END}"
)
# +34 912 345 678 / +44 20 7946 0958 / +49 30 1234567 / +33 (0)1 23 45 67 89 (any language)
_INTL_RE = re.compile(
    rf"(?P<intl>\+\d{{1,3}}(?:[ \t.\-]?(?:\(\d{{1,4}}\)|\d{{1,5}})){{2,6}}{_EXT}){_END}", re.ASCII
)
_NUMBER_BEFORE_RE = re.compile(r"[\w+/.\-]", re.ASCII)
_WORD_BEFORE_RE = re.compile(r"\w")


# Weak cue words introduce phone numbers only when no identifier word precedes them.
_WEAK_CUES = frozenset({"line", "number", "contact", "reach", "reached", "reachable"})
_ID_WORDS_BEFORE_RE = re.compile(
    r"(?i)\b(?:record|mrn|hospital|account|acct|member|policy|claim|case|reference|ref|id|serial|lot|order|job"
    r"|accession|license|npi|dea|ssn|social|security|group|plan|chart|patient|transport|unit|room|bed|study)\b"
    r"[^\n]{0,12}\Z"
)


def _phone_ok(m: re.Match[str]) -> bool:
    kind = m.lastgroup
    num = m.group(kind) if kind else ""
    start = m.start()
    if start:
        # Numbers must not continue a word or number; cue words must start a word.
        before = _NUMBER_BEFORE_RE if kind in ("us", "intl", "spaced") else _WORD_BEFORE_RE
        if before.match(m.string, start - 1):
            return False
    if kind == "intl":
        return 8 <= _digit_count(num) <= 15
    if kind == "ctx":
        cue = m.group().split(None, 1)[0].rstrip(".:#").lower()
        if cue in _WEAK_CUES and _ID_WORDS_BEFORE_RE.search(m.string, max(0, start - 30), start):
            return False  # "Medical record number: 450-6431", "Hospital number: ..."
        # A date ("call on 17.08.1981") or decimal is not a phone number; a local number has the
        # 555-0134 shape, anything else needs a full number's 10+ digits.
        if re.fullmatch(r"\d{1,4}[.\-/]\d{1,2}[.\-/]\d{2,4}", num) or re.search(r"\d\.\d{1,2}\Z", num):
            return False
        digits = _digit_count(num)
        return 10 <= digits <= 15 or (digits == 7 and re.match(r"\d{3}[ .\-]\d{4}", num) is not None)
    if kind == "short":
        return not re.match(
            r"[ \t]*(?:mg|ml|mcg|units?|days?|times|hours?|min)\b", text_after(m, 8), re.IGNORECASE
        )
    return True


_EMAIL_RE = re.compile(
    r"(?<![\w.+\-])[A-Za-z0-9](?:[A-Za-z0-9._%+\-]*[A-Za-z0-9_%+\-])?@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![\w\-]|\.[A-Za-z0-9])",
    re.ASCII,  # language-neutral patterns use ASCII word boundaries (CJK text has no spaces)
)
# URL characters: anything but spaces, quotes, brackets and CJK text (no spaces separate a URL from it).
_URLCH = r"\s<>\"'\[\]" + "\u3000-\u9fff\uff00-\uffef"
_PATH = rf"(?:/[^{_URLCH}]*[^{_URLCH}.,;:!?)])?/?"
# Bare domains need a known TLD; two-letter TLDs that are English words (in, it, me ...) are left out
# because "bed.It" (missing space after a full stop) is common in notes.
_TLDS = (
    "com",
    "org",
    "net",
    "edu",
    "gov",
    "mil",
    "int",
    "info",
    "biz",
    "io",
    "health",
    "care",
    "clinic",
    "hospital",
    "app",
    "online",
    "site",
    "cloud",
    "ai",
    "uk",
    "au",
    "de",
    "es",
    "fr",
    "nl",
    "eu",
    "cat",
    "ch",
    "se",
    "dk",
    "fi",
    "nz",
    "jp",
    "cn",
    "br",
    "mx",
    "ar",
    "pl",
    "cz",
    "gal",
    "eus",
    "med",
    "doctor",
    "dental",
    "life",
    "world",
    "link",
    "page",
    "digital",
)
_BARE_TLD = "|".join(sorted(_TLDS, key=len, reverse=True))
_URL_RE = re.compile(
    rf"(?P<scheme>\b(?i:https?|ftps?|sftp)://[^{_URLCH}]*[^{_URLCH}.,;:!?)])"
    rf"|(?<![\w@./\-])(?P<www>(?i:www)\d?\.[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+{_PATH})"
    rf"|(?<![\w@./\-])(?P<bare>(?:[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?\.)*[A-Za-z0-9][A-Za-z0-9\-]*"
    rf"[A-Za-z0-9]\.(?i:{_BARE_TLD})(?:\.(?i:uk|au|es|br|mx|nz|jp|cn|ar))?(?![\w\-@]|\.[A-Za-z0-9]){_PATH})",
    re.ASCII,
)


def _url_ok(m: re.Match[str]) -> bool:
    if m.group("bare") is None:
        return True
    # A bare domain needs letters and a first label of 2+ characters ("Dr.com" typos aside).
    host = m.group("bare").split("/", 1)[0]
    return any(ch.isalpha() for ch in host) and len(host.split(".")[0]) >= 2


_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IP_RE = re.compile(
    rf"(?<![\w.])(?P<v4>(?:{_OCTET}\.){{3}}{_OCTET}(?:/\d{{1,2}}|:\d{{2,5}})?)(?![\w]|\.\d)"
    # Generous IPv6 candidate, validated by the standard library.
    r"|(?<![\w:])(?P<v6>(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?)(?![\w:])",
    re.ASCII,
)


def _ip_ok(m: re.Match[str]) -> bool:
    cand = m.group("v6")
    if cand is None:
        return True
    if cand.count(":") < 2 or ("::" not in cand and cand.count(":") < 7):
        return False  # clock times like 10:15:30 have two colons and no "::"
    try:
        return ipaddress.ip_address(cand).version == 6
    except ValueError:
        return False


_URL_ANCHOR_RE = re.compile(rf"://|[wW]{{3}}\d?\.|\.{trie_pattern(_TLDS)}(?![A-Za-z0-9\-])")
_IP_ANCHOR_RE = re.compile(r"\d\.\d{1,3}\.\d|:[0-9A-Fa-f]{0,4}:")

CONTACT_RULES_NEUTRAL: tuple[PatternRule, ...] = (
    PatternRule("EMAIL",     _EMAIL_RE,    name="email", score=0.99, anchor=re.compile("@"), reach=(80, 260)),
    PatternRule("URL",       _URL_RE,      name="url",   score=0.95, validator=_url_ok, anchor=_URL_ANCHOR_RE, reach=(100, 300)),
    PatternRule("IPADDRESS", _IP_RE,       name="ip",    score=0.95, validator=_ip_ok, anchor=_IP_ANCHOR_RE, reach=(24, 48)),
    _phone_rule(_INTL_RE,    "phone_intl", 0.9,                           validator=_phone_ok, not_after=r"[A-Za-z0-9_+]"),
)  # fmt: skip

# Weak shapes without separators or area code: 6175550134, 555-0134.
_PHONE_WEAK_RE = re.compile(
    r"(?P<bare>[2-9]\d\d[2-9]\d{6})(?![\w]|[.,\-]\d)|(?P<local>[2-9]\d\d-\d{4})(?![\w\-/]|[.,]\d)"
)
# Identifier, range and measurement words: the number is not a phone after them.
_NOT_PHONE_BEFORE_RE = re.compile(
    r"(?i)\b(?:mrn|mr|acct|account|id|no|number|serial|lot|accession|acc|case|order|job|claim|policy|member"
    r"|ssn|npi|dea|license|from|between|range|ref|reference|x|was|is|of|than|to)\b[ \t:#.]*\Z|[#$\-]\Z"
)


def _weak_phone_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if followed_by_unit(text, m.end()) or _NOT_PHONE_BEFORE_RE.search(text, max(0, start - 16), start):
        return False
    return not re.match(r"[ \t]*(?:-|to|–)[ \t]*\d", text[m.end() : m.end() + 6])


CONTACT_RULES_EN: tuple[PatternRule, ...] = (
    _phone_rule(_PHONE_RE,      "phone",      0.9, group=("us", "spaced", "ctx", "short"), validator=_phone_ok, anchor=long_runs(3), reach=(40, 30)),
    _phone_rule(_PHONE_WEAK_RE, "phone_weak", 0.6, validator=_weak_phone_ok, not_after=r"[\w+/.\-]", anchor=long_runs(4), reach=(10, 10)),
)  # fmt: skip


# Spanish/Catalan numbers: 624 042 723, 91 071 91 59, 612 34 56 78 (separators required).
_ES_PHONE_RE = re.compile(
    r"(?P<es>[6789]\d{2}[ .]\d{3}[ .]\d{3}|[6789]\d{2}[ .]\d{2}[ .]\d{2}[ .]\d{2}|[89]\d[ .]\d{3}[ .]\d{2}[ .]\d{2})"
    r"(?![\w\-]|[ .]\d)",
    re.ASCII,
)
# Chinese numbers: mobile 13812345678, landline 010-12345678 / 0571-87654321.
_ZH_PHONE_RE = re.compile(r"(?P<zh>1[3-9]\d{9}|0\d{2,3}-\d{7,8})(?![\w\-])", re.ASCII)


# The national phone shapes without a cue word.
_LOCAL_NOT_AFTER = r"[A-Za-z0-9_+/.\-]"
CONTACT_RULES_ES: tuple[PatternRule, ...] = (
    _phone_rule(_ES_PHONE_RE, "phone_es", 0.85, not_after=_LOCAL_NOT_AFTER),
)
CONTACT_RULES_ZH: tuple[PatternRule, ...] = (
    _phone_rule(_ZH_PHONE_RE, "phone_zh", 0.85, not_after=_LOCAL_NOT_AFTER),
)
_BY_LANG: dict[str, tuple[PatternRule, ...]] = {
    "en": CONTACT_RULES_EN,
    "es": CONTACT_RULES_ES,
    "ca": CONTACT_RULES_ES,
    "zh": CONTACT_RULES_ZH,
}


def contact_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The CONTACT rules for ``lang``: e-mail/URL/IP/international phones always, plus the local
    phone shapes of ``en`` (US), ``es``/``ca`` (Spain) and ``zh`` (China), and for the language-pack
    languages (``es``, ``ca``, ``de``, ``fr``, ``nl``, ``zh``) national shapes and numbers after their
    phone and fax words (see :mod:`phiscrub.detect.rules.intl`)."""
    if lang == "en":
        return CONTACT_RULES_NEUTRAL + CONTACT_RULES_EN
    return CONTACT_RULES_NEUTRAL + _BY_LANG.get(lang, ()) + pack_contact_rules(lang)


def contact_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``contact`` with the CONTACT rules for ``lang``."""
    return RuleDetector("contact", contact_rules(lang))
