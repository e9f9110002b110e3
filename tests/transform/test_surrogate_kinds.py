"""Issue 29, item 3: a surrogate has the kind of its surface, not only of its label.

Tables: facilities keep their head noun, known towns and states get towns and states whatever the
label, first names stay first names, surnames surnames, initials initials, with the number of name
parts, case and shape kept.
"""

from __future__ import annotations

import re

import pytest

from phiscrub.transform.surrogate.geo import state_code, town_states, us_states
from phiscrub.transform.surrogate.kinds import known_names
from phiscrub.transform.surrogate.locale import locale_list
from phiscrub.transform.surrogate.text import normalize_component
from phiscrub.transform.surrogates import SurrogateGenerator

GEN = SurrogateGenerator(b"kinds-test-key")
HEADS = ["Clinic", "Hospital", "Medical Center", "Cancer Center", "VA Medical Center", "Nursing Home",
         "Rehabilitation Hospital", "Pharmacy"]  # fmt: skip


def _folded(names: tuple[str, ...]) -> set[str]:
    return {normalize_component(n) for n in names}


FIRST = _folded(locale_list("first_names_female", "en_us") + locale_list("first_names_male", "en_us"))
FEMALE = _folded(locale_list("first_names_female", "en_us"))
LAST = _folded(locale_list("last_names", "en_us"))


def _is_us_town(text: str) -> bool:
    return normalize_component(text) in town_states()


def _is_person(text: str) -> bool:
    """Two or more words that are all given names or surnames of the lists: a person's full name."""
    words = [normalize_component(w) for w in re.findall(r"[^\W\d_]+", text)]
    return len(words) >= 2 and all(w in known_names("en_us") for w in words)


@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("label", ["HOSPITAL", "ORGANIZATION", "LOCATION", "PATIENT", "DOCTOR", "CITY"])
@pytest.mark.parametrize("stem", ["Northgate", "Lakeview Family", "MD Anderson", "Boston"])
def test_facility_keeps_its_head_and_gets_no_person_name(head: str, label: str, stem: str) -> None:
    surface = f"{stem} {head}"
    out = GEN.surrogate(label, surface, patient_id="p1")
    assert out.endswith(" " + head), out
    assert out != surface
    name_part = out[: -len(head)].strip()
    assert name_part and not _is_person(name_part), out
    if stem == "Lakeview Family":
        assert name_part.endswith(" Family"), "service words before the head are kept"
    if "VA" in head:
        assert _is_us_town(name_part.removesuffix(" Family")), "a VA medical center is named after a town"


@pytest.mark.parametrize(
    ("surface", "head"),
    [("NORTHGATE FAMILY CLINIC", "FAMILY CLINIC"), ("st. mary's hospital", "hospital"),
     ("Lakeside Nursing Home", "Nursing Home")],
)  # fmt: skip
def test_facility_case_is_kept(surface: str, head: str) -> None:
    out = GEN.surrogate("HOSPITAL", surface)
    assert out.endswith(head) and out != surface
    letters = [c for c in out if c.isalpha()]
    if surface.isupper():
        assert all(c.isupper() for c in letters)
    if surface.islower():
        assert all(c.islower() for c in letters)


@pytest.mark.parametrize(
    ("label", "surface"),
    [("HOSPITAL", "SPRINGFIELD"), ("HOSPITAL", "Cambridge"), ("ORGANIZATION", "Brookfield"),
     ("LOCATION", "Worcester"), ("CITY", "Springfield"), ("PATIENT", "Cambridge"), ("DOCTOR", "Peoria")],
)  # fmt: skip
def test_known_town_becomes_a_town_whatever_the_label(label: str, surface: str) -> None:
    out = GEN.surrogate(label, surface, patient_id="p1")
    assert out != surface and _is_us_town(out), out
    assert out.isupper() == surface.isupper()


@pytest.mark.parametrize(
    ("label", "surface"),
    [("STATE", "IL"), ("LOCATION", "Illinois"), ("HOSPITAL", "Massachusetts"), ("PATIENT", "Ohio"),
     ("STATE", "NEW YORK")],
)  # fmt: skip
def test_known_state_becomes_a_state(label: str, surface: str) -> None:
    out = GEN.surrogate(label, surface)
    code = state_code(out)
    assert code is not None and code in us_states() and code != state_code(surface), out
    assert len(out) == 2 if len(surface) == 2 else len(out) > 2
    assert out.isupper() == surface.isupper()


@pytest.mark.parametrize(
    ("label", "surface"),
    [("RELATIVE", "Mary"), ("PATIENT", "Ellen"), ("HOSPITAL", "Ellen"), ("LOCATION", "Patricia"),
     ("DOCTOR", "John")],
)  # fmt: skip
def test_first_name_becomes_a_first_name(label: str, surface: str) -> None:
    out = GEN.surrogate(label, surface, patient_id="p1")
    assert normalize_component(out) in FIRST and out != surface, out
    if surface in ("Mary", "Ellen", "Patricia"):
        assert normalize_component(out) in FEMALE, "gender is kept"


@pytest.mark.parametrize(
    ("label", "surface"), [("PATIENT", "Smith"), ("DOCTOR", "Kowalski"), ("LOCATION", "Garcia")]
)
def test_surname_becomes_a_surname(label: str, surface: str) -> None:
    out = GEN.surrogate(label, surface, patient_id="p1")
    assert normalize_component(out) in LAST and out != surface, out


@pytest.mark.parametrize(
    ("surface", "pattern"),
    [("J. Smith", r"[A-Z]\. [A-Z][a-z]+"), ("JS", r"[A-Z]{2}"), ("J.S.", r"[A-Z]\.[A-Z]\."),
     ("Mary Ann Smith", r"[A-Z][a-z]+ [A-Z][a-z]+ [A-Z][a-z]+"), ("JOHN SMITH", r"[A-Z]+ [A-Z]+"),
     ("smith, john", r"[a-z]+, [a-z]+"), ("Smith-Jones", r"[A-Z][a-z]+-[A-Z][a-z]+"),
     ("O'Neil", r"[A-Z][a-z']+")],
)  # fmt: skip
def test_name_shape_parts_and_case_are_kept(surface: str, pattern: str) -> None:
    out = GEN.surrogate("PATIENT", surface, patient_id="p1")
    assert re.fullmatch(pattern, out) and out != surface, out


def test_full_name_words_come_from_the_us_lists() -> None:
    out = GEN.surrogate("PATIENT", "Stefania Kowalczyk", patient_id="p1")
    first, last = out.split()
    assert normalize_component(first) in FIRST and normalize_component(last) in LAST, out


# -- found by scripts/eval_surrogates.py: named wards, facility acronyms, more heads ----------------


@pytest.mark.parametrize(
    ("surface", "pattern"),
    [("Tallis 6", r"[A-Z][a-z]+ [1-9]"), ("Whitcombe 3", r"[A-Z][a-z]+ [1-9]"), ("Hadley 8B", r"[A-Z][a-z]+ [1-9][A-Z]"),
     ("Corrigan ICU", r"[A-Z][a-z]+ ICU"), ("WHITCOMBE 3", r"[A-Z]+ [1-9]")],
)  # fmt: skip
def test_named_ward_stays_a_named_ward(surface: str, pattern: str) -> None:
    out = GEN.surrogate("DEPARTMENT", surface, patient_id="p1")
    assert re.fullmatch(pattern, out) and out.split()[0] != surface.split()[0], out
    assert normalize_component(out.split()[0]) in LAST


@pytest.mark.parametrize("surface", ["Cardiology", "General Surgery", "Labor and Delivery"])
def test_generic_department_stays_a_department(surface: str) -> None:
    from phiscrub.resources import load_lexicon

    assert GEN.surrogate("DEPARTMENT", surface, patient_id="p1") in load_lexicon("departments")


@pytest.mark.parametrize("surface", ["NMC", "AMH", "MGH", "BIDMC", "SJH"])
def test_hospital_acronym_reads_as_a_facility_acronym(surface: str) -> None:
    out = GEN.surrogate("HOSPITAL", surface, patient_id="p1")
    assert re.fullmatch(r"[A-Z]+", out) and len(out) == len(surface) and out != surface, out
    assert out[-1] in "HCS" or out.endswith("MC"), "initials of a facility name end in its head word"


@pytest.mark.parametrize(
    ("label", "surface", "kept"),
    [("ORGANIZATION", "Brennock PD", " PD"), ("HOSPITAL", "Coldwater Junction Family Practice", " Family Practice"),
     ("ORGANIZATION", "Northgate Home Health", " Home Health"), ("HOSPITAL", "Willowmere Manor", " Manor"),
     ("ORGANIZATION", "Prewitt & Sons", " & Sons"), ("ORGANIZATION", "Grace Methodist", " Methodist")],
)  # fmt: skip
def test_more_heads_are_kept(label: str, surface: str, kept: str) -> None:
    out = GEN.surrogate(label, surface, patient_id="p1")
    assert out.endswith(kept) and out != surface, out
    if kept == " PD":
        assert _is_us_town(out.removesuffix(kept)), "a police department is named after its town"


def test_unknown_one_word_relative_gets_a_given_name() -> None:
    out = GEN.surrogate("RELATIVE", "Abena", patient_id="p1")
    assert normalize_component(out) in FIRST, out
