"""Shared pieces of the German pack modules (:mod:`.intl_german`, :mod:`.intl_german_places`): the shapes
of a capitalised name word, the test of a common word of the notes, clinical abbreviations and the checks
of a town word."""

from __future__ import annotations

import re
from functools import lru_cache

from phiscrub.detect.rules.intl_name_scan import name_lexicon
from phiscrub.detect.rules.intl_names_data import NAME_WORDS

__all__ = [
    "CAPW", "CLINICAL_ABBR", "NAME", "NOUN_END_RE", "name_word", "stop_word", "stopwords", "town_after_name_ok",
    "town_word_ok",
]  # fmt: skip

CAPW = r"[A-ZÄÖÜ][a-zäöüß]+"
#: A capitalised name word, hyphenated parts allowed ("Lang-Hofer").
NAME = rf"{CAPW}(?:-{CAPW})?"

#: Endings of German common nouns and specialties, never of a ward, town or person name here.
NOUN_END_RE = re.compile(
    r"(?:ung|heit|keit|schaft|ion|tät|ie|ik|enz|anz|nis|tum|ment|age|ose|itis|ismus|ur|eur|ist|istin|loge|"
    r"login|arzt|ärztin|eut|eutin|kraft|dienst|station|stelle|zentrum|klinik|praxis|medizin)\Z"
)


def stop_word(word: str) -> bool:
    """A common word of the notes: a stop word, title, role or kinship word of the German name words, or
    a word with the ending of a common noun."""
    low = word.lower()
    return low in stopwords() or NOUN_END_RE.search(low) is not None


def name_word(word: str) -> bool:
    """A word that may be a name: a listed given name or surname, or no common word ("Marie", "Wendt")."""
    low = word.lower()
    lex = name_lexicon("de")
    return low not in stopwords() and (low in lex.first or low in lex.last or not stop_word(low))


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    words = NAME_WORDS["de"]
    return frozenset(
        {w.lower() for w in words.stopwords}
        | {t.lower().rstrip(".") for t in (*words.doctor_titles, *words.person_titles)}
        | {w.lower() for role in words.roles for w in role.split()}
        | {w.lower() for w in words.kin}
    )


#: Clinical abbreviations that follow a unit word ("ZNA ITS", "Schockraum CT").
CLINICAL_ABBR = frozenset(
    (
        "ITS", "IMC", "ICU", "IPS", "OP", "CT", "MRT", "MR", "EKG", "ZNA", "RTW", "NEF", "NAW", "KTW", "HNO",
        "MKG", "ZVK", "DK", "BGA", "BZ", "RR", "HF", "GCS", "NIHSS", "EEG", "EMG", "TTE", "TEE", "US", "KH",
        "UKH", "PJ", "OA", "CA", "FA", "AA", "NA", "LNA", "TIA", "STEMI", "NSTEMI", "ACS", "CPR", "ROSC", "AZ",
        "EZ",
    )
)  # fmt: skip


def town_word_ok(m: re.Match[str]) -> bool:
    t = m.group("t")
    return not stop_word(t) and not t.endswith(("verband", "verein", "wache", "einsatz", "kliniken", "team"))


def town_after_name_ok(m: re.Match[str]) -> bool:
    t = m.group("t").lower()
    lex = name_lexicon("de")
    # "Dr. Müller, Hans", "Gemeinschaftspraxis Weber, Schulz": a given name or a second doctor.
    return t not in lex.first and t not in lex.last and not stop_word(t)
