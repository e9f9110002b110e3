"""CONTACT rules: PHONE, FAX, EMAIL, URL, IPADDRESS.

Phone numbers are labelled FAX when the nearest contact word before them is a fax word
(``Fax:``, ``faxed to ... at``), PHONE otherwise. E-mail, URL and IP patterns are
language-neutral; the phone context words are English (``lang="en"``), but the number shapes
(``+34 912 345 678``) are not.
"""

from __future__ import annotations

import ipaddress
import re

from phiscrub.detect.pattern_data import pattern_data
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
    for cue in _RX["CUE_RE"].finditer(text, lo, start):
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


# Weak cue words introduce phone numbers only when no identifier word precedes them.
_WEAK_CUES = frozenset({"line", "number", "contact", "reach", "reached", "reachable"})


def _phone_ok(m: re.Match[str]) -> bool:
    kind = m.lastgroup
    num = m.group(kind) if kind else ""
    start = m.start()
    if start:
        # Numbers must not continue a word or number; cue words must start a word.
        before = _RX["NUMBER_BEFORE_RE"] if kind in ("us", "intl", "spaced") else _RX["WORD_BEFORE_RE"]
        if before.match(m.string, start - 1):
            return False
    if kind == "intl":
        return 8 <= _digit_count(num) <= 15
    if kind == "ctx":
        cue = m.group().split(None, 1)[0].rstrip(".:#").lower()
        if cue in _WEAK_CUES and _RX["ID_WORDS_BEFORE_RE"].search(m.string, max(0, start - 30), start):
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

_RX = pattern_data("contact", globals())


def _url_ok(m: re.Match[str]) -> bool:
    if m.group("bare") is None:
        return True
    # A bare domain needs letters and a first label of 2+ characters ("Dr.com" typos aside).
    host = m.group("bare").split("/", 1)[0]
    return any(ch.isalpha() for ch in host) and len(host.split(".")[0]) >= 2


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

CONTACT_RULES_NEUTRAL: tuple[PatternRule, ...] = (
    PatternRule("EMAIL",        _RX["EMAIL_RE"], name="email", score=0.99, anchor=re.compile("@"), reach=(80, 260)),
    PatternRule("URL",          _RX["URL_RE"],   name="url",   score=0.95, validator=_url_ok, anchor=_URL_ANCHOR_RE, reach=(100, 300)),
    PatternRule("IPADDRESS",    _RX["IP_RE"],    name="ip",    score=0.95, validator=_ip_ok, anchor=_RX["IP_ANCHOR_RE"], reach=(24, 48)),
    _phone_rule(_RX["INTL_RE"], "phone_intl",    0.9,                           validator=_phone_ok, not_after=r"[A-Za-z0-9_+]"),
)  # fmt: skip


def _weak_phone_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if followed_by_unit(text, m.end()) or _RX["NOT_PHONE_BEFORE_RE"].search(text, max(0, start - 16), start):
        return False
    return not re.match(r"[ \t]*(?:-|to|–)[ \t]*\d", text[m.end() : m.end() + 6])


CONTACT_RULES_EN: tuple[PatternRule, ...] = (
    _phone_rule(_RX["PHONE_RE"],      "phone",      0.9, group=("us", "spaced", "ctx", "short"), validator=_phone_ok, anchor=long_runs(3), reach=(40, 30)),
    _phone_rule(_RX["PHONE_WEAK_RE"], "phone_weak", 0.6, validator=_weak_phone_ok, not_after=r"[\w+/.\-]", anchor=long_runs(4), reach=(10, 10)),
)  # fmt: skip


# The national phone shapes without a cue word.
_LOCAL_NOT_AFTER = r"[A-Za-z0-9_+/.\-]"
CONTACT_RULES_ES: tuple[PatternRule, ...] = (
    _phone_rule(_RX["ES_PHONE_RE"], "phone_es", 0.85, not_after=_LOCAL_NOT_AFTER),
)
CONTACT_RULES_ZH: tuple[PatternRule, ...] = (
    _phone_rule(_RX["ZH_PHONE_RE"], "phone_zh", 0.85, not_after=_LOCAL_NOT_AFTER),
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
