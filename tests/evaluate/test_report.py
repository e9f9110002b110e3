"""Tests for phiscrub.evaluate.report: Markdown tables and JSON reports (synthetic PHI only)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiscrub.errors import ConfigError
from phiscrub.evaluate import EvaluationResult, evaluate, to_markdown, write_report
from phiscrub.text import TOKENIZER_NAME

from ._builders import make_doc

TEXT = "John Doe called 555-0100."


@pytest.fixture
def result() -> EvaluationResult:
    # Same numbers as test_extra_false_positive_lowers_precision_only, plus a gold doc "d2"
    # without prediction: tokens Jane Roe called . -> 2 more FN.
    # binary/token: tp 2, fp 3, fn 2 -> P 0.4, R 0.5, F1 2*0.2/0.9 = 4/9 = 44.44 %
    # entity: tp 1, fp 1, fn 1 -> P 0.5, R 0.5, F1 0.5
    gold = [
        make_doc("d1", TEXT, ("John Doe", "PATIENT")),
        make_doc("d2", "Jane Roe called.", ("Jane Roe", "PATIENT")),
    ]
    pred = [make_doc("d1", TEXT, ("John Doe", "PATIENT"), ("555-0100", "PHONE"))]
    return evaluate(gold, pred, "coarse")


def _table_rows(markdown: str) -> dict[str, list[str]]:
    """First cell -> cells of every Markdown table row."""
    rows: dict[str, list[str]] = {}
    for line in markdown.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells
    return rows


def test_markdown_summary_has_b_t_e_rows_in_percent(result: EvaluationResult) -> None:
    rows = _table_rows(to_markdown(result))
    # | F1 | Metric | Precision | Recall | F1 | TP | FP | FN |
    assert rows["B"][1:] == ["binary token-level", "40.00", "50.00", "44.44", "2", "3", "2"]
    assert rows["T"][1:] == ["token-level micro", "40.00", "50.00", "44.44", "2", "3", "2"]
    assert rows["E"][1:] == ["entity-level micro", "50.00", "50.00", "50.00", "1", "1", "1"]


def test_markdown_per_label_table_has_scores_and_counts(result: EvaluationResult) -> None:
    rows = _table_rows(to_markdown(result))
    # NAME: 4 gold tokens (John Doe, Jane Roe), 2 predicted, all correct -> token P 1, R 0.5;
    # entities 2 gold, 1 predicted exact -> P 1, R 0.5, F1 2/3; binary P 1, R 0.5.
    assert rows["NAME"][1:] == [
        "100.00", "50.00", "66.67", "100.00", "50.00", "66.67", "100.00", "50.00", "4", "2", "2", "1",
    ]  # fmt: skip
    # CONTACT: 3 false-positive tokens, 1 false-positive entity.
    assert rows["CONTACT"][1:] == [
        "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0", "3", "0", "1",
    ]  # fmt: skip
    header = rows["Label"]
    assert len(header) == len(rows["NAME"]) == 13


def test_markdown_names_granularity_tokenizer_and_missing_ids(result: EvaluationResult) -> None:
    md = to_markdown(result)
    assert "`coarse`" in md
    assert f"`{TOKENIZER_NAME}`" in md
    assert "`d2`" in md


def test_markdown_of_empty_result_still_renders() -> None:
    md = to_markdown(evaluate([], []))
    rows = _table_rows(md)
    assert rows["B"][4] == "100.00"
    assert "no PHI" in md


def test_write_report_into_folder_writes_parseable_json_and_markdown(
    result: EvaluationResult, tmp_path: Path
) -> None:
    gold_path, pred_path = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    json_path, md_path = write_report(result, tmp_path, {"gold": gold_path, "pred": pred_path})
    assert (json_path, md_path) == (tmp_path / "evaluation.json", tmp_path / "evaluation.md")
    payload = json.loads(json_path.read_text(encoding="utf-8"))
    assert payload["config"] == {
        "gold": str(gold_path),
        "pred": str(pred_path),
        "granularity": "coarse",
        "tokenizer": TOKENIZER_NAME,
    }
    assert payload["result"] == result.to_dict()
    assert payload["result"]["entity"]["f1"] == pytest.approx(0.5)
    assert "zero_division" in payload
    md = md_path.read_text(encoding="utf-8")
    assert md.startswith("# De-identification evaluation")
    assert _table_rows(md)["E"][4] == "50.00"
    assert str(gold_path) in md  # the configuration is listed under the tables


@pytest.mark.parametrize(
    ("out", "json_name", "md_name"),
    [
        ("runs/dev", "runs/dev.json", "runs/dev.md"),
        ("runs/dev.json", "runs/dev.json", "runs/dev.md"),
        ("runs/dev.md", "runs/dev.json", "runs/dev.md"),
        ("runs/new/", "runs/new/evaluation.json", "runs/new/evaluation.md"),
    ],
)
def test_write_report_path_prefix_or_new_folder(
    result: EvaluationResult, tmp_path: Path, out: str, json_name: str, md_name: str
) -> None:
    paths = write_report(result, str(tmp_path) + "/" + out, {})
    assert paths == (tmp_path / json_name, tmp_path / md_name)
    assert json.loads(paths[0].read_text(encoding="utf-8"))["config"]["granularity"] == "coarse"
    assert paths[1].read_text(encoding="utf-8").endswith("\n")


def test_reports_contain_no_note_text(result: EvaluationResult, tmp_path: Path) -> None:
    json_path, md_path = write_report(result, tmp_path / "r", {"gold": "g.jsonl"})
    for path in (json_path, md_path):
        content = path.read_text(encoding="utf-8")
        for surface in ("John", "Doe", "Jane", "555-0100", "called"):
            assert surface not in content


def test_write_report_rejects_config_contradicting_the_result(
    result: EvaluationResult, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError, match="granularity"):
        write_report(result, tmp_path / "r", {"granularity": "fine"})
    assert list(tmp_path.iterdir()) == []


def test_write_report_rejects_unserialisable_config_before_writing(
    result: EvaluationResult, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError, match="object"):
        write_report(result, tmp_path / "r", {"callback": object()})
    assert list(tmp_path.iterdir()) == []


def test_load_scores_reads_back_the_written_report(result: EvaluationResult, tmp_path: Path) -> None:
    from phiscrub.errors import InputFormatError
    from phiscrub.evaluate.report import load_scores

    json_path, _ = write_report(result, tmp_path / "dev")
    scores = load_scores(json_path)
    assert scores["entity"] == {
        "precision": result.entity.precision,
        "recall": result.entity.recall,
        "f1": result.entity.f1,
    }
    assert scores["binary"]["f1"] == result.binary.f1 and scores["token"]["recall"] == result.token.recall
    (tmp_path / "bad.json").write_text('{"result": {}}', encoding="utf-8")
    with pytest.raises(InputFormatError, match="bad.json"):
        load_scores(tmp_path / "bad.json")
