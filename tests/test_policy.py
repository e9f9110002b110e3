"""PHI policies: what counts as PHI under safe-harbor, i2b2 and strict (synthetic PHI only)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub import Deidentifier
from phiscrub.cli.app import cli
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.labels import FINE_TO_COARSE
from phiscrub.policy import (
    POLICIES,
    age_in_years,
    apply_policy,
    check_policy,
    default_policy,
    is_phi,
    policy_table,
)

REPO = Path(__file__).resolve().parents[1]

# label -> (a surface, PHI under safe-harbor, under i2b2, under strict). Written out by hand: this
# table is the specification, the code must agree with it.
LABEL_TABLE: dict[str, tuple[str, bool, bool, bool]] = {
    "PATIENT": ("Alan Grant", True, True, True),
    "DOCTOR": ("Ellie Sattler", True, True, True),
    "RELATIVE": ("Lex", True, True, True),
    "USERNAME": ("ag42", True, True, True),
    "PROFESSION": ("welder", False, True, True),
    "HOSPITAL": ("Mercy Hospital", True, True, True),
    "DEPARTMENT": ("Gates 4", True, True, True),
    "ROOM": ("412B", True, True, True),
    "ORGANIZATION": ("InGen", True, True, True),
    "STREET": ("12 Elm Street", True, True, True),
    "CITY": ("Springfield", True, True, True),
    "STATE": ("Ohio", False, True, True),
    "COUNTRY": ("Canada", False, True, True),
    "ZIP": ("02115", True, True, True),
    "LOCATION": ("Lake Placid", True, True, True),
    "AGE": ("45", False, True, True),
    "DATE": ("2019", True, True, True),
    "PHONE": ("555-201-3344", True, True, True),
    "FAX": ("555-201-3345", True, True, True),
    "EMAIL": ("ag@example.org", True, True, True),
    "URL": ("www.example.org", True, True, True),
    "IPADDRESS": ("10.0.0.7", True, True, True),
    "SSN": ("078-05-1120", True, True, True),
    "MEDICALRECORD": ("MRN 4455667", True, True, True),
    "HEALTHPLAN": ("HP-99812", True, True, True),
    "ACCOUNT": ("ACC-1182", True, True, True),
    "LICENSE": ("LIC 55102", True, True, True),
    "VEHICLE": ("7ABC123", True, True, True),
    "DEVICE": ("SN-8812-X", True, True, True),
    "BIOID": ("FP-00912", True, True, True),
    "IDNUM": ("4471-22", True, True, True),
    "OTHER": ("male", False, False, True),
}


def test_label_table_covers_every_fine_label() -> None:
    assert set(LABEL_TABLE) == set(FINE_TO_COARSE)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("label", sorted(LABEL_TABLE))
def test_policy_decides_each_fine_label(label: str, policy: str) -> None:
    surface, *expected = LABEL_TABLE[label]
    want = dict(zip(POLICIES, expected))[policy]
    assert is_phi(label, policy, surface) is want
    text = f"x {surface} y"
    span = Span(2, 2 + len(surface), label)
    assert apply_policy(text, [span], policy) == ([span] if want else [])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("label", ["NAME", "ID", "CONTACT", "DATE"])
def test_coarse_identifier_labels_are_phi_under_every_policy(label: str, policy: str) -> None:
    assert is_phi(label, policy, "x")


@pytest.mark.parametrize(
    ("surface", "years"),
    [
        ("45", 45.0),
        ("92-year-old", 92.0),
        ("89 y/o", 89.0),
        ("90+", 90.0),
        ("eighty-nine", 89.0),
        ("ninety two", 92.0),
        ("nineties", 90.0),
        ("late 80s", 80.0),
        ("90s", 90.0),
        ("89-91", 91.0),
        ("6 months", 0.5),
        ("18 mo", 1.5),
        ("76 años", 76.0),
        ("3 weeks", 3 / 52.18),
        ("10 days", 10 / 365.25),
        ("1200 months", 100.0),
        ("92 and 3 months", 92.0),  # the unit belongs to the 3 only
        ("89 y 7 mo", 89.0),
        ("4 meses", 4 / 12),
        ("elderly", None),
    ],
)
def test_age_in_years_reads_numbers_words_decades_and_units(surface: str, years: float | None) -> None:
    got = age_in_years(surface)
    assert got == pytest.approx(years) if years is not None else got is None


@pytest.mark.parametrize(
    ("surface", "phi"),
    [
        ("45", False),
        ("89", False),
        ("90", True),
        ("89.5", True),
        ("ninety-one", True),
        ("eighty-nine", False),
        ("90s", True),
        ("80s", False),
        ("6 months", False),
        ("104 y.o.", True),
        ("elderly", True),  # no readable value: kept out of the output
    ],
)
def test_safe_harbor_removes_ages_over_89_only(surface: str, phi: bool) -> None:
    assert is_phi("AGE", "safe-harbor", surface) is phi
    assert is_phi("AGE", "i2b2", surface)
    assert is_phi("AGE", "strict", surface)


def test_an_age_without_its_surface_is_phi() -> None:
    assert is_phi("AGE", "safe-harbor")


@pytest.mark.parametrize(
    ("surface", "phi"),
    [
        ("Texas", False),
        ("MA", False),
        ("New Hampshire", False),
        ("Canada", False),
        ("USA", False),
        ("Boston", True),
        ("Jordan", True),  # also a first name: stays PHI
        ("Georgia", True),
        ("Lake Placid", True),
    ],
)
def test_safe_harbor_keeps_generic_locations_that_are_whole_states_or_countries(
    surface: str, phi: bool
) -> None:
    assert is_phi("LOCATION", "safe-harbor", surface) is phi
    assert is_phi("LOCATION", "i2b2", surface)


def test_unknown_policy_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown PHI policy"):
        check_policy("hipaa")
    with pytest.raises(ConfigError):
        Deidentifier(model=None, policy="hipaa")


@pytest.mark.parametrize(
    ("lang", "policy"),
    [("en", "safe-harbor"), ("en-US", "safe-harbor"), ("es", "i2b2"), ("zh", "i2b2"), (None, "i2b2")],
)
def test_default_policy_is_safe_harbor_for_english_and_i2b2_otherwise(lang: str | None, policy: str) -> None:
    assert default_policy(lang) == policy


NOTE = "Mr. John Smith is a 45 yo welder from Texas, seen 03/12/2019. His 92-year-old mother lives in Boston."
NOTE_PHI = {
    "John Smith": "PATIENT",
    "45": "AGE",
    "welder": "PROFESSION",
    "Texas": "STATE",
    "03/12/2019": "DATE",
    "92": "AGE",
    "Boston": "CITY",
}


class FixedDetector:
    """Proposes the spans of :data:`NOTE_PHI` (so the test is about the policy, not the rules)."""

    name = "fixed"

    def detect(self, doc: Document) -> list[Span]:
        spans = []
        for surface, label in NOTE_PHI.items():
            start = re.search(rf"\b{re.escape(surface)}\b", doc.text)
            assert start is not None
            spans.append(Span(start.start(), start.end(), label, 0.9, "fixed"))
        return spans


@pytest.mark.parametrize(
    ("policy", "kept"),
    [
        ("safe-harbor", {"45", "welder", "Texas"}),
        ("i2b2", set()),
        ("strict", set()),
        (None, {"45", "welder", "Texas"}),  # English: safe-harbor
    ],
)
def test_deidentifier_applies_the_policy(policy: str | None, kept: set[str]) -> None:
    deid = Deidentifier(model=None, detectors=[FixedDetector()], policy=policy, propagate=False)
    out = deid.redact(NOTE).text
    for surface in NOTE_PHI:
        assert bool(re.search(rf"\b{re.escape(surface)}\b", out)) is (surface in kept), surface


@pytest.mark.parametrize(("policy", "age_kept"), [("safe-harbor", True), ("i2b2", False)])
def test_rule_pipeline_keeps_ages_under_90_only_under_safe_harbor(policy: str, age_kept: bool) -> None:
    out = Deidentifier(model=None, policy=policy).redact(NOTE).text
    assert ("45 yo" in out) is age_kept
    assert "92" not in out and "John Smith" not in out


def test_default_policy_follows_the_rule_language() -> None:
    doc = Document("d", "x")
    assert Deidentifier(model=None, lang="en").policy_for(doc) == "safe-harbor"
    assert Deidentifier(model=None, lang="es").policy_for(doc) == "i2b2"
    auto = Deidentifier(model=None, lang="auto")
    assert auto.policy_for(Document("d", "x", metadata={"lang": "es"})) == "i2b2"
    assert (
        auto.policy_for(Document("d", "The patient was seen in the clinic and is doing well."))
        == "safe-harbor"
    )


def test_policy_table_in_docs_matches_the_code() -> None:
    doc = (REPO / "docs" / "policy.md").read_text(encoding="utf-8")
    rows = {}
    for line in doc.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 1 + len(POLICIES) + 1:
            rows[cells[0].strip("`")] = cells[2:]
    table = policy_table()
    assert set(rows) == set(table)
    for label, row in table.items():
        assert rows[label] == [row[p] for p in POLICIES], label


def _write_jsonl(path: Path, docs: list[Document]) -> None:
    lines = [
        json.dumps(
            {
                "id": d.id,
                "text": d.text,
                "spans": [{"start": s.start, "end": s.end, "label": s.label} for s in d.spans],
            }
        )
        for d in docs
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_evaluate_policy_filters_gold_and_predictions_alike(tmp_path: Path) -> None:
    text = "Ann Lee, 45, from Ohio, seen 2019."
    gold = Document(
        "n1", text, (Span(0, 7, "PATIENT"), Span(9, 11, "AGE"), Span(18, 22, "STATE"), Span(29, 33, "DATE"))
    )
    # The system keeps the age and the state (safe-harbor) and predicts one non-PHI age elsewhere.
    pred = Document("n1", text, (Span(0, 7, "PATIENT"), Span(29, 33, "DATE")))
    _write_jsonl(tmp_path / "gold.jsonl", [gold])
    _write_jsonl(tmp_path / "pred.jsonl", [pred])
    runner = CliRunner()

    def binary_recall(*extra: str) -> float:
        out = tmp_path / "report"
        args = ["evaluate", "--gold", str(tmp_path / "gold.jsonl"), "--pred", str(tmp_path / "pred.jsonl")]
        result = runner.invoke(cli, [*args, "-o", str(out), *extra])
        assert result.exit_code == 0, result.output
        report = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
        return float(report["result"]["binary"]["recall"])

    assert binary_recall() < 1.0
    assert binary_recall("--policy", "safe-harbor") == 1.0
    assert binary_recall("--policy", "i2b2") < 1.0


@pytest.mark.parametrize(("policy", "age_kept"), [(None, True), ("safe-harbor", True), ("i2b2", False)])
def test_redact_cli_policy_option(tmp_path: Path, policy: str | None, age_kept: bool) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "n1.txt").write_text(
        "Mr. John Smith is a 45 yo man seen 03/12/2019.", encoding="utf-8"
    )
    args = ["redact", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--rules-only"]
    result = CliRunner().invoke(cli, [*args, *(["--policy", policy] if policy else [])])
    assert result.exit_code == 0, result.output
    out = (tmp_path / "out" / "n1.txt").read_text(encoding="utf-8")
    assert ("45 yo" in out) is age_kept
    assert "John Smith" not in out and "03/12/2019" not in out
