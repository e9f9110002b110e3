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
    is_bare_year,
    is_phi,
    policy_table,
    region_label,
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
    "DATE": ("2019", False, True, True),  # a year alone: HIPAA lets it stand
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


# (label, surface, PHI under safe-harbor); i2b2 and strict remove every place. A span is kept as a
# state or country only when its text is one, whatever the label a detector gave it.
PLACE_TABLE: list[tuple[str, str, bool]] = [
    # cities a model labelled STATE: places smaller than a state
    ("STATE", "Houston", True),
    ("STATE", "Miami", True),
    ("STATE", "New York clinic", True),
    ("STATE", "NEW YORK CITY", True),
    ("STATE", "New York City", True),
    ("STATE", "NYC", True),
    ("STATE", "Brennock", True),
    ("STATE", "Ann Arbor", True),
    ("STATE", "West Texas", True),
    ("STATE", "Lansing, MI", True),
    ("STATE", "Ontario", True),  # not a US state
    ("STATE", "DC", True),  # the District of Columbia is a city
    ("STATE", "Washington, D.C.", True),
    ("STATE", "--", True),
    # real states, every form
    ("STATE", "Michigan", False),
    ("STATE", "MICHIGAN", False),
    ("STATE", "michigan", False),
    ("STATE", "MI", False),
    ("STATE", "Mich.", False),
    ("STATE", "mich", False),
    ("STATE", "Mich", False),
    ("STATE", "Texas", False),
    ("STATE", "TX", False),
    ("STATE", "Tex.", False),
    ("STATE", "Calif.", False),
    ("STATE", "Mass", False),
    ("STATE", "Wash.", False),
    ("STATE", "W. Va.", False),
    ("STATE", "N.Y.", False),
    ("STATE", "N. Y.", False),
    ("STATE", "New York", False),  # the whole text is the state's name
    ("STATE", "NEW HAMPSHIRE", False),
    ("STATE", "(Ohio),", False),
    ("STATE", "Michigan's", False),
    ("STATE", "Georgia", False),  # also a first name, but labelled STATE: a state
    ("STATE", "Washington", False),
    ("STATE", "Del.", False),
    ("STATE", "DEL", False),
    ("STATE", "Del", True),  # an abbreviation that is also a name: capitals or a dot only
    ("STATE", "Canada", False),  # a country labelled STATE is not smaller than a state
    ("STATE", "Washington state", False),  # a state named as a state
    ("STATE", "the State of Ohio", False),
    ("STATE", "Ohio State", True),  # a university as often as the state
    ("STATE", "Houston state", True),
    ("LOCATION", "Washington state", False),
    # countries
    ("COUNTRY", "Canada", False),
    ("COUNTRY", "CANADA", False),
    ("COUNTRY", "canada", False),
    ("COUNTRY", "U.S.A.", False),
    ("COUNTRY", "USA", False),
    ("COUNTRY", "U.S.", False),
    ("COUNTRY", "US", False),
    ("COUNTRY", "the United States", False),
    ("COUNTRY", "United States of America", False),
    ("COUNTRY", "UK", False),
    ("COUNTRY", "U.K.", False),
    ("COUNTRY", "Ghana", False),
    ("COUNTRY", "Côte d’Ivoire", False),
    ("COUNTRY", "Slovakia", False),
    ("COUNTRY", "Jordan", False),
    ("COUNTRY", "Michigan", False),
    ("COUNTRY", "Kumasi", True),
    ("COUNTRY", "Mexico City", True),
    ("COUNTRY", "Accra, Ghana", True),
    # the generic label: person names stay PHI
    ("LOCATION", "Texas", False),
    ("LOCATION", "MA", False),
    ("LOCATION", "New Hampshire", False),
    ("LOCATION", "Canada", False),
    ("LOCATION", "USA", False),
    ("LOCATION", "Boston", True),
    ("LOCATION", "Boston, MA", True),
    ("LOCATION", "Jordan", True),
    ("LOCATION", "Georgia", True),
    ("LOCATION", "Washington", True),
    ("LOCATION", "Virginia", True),
    ("LOCATION", "Lake Placid", True),
]


@pytest.mark.parametrize(("label", "surface", "phi"), PLACE_TABLE)
def test_safe_harbor_keeps_a_place_only_when_its_text_is_a_state_or_country(
    label: str, surface: str, phi: bool
) -> None:
    assert is_phi(label, "safe-harbor", surface) is phi
    assert is_phi(label, "i2b2", surface)
    assert is_phi(label, "strict", surface)
    text = f"from {surface} now"
    span = Span(5, 5 + len(surface), label)
    # "New York" and "Washington" alone are read as the city in a text that does not name the state
    # (CONTEXT_TABLE); their text alone is the state.
    city = [span.with_label("CITY")] if surface in ("New York", "Washington") and not phi else []
    assert apply_policy(text, [span], "safe-harbor") == ([span] if phi else city)


#: (text, the span's text, its label, the text removed under safe-harbor or None when kept).
CONTEXT_TABLE = [
    ("our Kansas City clinic", "Kansas", "STATE", "Kansas City"),
    ("moved to Virginia Beach in May", "Virginia", "STATE", "Virginia Beach"),
    ("OKLAHOMA CITY VA", "OKLAHOMA", "STATE", "OKLAHOMA CITY"),
    ("family in Iowa City", "Iowa", "LOCATION", "Iowa City"),
    ("from New York", "New York", "STATE", "New York"),
    ("our New York clinic", "New York", "STATE", "New York"),
    ("lives in Washington", "Washington", "STATE", "Washington"),
    ("lives in New York state", "New York", "STATE", None),
    ("moved to the State of Washington", "Washington", "STATE", None),
    ("born in Kansas, moved", "Kansas", "STATE", None),
    ("hep C Texas and Virginia", "Texas and Virginia", "STATE", None),
    ("cases in Ohio, Indiana", "Ohio, Indiana", "STATE", None),
    ("cases in Ohio/Indiana", "Ohio/Indiana", "LOCATION", None),
    ("from Boston and Texas", "Boston and Texas", "STATE", "Boston and Texas"),
    ("born in the 1980s", "the 1980s", "DATE", None),
    ("born in 1980s", "1980s", "DATE", None),
    ("in her 90s", "90s", "DATE", "90s"),  # two digits: an age as often
    ("since the '90s", "'90s", "DATE", "'90s"),
]


@pytest.mark.parametrize(("text", "surface", "label", "removed"), CONTEXT_TABLE)
def test_safe_harbor_reads_states_and_decades_in_their_text(
    text: str, surface: str, label: str, removed: str | None
) -> None:
    start = text.index(surface)
    span = Span(start, start + len(surface), label)
    got = apply_policy(text, [span], "safe-harbor")
    assert [text[s.start : s.end] for s in got] == ([] if removed is None else [removed])
    assert apply_policy(text, [span], "i2b2") == [span]


@pytest.mark.parametrize("label", ["STATE", "COUNTRY", "LOCATION", "DATE", "AGE"])
def test_a_span_decided_by_its_text_is_phi_without_it(label: str) -> None:
    assert is_phi(label, "safe-harbor")


@pytest.mark.parametrize(
    ("surface", "region"),
    [
        ("Michigan", "STATE"),
        ("mich.", "STATE"),
        ("the U.K.", "COUNTRY"),
        ("Houston", None),
        ("Georgia", None),
    ],
)
def test_region_label_reads_the_gazetteers(surface: str, region: str | None) -> None:
    assert region_label(surface) == region


def test_every_hand_written_region_alias_is_recognised() -> None:
    from phiscrub.resources import load_lexicon

    aliases = [line.split("\t") for line in load_lexicon("region_aliases") if not line.startswith("#")]
    assert len(aliases) > 50
    for label, alias in aliases:
        assert region_label(alias, label) is not None, alias
        assert not is_phi(label, "safe-harbor", alias.upper()), alias


# surface -> PHI under safe-harbor (i2b2 and strict remove every age)
AGE_TABLE: dict[str, bool] = {
    "45": False,
    "89": False,
    "90": True,
    "95": True,
    "95 yo": True,
    "ninety-five": True,
    "Ninety-Five": True,
    "eighty-nine": False,
    "late 80s": False,  # at most 89
    "late 90s": True,
    "89-91": True,  # a range reaching 90
    "89+": True,  # open upwards from 89
    "over 89": True,
    "> 89": True,
    "88+": False,  # 88 or more does not say over 89
    "90M": True,  # age and sex, not 90 months
    "95 F": True,
    "90 months": False,
    "nonagenarian": True,
    "octogenarian": False,
    "one hundred and two": True,
    "unknown": True,  # no readable value
    "elderly": True,
    "": True,
}


@pytest.mark.parametrize(("surface", "phi"), sorted(AGE_TABLE.items()))
def test_ages_under_every_policy(surface: str, phi: bool) -> None:
    assert is_phi("AGE", "safe-harbor", surface) is phi
    assert is_phi("AGE", "i2b2", surface)
    assert is_phi("AGE", "strict", surface)


# surface -> PHI under safe-harbor (i2b2 and strict remove every date)
YEAR_TABLE: dict[str, bool] = {
    "2021": False,
    "1998": False,
    "1998.": False,
    "(2019)": False,
    "in 2021": False,
    "In 2021,": False,
    "'2021": False,
    "1800": False,
    "2099": False,
    "1799": True,
    "2100": True,
    "'62": True,  # a two-digit year: usually the patient's own date
    "62": True,
    "03/2021": True,
    "March 2021": True,
    "spring 2021": True,
    "1990s": False,  # a decade of four digits says less than a year: kept
    "2019-2021": True,
    "since 2021": True,
    "12/03/2019": True,
    "": True,
}


@pytest.mark.parametrize(("surface", "phi"), sorted(YEAR_TABLE.items()))
def test_a_year_alone_is_kept_under_safe_harbor_only(surface: str, phi: bool) -> None:
    assert is_phi("DATE", "safe-harbor", surface) is phi
    assert is_bare_year(surface) is not phi
    assert is_phi("DATE", "i2b2", surface)
    assert is_phi("DATE", "strict", surface)


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
    """Proposes the spans of :data:`NOTE_PHI` or ``phi`` (so the test is about the policy, not the rules)."""

    name = "fixed"

    def __init__(self, phi: dict[str, str] | None = None) -> None:
        self.phi = NOTE_PHI if phi is None else phi

    def detect(self, doc: Document) -> list[Span]:
        spans = []
        for surface, label in self.phi.items():
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


MOVED = "Patient moved from Houston in 2021, born in Kumasi, Ghana; now in Texas. Seen 03/12/2019."
MOVED_PHI = {
    "Houston": "STATE",  # a city that a model labelled STATE
    "2021": "DATE",
    "Kumasi": "COUNTRY",  # a city that a model labelled COUNTRY
    "Ghana": "COUNTRY",
    "Texas": "STATE",
    "03/12/2019": "DATE",
}


@pytest.mark.parametrize(
    ("policy", "kept"),
    [("safe-harbor", {"2021", "Ghana", "Texas"}), ("i2b2", set()), ("strict", set())],
)
def test_a_city_labelled_state_never_survives_and_a_year_alone_does_under_safe_harbor(
    policy: str, kept: set[str]
) -> None:
    deid = Deidentifier(model=None, detectors=[FixedDetector(MOVED_PHI)], policy=policy, propagate=False)
    out = deid.redact(MOVED).text
    for surface in MOVED_PHI:
        assert bool(re.search(rf"\b{re.escape(surface)}\b", out)) is (surface in kept), surface


@pytest.mark.parametrize(("policy", "year_kept"), [("safe-harbor", True), ("i2b2", False), ("strict", False)])
def test_rule_pipeline_keeps_a_year_alone_only_under_safe_harbor(policy: str, year_kept: bool) -> None:
    # The rules tag "2021" and "03/12/2019" as DATE here (no place: "Houston" has no cue for them).
    text = "Patient moved from Houston in 2021. Seen 03/12/2019."
    deid = Deidentifier(model=None, policy="strict")
    found = {text[s.start : s.end]: s.label for s in deid.detect(text)}
    assert found.get("2021") == "DATE" and found.get("03/12/2019") == "DATE"
    out = Deidentifier(model=None, policy=policy).redact(text).text
    assert ("in 2021." in out) is year_kept
    assert "03/12/2019" not in out


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
