"""Leak accounting (issue 14, part 5): ``phiscrub evaluate --leaks`` and :mod:`phiscrub.evaluate.leaks`.

The unit tests build redacted texts by hand, one leak kind each; the end-to-end test runs the real
``redact`` (rules only) and ``evaluate --leaks`` commands on a BRAT folder. All PHI is invented.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.document import Document, Span
from phiscrub.evaluate.leaks import LEAK_KINDS, find_leaks, kept_tokens
from phiscrub.io import BratWriter, JsonlWriter

TEXT = (
    "Seen by Dr. Zoltan Quenwick on 03/12/2019, MRN 0048-2231, call 617-555-0134.\n"
    "Visited Quarry Bend, works at Larkfield Memorial Hospital.\n"
)
PHI = {
    "Zoltan Quenwick": "DOCTOR",
    "03/12/2019": "DATE",
    "0048-2231": "MEDICALRECORD",
    "617-555-0134": "PHONE",
    "Quarry Bend": "CITY",
    "Larkfield Memorial Hospital": "HOSPITAL",
}


def gold_doc(doc_id: str = "n1", text: str = TEXT) -> Document:
    spans = [Span(text.index(s), text.index(s) + len(s), lab) for s, lab in PHI.items()]
    return Document(doc_id, text, tuple(spans))


def redacted(*keep: str) -> Document:
    """TEXT with every PHI string but those in ``keep`` replaced by a placeholder."""
    out = TEXT
    for surface in PHI:
        if surface not in keep:
            out = out.replace(surface, "[X]")
    return Document("n1", out)


def kinds_of(red: Document) -> dict[str, str]:
    report = find_leaks([gold_doc()], [red])
    return {gold_doc().text[leak.start : leak.end]: leak.kind for leak in report.leaks}


def test_a_fully_redacted_note_leaks_nothing() -> None:
    report = find_leaks([gold_doc()], [redacted()])
    assert report.leaks == [] and report.documents_with_leak == 0
    assert report.total.gold == len(PHI) and report.total.residual_rate == 0.0


def test_a_string_left_in_place_is_a_full_leak_and_counted_per_label() -> None:
    report = find_leaks([gold_doc()], [redacted("Zoltan Quenwick", "0048-2231")])
    assert {(leak.label, leak.kind) for leak in report.leaks} == {("NAME", "full"), ("ID", "full")}
    assert report.per_label["NAME"].residual_rate == 1.0 and report.per_label["ID"].full == 1
    assert report.per_label["DATE"].leaked == 0 and report.per_label["LOCATION"].gold == 2
    assert report.documents_with_full_leak == 1 and report.leaking_document_share == 1.0
    assert report.per_label["NAME"].verbatim == 1


def test_partial_leaks_get_their_kind() -> None:
    red = Document(
        "n1",
        "Seen by Dr. [NAME] Quenwick on 01/08/2019, MRN 9948-2231, call 617-999-9999.\n"
        "Lives in Elmford Bend, works at Tolliver Memorial Hospital.\n",
    )
    found = kinds_of(red)
    assert found == {
        "Zoltan Quenwick": "surname",
        "03/12/2019": "year",
        "0048-2231": "id_digits",
        "617-555-0134": "few_digits",
        "Quarry Bend": "partial_words",
    }  # "Hospital" and "Memorial" are generic words: a surrogate hospital keeps them
    first_name_kept = Document("n1", TEXT.replace("Quenwick", "[NAME]").replace("03/12", "03/14"))
    assert kinds_of(first_name_kept)["Zoltan Quenwick"] == "given_name"
    assert kinds_of(first_name_kept)["03/12/2019"] == "partial_date"


def test_a_moved_string_is_found_verbatim_but_not_aligned_in_place() -> None:
    # The surname moved to the end of the note: not kept in place, but still in the output.
    red = Document("n1", redacted().text + "cc Quenwick Zoltan Quenwick\n")
    report = find_leaks([gold_doc()], [red])
    assert report.per_label["NAME"].verbatim == 1


def test_alignment_survives_a_shift_of_every_offset() -> None:
    tokens, kept = kept_tokens("a b SECRET c d", "[NAME] [NAME] a b [X] c d")
    assert [t.text for t, k in zip(tokens, kept) if not k] == ["SECRET"]


def test_missing_documents_are_listed_and_not_counted() -> None:
    report = find_leaks([gold_doc("n1"), gold_doc("n2")], [redacted()])
    assert report.missing == ["n2"] and report.documents == 1


def test_the_report_holds_no_phi_string() -> None:
    report = find_leaks([gold_doc()], [Document("n1", TEXT)])  # nothing redacted: everything leaks
    assert report.total.full == len(PHI) and report.per_label["DATE"].worst == "full"
    dumped = json.dumps(report.to_dict()) + report.to_markdown()
    for surface in PHI:
        for word in surface.split():
            assert word not in dumped
    assert set(report.total.kinds) <= set(LEAK_KINDS)


def test_cli_redact_then_evaluate_leaks(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    second = "Pt Hal Brixby seen 2/3/2020 at Larkfield Memorial Hospital.\n"
    doc2 = Document("n2", second, (Span(3, 13, "PATIENT"), Span(second.index("2/3"), second.index(" at"), "DATE"),
                                   Span(second.index("Lark"), second.index("."), "HOSPITAL")))  # fmt: skip
    BratWriter().write([gold_doc(), doc2], gold)
    out = tmp_path / "red"
    runner = CliRunner()
    red = runner.invoke(cli, ["redact", str(gold), "-o", str(out), "--rules-only"])
    assert red.exit_code == 0, red.output
    prefix = tmp_path / "rep" / "leaks"
    result = runner.invoke(
        cli, ["evaluate", "--gold", str(gold), "--pred", str(out), "--leaks", "-o", str(prefix)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(prefix.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["documents"] == 2 and data["total"]["gold"] == len(PHI) + 3 and not data["missing"]
    # The rules know no town or hospital lists: those survive, and the report says where.
    assert data["per_label"]["LOCATION"]["full"] >= 1
    where = {(leak["doc_id"], leak["start"], leak["end"]) for leak in data["leaks"]}
    start = TEXT.index("Quarry Bend")
    assert ("n1", start, start + len("Quarry Bend")) in where
    assert data["per_label"]["DATE"]["leaked"] == 0
    assert (tmp_path / "rep" / "leaks.md").read_text(encoding="utf-8") in result.output
    for surface in [*PHI, "Hal Brixby"]:
        for word in surface.split():
            assert word not in result.output


def test_cli_reads_a_redacted_jsonl_by_record_id(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    JsonlWriter().write([gold_doc()], gold)
    red = tmp_path / "red"
    red.mkdir()
    (red / "gold.jsonl").write_text(json.dumps({"id": "n1", "text": redacted("0048-2231").text}) + "\n")
    (red / "phi_spans.jsonl").write_text(json.dumps({"doc_id": "n1", "start": 0, "end": 3}) + "\n")
    prefix = tmp_path / "leaks"
    result = CliRunner().invoke(cli, ["evaluate", "--gold", str(gold), "--pred", str(red), "--leaks", "-o", str(prefix),
                                      "--labels", "fine"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(prefix.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["per_label"]["MEDICALRECORD"]["full"] == 1 and data["total"]["full"] == 1
