"""--labels native: a corpus's own types end to end (BRAT in -> train -> predict --to brat)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.io import read_corpus
from phiscrub.labels import fold, labels_of, native_granularity, to_native
from phiscrub.policy import is_phi

pytest.importorskip("torch")

NAMES = ["Ana Ruiz", "Luis Gil", "Eva Sanz", "Pau Roca"]
# Synthetic notes; CODIGO_CAMA is no table's label: it must stay its own type.
TEMPLATE = "Paciente {name} ingresa el {day} de marzo en cama {bed}.\n"


def _corpus(root: Path, n: int = 16) -> Path:
    root.mkdir()
    for i in range(n):
        name, day, bed = NAMES[i % 4], str(3 + i), f"B-{10 + i}"
        text = TEMPLATE.format(name=name, day=day, bed=bed)
        spans = [
            ("NOMBRE_SUJETO_ASISTENCIA", text.index(name), text.index(name) + len(name)),
            ("FECHAS", text.index(day + " de"), text.index(" en cama")),
            ("CODIGO_CAMA", text.index(bed), text.index(bed) + len(bed)),
        ]
        (root / f"n{i:02d}.txt").write_text(text, encoding="utf-8")
        ann = "".join(f"T{k}\t{lab} {s} {e}\t{text[s:e]}\n" for k, (lab, s, e) in enumerate(spans, 1))
        (root / f"n{i:02d}.ann").write_text(ann, encoding="utf-8")
    return root


def test_native_round_trip_trains_and_writes_the_corpus_types(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "gold")
    model, pred = tmp_path / "model", tmp_path / "pred"
    runner = CliRunner()
    trained = runner.invoke(
        cli,
        ["train", "--train", str(corpus), "--corpus", "brat", "--labels", "native"]
        + ["--encoder", "bilstm-crf", "--epochs", "25", "--seed", "0", "-o", str(model)],
    )
    assert trained.exit_code == 0, trained.output
    label_info = json.loads((model / "labels.json").read_text(encoding="utf-8"))
    assert label_info["granularity"] == "native:brat+CODIGO_CAMA,FECHAS,NOMBRE_SUJETO_ASISTENCIA"
    predicted = runner.invoke(
        cli,
        ["predict", str(corpus), "-o", str(pred), "--to", "brat", "--model", str(model)]
        + ["--no-rules", "--labels", "native", "--corpus", "brat"],
    )
    assert predicted.exit_code == 0, predicted.output
    docs, problems = read_corpus(pred, corpus="native")
    assert not problems
    assert {s.label for d in docs for s in d.spans} == {"NOMBRE_SUJETO_ASISTENCIA", "FECHAS", "CODIGO_CAMA"}
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "n01.txt").write_text((corpus / "n01.txt").read_text(encoding="utf-8"), encoding="utf-8")
    redacted = runner.invoke(
        cli,
        ["redact", str(notes), "-o", str(tmp_path / "out"), "--model", str(model)]
        + ["--labels", "native", "--lang", "es"],
    )
    assert redacted.exit_code == 0, redacted.output
    assert (tmp_path / "out" / "n01.txt").read_text(encoding="utf-8") == (
        "Paciente [NOMBRE_SUJETO_ASISTENCIA] ingresa el [FECHAS] en cama [CODIGO_CAMA].\n"
    )


def test_native_reading_keeps_unknown_labels(tmp_path: Path) -> None:
    docs, problems = read_corpus(_corpus(tmp_path / "gold", 1), corpus="native")
    assert not problems
    assert [s.label for s in docs[0].spans] == ["NOMBRE_SUJETO_ASISTENCIA", "FECHAS", "CODIGO_CAMA"]


def test_train_native_without_a_corpus_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "train",
            "--train",
            str(_corpus(tmp_path / "g", 1)),
            "--labels",
            "native",
            "-o",
            str(tmp_path / "m"),
        ],
    )
    assert result.exit_code == 2
    assert "--labels native needs --corpus" in result.output


def test_meddocan_native_inventory_has_its_own_types() -> None:
    labels = labels_of(native_granularity("meddocan"))
    for lab in ("SEXO_SUJETO_ASISTENCIA", "FAMILIARES_SUJETO_ASISTENCIA", "OTROS_SUJETO_ASISTENCIA"):
        assert lab in labels
    assert {"CENTRO_SALUD", "HOSPITAL"} <= set(labels)  # not merged
    assert fold("centro salud", native_granularity("meddocan")) == "CENTRO_SALUD"


@pytest.mark.parametrize(
    ("fine", "corpus", "native"),
    [
        ("PATIENT", "meddocan", "NOMBRE_SUJETO_ASISTENCIA"),
        ("MEDICALRECORD", "meddocan", "ID_SUJETO_ASISTENCIA"),
        ("IDNUM", "meddocan", "OTRO_NUMERO_IDENTIF"),
        ("CITY", "meddocan", "TERRITORIO"),
        ("CENTRO_SALUD", "meddocan", "CENTRO_SALUD"),
        ("LOCATION", "i2b2-2014", "LOCATION-OTHER"),
        ("MEDICALRECORD", "i2b2-2006", "ID"),
        ("CODIGO_CAMA", "brat", "CODIGO_CAMA"),
    ],
)
def test_rule_labels_are_written_as_the_corpus_types(fine: str, corpus: str, native: str) -> None:
    assert to_native(fine, corpus) == native


@pytest.mark.parametrize("policy", ["safe-harbor", "i2b2", "strict"])
def test_unknown_native_labels_are_phi_under_every_policy(policy: str) -> None:
    assert is_phi("CODIGO_CAMA", policy, "B-10")


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        ("native", ["NOMBRE_SUJETO_ASISTENCIA", "FECHAS", "CODIGO_CAMA"]),
        ("coarse", ["NAME", "DATE"]),  # the fold stays available; the unknown type has no coarse label
    ],
)
def test_convert_writes_native_or_folded_labels(tmp_path: Path, labels: str, expected: list[str]) -> None:
    src, out = _corpus(tmp_path / "gold", 1), tmp_path / "out.jsonl"
    args = ["convert", str(src), str(out), "--to", "jsonl", "--labels", labels]
    if labels == "coarse":
        args += ["--corpus", "meddocan"]
        (src / "n00.ann").write_text(
            "\n".join(ln for ln in (src / "n00.ann").read_text().splitlines() if "CODIGO" not in ln) + "\n"
        )
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    docs, _ = read_corpus(out, corpus="native")
    assert [s.label for s in docs[0].spans] == expected


def test_evaluate_native_scores_each_corpus_type(tmp_path: Path) -> None:
    gold = _corpus(tmp_path / "gold", 2)
    out = tmp_path / "report"
    result = CliRunner().invoke(
        cli,
        ["evaluate", "--gold", str(gold), "--pred", str(gold), "--labels", "native", "-o", str(out)],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(out.with_name("report.json").read_text(encoding="utf-8"))
    assert set(report["result"]["per_label"]) >= {"CODIGO_CAMA", "FECHAS", "NOMBRE_SUJETO_ASISTENCIA"}


def test_redact_native_without_a_native_model_is_a_usage_error(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text("Paciente Ana Ruiz.\n", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["redact", str(notes), "-o", str(tmp_path / "out"), "--labels", "native", "--rules-only"]
    )
    assert result.exit_code != 0
    assert "--labels native needs a model trained with --labels native" in result.output
