"""The patient registry (phiscrub.detect.site_registry): each note's patient by name, initials,
misspelling, MRN, date of birth and extra columns. All patients are made up."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiscrub import Deidentifier
from phiscrub.detect.site_registry import Registry
from phiscrub.document import Document
from phiscrub.errors import ConfigError

CSV = """patient_id,first,last,mrn,dob,ssn,insurer_id
Q01,Harwin,Tolliver,4419283,1941-03-14,078-05-1120,ZX-88412
Q02,Bess,Page,3380117,1935-11-02,,
Q03,Ida,Vosk,A77-1234,3/9/1960,,
"""


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    path = tmp_path_factory.mktemp("reg") / "registry.csv"
    path.write_text(CSV)
    return Registry.from_csv(path)


def found(registry: Registry, text: str, pid: str | None = "Q01") -> set[tuple[str, str]]:
    meta = {} if pid is None else {"patient_id": pid}
    return {(text[s.start : s.end], s.label) for s in registry.spans(Document("d", text, (), meta))}


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("Pt: Tolliver, Harwin", "Tolliver, Harwin", "PATIENT"),
        ("Harwin Tolliver is 83.", "Harwin Tolliver", "PATIENT"),
        ("harwin tolliver is 83.", "harwin tolliver", "PATIENT"),
        ("HARWIN TOLLIVER IS 83.", "HARWIN TOLLIVER", "PATIENT"),
        ("Seen: H. Tolliver.", "H. Tolliver", "PATIENT"),
        ("Mr. Tolliver's wife called.", "Tolliver", "PATIENT"),
        ("Asked harwin about pain.", "harwin", "PATIENT"),
        ("Pt H.T. denies pain.", "H.T.", "PATIENT"),
        ("Spoke with Mr. HT today.", "HT", "PATIENT"),
        ("Mr. T was seen today.", "T", "PATIENT"),  # a lone initial after a title
        ("Pt H. reports pain.", "H", "PATIENT"),
        ("Mr. Toliver seen.", "Toliver", "PATIENT"),  # deletion
        ("Mr. Tolliverr seen.", "Tolliverr", "PATIENT"),  # insertion
        ("Mr. Tolluver seen.", "Tolluver", "PATIENT"),  # substitution
        ("Mr. Tolilver seen.", "Tolilver", "PATIENT"),  # transposition
        ("Harwn is awake.", "Harwn", "PATIENT"),  # first name, five letters or more
        ("MRN 441-9283", "441-9283", "MEDICALRECORD"),
        ("MRN 441 9283", "441 9283", "MEDICALRECORD"),
        ("MRN #4419283", "4419283", "MEDICALRECORD"),
        ("MRN 04419283", "04419283", "MEDICALRECORD"),
        ("DOB 1941-03-14.", "1941-03-14", "DATE"),
        ("DOB 3/14/1941.", "3/14/1941", "DATE"),
        ("DOB 03/14/41.", "03/14/41", "DATE"),
        ("DOB 3-14-41.", "3-14-41", "DATE"),
        ("DOB 14 Mar 1941.", "14 Mar 1941", "DATE"),
        ("DOB March 14, 1941.", "March 14, 1941", "DATE"),
        ("DOB 14-Mar-1941.", "14-Mar-1941", "DATE"),
        ("SSN 078 05 1120", "078 05 1120", "SSN"),
        ("Member ZX88412", "ZX88412", "IDNUM"),
    ],
)
def test_patient_table(registry: Registry, text: str, surface: str, label: str) -> None:
    assert (surface, label) in found(registry, text)


@pytest.mark.parametrize(
    ("text", "pid"),
    [
        ("Page 3 of the chart. See page 4.", "Q02"),  # a surname that is a word, no context
        ("Vosa and Voss are other words.", "Q03"),  # four letters: not fuzzed
        ("Tollivering is not a name.", "Q01"),  # inside another word
        ("MRN 44192830 belongs to someone else.", "Q01"),  # more digits
        ("Seen 3/14/1942, 4/14/1941.", "Q01"),  # another date
        ("Pt H.W. denies pain.", "Q01"),  # other initials
        ("Mr. W was seen today.", "Q01"),  # another letter
        ("Pt A&O x3, MS T/L spine clear.", "Q01"),  # no title before the letter
    ],
)
def test_negative_rows(registry: Registry, text: str, pid: str) -> None:
    assert found(registry, text, pid) == set()


def test_unknown_or_no_patient_finds_full_names_only(registry: Registry) -> None:
    text = "Harwin Tolliver's note; Mr. Tolliver; MRN 4419283."
    assert found(registry, text, "Q99") == {("Harwin Tolliver", "PATIENT")}
    assert found(registry, text, None) == {("Harwin Tolliver", "PATIENT")}


def test_common_word_surname_needs_a_name_context(registry: Registry) -> None:
    assert ("Page", "PATIENT") in found(registry, "Asked Mrs. Page about pain.", "Q02")
    assert ("Page", "PATIENT") in found(registry, "Plan reviewed with Page today.", "Q02")
    assert found(registry, "page 2 of the discharge papers", "Q02") == set()


def test_other_patients_full_names_only(registry: Registry) -> None:
    got = found(registry, "Roommate Bess Page and Mr. Tolliver.", "Q03")
    assert ("Bess Page", "PATIENT") in got
    assert not any(s == "Tolliver" for s, _ in got)  # a lone name of another patient


def test_alphanumeric_mrn_and_us_dob(registry: Registry) -> None:
    got = found(registry, "MRN a77 1234, DOB 03/09/1960.", "Q03")
    assert ("a77 1234", "MEDICALRECORD") in got and ("03/09/1960", "DATE") in got


def test_bad_registry_files(tmp_path: Path) -> None:
    no_id = tmp_path / "a.csv"
    no_id.write_text("first,last\nHarwin,Tolliver\n")
    with pytest.raises(ConfigError, match="no patient_id column"):
        Registry.from_csv(no_id)
    repeated = tmp_path / "b.csv"
    repeated.write_text("patient_id,first\nQ1,Harwin\nQ1,Bess\n")
    with pytest.raises(ConfigError, match="line 3") as exc:
        Registry.from_csv(repeated)
    assert "Bess" not in str(exc.value)
    bad_date = tmp_path / "c.csv"
    bad_date.write_text("patient_id,dob\nQ1,yesterday\n")
    with pytest.raises(ConfigError, match="line 2"):
        Registry.from_csv(bad_date)


def test_deidentifier_with_registry(tmp_path: Path) -> None:
    path = tmp_path / "registry.csv"
    path.write_text(CSV)
    deid = Deidentifier(model=None, labels="fine", registry=path).load()
    text = "Mr. Tolliverr (MRN 441 9283) was seen."
    spans = deid.detect(Document("d", text, (), {"patient_id": "Q01"}))
    got = {(text[s.start : s.end], s.label) for s in spans}
    assert ("Tolliverr", "PATIENT") in got and ("441 9283", "MEDICALRECORD") in got
    assert all(s.source.startswith(("site", "rule")) for s in spans)


def test_missing_registry_fails_at_load(tmp_path: Path) -> None:
    deid = Deidentifier(model=None, registry=tmp_path / "none.csv")
    with pytest.raises(ConfigError, match="none.csv"):
        deid.load()
