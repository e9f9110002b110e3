"""Language packs: the words and shapes the DATE, CONTACT and ID rules need per language.

A :class:`LanguagePack` is data only (month and weekday spellings, cue words, identifier keywords,
national phone shapes); :mod:`phiscrub.detect.rules.intl` (DATE, CONTACT) and
:mod:`phiscrub.detect.rules.intl_ids` (ID) compile it into rules. Packs exist for
Spanish (``es``), Catalan (``ca``), German (``de``), French (``fr``), Dutch (``nl``) and Chinese
(``zh``; Chinese dates and identifiers have their own patterns, the pack holds the cue words).
The words live in ``phiscrub/resources/langpacks/packs.json`` (read by :mod:`.pack_records`); the
month and weekday spellings come from :mod:`phiscrub.calendar`.
English keeps its own, richer rule set in the kind modules.

Word lists are matched case-insensitively as whole words; accented and unaccented spellings are
both listed where notes use both (``número``/``numero``, ``març``/``marc``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from phiscrub.calendar import MONTH_ABBRS, MONTH_NAMES, WEEKDAY_NAMES
from phiscrub.detect.rules.pack_records import load_records
from phiscrub.language import normalize_lang

__all__ = ["LANGUAGE_PACKS", "PACK_LANGUAGES", "LanguagePack", "normalize_lang"]


@dataclass(frozen=True)
class LanguagePack:
    """Per-language vocabulary of the DATE, CONTACT and ID rules.

    Args:
        code: ISO 639-1 code.
        months: twelve tuples of full month-name spellings (January first).
        month_abbrs: twelve tuples of abbreviations (taken only next to a day number and a year,
            or before a year: ``mar`` is also "sea" in Spanish).
        weekdays: seven tuples of weekday spellings (Monday first); taken as part of a date only.
        day_suffix: regex of ordinal marks after the day number (``º``, ``er``, ``r``).
        day_month: regex joining day and month, spaces included (``" de "``, ``" d'"``, ``". "``).
        month_year: regex joining month and year, spaces included (``" de "``, ``" del "``, ``", "``).
        after_weekday: regex of a word between weekday and day (German ``den``).
        month_cues: words before a bare month name that make it a date (``desde marzo``).
        year_cues: words before a bare four-digit year that make it a date (``desde 2019``).
        day_cues: words before a numeric day/month without year (``el 3/12``, ``le 3/12``).
        phone_cues: words introducing a telephone number.
        fax_cues: words introducing a fax number.
        phone_pattern: regex alternatives of national phone shapes (each starts with a digit or
            ``(``), or empty.
        id_keywords: fine ID label -> words introducing an identifier of that kind.
        id_connectors: words allowed between an ID keyword and its value (``nº``, ``Nr.``).
    """

    code: str
    months: tuple[tuple[str, ...], ...] = ()
    month_abbrs: tuple[tuple[str, ...], ...] = ()
    weekdays: tuple[tuple[str, ...], ...] = ()
    day_suffix: str = ""
    day_month: str = r"[ \t]+"
    month_year: str = r",?[ \t]+"
    after_weekday: str = ""
    month_cues: tuple[str, ...] = ()
    year_cues: tuple[str, ...] = ()
    day_cues: tuple[str, ...] = ()
    phone_cues: tuple[str, ...] = ()
    fax_cues: tuple[str, ...] = ("fax", "telefax")
    phone_pattern: str = ""
    id_keywords: dict[str, tuple[str, ...]] = field(default_factory=dict)
    id_connectors: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("months", "month_abbrs"):
            value = getattr(self, name)
            if value and len(value) != 12:
                raise ValueError(f"language pack {self.code}: {name} needs 12 entries")
        if self.weekdays and len(self.weekdays) != 7:
            raise ValueError(f"language pack {self.code}: weekdays needs 7 entries")


def _calendar(code: str) -> dict[str, object]:
    """The code and the month and weekday spellings of a pack (from :mod:`phiscrub.calendar`)."""
    if code not in MONTH_NAMES:
        return {"code": code}
    return {
        "code": code,
        "months": MONTH_NAMES[code],
        "month_abbrs": MONTH_ABBRS[code],
        "weekdays": WEEKDAY_NAMES[code],
    }


#: Packs by language code (``resources/langpacks/packs.json``, months and weekdays from the calendar).
LANGUAGE_PACKS: dict[str, LanguagePack] = load_records("packs", LanguagePack, extra=_calendar)
#: Languages with a pack (besides English, which has its own rule set).
PACK_LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_PACKS)
