"""Site lists (phiscrub.detect.site): loading, the matching table, the allow list, and the property
that adding a site list never removes or shrinks a span. All names are made up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phiscrub import Deidentifier
from phiscrub.detect.site import (
    SiteLists,
    content_digest,
    drop_allowed,
    load_allow_list,
    load_site_lists,
    merge_site_spans,
)
from phiscrub.detect.site_registry import one_edit
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError

LISTS = SiteLists(
    {
        "facilities": ["Quillmere General Hospital", "QGH", "Brantwell Manor", "Ostley Building"],
        "units": ["Varnell 4", "Corbin ICU"],
        "staff": [
            "Orla Penhaligon",
            "Hope Tarrant",
            "Ramsey, Will",
            "Idris Vantongeren",
            "Tamsin March",
            "Amos Stone",
            "Tess Murphy",
        ],
        "places": ["Dunmoor", "Little Fenwick"],
    }
)


def found(text: str, lists: SiteLists = LISTS) -> set[tuple[str, str]]:
    """(surface, label) of every site span in ``text``."""
    return {(text[s.start : s.end], s.label) for s in lists.spans(text)}


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("Seen by Orla Penhaligon today.", "Orla Penhaligon", "DOCTOR"),
        ("seen by orla penhaligon today.", "orla penhaligon", "DOCTOR"),
        ("SEEN BY ORLA PENHALIGON TODAY.", "ORLA PENHALIGON", "DOCTOR"),
        ("Signed: Penhaligon, Orla", "Penhaligon, Orla", "DOCTOR"),
        ("Discussed with O. Penhaligon.", "O. Penhaligon", "DOCTOR"),
        ("Discussed with O Penhaligon.", "O Penhaligon", "DOCTOR"),
        ("Discussed with A. Stone.", "A. Stone", "DOCTOR"),
        ("Per Penhaligon's note, stable.", "Penhaligon", "DOCTOR"),
        ("Reviewed the Penhaligons' plan.", "Penhaligon", None),  # not a word boundary: no match
        ("Orla called back.", "Orla", "DOCTOR"),  # a first name that is no English word
        ("Paged Dr. Tarrant at noon.", "Tarrant", "DOCTOR"),
        ("Asked Hope about the plan.", "Hope", "DOCTOR"),  # capitalised, not sentence-initial
        ("Plan reviewed with Hope, RN.", "Hope", "DOCTOR"),
        ("d/w Dr. Idris Vantongeren", "Idris Vantongeren", "DOCTOR"),
        ("Consent witnessed by Dr. March today.", "March", "DOCTOR"),
        ("Paged Dr. Murphy overnight.", "Murphy", "DOCTOR"),
        ("Admitted to Quillmere General Hospital.", "Quillmere General Hospital", "HOSPITAL"),
        ("Transfer from QGH ED.", "QGH", "HOSPITAL"),
        ("Moved to Varnell 4 overnight.", "Varnell 4", "DEPARTMENT"),
        ("Moved to varnell 6 overnight.", "varnell 6", "DEPARTMENT"),  # a ward's other floor
        ("Clinic in Ostley 3 on Tuesday.", "Ostley 3", "DEPARTMENT"),  # building + floor
        ("Back to Brantwell when stable.", "Brantwell", "HOSPITAL"),
        ("Lives in Little   Fenwick with son.", "Little   Fenwick", "CITY"),
        ("Daughter in DUNMOOR.", "DUNMOOR", "CITY"),
    ],
)
def test_matching_table(text: str, surface: str, label: str | None) -> None:
    spans = found(text)
    if label is None:
        assert not any(s == surface for s, _ in spans)
    else:
        assert (surface, label) in spans


@pytest.mark.parametrize(
    "text",
    [
        "Hope to discharge tomorrow.",  # a common word at the start of a sentence
        "We hope to discharge tomorrow.",  # lower case
        "WE HOPE TO DISCHARGE.",  # ALL CAPS without a name context
        "Will do.",  # a staff first name that is a word
        "Pt will follow up.",
        "qgh is not the abbreviation in lower case",
        "Ostley is a name alone without a floor",
        "The Varnell family visited.",  # a ward's stem without a floor
        "Dunmoorland trail",  # inside another word
        "Penhaligonian style",
        "Admitted on March 3 with pain.",  # a month, not the staff surname
        "Seen in clinic in March for review.",
        "Passed a stone yesterday.",  # initial + surname need capitals
        "RUQ tender, positive Murphy sign.",  # an eponym: a name only after a title
        "Pain 3/10 on the Wong-Penhaligon scale.",  # half of a hyphenated compound
        "Discussed with nurse will call back.",  # a role word is no title
    ],
)
def test_negative_rows(text: str) -> None:
    assert found(text) == set()


def test_spans_have_site_source_and_full_score() -> None:
    spans = LISTS.spans("Seen by Orla Penhaligon at QGH.")
    assert spans and all(s.source == "site" and s.score == 1.0 for s in spans)


def test_folder_and_json_load_the_same(tmp_path: Path) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "facilities.txt").write_text("# our hospitals\nQuillmere General Hospital\n\nQGH\n")
    (folder / "staff.txt").write_text("Orla Penhaligon\n")
    (folder / "ORGANIZATION.txt").write_text("Fenwick Rotary Club\n")
    (folder / "README.md").write_text("not a list\n")
    lists = load_site_lists(folder)
    assert lists.lists["facilities"] == ("Quillmere General Hospital", "QGH")
    assert lists.labels == {"ORGANIZATION": "ORGANIZATION", "facilities": "HOSPITAL", "staff": "DOCTOR"}
    as_json = tmp_path / "lists.json"
    as_json.write_text(json.dumps({k: list(v) for k, v in lists.lists.items()}))
    text = "Orla Penhaligon (QGH) spoke at Fenwick Rotary Club."
    assert found(text, load_site_lists(as_json)) == found(text, lists)
    assert ("Fenwick Rotary Club", "ORGANIZATION") in found(text, lists)


def test_json_entry_objects_give_a_name_and_its_abbreviations(tmp_path: Path) -> None:
    """``{"name": ..., "abbreviations": [...], "aliases": [...]}``: each name is an entry."""
    as_json = tmp_path / "lists.json"
    facility = {"name": "Quillmere General Hospital", "abbreviations": ["QGH"], "aliases": ["the Quill"]}
    as_json.write_text(json.dumps({"facilities": [facility, "Fenwick House"], "staff": ["Orla Penhaligon"]}))
    lists = load_site_lists(as_json)
    assert lists.lists["facilities"] == ("Quillmere General Hospital", "QGH", "the Quill", "Fenwick House")
    text = "Orla Penhaligon sent him from QGH to Fenwick House."
    assert {("QGH", "HOSPITAL"), ("Fenwick House", "HOSPITAL")} <= found(text, lists)


def test_unknown_list_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "wards.txt").write_text("Varnell 4\n")
    with pytest.raises(ConfigError, match="wards.txt"):
        load_site_lists(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"staff": "Orla Penhaligon"}))
    with pytest.raises(ConfigError, match="'staff' is not a list"):
        load_site_lists(bad)
    for entry in (
        3,
        {"abbreviations": ["QGH"]},
        {"name": "Quillmere", "abbreviations": "QGH"},
        {"name": "Q", "url": "x"},
    ):
        bad.write_text(json.dumps({"facilities": ["Fenwick House", entry]}))
        with pytest.raises(ConfigError, match="list 'facilities' entry 1 is neither a string nor an object"):
            load_site_lists(bad)
    with pytest.raises(ConfigError, match="does not exist"):
        load_site_lists(tmp_path / "missing")


def test_errors_never_hold_entries(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"staff": ["Orla Penhaligon"')
    with pytest.raises(ConfigError) as exc:
        load_site_lists(bad)
    assert "Penhaligon" not in str(exc.value)


def test_content_digest_changes_with_content(tmp_path: Path) -> None:
    (tmp_path / "staff.txt").write_text("Orla Penhaligon\n")
    first = content_digest(tmp_path)
    (tmp_path / "staff.txt").write_text("Orla Penhaligon\nHope Tarrant\n")
    assert content_digest(tmp_path) != first
    assert content_digest(None) is None


def test_allow_list(tmp_path: Path) -> None:
    path = tmp_path / "allow.txt"
    path.write_text("# never redact\nDunmoor\nlittle fenwick\n")
    allowed = load_allow_list(path)
    text = "Lives in Dunmoor, works in Little Fenwick, visits Orla Penhaligon."
    spans = LISTS.spans(text)
    kept = {text[s.start : s.end] for s in drop_allowed(text, spans, allowed)}
    assert "Dunmoor" not in kept and "Little Fenwick" not in kept
    assert "Orla Penhaligon" in kept


def test_deidentifier_applies_lists_after_the_guard_and_the_allow_list_last(tmp_path: Path) -> None:
    allow = tmp_path / "allow.txt"
    allow.write_text("QGH\n")
    deid = Deidentifier(model=None, labels="fine", site_lists=LISTS, allow_list=allow).load()
    text = "Admitted to Corbin ICU at QGH; seen by Orla Penhaligon."
    got = {(text[s.start : s.end], s.label) for s in deid.detect(text)}
    assert ("Corbin ICU", "DEPARTMENT") in got  # a care unit the guard alone would drop
    assert ("Orla Penhaligon", "DOCTOR") in got
    assert not any(surface == "QGH" for surface, _ in got)


def test_policy_still_applies_to_list_spans() -> None:
    lists = SiteLists({"STATE": ["Vermont"], "places": ["Dunmoor"]})
    text = "From Vermont, lives in Dunmoor."
    safe = Deidentifier(model=None, labels="fine", site_lists=lists, policy="safe-harbor")
    got = {text[s.start : s.end] for s in safe.detect(text)}
    assert "Dunmoor" in got and "Vermont" not in got
    i2b2 = Deidentifier(model=None, labels="fine", site_lists=lists, policy="i2b2")
    assert "Vermont" in {text[s.start : s.end] for s in i2b2.detect(text)}


def test_merge_never_drops_and_site_label_wins() -> None:
    spans = [Span(8, 23, "PATIENT", 0.9, "model"), Span(30, 34, "DATE", 1.0, "rule:date")]
    site = [Span(8, 23, "DOCTOR", 1.0, "site"), Span(28, 31, "CITY", 1.0, "site")]
    merged = merge_site_spans(spans, site)
    assert (merged[0].start, merged[0].end, merged[0].label) == (8, 23, "DOCTOR")
    assert (merged[1].start, merged[1].end) == (28, 34)


def test_one_edit_table() -> None:
    assert one_edit("snowden", "snowdon")  # substitution
    assert one_edit("mcgillicuddy", "mcgillicudy")  # deletion
    assert one_edit("webber", "webbers")  # insertion
    assert one_edit("castellano", "castellnao")  # transposition
    assert not one_edit("snowden", "snowden")
    assert not one_edit("snowden", "snawdon")


_WORDS = [
    "Seen",
    "by",
    "Orla",
    "Penhaligon",
    "Hope",
    "at",
    "QGH",
    "Varnell",
    "4",
    "on",
    "3/14",
    "Dunmoor",
    "Dr.",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=14), st.sampled_from(["merge", "longest", "score"])
)
def test_adding_site_lists_never_removes_a_character(words: list[str], strategy: str) -> None:
    text = " ".join(words) + "."
    doc = Document("p", text)
    plain = Deidentifier(model=None, labels="fine", resolve=strategy)
    with_lists = Deidentifier(model=None, labels="fine", resolve=strategy, site_lists=LISTS)

    def covered(deid: Deidentifier) -> set[int]:
        return {i for s in deid.detect(doc) for i in range(s.start, s.end)}

    assert covered(plain) <= covered(with_lists)


def test_the_python_example_of_the_docs_runs() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "site-lists.md").read_text(encoding="utf-8")
    block = doc.split("```python\n", 1)[1].split("```", 1)[0]
    expected = [line[2:] for line in block.splitlines() if line.startswith("# ")]
    run = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines() == expected
