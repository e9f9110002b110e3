"""English forms found on fresh notes written by people who never saw the rules (``docs/model.md``,
"Fresh notes"): names around staff roles, nicknames, spelled-out names, sign-off initials, units named
by one word, pharmacies, school districts and trades. Made-up names and places only.

Each table row is (text, expected surface or None). Positive rows must be found by the rule detector
with the label given, and survive the whole rules-only pipeline (guard and extend included); negative
rows are look-alikes these rules must not tag.
"""

from __future__ import annotations

import pytest

from phiscrub.deid import Deidentifier
from phiscrub.detect.rules.locations import location_detector
from phiscrub.detect.rules.names import name_detector
from phiscrub.detect.rules.names_roles import ROLE_NAME_RULES_EN
from phiscrub.document import Span

from ._support import kept_surfaces, run_detector

NAMES_FOUND = [
    ("renal fellow (Bhatt) placed rt fem hd catheter", "Bhatt", "DOCTOR"),
    ("d/w anjali (fellow) re: sedation - ok to wean", "anjali", "DOCTOR"),
    ("charge rn (kelly) aware of plan", "kelly", "DOCTOR"),
    ("Code status: DNR. CM Dana following.", "Dana", "DOCTOR"),
    ("SW Maribel Ochoa met with family", "Maribel Ochoa", "DOCTOR"),
    ("pt (goes by frank) remains intubated/sedated.", "frank", "PATIENT"),
    ('Pt goes by "Chuy". PMH: DM2', "Chuy", "PATIENT"),
    ("prefers to be called Bud, hard of hearing", "Bud", "PATIENT"),
    ("Patient name is Opal, O-P-A-L, Stringor.", "O-P-A-L", "PATIENT"),
    ("Patient name is Opal, O-P-A-L, Stringor, S-T-R-I-N-G-E-R period.", "S-T-R-I-N-G-E-R", "PATIENT"),
    ("If she gets short of breath go to the ED.\n- TC\n", "TC", "DOCTOR"),
    ("Keep logging weights.\n-JS", "JS", "DOCTOR"),
    ("If short of breath go to the ED. - TC\n", "TC", "DOCTOR"),
    ("d/w kate re plan for am labs", "kate", "DOCTOR"),
    ('Pt: Harold Rice ("Bud")   MRN 4471208', "Bud", "PATIENT"),
    ('pt: stuckey, eugene ("gene"), 90 yo M', "gene", "PATIENT"),
    ('neuro: a&ox3, pt prefers "bud". anxious', "bud", "PATIENT"),
    ("pt arlene, vent day 3, rll pna", "arlene", "PATIENT"),
    ("npn 7a-7p\n\npt (lorretta) sah s/p coiling", "lorretta", "PATIENT"),
    ("spoke w/ sue in pharmacy re: cost", "sue", "DOCTOR"),
    ("good morning. this is DeShawn M i was in the ER", "DeShawn", "PATIENT"),
    ("hi ms fountain its keyana. so my feet", "keyana", "PATIENT"),
    ("Keyana, with a headache that isn't improving", "Keyana", "PATIENT"),
    ("Recheck ears in 2 wks. -KM LPN", "KM", "DOCTOR"),
]

NAMES_NOT_FOUND = [
    "SW Florida trip planned",  # a region after "SW"
    "RT Knee pain, worse with stairs",  # "right"
    "3 CM Mass in the RUL",  # centimetres
    "goes by ambulance to dialysis",
    "known as a heavy drinker",
    "d/w team (fellow on call)",
    "seen with the resident (pgy2) today",
    "plan:\n- PT\n- OT\n",  # services in a plan list
    "labs pending\n- CBC\n\nnext",  # a clinical abbreviation on its own line
    "f/u in 2 wks. - PT\n",  # a service after a sentence
    "hx of COPD, C-O-P-D, on home O2",  # letters spelling a clinical word
    "heparin, H-E-P-A-R-I-N drip",
    "per protocol, d/w pt",
    "MyChart Message (From Patient Proxy)",
    'more evening confusion ("sundowning") for ~6 wks',
    "pt (intubated) on vent",
    "pt alert, oriented x3",
    "spoke with family in waiting room",
    "this is the nurse calling",
    "it's cold outside",
    "Lasix, given at 0900",
    "Thanks, call back",
]

PLACES_FOUND = [
    ("Step down - Lantern Unit\nNursing note 3p-11p", "Lantern Unit", "DEPARTMENT"),
    ("L&D TRIAGE - Bluebonnet Unit\n35y G2P1001", "Bluebonnet Unit", "DEPARTMENT"),
    ("dtr says pharmacy (Brazos Drug on Kemp) never got refill", "Brazos Drug", "ORGANIZATION"),
    ("I'm at work at Henrietta ISD until 4.", "Henrietta ISD", "ORGANIZATION"),
    ("has VNA from Riverbend VNA 2x/wk.", "Riverbend VNA", "ORGANIZATION"),
    ("Hector Salinas, MD\nPecos Family Med\n1120 N Main St", "Pecos Family Med", "HOSPITAL"),
    ("CCH EMERGENCY DEPT - PHYSICIAN NOTE", "CCH", "HOSPITAL"),
    ("nsg transfer note micu -> tolliver 7 stepdown", "tolliver 7", "DEPARTMENT"),
    ("NURSING TRANSFER SUMMARY  MICU (Tolliver 5) -> Tolliver 7 stepdown", "Tolliver 5", "DEPARTMENT"),
    ("NURSING TRANSFER SUMMARY  MICU (Tolliver 5) -> Tolliver 7 stepdown", "Tolliver 7", "DEPARTMENT"),
    ("Arrived ashby 3 0305.", "ashby 3", "DEPARTMENT"),
    ("Dispo: admit Pettus 4 stepdown. Spoke w/ daughter", "Pettus 4", "DEPARTMENT"),
    ("transferred to Calloway Pines Medical Center Pettus 5 for GI evaluation", "Pettus 5", "DEPARTMENT"),
    ("CPMC Pettus 7   12/10/2024", "Pettus 7", "DEPARTMENT"),
    ("presented to OSH (mercy) ~0500 8/14", "mercy", "HOSPITAL"),
    ("Hx w/d seizure 2019 per OSH records (Mercy - Defiance).", "Defiance", "CITY"),
    ("MARLOW SPRINGS HEART & VASCULAR", "MARLOW SPRINGS HEART & VASCULAR", "HOSPITAL"),
    (
        "Referred to Tuckahoe County Council on Aging for rides.",
        "Tuckahoe County Council on Aging",
        "ORGANIZATION",
    ),
    ("VA CBOC in Aiken for labs.", "VA CBOC", "HOSPITAL"),
]

PLACES_NOT_FOUND = [
    "admitted to the Stroke Unit for monitoring",
    "Cardiac Unit bed 4",
    "Observation Unit overnight",
    "This Unit is short staffed",
    "Attending: D. Rice  Unit: Tallis 4",  # two spaces: a field, not a unit's name
    "Mother Baby Unit",
    "Progressive Care Unit",
    "obesity (BMI 36), HLD",  # a score in brackets, not a unit
    "diabetic ulcer (Wagner 2)",
    "vanc -> cefazolin 2 g",
    "ICU Bed 4 today",
    "labs from OSH (see scanned)",
]


def _surfaces(detector_spans: list[Span], text: str) -> set[tuple[str, str]]:
    return {(text[s.start : s.end], s.label) for s in detector_spans}


@pytest.mark.parametrize(("text", "surface", "label"), NAMES_FOUND)
def test_name_forms_are_found_andkept_surfaces(
    rules_only: Deidentifier, text: str, surface: str, label: str
) -> None:
    assert (surface, label) in _surfaces(run_detector(name_detector(), text), text)
    assert surface in kept_surfaces(rules_only, text)


@pytest.mark.parametrize("text", NAMES_NOT_FOUND)
def test_name_look_alikes_are_not_tagged(text: str) -> None:
    found = run_detector(name_detector(), text)
    rules = {r.name or "" for r in ROLE_NAME_RULES_EN}
    assert not [s for s in found if s.source == "rule:name" and _rule_of(text, s) & rules]


def _rule_of(text: str, span: Span) -> set[str]:
    """The names of the new rules that produce ``span`` on ``text``."""
    out = set()
    for rule in ROLE_NAME_RULES_EN:
        for start, end, _ in rule.find(text):
            if (start, end) == (span.start, span.end):
                out.add(rule.name or "")
    return out


@pytest.mark.parametrize(("text", "surface", "label"), PLACES_FOUND)
def test_place_forms_are_found_andkept_surfaces(
    rules_only: Deidentifier, text: str, surface: str, label: str
) -> None:
    assert (surface, label) in _surfaces(run_detector(location_detector(), text), text)
    assert surface in kept_surfaces(rules_only, text)


@pytest.mark.parametrize("text", PLACES_NOT_FOUND)
def test_place_look_alikes_are_not_tagged_as_named_units(rules_only: Deidentifier, text: str) -> None:
    found = run_detector(location_detector(), text)
    assert not [s for s in found if text[s.start : s.end].endswith("Unit")]
    assert not {w for w in ("BMI", "Wagner", "cefazolin", "Bed", "see") if w in text} & {
        w for kept in kept_surfaces(rules_only, text) for w in kept.split()
    }
