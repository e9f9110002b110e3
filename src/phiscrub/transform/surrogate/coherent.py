"""Keyed places and contacts that agree: towns of the note's state, ZIP codes of that state, phones
with a valid area code of it, facilities that keep their kind.

:func:`plan_geography` reads a note once, before any replacement: which state each town or ZIP code
belongs to ("Springfield, IL 62704": the IL after the town, before the ZIP), whether that state is
itself replaced (a STATE span: its surrogate) or kept (Safe Harbor keeps states), and the note's
home state (the first one it names; else a state keyed by the patient). The keyed generators below
then draw a town of that state, a ZIP code of that town or state, a phone number of that state.
Every draw is keyed by the original value and the state, within the patient's scope, so a patient's
notes that name the same place get the same surrogate.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from phiscrub.transform.surrogate.geo import (
    area_codes,
    is_valid_phone,
    state_code,
    state_name,
    towns_of_country,
    towns_of_state,
    us_states,
    zips_of,
)
from phiscrub.transform.surrogate.kinds import SERVICE_WORDS, Facility, is_town
from phiscrub.transform.surrogate.locale import Locale, locale_list
from phiscrub.transform.surrogate.source import Source, Streams, shape_like
from phiscrub.transform.surrogate.text import match_case, normalize_component
from phiscrub.transform.surrogate.wordlists import PLACE_WORDS, SAINTS, VIRTUE_NAMES

__all__ = [
    "NoteGeo",
    "keyed_acronym",
    "keyed_facility",
    "keyed_locale_phone",
    "keyed_organization",
    "keyed_place_name",
    "keyed_state",
    "keyed_town",
    "keyed_us_phone",
    "keyed_ward",
    "keyed_zip",
    "plan_geography",
    "render_state",
]

_STATE_AFTER = re.compile(r"[ \t]*,?[ \t]*(?P<st>[A-Z][A-Za-z]+(?:[ \t][A-Z][a-z]+)?\.?)")
_STATE_BEFORE = re.compile(r"(?P<st>\b[A-Z][A-Za-z]+(?:[ \t][A-Z][a-z]+)?)\.?,?[ \t]{0,3}$")
#: Labels of spans that may be the town of a "Town, ST" group (mislabelled towns included).
_TOWN_LABELS = frozenset({"CITY", "LOCATION", "HOSPITAL", "ORGANIZATION", "COUNTRY"})
_ZIP = re.compile(r"^(?P<zip>\d{5})(?P<plus>-\d{4})?$")


@dataclass
class NoteGeo:
    """The states of one note's places: per span start, and the note's home state.

    Attributes:
        state_at: span start -> the (surrogate or kept) state code of the span's "Town, ST ZIP" group.
        town_of_zip: ZIP span start -> the original town written before it in the same group.
        home: the note's state: the first group's, else one keyed by the patient.
    """

    state_at: dict[int, str] = field(default_factory=dict)
    town_of_zip: dict[int, str] = field(default_factory=dict)
    home: str = "MA"

    def target(self, start: int | None) -> str:
        """The state a place or contact at ``start`` must lie in."""
        return self.state_at.get(start, self.home) if start is not None else self.home


def _state_in(m: re.Match[str]) -> tuple[str, int, int] | None:
    """The state code of the ``st`` group ("IL", "Illinois", "New York": two words, else the first)
    and the offsets of the words it was read from (a trailing dot or next word left out)."""
    text, start = m.group("st"), m.start("st")
    words = list(re.finditer(r"[A-Za-z]+", text))
    for n in (2, 1):
        if len(words) >= n:
            code = state_code(text[: words[n - 1].end()])
            if code is not None:
                return code, start, start + words[n - 1].end()
    return None


def plan_geography(
    text: str,
    spans: Sequence[tuple[int, int, str]],
    state_surrogate: Callable[[str], str],
    default_state: str,
) -> NoteGeo:
    """Read the state of each town and ZIP code of a note (US notes).

    Args:
        text: the note.
        spans: (start, end, fine label) of the spans that will be replaced, in text order.
        state_surrogate: the keyed surrogate code of a replaced state code.
        default_state: the home state when the note names none.
    """
    geo = NoteGeo(home=default_state)
    first: str | None = None

    def replaced(start: int, end: int) -> bool:
        return any(s < end and start < e for s, e, _ in spans)

    for i, (start, end, fine) in enumerate(spans):
        surface = text[start:end]
        code: str | None = None
        if fine == "STATE":
            own = state_code(surface)
            code = None if own is None else state_surrogate(own)
        elif fine == "ZIP":
            m = _STATE_BEFORE.search(text, max(0, start - 40), start)
            hit = None if m is None else _state_in(m)
            if hit is not None:
                st_code, st_start, st_end = hit
                code = state_surrogate(st_code) if replaced(st_start, st_end) else st_code
                for s, e, _f in reversed(spans[:i]):
                    if e <= st_start and re.fullmatch(r"[ \t]*,?[ \t]*", text[e:st_start]):
                        geo.town_of_zip[start] = text[s:e]
                        break
        elif fine in _TOWN_LABELS and not re.search(r"\d", surface):
            # Only place labels: "Anna Lee, MD" is a doctor, not a town of Maryland.
            m = _STATE_AFTER.match(text, end, min(len(text), end + 40))
            after = None if m is None else _state_in(m)
            if m is not None and after is not None and text[end : m.start("st")].strip() == ",":
                st_code, st_start, st_end = after
                code = state_surrogate(st_code) if replaced(st_start, st_end) else st_code
        if code is not None:
            geo.state_at[start] = code
            first = first or code
    if first is not None:
        geo.home = first
    return geo


def _pick_other(stream: Source, pool: Sequence[str], original: str) -> str:
    """A keyed pick from ``pool`` that differs from ``original`` (folded)."""
    target = normalize_component(original)
    pick = stream.choice(pool)
    for _ in range(20):  # redraw rather than filter: pools hold thousands of towns
        if normalize_component(pick) != target:
            break
        pick = stream.choice(pool)
    return pick


def keyed_state(streams: Streams, code: str) -> str:
    """Another US state code, keyed by the original code (one mapping per scope)."""
    return _pick_other(streams("state", code), tuple(us_states()), code)


def render_state(surface: str, code: str) -> str:
    """A state code written like ``surface``: a postal code, or the full name in its case."""
    stripped = surface.strip()
    new = code if re.fullmatch(r"[A-Z]{2}", stripped.rstrip(".")) else match_case(stripped, state_name(code))
    return surface.replace(stripped, new) if stripped else surface


@cache
def _drawable_towns(state: str) -> tuple[str, ...]:
    """The towns of a US state that read as towns: with ZIP codes of their own (GeoNames also lists
    big-city neighbourhoods: "McKinley Park, IL" has no ZIP code, Chicago's are Chicago's), and not
    made of common English words only ("in Central" hides the town from a reader)."""
    from phiscrub.detect.clinical_vocab import is_common_word

    towns = towns_of_state(state)
    own = tuple(t for t in towns if zips_of(state, t) != zips_of(state) or not zips_of(state))
    return tuple(t for t in own if not all(is_common_word(w) for w in re.findall(r"[A-Za-z]+", t))) or towns


def keyed_town(streams: Streams, surface: str, loc: Locale, state: str | None) -> str:
    """A town of the locale (US: of ``state``), never the original, in the original's case."""
    stripped = surface.strip()
    if loc.country == "US" and state is not None:
        pool: Sequence[str] = _drawable_towns(state)
    elif loc.country in ("CN",):
        pool = locale_list("cities", loc.folder)
    else:
        pool = towns_of_country(loc.country) or locale_list("cities", loc.folder)
    new = _pick_other(streams("town", normalize_component(stripped), state or loc.code), pool, stripped)
    return surface.replace(stripped, match_case(stripped, new)) if stripped else surface


def keyed_zip(streams: Streams, surface: str, state: str, town: str | None) -> str | None:
    """A ZIP code of ``town`` (the surrogate town of its group) or ``state``; "+4" digits redrawn.

    None when ``surface`` is no US ZIP code (the caller reshapes it).
    """
    stripped = surface.strip()
    m = _ZIP.match(stripped)
    if m is None:
        return None
    stream = streams("zip", m.group("zip"), state, town or "")
    pool = zips_of(state, town) or zips_of(state)
    if not pool:
        return None
    new = _pick_other(stream, pool, m.group("zip"))
    if m.group("plus"):
        new += "-" + shape_like(m.group("plus")[1:], stream)
    return surface.replace(stripped, new)


def _digit_positions(surface: str) -> list[int]:
    return [i for i, c in enumerate(surface) if c.isdigit()]


def keyed_us_phone(streams: Streams, surface: str, state: str, fictional: bool) -> str | None:
    """A US number of the same layout: a valid area code of ``state``, a valid exchange and line
    (``phonenumbers.is_valid_number``), or with ``fictional`` the reserved 555-0100..0199 range.

    None when ``surface`` holds no 7- or 10-digit US number (the caller reshapes it).
    """
    ext = re.search(r"(?i)(x|ext\.?|extension)\s*\d+\s*$", surface)
    digits = [i for i in _digit_positions(surface) if ext is None or i < ext.start()]
    if len(digits) == 11 and surface[digits[0]] == "1":
        digits = digits[1:]
    if len(digits) not in (7, 10):
        return None
    stream = streams("us-phone", "".join(surface[i] for i in digits), state, str(fictional))
    codes = area_codes(state)
    result = surface
    for _ in range(30):
        area = stream.choice(codes)
        if fictional:
            exchange, line = "555", "01" + f"{stream.randrange(100):02d}"
        else:
            exchange = str(2 + stream.randrange(8)) + f"{stream.randrange(100):02d}"
            if exchange[1:] == "11" or exchange == "555":
                continue
            line = f"{stream.randrange(10000):04d}"
        new = (area if len(digits) == 10 else "") + exchange + line
        if not fictional and not is_valid_phone(area + exchange + line, "US"):
            continue
        chars = list(surface)
        for pos, digit in zip(digits, new, strict=True):
            chars[pos] = digit
        if ext is not None:
            tail = "".join(chars[ext.start() :])
            chars[ext.start() :] = list(re.sub(r"\d+", lambda d: shape_like(d.group(0), stream), tail))
        result = "".join(chars)
        if result != surface:
            return result
    return result


def keyed_locale_phone(streams: Streams, surface: str, region: str) -> str | None:
    """A number of the same layout that ``phonenumbers`` reads as valid in ``region``: country code,
    trunk prefix and first digit kept, the rest drawn. None when no valid one is found."""
    digits = _digit_positions(surface)
    if len(digits) < 6:
        return None
    keep = 1
    stripped = surface.lstrip()
    if stripped.startswith(("+", "00")):
        m = re.match(r"(?:\+|00)\s*\(?\s*(\d{1,3})", stripped)
        keep = (len(m.group(1)) if m else 0) + 1
    elif surface[digits[0]] == "0":
        keep = 2
    stream = streams("locale-phone", "".join(surface[i] for i in digits), region)
    for _ in range(40):
        chars = list(surface)
        for i in digits[keep:]:
            chars[i] = str(stream.randrange(10))
        result = "".join(chars)
        if result != surface and is_valid_phone(result, region):
            return result
    return None


def keyed_place_name(
    streams: Streams, name: str, loc: Locale, state: str | None, *, town: bool = False, org: bool = False
) -> str:
    """A plausible facility name part for ``name``: a town of the state or locale when ``town`` or
    when ``name`` is a town; a saint for a saint; else a place word, a surname or (not for an
    organization: ``org``) a virtue name ("Mercy", "Good Shepherd", which name hospitals)."""
    stripped = name.strip()
    folded = normalize_component(stripped)
    stream = streams("place-name", folded, state or loc.code)
    if town or (stripped and is_town(stripped, loc)) or loc.lang != "en":
        return match_case(stripped, keyed_town(streams, stripped or "x", loc, state))
    saint = re.match(r"(?i)^(st\.?|saint)\s+(\S+?)(['’]s)?$", stripped)
    if saint is not None:
        new = _pick_other(stream, SAINTS, saint.group(2))
        return match_case(stripped, f"{saint.group(1)} {new}{saint.group(3) or ''}")
    uni = re.match(r"(?i)^(university of)\s+(.+)$", stripped)
    if uni is not None:
        place = state_name(state) if state is not None else keyed_town(streams, uni.group(2), loc, state)
        return match_case(stripped, f"{uni.group(1)} {place}")
    roll = stream.randrange(80 if org else 100)
    if roll < 45:
        pool: Sequence[str] = _place_words()
    elif roll < 80:
        pool = [n for n in locale_list("last_names", loc.folder) if n.isalpha()] or PLACE_WORDS
    else:
        pool = VIRTUE_NAMES
    return match_case(stripped, _pick_other(stream, pool, stripped))


@cache
def _place_words() -> tuple[str, ...]:
    """Place words that do not read as a person ("Heather Hill" does: Heather is a given name)."""
    firsts = {normalize_component(n) for n in locale_list("first_names_female", "en_us")}
    firsts |= {normalize_component(n) for n in locale_list("first_names_male", "en_us")}
    return tuple(p for p in PLACE_WORDS if normalize_component(p.split()[0]) not in firsts)


def _split_stem(stem: str) -> tuple[str, str]:
    """The name words of a facility stem and the service words after them ("Northgate", " Family")."""
    words = list(re.finditer(r"\S+", stem))
    cut = len(words)
    while cut > 0 and normalize_component(words[cut - 1].group(0)) in SERVICE_WORDS:
        cut -= 1
    if cut == 0:
        return "", stem
    end = words[cut - 1].end()
    return stem[:end], stem[end:]


def keyed_facility(streams: Streams, surface: str, fac: Facility, loc: Locale, state: str | None) -> str:
    """The facility with its head noun and service words kept and its name part replaced
    ("Northgate Family Clinic" -> "Fairview Family Clinic", "Boston VA Medical Center" -> a town of
    the state + "VA Medical Center", "Hospital de Sant Pau" -> "Hospital de <town>")."""
    stripped = surface.strip()
    if fac.leading:
        new = fac.head + fac.sep + keyed_place_name(streams, fac.stem, loc, state, town=True) + fac.tail
        return surface.replace(stripped, new)
    name, service = _split_stem(fac.stem)
    # Veterans Affairs centres and police or fire departments are named after their town.
    veterans = bool(re.match(r"(?i)va\b|veterans|pd$|police|fire", fac.head))
    if not name:
        # A bare head or service words alone ("Family Clinic"): put a name in front.
        lead = keyed_place_name(streams, fac.stem + fac.head, loc, state, town=veterans)
        new_name = match_case(fac.head, lead) + (" " if fac.stem and not fac.stem[:1].isspace() else "")
        new_name += fac.stem + (fac.sep or " ")
        return surface.replace(stripped, new_name + fac.head + fac.tail)
    new = keyed_place_name(streams, name, loc, state, town=veterans)
    return surface.replace(stripped, new + service + fac.sep + fac.head + fac.tail)


def keyed_organization(streams: Streams, surface: str, loc: Locale, state: str | None) -> str:
    """A company-like name: its legal or business word kept, its name part replaced."""
    stripped = surface.strip()
    m = re.match(r"(?s)^(?P<name>.*?)(?P<sep>,?\s+(?:&\s+)?)(?P<suffix>\S+\W*)$", stripped)
    if m is None:
        return surface.replace(stripped, keyed_place_name(streams, stripped, loc, state, org=True))
    new = keyed_place_name(streams, m.group("name"), loc, state, org=True)
    return surface.replace(stripped, new + m.group("sep") + m.group("suffix"))


#: A named ward or building with a floor or unit word: "Whitcombe 3", "Tallis 6", "Corrigan ICU".
_WARD = re.compile(
    r"(?P<name>[A-Z][A-Za-z'’]+(?:[ -][A-Z][a-z'’]+)?)(?P<sep>[ -]+)"
    r"(?P<tail>\d{1,2}[A-Za-z]?(?:[ -](?:North|South|East|West|[NSEW]))?|ICU|CCU|Unit|Wing|Pavilion|Tower|Building)"
)


def keyed_ward(streams: Streams, surface: str, loc: Locale) -> str | None:
    """A named ward of a locale surname with the same floor shape ("Tallis 6" -> "Ellison 4"), or
    None when ``surface`` is no named ward (a department of the lists keeps the label's pick)."""
    stripped = surface.strip()
    m = _WARD.fullmatch(stripped)
    if m is None or normalize_component(m.group("name").split()[0]) in _department_words():
        return None
    stream = streams("ward", normalize_component(m.group("name")))
    pool = [n for n in locale_list("last_names", loc.folder) if n.isalpha() and 4 <= len(n) <= 9]
    name = match_case(m.group("name"), _pick_other(stream, pool or PLACE_WORDS, m.group("name")))
    tail = re.sub(r"\d+", lambda d: shape_like(d.group(0), stream, nonzero_first=True), m.group("tail"))
    return surface.replace(stripped, name + m.group("sep") + tail)


@cache
def _department_words() -> frozenset[str]:
    """Folded words of the bundled department names ("Cardiology", "General", "Surgery")."""
    from phiscrub.resources import load_lexicon

    return frozenset(normalize_component(w) for d in load_lexicon("departments") for w in d.split())


def keyed_acronym(streams: Streams, surface: str) -> str | None:
    """A facility acronym of the same length read off a keyed facility name ("NMC" -> "LMC",
    "AMH" -> "SJH"); never a care-unit or clinical abbreviation. None when none fits."""
    from phiscrub.transform.surrogate.places import acronym, clinical_acronyms

    stripped = surface.strip()
    stream = streams("acronym", stripped)
    suffixes = ("Hospital", "Medical Center", "General Hospital", "Health", "Memorial Hospital", "Regional Hospital",
                "Regional Medical Center", "Memorial Medical Center")  # fmt: skip
    for _ in range(40):
        stem = stream.choice([*PLACE_WORDS, *(f"St. {s}'s" for s in SAINTS), *VIRTUE_NAMES])
        new = acronym(f"{stem} {stream.choice(suffixes)}")
        if len(new) == len(stripped) and new != stripped and new not in clinical_acronyms():
            return surface.replace(stripped, new)
    return None
