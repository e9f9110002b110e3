"""CONTACT rules: PHONE, FAX, EMAIL, URL, IPADDRESS.

Phone numbers are labelled FAX when the nearest contact word before them is a fax word
(``Fax:``, ``faxed to ... at``), PHONE otherwise. E-mail, URL and IP patterns are
language-neutral; the phone context words are English (``lang="en"``), but the number shapes
(``+34 912 345 678``) are not.
"""

from __future__ import annotations

import ipaddress
import re

from phiscrub.detect.rules._common import text_after
from phiscrub.detect.rules.base import PatternRule, RuleDetector, Validator

__all__ = ["CONTACT_RULES_EN", "CONTACT_RULES_NEUTRAL", "contact_detector", "contact_rules"]

# --- fax or phone? --------------------------------------------------------------------------
_FAX_WORD = r"fax(?:ed|ing|es)?|facsimile|telefax|fx"
# Words that say "this number is a telephone" (they beat an earlier fax word).
_PHONE_CUE = (
    r"phone|telephone|tel|ph|cell|cellphone|mobile|mob|call|called|calling|pager|pgr|beeper|ext|extension"
    r"|hotline|helpline|text|sms|whatsapp|tel[eè]fon|tel[eé]fono|m[oò]bil|m[oó]vil"
)
# Weaker words that may introduce a number of either kind.
_PHONE_WORD = _PHONE_CUE + r"|line|contact|reach|reached|number|office|home|work"
_CUE_RE = re.compile(rf"\b(?:(?P<fax>{_FAX_WORD})|(?P<phone>{_PHONE_CUE}))\b", re.IGNORECASE)


def _nearest_cue_is_fax(m: re.Match[str], window: int = 60) -> bool:
    """True when the last contact word within ``window`` characters before the match is a fax word."""
    text = m.string
    # Context rules capture the number in group "n"; the cue may then lie inside the match.
    start = m.start("n") if "n" in m.re.groupindex else m.start()
    lo = max(0, start - window)
    last = None
    for cue in _CUE_RE.finditer(text, lo, start):
        last = cue
    return last is not None and last.group("fax") is not None


def _digit_count(s: str) -> int:
    return sum(ch.isdigit() for ch in s)


def _intl_ok(m: re.Match[str]) -> bool:
    return 8 <= _digit_count(m.group()) <= 15


def _contextual_ok(m: re.Match[str]) -> bool:
    """Numbers after a contact word: 7-15 digits, not a date or a decimal measurement."""
    num = m.group("n")
    if "/" in num or re.search(r"\d\.\d{1,2}$", num):
        return False
    return 7 <= _digit_count(num) <= 15


def _phone_fax_rules(
    pattern: re.Pattern[str],
    name: str,
    score: float,
    validator: Validator | None = None,
    group: int | str = 0,
) -> tuple[PatternRule, PatternRule]:
    """The same number pattern as a PHONE rule and a FAX rule, told apart by the nearest cue."""

    def phone_ok(m: re.Match[str]) -> bool:
        return (validator is None or validator(m)) and not _nearest_cue_is_fax(m)

    def fax_ok(m: re.Match[str]) -> bool:
        return (validator is None or validator(m)) and _nearest_cue_is_fax(m)

    return (
        PatternRule("PHONE", pattern, group=group, validator=phone_ok, score=score, name=f"{name}_phone"),
        PatternRule("FAX", pattern, group=group, validator=fax_ok, score=score, name=f"{name}_fax"),
    )


_EXT = r"(?:\s*(?:x|ext\.?|extension|#)\s*\d{1,6})?"
_END = r"(?![\w]|[.\-]\d)"

# (617) 555-0134 / 617-555-0134 / 617.555.0134 / +1 617 555 0134 / 1-800-555-0199 x123
_US_RE = re.compile(
    rf"(?<![\w+/.\-])(?:(?:\+1|001|1)[\s.\-]?)?(?:\(\d{{3}}\)\s?|\d{{3}}[.\-])\d{{3}}[.\-]\d{{4}}{_EXT}{_END}"
    rf"|(?<![\w+/.\-])(?:\+1|001)[\s.\-]?\d{{3}}\s\d{{3}}\s\d{{4}}{_EXT}{_END}"
    rf"|(?<![\w+/.\-])\(\d{{3}}\)\s?\d{{3}}\s\d{{4}}{_EXT}{_END}",
    re.IGNORECASE,
)
# +34 912 345 678 / +44 20 7946 0958 / +49 30 1234567 / +33 (0)1 23 45 67 89
_INTL_RE = re.compile(rf"(?<![\w+])\+\d{{1,3}}(?:[\s.\-]?(?:\(\d{{1,4}}\)|\d{{1,5}})){{2,6}}{_EXT}{_END}")
# Any 7-15 digit number right after a contact word: "cell 555-0134", "Tel 020 7946 0958".
_CTX_RE = re.compile(
    rf"\b(?:{_FAX_WORD}|{_PHONE_WORD})\b\.?(?:\s*(?:no\.?|number|#|nr\.?|num\.?|is|at|to|on|line|file))*[\s:#=\-]*"
    rf"(?P<n>\+?\(?\d[\d\s.\-()]{{4,18}}\d{_EXT}){_END}",
    re.IGNORECASE,
)
# ext. 4521 / pager 61234 (short internal numbers).
_SHORT_RE = re.compile(
    r"\b(?:ext\.?|extension|pager|pgr|beeper|page|paging|x)\s*#?:?\s*(?P<n>\d{3,7})(?![\w/]|[.\-]\d)",
    re.IGNORECASE,
)


def _short_ok(m: re.Match[str]) -> bool:
    head = m.group().lower()
    # bare "x" only as an extension right after a number ("555-0134 x123"), never "x 3 days".
    if head.startswith("x"):
        return bool(re.search(r"\d\s*$", m.string[max(0, m.start() - 3) : m.start()]))
    return not re.match(r"\s*(?:mg|ml|mcg|units?|days?|times|hours?|min)\b", text_after(m, 8), re.IGNORECASE)


_EMAIL_RE = re.compile(
    r"(?<![\w.+\-])[A-Za-z0-9](?:[A-Za-z0-9._%+\-]*[A-Za-z0-9_%+\-])?@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![\w\-]|\.[A-Za-z0-9])"
)
_PATH = r"(?:/[^\s<>\"'\[\]]*[^\s<>\"'\[\].,;:!?)])?/?"
_URL_SCHEME_RE = re.compile(r"\b(?:https?|ftps?|sftp)://[^\s<>\"'\[\]]*[^\s<>\"'\[\].,;:!?)]", re.IGNORECASE)
_URL_WWW_RE = re.compile(rf"(?<![\w@./\-])www\d?\.[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+{_PATH}", re.IGNORECASE)
# Bare domains need a known TLD; two-letter TLDs that are English words (in, it, me ...) are left out
# because "bed.It" (missing space after a full stop) is common in notes.
_TLDS = (
    "com", "org", "net", "edu", "gov", "mil", "int", "info", "biz", "io", "health", "care", "clinic", "hospital",
    "app", "online", "site", "cloud", "ai", "co", "uk", "ca", "au", "de", "es", "fr", "nl", "eu", "cat", "ch",
    "se", "dk", "fi", "nz", "jp", "cn", "br", "mx", "ar", "pt", "pl", "cz", "at", "be", "ie", "us", "gal",
    "eus", "ly", "tv", "md", "med", "doctor", "dental", "life", "world", "link", "page", "digital",
)
_TLDS_NO_BARE = {"at", "be", "ie", "us", "md", "tv", "pt", "co", "ly", "ca"}
_BARE_TLD = "|".join(sorted((t for t in _TLDS if t not in _TLDS_NO_BARE), key=len, reverse=True))
_URL_BARE_RE = re.compile(
    rf"(?<![\w@./\-])(?:[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?\.)*[A-Za-z0-9][A-Za-z0-9\-]*[A-Za-z0-9]"
    rf"\.(?:{_BARE_TLD})(?:\.(?:uk|au|es|br|mx|nz|jp|cn|ar))?(?![\w\-@]|\.[A-Za-z0-9]){_PATH}",
    re.IGNORECASE,
)

_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IPV4_RE = re.compile(rf"(?<![\w.])(?:{_OCTET}\.){{3}}{_OCTET}(?:/\d{{1,2}}|:\d{{2,5}})?(?![\w.]|\.\d)")
# Generous IPv6 candidate, validated by the standard library.
_IPV6_RE = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:])")


def _ipv6_ok(m: re.Match[str]) -> bool:
    cand = m.group()
    if cand.count(":") < 2 or ("::" not in cand and cand.count(":") < 7):
        return False  # clock times like 10:15:30 have two colons and no "::"
    try:
        return ipaddress.ip_address(cand).version == 6
    except ValueError:
        return False


def _domain_ok(m: re.Match[str]) -> bool:
    # A bare domain that is all digits and dots is a number; "Dr.com" style typos need 2+ letters.
    host = m.group().split("/", 1)[0]
    labels = host.split(".")
    return any(ch.isalpha() for ch in host) and len(labels[0]) >= 2


CONTACT_RULES_NEUTRAL: tuple[PatternRule, ...] = (
    PatternRule("EMAIL", _EMAIL_RE, score=0.99, name="email"),
    PatternRule("URL", _URL_SCHEME_RE, score=0.99, name="url_scheme"),
    PatternRule("URL", _URL_WWW_RE, score=0.95, name="url_www"),
    PatternRule("URL", _URL_BARE_RE, validator=_domain_ok, score=0.8, name="url_bare"),
    PatternRule("IPADDRESS", _IPV4_RE, score=0.95, name="ipv4"),
    PatternRule("IPADDRESS", _IPV6_RE, validator=_ipv6_ok, score=0.95, name="ipv6"),
    *_phone_fax_rules(_INTL_RE, "phone_intl", 0.9, _intl_ok),
)

CONTACT_RULES_EN: tuple[PatternRule, ...] = (
    *_phone_fax_rules(_US_RE, "phone_us", 0.95),
    *_phone_fax_rules(_CTX_RE, "phone_context", 0.85, _contextual_ok, group="n"),
    *_phone_fax_rules(_SHORT_RE, "phone_short", 0.7, _short_ok, group="n"),
)


def contact_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The CONTACT rules for ``lang``: e-mail/URL/IP/international phones always, US phones for ``en``."""
    if lang == "en":
        return CONTACT_RULES_NEUTRAL + CONTACT_RULES_EN
    return CONTACT_RULES_NEUTRAL


def contact_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``contact`` with the CONTACT rules for ``lang``."""
    return RuleDetector("contact", contact_rules(lang))
