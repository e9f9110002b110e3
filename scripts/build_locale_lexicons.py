"""Write the en_US surrogate name and street lists (``resources/lexicons/en_us/``) from Faker's en_US data.

Keyed surrogates of an English note come from its locale (issue 29): a US note gets US given names,
surnames and street names, not the multi-locale top-level lists (Dutch, Belgian, Italian entries).
Faker's en_US lists are name frequencies from US sources; street names are US surnames and given
names plus the commonest US street words, as Faker's ``street_name_formats`` build them.

Run: ``python scripts/build_locale_lexicons.py`` (needs ``faker``, a dev dependency; no network).
"""

from __future__ import annotations

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


if __name__ == "__main__":
    main()
