from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.io import read_corpus
from phiscrub.train.tiny import make_tiny_encoder

REPO = Path(__file__).resolve().parents[2]
MEDDOCAN_DEV = REPO.parent / "shared" / "data" / "meddocan" / "dev"
ZEROSHOT = REPO.parent / "shared" / "data" / "zeroshot-notes"


def _run(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_meddocan_gold_against_itself_scores_one_and_round_trips(tmp_path: Path) -> None:
    jsonl = tmp_path / "dev.jsonl"
    _run(
        ["convert", str(MEDDOCAN_DEV), str(jsonl), "--from", "brat", "--to", "jsonl", "--corpus", "meddocan"]
    )
    _run(["convert", str(jsonl), str(tmp_path / "brat"), "--from", "jsonl", "--to", "brat"])
    gold, problems = read_corpus(MEDDOCAN_DEV, fmt="brat", corpus="meddocan")
    back, problems2 = read_corpus(tmp_path / "brat", fmt="brat")
    assert not problems and not problems2 and len(gold) == 250
    key = {d.id: [(s.start, s.end, s.label) for s in d.spans] for d in gold}
    assert {d.id: [(s.start, s.end, s.label) for s in d.spans] for d in back} == key
    out = _run(
        [
            "evaluate",
            "--gold",
            str(MEDDOCAN_DEV),
            "--gold-corpus",
            "meddocan",
            "--pred",
            str(jsonl),
            "--labels",
            "coarse",
            "-o",
            str(tmp_path / "report"),
        ]
    )
    assert "100.00" in out
    result = json.loads((tmp_path / "report.json").read_text())["result"]
    for metric in ("binary", "token", "entity"):
        assert result[metric]["f1"] == 1.0
    assert (tmp_path / "report.md").read_text().count("|") > 10


def test_convert_reports_bad_spans_by_id_and_continues(tmp_path: Path) -> None:
    src = tmp_path / "brat"
    src.mkdir()
    (src / "ok.txt").write_text("Seen on 03/12/2019.", encoding="utf-8")
    (src / "ok.ann").write_text("T1\tDATE 8 18\t03/12/2019\n", encoding="utf-8")
    (src / "bad.txt").write_text("Seen by Ann Lee.", encoding="utf-8")
    (src / "bad.ann").write_text("T1\tPATIENT 8 15\tAnn Lee\nT2\tPATIENT 40 45\tZed\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["convert", str(src), str(tmp_path / "o.jsonl"), "--to", "jsonl"])
    assert result.exit_code == 0
    assert "bad" in result.output and "T2" in result.output and "Zed" not in result.output
    docs, _ = read_corpus(tmp_path / "o.jsonl")
    assert sorted(d.id for d in docs) == ["bad", "ok"]
    assert [len(d.spans) for d in sorted(docs, key=lambda d: d.id)] == [1, 1]


def test_placeholder_notes_convert_to_labelled_corpus(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    _run(["convert", str(ZEROSHOT / "a"), str(out), "--from", "placeholder", "--to", "jsonl", "--seed", "3"])
    docs, problems = read_corpus(out)
    assert len(docs) == 35 and not problems
    for d in docs:
        assert "[PATIENT]" not in d.text and d.spans
        for s in d.spans:
            assert d.text[s.start : s.end].strip()


def test_train_then_predict_then_evaluate_with_a_tiny_encoder(tmp_path: Path) -> None:
    encoder = make_tiny_encoder(tmp_path / "enc")
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(6):
        (notes / f"n{i}.txt").write_text(
            f"Patient [PATIENT] seen on [DATE] by Dr. [DOCTOR]. MRN [MEDICALRECORD]. Note {i}.\n",
            encoding="utf-8",
        )
    model = tmp_path / "model"
    _run(
        [
            "train",
            "--train",
            str(notes),
            "--dev",
            str(notes),
            "--format",
            "placeholder",
            "-o",
            str(model),
            "--encoder",
            str(encoder),
            "--epochs",
            "2",
            "--no-crf",
            "--labels",
            "coarse",
            "--draws",
            "2",
        ]
    )
    assert (model / "config.json").is_file() and (model / "labels.json").is_file()
    pred = tmp_path / "pred.jsonl"
    _run(["predict", str(notes), "--format", "placeholder", "-o", str(pred), "--model", str(model)])
    gold = tmp_path / "gold.jsonl"
    _run(["convert", str(notes), str(gold), "--from", "placeholder", "--to", "jsonl"])
    out = _run(["evaluate", "--gold", str(gold), "--pred", str(pred), "-o", str(tmp_path / "rep")])
    assert "Binary" in out or "binary" in out
