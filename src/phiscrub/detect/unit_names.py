"""Units named by one word that says nothing about care: ``Lantern Unit``, ``Bluebonnet Unit``.

Read by the English place rules (:mod:`phiscrub.detect.rules.places_en`, which propose such spans) and by
the clinical guard (:mod:`phiscrub.detect.clinical`, for which the form is evidence of a place); it
sits below both so that neither imports the other.
"""

from __future__ import annotations

import re

from phiscrub.calendar import WEEKDAY_NAMES
from phiscrub.detect.clinical_vocab import MONTHS, is_clinical_word, word_set
from phiscrub.detect.pattern_data import pattern_data

_RX = pattern_data("unit_names")


__all__ = ["NAMED_UNIT_RE", "named_unit_word"]

# "Step down - Lantern Unit", "L&D TRIAGE - Bluebonnet Unit": a unit named by one word that says
# nothing about its care (a flower, a donor, a local name); one space only ("Rice  Unit:" is two fields).
NAMED_UNIT_RE = re.compile(r"(?<![\w'’&/-])(?P<u>[A-Z][a-z]{3,}[ ]Unit)(?![\w'’-])")
#: Words that name a unit by its care, and adjective endings that do ("Cardiac", "Progressive").
_GENERIC_UNIT_WORDS = word_set(
    """
    memory detox isolation comfort bridge decision short stay step down heart labor newborn family care
    chest maternity senior adolescent spine observation stroke burn trauma day night evaluation
    assessment admission admissions holding recovery procedure procedures cath endoscopy dialysis hospice
    mother baby women's children's eating sleep pain wound kidney liver lung brain cancer infant birthing
    delivery triage emergency fast track express crisis addiction substance dependency inpatient
    outpatient acute subacute skilled nursing rehabilitation treatment research bone marrow blood
    plasma medicine surgery care clinical decision special intensive this that each every same
    another other which whose your their
    """
)
_CALENDAR = MONTHS | frozenset(w.lower() for day in WEEKDAY_NAMES["en"] for w in day)


def named_unit_word(surface: str) -> bool:
    """``Lantern Unit``: one capitalised word that says nothing about care (no clinical, care-unit or
    calendar word, no generic qualifier), then ``Unit``."""
    m = NAMED_UNIT_RE.fullmatch(surface)
    if m is None:
        return False
    word = m.group("u").split()[0]
    low = word.lower()
    if low in _GENERIC_UNIT_WORDS or _RX["GENERIC_UNIT_END_RE"].search(low):
        return False
    return not is_clinical_word(word) and low not in _CALENDAR
