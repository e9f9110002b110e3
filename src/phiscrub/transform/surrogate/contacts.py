"""Contacts: phone and fax numbers, IP addresses, e-mail addresses, URLs and user names.

Keyed (redaction): the same shape as the original (digits for digits, separators kept); US phone
area and exchange codes never start with 0 or 1; IPv4 octets stay valid; e-mails and URLs keep their
structure, scheme and top-level domain; name-like pieces of a user name map through the same name
components as the person's name. Seeded (filling): realistic numbers and addresses of the note's
language, local parts built from an invented person.
"""

from __future__ import annotations

import re
import string

from phiscrub.resources import load_lexicon
from phiscrub.transform.surrogate.draw import NoteDraw
from phiscrub.transform.surrogate.identifiers import keyed_shape
from phiscrub.transform.surrogate.locale import locale_list
from phiscrub.transform.surrogate.names import keyed_initial, keyed_name_component, name_sets
from phiscrub.transform.surrogate.source import Streams, shape, shape_like, weighted
from phiscrub.transform.surrogate.text import ascii_letters, ascii_word, match_case, splice_stripped
from phiscrub.transform.surrogate.wordlists import (
    INSTITUTION_TLDS,
    KEEP_DOMAIN_LABELS,
    KEEP_PATH_WORDS,
    MAIL_PROVIDERS,
    PATH_WORDS,
    PHONE_SHAPES,
    PUBLIC_MAIL,
    SECOND_LEVEL,
    URL_PATHS,
)

# The forms a contact surface takes: dotted IPv4 (with a port or prefix), e-mail address, URL.
IPV4 = re.compile(r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})((?:[:/]\d+)?)$")
_EMAIL = re.compile(r"^([^@\s]+)@([^@\s]+)$")
_URL = re.compile(
    r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)?(?P<host>[^/?#:\s]+)(?P<port>:\d+)?(?P<rest>.*)$", re.DOTALL
)


# --- keyed ---------------------------------------------------------------------------------------


def keyed_phone(streams: Streams, surface: str) -> str:
    """Same-shape phone/fax number; country code kept; US area/exchange codes start 2-9."""
    stream = streams("phone", surface)
    digits = [i for i, c in enumerate(surface) if c.isdigit()]
    keep: set[int] = set()
    stripped = surface.lstrip()
    if stripped.startswith("+") and digits:
        # "+44 20 ...", "+(1) 617 ...", "+ 1-617-...": the country code may sit in brackets.
        run = re.match(r"\+\s*\(?\s*(\d+)", stripped)
        code = run.group(1) if run is not None else ""
        n_keep = (
            len(code)
            if len(code) <= 3 and len(digits) > len(code) + 6
            else (1 if code.startswith("1") else 2)
        )
        keep = set(digits[:n_keep]) if code else set()
    elif len(digits) == 11 and surface[digits[0]] == "1":
        keep = {digits[0]}
    ext = re.search(r"(?i)(x|ext\.?|extension)\s*\d+\s*$", surface)
    main = [i for i in digits if i not in keep and (ext is None or i < ext.start())]
    constrained: set[int] = set()
    if len(main) == 10 and (not keep or "".join(surface[i] for i in keep) == "1"):
        constrained = {main[0], main[3]}
    elif len(main) == 7:
        constrained = {main[0]}
    for _ in range(20):
        chars = list(surface)
        for i in digits:
            if i in keep:
                continue
            chars[i] = str(2 + stream.randrange(8)) if i in constrained else str(stream.randrange(10))
        result = "".join(chars)
        if result != surface:
            return result
    return result


def keyed_ip(streams: Streams, surface: str) -> str:
    """A valid IPv4 address with octets of the same widths (IPv6 and others: same shape)."""
    stream = streams("ip", surface)
    m = IPV4.match(surface.strip())
    if m is None:
        hexed = []
        for c in surface:
            if c in "0123456789abcdef":
                hexed.append("0123456789abcdef"[stream.randrange(16)])
            elif c in "ABCDEF":
                hexed.append("0123456789ABCDEF"[stream.randrange(16)])
            else:
                hexed.append(c)
        return "".join(hexed)
    for _ in range(20):
        octets = []
        for k in range(4):
            width = len(m.group(k + 1))
            lo, hi = {1: (0, 9), 2: (10, 99), 3: (100, 254)}[width]
            if k == 0:
                lo, hi = max(lo, 1), min(hi, 223)
            value = lo + stream.randrange(hi - lo + 1)
            if k == 0 and value == 127:
                value = 126
            octets.append(str(value))
        result = splice_stripped(surface, ".".join(octets) + m.group(5))
        if result != surface:
            return result
    return result


def _keyed_domain(streams: Streams, host: str, folder: str | None = None) -> str:
    labels = host.split(".")
    keep_tail = 1
    if len(labels) >= 3 and labels[-2].lower() in SECOND_LEVEL and len(labels[-1]) == 2:
        keep_tail = 2
    words = [w for w in locale_list("last_names", folder) if w.isascii() and w.isalpha() and len(w) >= 4]
    if not words:  # a locale whose surnames are not written in Latin letters (zh)
        words = [w for w in locale_list("last_names", None) if w.isascii() and w.isalpha() and len(w) >= 4]
    out = []
    for i, label in enumerate(labels):
        if (
            i >= len(labels) - keep_tail
            or label.lower() in KEEP_DOMAIN_LABELS
            or label.lower() in PUBLIC_MAIL
            and i == len(labels) - keep_tail - 1
        ):
            out.append(label)
        else:
            parts = []
            for part in label.split("-"):
                stream = streams("domain", part.lower())
                new = stream.choice(words).lower()
                if new == part.lower():
                    new = stream.choice(words).lower()
                parts.append(match_case(part, new) if part else part)
            out.append("-".join(parts))
    return ".".join(out)


def keyed_email(streams: Streams, surface: str, folder: str | None = None) -> str:
    """local@domain.tld with a new local part and domain; the top-level domain is kept."""
    m = _EMAIL.match(surface.strip())
    if m is None:
        return keyed_shape(streams, surface, "EMAIL")
    local = keyed_handle(streams, m.group(1), folder)
    return splice_stripped(surface, f"{local}@{_keyed_domain(streams, m.group(2), folder)}")


def keyed_url(streams: Streams, surface: str, folder: str | None = None) -> str:
    """Same scheme and top-level domain; other host labels and path words replaced."""
    m = _URL.match(surface.strip())
    if m is None:
        return keyed_shape(streams, surface, "URL")
    host = _keyed_domain(streams, m.group("host"), folder)
    rest_out = []
    for piece in re.finditer(r"[A-Za-z]+|\d+|.", m.group("rest"), re.DOTALL):
        text = piece.group(0)
        if text.isalpha() and text.lower() not in KEEP_PATH_WORDS:
            stream = streams("url-path", text.lower())
            word = stream.choice(PATH_WORDS) if len(text) >= 3 else shape_like(text, stream)
            text = match_case(text, word)
        elif text.isdigit():
            text = shape_like(text, streams("url-digits", text))
        rest_out.append(text)
    result = (m.group("scheme") or "") + host + (m.group("port") or "") + "".join(rest_out)
    if result == surface.strip():
        result = (m.group("scheme") or "") + shape_like(m.group("host"), streams("host")) + "".join(rest_out)
    return splice_stripped(surface, result)


def keyed_handle(streams: Streams, surface: str, folder: str | None = None) -> str:
    """Surrogate for a user name or e-mail local part ("jsmith2" -> "mlawson7"), ASCII only.

    Name-like pieces map through the same components as :func:`~phiscrub.transform.surrogate.names.keyed_name`, so "jsmith" and
    "John Smith" stay one surrogate person.
    """
    female, male, last = name_sets()

    def first(text: str) -> str:
        return ascii_letters(keyed_name_component(streams, "first", text, folder)) or "x"

    def surname(text: str) -> str:
        return ascii_letters(keyed_name_component(streams, "last", text, folder)) or "x"

    def letter(c: str) -> str:
        return keyed_initial(streams, "first", c.lower(), folder)

    alpha_runs = re.findall(r"[A-Za-z]+", surface)

    def piece(run: str, index: int) -> str:
        low = run.lower()
        if len(low) == 1:
            return letter(low)
        # "john.smith": the first of several runs reads as a first name when it is one.
        if low in female | male and (low not in last or (index == 0 and len(alpha_runs) > 1)):
            return first(low)
        if low in last and len(low) > 2:
            return surname(low)
        if len(low) >= 4 and low[1:] in last:
            return letter(low[0]) + surname(low[1:])
        if len(low) >= 4 and low[:-1] in last:
            return surname(low[:-1]) + letter(low[-1])
        if len(low) >= 5:
            return surname(low)  # a surname no list knows ("s.kowalczyk"): the same as in the full name
        return shape_like(run, streams("handle", low), keep_case=False).lower()

    out: list[str] = []
    index = 0
    for m in re.finditer(r"[A-Za-z]+|\d+|.", surface, re.DOTALL):
        run = m.group(0)
        if run.isalpha() and run.isascii():
            out.append(match_case(run, piece(run, index)))
            index += 1
        elif run.isdigit():
            out.append(shape_like(run, streams("handle-digits", run)))
        else:
            out.append(run)
    result = "".join(out)
    return result if result != surface else keyed_shape(streams, surface, "USERNAME")


# --- seeded --------------------------------------------------------------------------------------


def draw_phone(ctx: NoteDraw, before: str, after: str) -> str:
    """A phone or fax number in a usual shape of the note's language."""
    shapes = PHONE_SHAPES[ctx.key]
    return shape(ctx.rng, weighted(ctx.rng, shapes))


def draw_ip(ctx: NoteDraw, before: str, after: str) -> str:
    """A private (10/8, 192.168/16, 172.16/12) or public IPv4 address."""
    rng = ctx.rng
    kind = rng.random()
    if kind < 0.3:
        head = ["10"]
    elif kind < 0.6:
        head = ["192", "168"]
    elif kind < 0.75:
        head = ["172", str(rng.randint(16, 31))]
    else:
        head = [str(rng.choice([n for n in range(1, 224) if n not in (10, 127, 172, 192)]))]
    middle = [str(rng.randint(0, 255)) for _ in range(3 - len(head))]
    return ".".join([*head, *middle, str(rng.randint(1, 254))])


def domain_word(ctx: NoteDraw) -> str:
    """A surname as an ASCII word of four letters or more (a domain name part)."""
    pool = load_lexicon("last_names", ctx.lex if ctx.lex != "zh" else None)
    for _ in range(20):
        word = ascii_word(ctx.rng.choice(pool))
        if len(word) >= 4:
            return word
    return "clinic"


def institution_domain(ctx: NoteDraw) -> str:
    """A clinic's or hospital's domain ("smithhealth.org")."""
    rng = ctx.rng
    key = ctx.key
    word = domain_word(ctx)
    stem = rng.choice([word, f"{word}health", f"{word}-clinic", f"{word}med", f"{word}hospital", f"st{word}"])
    return f"{stem}.{rng.choice(INSTITUTION_TLDS[key])}"


def draw_email(ctx: NoteDraw, before: str, after: str) -> str:
    """A personal or institutional e-mail address."""
    rng = ctx.rng
    key = ctx.key
    if ctx.lang == "zh":
        local = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 8)))
        local += str(rng.randint(1, 9999)) if rng.random() < 0.6 else ""
    else:
        p = ctx.person()
        first, last = ascii_word(p.first) or "info", ascii_word(p.last) or "mail"
        local = rng.choice([f"{first}.{last}", first[0] + last, f"{first}{last[0]}", f"{first}_{last}{rng.randint(1, 99)}",
                            f"{first[0]}{last}{rng.randint(1, 999)}", rng.choice(["info", "contact", "clinic",
                            "referrals", "records", "nursing"])])  # fmt: skip
    domain = rng.choice(MAIL_PROVIDERS[key]) if rng.random() < 0.45 else institution_domain(ctx)
    return f"{local}@{domain}"


def draw_url(ctx: NoteDraw, before: str, after: str) -> str:
    """A clinic or patient-portal URL."""
    rng = ctx.rng
    domain = institution_domain(ctx)
    host = rng.choice(["www." + domain, domain, "portal." + domain, "mychart." + domain, "www." + domain])
    scheme = rng.choice(["https://", "https://", "http://", ""])
    if not scheme and not host.startswith("www."):
        scheme = "https://"
    return scheme + host + rng.choice(URL_PATHS)
