"""Official-scorer parity: figures computed by hand from the MEDDOCAN/i2b2 2014 definition."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.evaluate.official import merge_spans, official_scores
from phiscrub.io import read_corpus

# Synthetic notes. Offsets: "Juan"0-4 "Perez"5-10 "-"10 "Lopez"11-16 "Madrid"25-31 "12345"37-42;
# "Ana Ruiz"4-12 "555"14-17 "123 456"18-25.
TEXT_A = "Juan Perez-Lopez vive en Madrid.\nNHC 12345.\n"
TEXT_B = "Dr. Ana Ruiz, 555 123 456.\nSin incidencias.\n"
GOLD = {
    "a": [("NOMBRE_SUJETO_ASISTENCIA", 0, 16), ("TERRITORIO", 25, 31), ("ID_SUJETO_ASISTENCIA", 37, 42)],
    "b": [("NOMBRE_PERSONAL_SANITARIO", 4, 12), ("NUMERO_TELEFONO", 14, 25)],
}
PRED = {
    # the name split at the hyphen, Madrid mistyped, the record number right
    "a": [
        ("NOMBRE_SUJETO_ASISTENCIA", 0, 10),
        ("NOMBRE_SUJETO_ASISTENCIA", 11, 16),
        ("PAIS", 25, 31),
        ("ID_SUJETO_ASISTENCIA", 37, 42),
    ],
    # the doctor right, the phone split in two
    "b": [("NOMBRE_PERSONAL_SANITARIO", 4, 12), ("NUMERO_TELEFONO", 14, 17), ("NUMERO_TELEFONO", 18, 25)],
}

# By hand:
# NER (start, end, type): a TP1 FP3 FN2, b TP1 FP2 FN1 -> TP2 FP5 FN3: P 2/7, R 2/5, F1 1/3.
# Spans strict (start, end): a TP2 FP2 FN1, b TP1 FP2 FN1 -> TP3 FP4 FN2: P 3/7, R 3/5, F1 1/2.
# Spans merged (official: TP = strict matches | merged matches; unmatched strict spans inside a
#   TP are neither FP nor FN): a: merged pred (0,10)+(11,16) over "-" = (0,16) -> TP {(0,16),
#   (25,31),(37,42)} = 3, FP (0,10),(11,16) inside (0,16): 0, FN (0,16): 0. b: strict match (4,12);
#   merged gold (4,12)+(14,25) over ", " = (4,25) = merged pred (4,12)+(14,17)+(18,25) -> TP
#   {(4,12),(4,25)} = 2, FP 0, FN 0. Total TP 5 FP 0 FN 0 -> P = R = F1 = 1.
# Leak: NER FN 3 / 4 non-empty gold lines = 0.75.
EXPECTED = {
    "ner": (2, 5, 3, 2 / 7, 2 / 5, 1 / 3),
    "spans_strict": (3, 4, 2, 3 / 7, 3 / 5, 1 / 2),
    "spans_merged": (5, 0, 0, 1.0, 1.0, 1.0),
}


def _write_brat(root: Path, spans: dict[str, list[tuple[str, int, int]]]) -> Path:
    root.mkdir()
    for doc_id, text in (("a", TEXT_A), ("b", TEXT_B)):
        (root / f"{doc_id}.txt").write_text(text, encoding="utf-8", newline="")
        lines = [f"T{i}\t{lab} {s} {e}\t{text[s:e]}" for i, (lab, s, e) in enumerate(spans[doc_id], 1)]
        (root / f"{doc_id}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


@pytest.fixture()
def corpora(tmp_path: Path) -> tuple[Path, Path]:
    return _write_brat(tmp_path / "gold", GOLD), _write_brat(tmp_path / "pred", PRED)


@pytest.mark.parametrize("measure", sorted(EXPECTED))
def test_official_scores_match_hand_computed_meddocan_figures(
    corpora: tuple[Path, Path], measure: str
) -> None:
    gold, _ = read_corpus(corpora[0])
    pred, _ = read_corpus(corpora[1])
    got = getattr(official_scores(gold, pred, "meddocan"), measure)
    tp, fp, fn, p, r, f1 = EXPECTED[measure]
    assert (got.tp, got.fp, got.fn) == (tp, fp, fn)
    assert (round(got.precision, 4), round(got.recall, 4), round(got.f1, 4)) == (
        round(p, 4),
        round(r, 4),
        round(f1, 4),
    )


def test_leak_is_missed_gold_per_gold_sentence(corpora: tuple[Path, Path]) -> None:
    gold, _ = read_corpus(corpora[0])
    pred, _ = read_corpus(corpora[1])
    assert official_scores(gold, pred, "meddocan").leak == pytest.approx(0.75)


@pytest.mark.parametrize(
    ("text", "offsets", "merged"),
    [
        ("ab-cd", [(0, 2), (3, 5)], {(0, 5)}),  # only "-" between: merged
        ("ab x cd", [(0, 2), (5, 7)], {(0, 2), (5, 7)}),  # a letter between: kept apart
        ("ab ñ cd", [(0, 2), (5, 7)], {(0, 2), (5, 7)}),  # non-ASCII letters count as alphanumeric
        ("ab, cd", [(0, 2), (4, 6)], {(0, 6)}),  # ", " between: merged
        (
            "abcdef",
            [(0, 5), (1, 3)],
            {(0, 3)},
        ),  # nested: nothing between, ends where the next ends (as the script)
    ],
)
def test_merge_spans_joins_over_non_alphanumerics_only(
    text: str, offsets: list[tuple[int, int]], merged: set[tuple[int, int]]
) -> None:
    assert merge_spans(text, offsets) == merged


def test_evaluate_cli_scheme_meddocan_writes_the_official_figures(
    corpora: tuple[Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "report" / "official"
    result = CliRunner().invoke(
        cli,
        [
            "evaluate",
            "--gold",
            str(corpora[0]),
            "--pred",
            str(corpora[1]),
            "--scheme",
            "meddocan",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.with_name("official.json").read_text(encoding="utf-8"))
    assert round(data["ner"]["f1"], 4) == 0.3333
    assert round(data["spans_strict"]["f1"], 4) == 0.5
    assert data["spans_merged"]["f1"] == 1.0
    assert data["per_type"]["PAIS"]["fp"] == 1
    assert "| NER (start, end, type) | 0.2857 | 0.4000 | 0.3333 |" in result.output


def test_i2b2_scheme_reports_ner_only(corpora: tuple[Path, Path]) -> None:
    gold, _ = read_corpus(corpora[0])
    pred, _ = read_corpus(corpora[1])
    data = official_scores(gold, pred, "i2b2").to_dict()
    assert "spans_merged" not in data
    assert round(data["ner"]["f1"], 4) == 0.3333  # type: ignore[index]


def test_only_documents_in_both_corpora_are_scored(corpora: tuple[Path, Path]) -> None:
    gold, _ = read_corpus(corpora[0])
    pred, _ = read_corpus(corpora[1])
    only_b = official_scores(gold, [d for d in pred if d.id == "b"], "meddocan")
    # b alone: NER TP1 FP2 FN1
    assert (only_b.ner.tp, only_b.ner.fp, only_b.ner.fn) == (1, 2, 1)
