"""Per-label report with dev/train label frequencies (Amin et al. 2022, Figure 4): Markdown, JSON, PNG."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.evaluate import evaluate
from phiscrub.evaluate.metrics import EvaluationResult
from phiscrub.evaluate.report import (
    frequency_rows,
    frequency_table,
    label_frequencies,
    plot_per_label,
    to_markdown,
    write_report,
)
from phiscrub.io import get_writer

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _doc(doc_id: str, text: str, *items: tuple[str, str]) -> Document:
    spans = []
    for surface, label in items:
        start = text.index(surface)
        spans.append(Span(start, start + len(surface), label))
    return Document(doc_id, text, tuple(spans))


# Made-up notes. Gold: 2 NAME, 2 DATE, 1 ID (+1 OTHER, not PHI); predictions miss one DATE.
GOLD = [
    _doc("d1", "Ann Lee seen 3/12/2019, male.", ("Ann Lee", "PATIENT"), ("3/12/2019", "DATE"),
         ("male", "OTHER")),
    _doc("d2", "Dr. Bo Kim, MRN 4471-22, on 4/1/2020.", ("Bo Kim", "DOCTOR"), ("4471-22", "MEDICALRECORD"),
         ("4/1/2020", "DATE")),
]  # fmt: skip
PRED = [
    _doc("d1", GOLD[0].text, ("Ann Lee", "PATIENT"), ("3/12/2019", "DATE")),
    _doc("d2", GOLD[1].text, ("Bo Kim", "DOCTOR"), ("4471-22", "IDNUM")),
]
TRAIN = [
    _doc(
        "t1",
        "Jo Park, 54 years, called 555-0134.",
        ("Jo Park", "PATIENT"),
        ("54", "AGE"),
        ("555-0134", "PHONE"),
    ),
    _doc("t2", "Seen 1/2/2021 by Dr. Al Roe.", ("1/2/2021", "DATE"), ("Al Roe", "DOCTOR")),
    _doc("t3", "Sex: female.", ("female", "OTHER")),
]


@pytest.fixture
def result() -> EvaluationResult:
    return evaluate(GOLD, PRED, "coarse")


def test_label_frequencies_fold_labels_and_drop_other() -> None:
    assert label_frequencies(TRAIN) == {"NAME": 2, "AGE": 1, "CONTACT": 1, "DATE": 1}
    assert label_frequencies(TRAIN, "phicon5") == {"NAME": 2, "CONTACT": 1, "DATE": 1}
    assert label_frequencies(TRAIN, "fine") == {"PATIENT": 1, "DOCTOR": 1, "AGE": 1, "PHONE": 1, "DATE": 1}
    assert label_frequencies([]) == {}


def test_frequency_rows_pair_dev_and_train_counts(result: EvaluationResult) -> None:
    rows = {
        label: (dev, train, scores)
        for label, dev, train, scores in frequency_rows(result, label_frequencies(TRAIN))
    }
    assert sorted(rows) == ["AGE", "CONTACT", "DATE", "ID", "NAME"]
    assert rows["NAME"][:2] == (2, 2) and rows["DATE"][:2] == (2, 1) and rows["ID"][:2] == (1, 0)
    assert rows["AGE"][:2] == (0, 1) and rows["AGE"][2] is None  # only in training
    assert rows["DATE"][2].entity.recall == 0.5
    no_train = frequency_rows(result)
    assert [(label, dev, train) for label, dev, train, _ in no_train] == [
        ("DATE", 2, None),
        ("ID", 1, None),
        ("NAME", 2, None),
    ]


def test_frequency_table_is_markdown_with_dev_train_cells(result: EvaluationResult) -> None:
    table = frequency_table(result, label_frequencies(TRAIN))
    lines = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| Label")]
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.strip("|").split("|")] for line in lines}
    assert rows["DATE"][1:4] == ["2/1", "2", "1"] and rows["DATE"][6] == "66.67"  # entity F1: P 1, R 0.5
    assert rows["NAME"][1] == "2/2" and rows["NAME"][6] == "100.00"
    assert rows["AGE"][1] == "0/1" and rows["AGE"][4:] == ["-", "-", "-", "-"]
    assert "dev/train" in table.splitlines()[0]
    markdown = to_markdown(result, train_counts=label_frequencies(TRAIN))
    assert "## Per label with frequencies (dev/train)" in markdown
    assert "frequencies" not in to_markdown(result)  # unchanged without training counts


def test_write_report_records_frequencies_in_json(result: EvaluationResult, tmp_path: Path) -> None:
    json_path, md_path = write_report(result, tmp_path / "rep", {"gold": "g"}, label_frequencies(TRAIN))
    payload = json.loads(json_path.read_text(encoding="utf-8"))
    assert payload["frequencies"] == {
        "AGE": {"dev": 0, "train": 1},
        "CONTACT": {"dev": 0, "train": 1},
        "DATE": {"dev": 2, "train": 1},
        "ID": {"dev": 1, "train": 0},
        "NAME": {"dev": 2, "train": 2},
    }
    assert "| DATE | 2/1 |" in md_path.read_text(encoding="utf-8")
    json_plain, _ = write_report(result, tmp_path / "plain", {"gold": "g"})
    assert "frequencies" not in json.loads(json_plain.read_text(encoding="utf-8"))


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("metric", ["entity", "token"])
def test_plot_writes_a_png(result: EvaluationResult, tmp_path: Path, metric: str) -> None:
    out = plot_per_label(result, tmp_path / "sub" / "labels.png", label_frequencies(TRAIN), metric=metric)
    assert out == tmp_path / "sub" / "labels.png"
    width, height = _png_size(out)
    assert width >= 600 and height >= 400
    # More labels make a wider figure; no training counts still plots.
    narrow = plot_per_label(result, tmp_path / "dev_only.png")
    assert _png_size(narrow)[0] <= width
    with pytest.raises(ConfigError, match="plot metric"):
        plot_per_label(result, tmp_path / "x.png", metric="binary")


def test_plot_of_an_empty_result(tmp_path: Path) -> None:
    empty = evaluate([Document("e", "nothing here")], [Document("e", "nothing here")])
    assert _png_size(plot_per_label(empty, tmp_path / "empty.png"))[0] > 0


def test_evaluate_cli_adds_train_frequencies_and_plot(tmp_path: Path) -> None:
    jsonl = get_writer("jsonl")
    for name, docs in (("gold.jsonl", GOLD), ("pred.jsonl", PRED), ("train.jsonl", TRAIN)):
        jsonl.write(docs, tmp_path / name)
    plot = tmp_path / "fig" / "per_label.png"
    result = CliRunner().invoke(
        cli,
        [
            "evaluate",
            "--gold", str(tmp_path / "gold.jsonl"),
            "--pred", str(tmp_path / "pred.jsonl"),
            "--train", str(tmp_path / "train.jsonl"),
            "--plot", str(plot),
            "-o", str(tmp_path / "report"),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    _png_size(plot)
    payload = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert payload["frequencies"]["DATE"] == {"dev": 2, "train": 1}
    assert payload["config"]["train"] == str(tmp_path / "train.jsonl")
    assert "| NAME | 2/2 |" in result.output
    for text in (result.output, (tmp_path / "report.md").read_text(encoding="utf-8"), json.dumps(payload)):
        assert "Ann Lee" not in text and "4471-22" not in text  # never note text


def test_frequencies_of_a_fewshot_sample_match_its_spans(tmp_path: Path) -> None:
    from phiscrub.crosslingual.fewshot import fewshot_sample

    notes = [
        _doc(f"n{i}", f"Ann Lee seen 3/12/2019.\nCall 555-01{i:02d} today.\nNothing else.",
             ("Ann Lee", "PATIENT"), ("3/12/2019", "DATE"), (f"555-01{i:02d}", "PHONE"))
        for i in range(10)
    ]  # fmt: skip
    sample = fewshot_sample(notes, 6, seed=1)
    counts = label_frequencies(sample.documents)
    assert counts == sample.counts
    assert sum(counts.values()) == sum(len(d.spans) for d in sample.documents)
    assert set(counts) == {"NAME", "DATE", "CONTACT"}
