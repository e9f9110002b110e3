"""Rule-based PHI detectors: one module per PHI kind, all built on :mod:`.base`.

``default_detectors(lang)`` returns every rule detector for a language. English (``en``) gets
all rules; any other language gets the language-neutral ones (numeric dates, e-mail, URL, IP,
international phone numbers, SSN and ID shapes, with ASCII word boundaries so that they also work
inside CJK text). The language packs (:mod:`.langpacks`, compiled by :mod:`.intl` and the other
``intl_*`` modules) add month names, cue words, national phone shapes and national identifiers
for the DATE, CONTACT and ID detectors of ``es``, ``ca``, ``de``, ``fr``, ``nl`` and ``zh``
(:data:`PACK_LANGUAGES`). ``lang="auto"``
gives one :class:`~.auto.AutoLanguageRules` detector that picks the language per document. Each
kind module exposes ``<kind>_rules(lang)`` and ``<kind>_detector(lang)``.

Layout: the kind modules (``dates``, ``contact``, ``ids``, ``locations``, ``ages``, ``names``)
hold the English rules and add the pack rules of a language; their word lists are in ``*_data``
modules (``dates_data``, ``ids_data``, ``locations_data``, ``facility_data``, ``names_data``).
The pack rules are compiled by ``intl`` (DATE, CONTACT), ``intl_ids`` (ID), ``intl_ages``,
``intl_names`` (with the scanner ``intl_name_scan`` and the words ``intl_names_data``) and
``intl_places`` (words in ``intl_places_data``; Spanish and Latin American extras in
``intl_places_es``; the forms of Spanish hospital notes in ``intl_spanish`` (places),
``intl_spanish_dates`` and ``intl_spanish_names``); the pack vocabulary itself is package data in
``phiscrub/resources/langpacks/*.json``, read by ``pack_records``. Shared pieces: ``base`` (PatternRule,
RuleDetector), ``_common`` (units, anchors, case variants, ``pack_rules``), ``id_values`` (the
identifier value and its checks), ``checksums`` (national check digits). Imports go one way: kind
module -> pack module -> shared pieces.
"""

from __future__ import annotations

from collections.abc import Callable

from phiscrub.detect.base import Detector
from phiscrub.detect.rules.ages import age_detector
from phiscrub.detect.rules.auto import AutoLanguageRules
from phiscrub.detect.rules.base import (
    Labeler,
    PatternRule,
    RuleDetector,
    Validator,
    trie_pattern,
    words_regex,
)
from phiscrub.detect.rules.commonwealth import commonwealth_detector
from phiscrub.detect.rules.contact import contact_detector
from phiscrub.detect.rules.dates import date_detector
from phiscrub.detect.rules.ids import id_detector
from phiscrub.detect.rules.langpacks import PACK_LANGUAGES, normalize_lang
from phiscrub.detect.rules.locations import location_detector
from phiscrub.detect.rules.names import NameRule, name_detector
from phiscrub.detect.rules.safety_net import SafetyNet
from phiscrub.language import LANG_MODES

__all__ = [
    "FULL_LANGUAGES",
    "PACK_LANGUAGES",
    "RULE_DETECTORS",
    "RULE_LANGUAGES",
    "AutoLanguageRules",
    "Labeler",
    "NameRule",
    "PatternRule",
    "RuleDetector",
    "Validator",
    "age_detector",
    "contact_detector",
    "date_detector",
    "default_detectors",
    "has_rules",
    "id_detector",
    "location_detector",
    "name_detector",
    "trie_pattern",
    "words_regex",
]

#: Languages with full word lists; others get the language-neutral patterns only.
FULL_LANGUAGES: tuple[str, ...] = ("en",)
#: Languages with rules of their own (full English rules, or a language pack); ``auto`` picks one.
RULE_LANGUAGES: tuple[str, ...] = (*FULL_LANGUAGES, *PACK_LANGUAGES)

#: Detector name -> factory ``(lang) -> RuleDetector``, in the order :func:`default_detectors` uses.
RULE_DETECTORS: dict[str, Callable[[str], RuleDetector]] = {
    "date": date_detector,
    "contact": contact_detector,
    "id": id_detector,
    "location": location_detector,
    "age": age_detector,
    "name": name_detector,
    "commonwealth": commonwealth_detector,
}


def default_detectors(lang: str = "en") -> list[Detector]:
    """All rule detectors for ``lang`` (detectors without rules for that language are left out).

    Args:
        lang: ISO 639-1 code such as ``en``, ``es``, ``ca``, ``de``, ``fr``, ``nl``, ``zh``;
            case-insensitive, region suffixes (``en-US``) ignored. ``auto`` and ``default`` choose per
            document (the language decided for it, :mod:`phiscrub.language`; see
            :class:`AutoLanguageRules`).

    Returns:
        One :class:`RuleDetector` per PHI kind, in :data:`RULE_DETECTORS` order; for ``auto``, one
        :class:`AutoLanguageRules` detector.
    """
    code = normalize_lang(lang)
    if code in LANG_MODES:
        return [AutoLanguageRules(default_detectors, code)]
    detectors: list[Detector] = []
    for factory in RULE_DETECTORS.values():
        det = factory(code)
        if det.rules:
            detectors.append(det)
    # Issue 27: the language-agnostic safety net (checksummed IDs, phones, month-name dates, titled
    # names, postcodes) runs for every language; English gets only its identifier part.
    detectors.append(SafetyNet(code))
    return detectors


def has_rules(lang: str) -> bool:
    """Whether ``lang`` has rules of its own (English or a language pack), not only the neutral ones."""
    return normalize_lang(lang) in RULE_LANGUAGES
