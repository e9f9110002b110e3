"""MEDDOCAN official-scorer edge cases, figures computed by hand from the script's definition.

The definition (PlanTL-GOB-ES/MEDDOCAN-Evaluation-Script, ``classes.py``), as applied below:

* documents: those with an ``.ann`` in both folders (the script lists ``.ann`` files);
* NER: per document the *sets* of ``(type, start, end)``: TP = gold & sys, FP = sys - gold,
  FN = gold - sys; summed over documents; P = TP/(TP+FP), R = TP/(TP+FN), F1 = 2PR/(P+R);
* spans strict: the same on ``(start, end)``;
* spans merged: walk each side's spans sorted (duplicates included); let ``x`` be the last merged
  span and ``y`` the next one: when ``text[x.end:y.start]`` holds no alphanumeric character (an
  empty slice, as for overlapping or nested spans, holds none) replace ``x`` by ``(x.start,
  y.end)``, else start a new merged span. ``text`` is the ``.txt`` read in text mode (``\\r\\n`` ->
  ``\\n``). TP = (strict gold & strict sys) | (merged gold & merged sys); FP = strict sys - strict
  gold, less those inside a TP span; FN likewise.

Texts are synthetic.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.evaluate.official import official_scores, read_official

# "a": Juan 10-14 Perez 15-20 Lopez 21-26 | "45 años" 28-35 | "12/03/2020" 37-47 ("12/03" 37-42,
#      "2020" 43-47) | Madrid 51-57.
TEXT_A = "Paciente: Juan Perez Lopez, 45 años, 12/03/2020 en Madrid.\n"
# "n": Ana 4-7 Ruiz 8-12 Gil 13-16.
TEXT_N = "Dr. Ana Ruiz Gil atiende.\n"
# "r" (Windows line ends): Maria 5-10 Ruiz 11-15 Sevilla 17-24 as written; read in text mode
#      "NHC\nMaria Ruiz, Sevilla\n" puts "R" at 10 and " S" at 15-17.
TEXT_R = "NHC\r\nMaria Ruiz, Sevilla\r\n"
# "c": datos 4-9.  "d": Varon 0-5, "60 años" 9-16.  "e": "600 111 222" 9-20.
TEXT_C = "Sin datos personales.\n"
TEXT_D = "Varon de 60 años.\n"
TEXT_E = "Telefono 600 111 222.\n"

Ann = list[tuple[str, int, int]]
# None: the .txt is there but no .ann at all.
GOLD: dict[str, tuple[str, Ann | None]] = {
    "a": (
        TEXT_A,
        [
            ("NOMBRE_SUJETO_ASISTENCIA", 10, 26),
            ("EDAD_SUJETO_ASISTENCIA", 28, 35),
            ("FECHAS", 37, 47),
            ("TERRITORIO", 51, 57),
            ("TERRITORIO", 51, 57),  # duplicated annotation
        ],
    ),
    "n": (TEXT_N, [("NOMBRE_PERSONAL_SANITARIO", 4, 7), ("NOMBRE_PERSONAL_SANITARIO", 8, 16)]),
    "r": (TEXT_R, [("NOMBRE_SUJETO_ASISTENCIA", 5, 15), ("TERRITORIO", 17, 24)]),
    "c": (TEXT_C, []),  # empty .ann: a scored document without PHI
    "d": (TEXT_D, [("SEXO_SUJETO_ASISTENCIA", 0, 5), ("EDAD_SUJETO_ASISTENCIA", 9, 16)]),
    "e": (TEXT_E, [("NUMERO_TELEFONO", 9, 20)]),
    "f": (TEXT_E, [("NUMERO_TELEFONO", 9, 20)]),  # no system files at all: not scored
}
PRED: dict[str, tuple[str, Ann | None]] = {
    "a": (
        TEXT_A,
        [
            ("NOMBRE_SUJETO_ASISTENCIA", 10, 20),  # the name in two overlapping pieces
            ("NOMBRE_SUJETO_ASISTENCIA", 15, 26),
            ("EDAD_SUJETO_ASISTENCIA", 28, 35),
            ("EDAD_SUJETO_ASISTENCIA", 28, 35),  # duplicated annotation
            ("FECHAS", 37, 42),  # the date split at "/"
            ("FECHAS", 43, 47),
            ("PAIS", 51, 57),  # right span, wrong type
        ],
    ),
    # the whole name plus a nested piece: merging ends at the nested piece's end
    "n": (TEXT_N, [("NOMBRE_PERSONAL_SANITARIO", 4, 16), ("NOMBRE_PERSONAL_SANITARIO", 8, 12)]),
    "r": (
        TEXT_R,
        [("NOMBRE_SUJETO_ASISTENCIA", 5, 10), ("NOMBRE_SUJETO_ASISTENCIA", 11, 15), ("TERRITORIO", 17, 24)],
    ),
    "c": (TEXT_C, [("OTROS_SUJETO_ASISTENCIA", 4, 9)]),
    "d": (TEXT_D, []),  # empty .ann: both gold spans missed
    "e": (TEXT_E, None),  # .txt without .ann: not scored
    "g": (TEXT_C, [("OTROS_SUJETO_ASISTENCIA", 4, 9)]),  # no gold files at all: not scored
}

# By hand (TP, FP, FN per scored document; e, f and g are not scored):
# NER (type, start, end) sets:
#   a: gold {N10-26, E28-35, F37-47, T51-57} (duplicate once), sys {N10-20, N15-26, E28-35,
#      F37-42, F43-47, P51-57} -> TP {E} 1, FP 5, FN 3
#   n: gold {N4-7, N8-16}, sys {N4-16, N8-12} -> 0, 2, 2
#   r: gold {N5-15, T17-24}, sys {N5-10, N11-15, T17-24} -> 1, 2, 1
#   c: 0, 1, 0        d: 0, 0, 2
#   total TP 2 FP 10 FN 8: P 2/12, R 2/10, F1 2/11
# Spans strict (start, end) sets:
#   a: gold {10-26, 28-35, 37-47, 51-57}, sys {10-20, 15-26, 28-35, 37-42, 43-47, 51-57}
#      -> TP {28-35, 51-57} 2, FP 4, FN 2 (the type mismatch 51-57 is a span match)
#   n: 0, 2, 2   r: 1, 2, 1   c: 0, 1, 0   d: 0, 0, 2
#   total TP 3 FP 9 FN 7: P 3/12, R 3/10, F1 3/11
# Spans merged:
#   a: gold 10-26 +", "+ 28-35 +", "+ 37-47 -> 10-47; " en " has letters: 51-57 apart; its
#      duplicate: empty gap -> 51-57. Merged gold {10-47, 51-57}.
#      sys 10-20 + 15-26 (overlap, empty gap) -> 10-26, +", "+ 28-35 (twice) -> 10-35, +", "+
#      37-42 +"/"+ 43-47 -> 10-47; 51-57 apart. Merged sys {10-47, 51-57}.
#      TP {28-35, 51-57} | {10-47, 51-57} = 3; FP {10-20, 15-26, 37-42, 43-47} all inside 10-47
#      -> 0; FN {10-26, 37-47} inside 10-47 -> 0.  a: 3, 0, 0
#   n: gold 4-7 +" "+ 8-16 -> {4-16}; sys 4-16 then 8-12 (nested, empty gap) -> {4-12}, not
#      4-16. No strict or merged match: TP 0, FP {4-16, 8-12} 2, FN {4-7, 8-16} 2.
#   r: in text mode the gold gap 15-17 is " S" and the sys gap 10-11 is "R": nothing merges.
#      TP {17-24} 1, FP {5-10, 11-15} 2 (not inside 17-24), FN {5-15} 1.
#   c: 0, 1, 0        d: gold 0-5 +" de "+ 9-16 stay apart: 0, 0, 2
#   total TP 4 FP 5 FN 5: P 4/9, R 4/9, F1 4/9
EXPECTED = {
    "ner": (2, 10, 8, 2 / 12, 2 / 10, 2 / 11),
    "spans_strict": (3, 9, 7, 3 / 12, 3 / 10, 3 / 11),
    "spans_merged": (4, 5, 5, 4 / 9, 4 / 9, 4 / 9),
}


def _write_brat(root: Path, docs: dict[str, tuple[str, Ann | None]]) -> Path:
    root.mkdir()
    for doc_id, (text, spans) in docs.items():
        (root / f"{doc_id}.txt").write_text(text, encoding="utf-8", newline="")
        if spans is None:
            continue
        lines = [f"T{i}\t{lab} {s} {e}\t{text[s:e]}\n" for i, (lab, s, e) in enumerate(spans, 1)]
        (root / f"{doc_id}.ann").write_text("".join(lines), encoding="utf-8", newline="")
    return root


@pytest.fixture()
def folders(tmp_path: Path) -> tuple[Path, Path]:
    return _write_brat(tmp_path / "gold", GOLD), _write_brat(tmp_path / "system", PRED)


@pytest.mark.parametrize("measure", sorted(EXPECTED))
def test_edge_case_fixture_scores_as_the_official_definition(
    folders: tuple[Path, Path], measure: str
) -> None:
    gold, gold_problems = read_official(folders[0])
    pred, pred_problems = read_official(folders[1])
    assert gold_problems == [] and pred_problems == []
    got = getattr(official_scores(gold, pred, "meddocan"), measure)
    tp, fp, fn, p, r, f1 = EXPECTED[measure]
    assert (got.tp, got.fp, got.fn) == (tp, fp, fn)
    assert (got.precision, got.recall, got.f1) == pytest.approx((p, r, f1), abs=5e-5)


def test_only_documents_with_an_ann_in_both_folders_are_scored(folders: tuple[Path, Path]) -> None:
    gold, _ = read_official(folders[0])
    pred, _ = read_official(folders[1])
    assert sorted(d.id for d in gold) == ["a", "c", "d", "e", "f", "n", "r"]
    assert sorted(d.id for d in pred) == ["a", "c", "d", "g", "n", "r"]  # "e" has a .txt only


def test_windows_line_ends_are_read_as_the_script_reads_them(folders: tuple[Path, Path]) -> None:
    gold, _ = read_official(folders[0])
    pred, _ = read_official(folders[1])
    only_r = official_scores([d for d in gold if d.id == "r"], pred, "meddocan").spans_merged
    # in text mode nothing merges in "r" (the raw text would merge both sides into 5-24: 2, 0, 0)
    assert (only_r.tp, only_r.fp, only_r.fn) == (1, 2, 1)


def test_evaluate_cli_scheme_meddocan_gives_the_hand_figures(
    folders: tuple[Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "report" / "official"
    result = CliRunner().invoke(
        cli,
        [
            "evaluate",
            "--gold",
            str(folders[0]),
            "--pred",
            str(folders[1]),
            "--scheme",
            "meddocan",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.with_name("official.json").read_text(encoding="utf-8"))
    for measure, (tp, fp, fn, p, r, f1) in EXPECTED.items():
        got = data[measure]
        assert (got["tp"], got["fp"], got["fn"]) == (tp, fp, fn), measure
        assert (got["precision"], got["recall"], got["f1"]) == pytest.approx((p, r, f1), abs=5e-5)
