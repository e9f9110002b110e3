"""``phiscrub report`` on a real evaluation folder (``phiscrub evaluate --out-dir``), made-up PHI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from html_probe import bars, parse, select
from report_data import EVAL_PHI, GOLD, Evaluation, evaluation, invoke, jsonl, write_gold

from phiscrub.evaluate.details import DETAILS_NAME, document_details
from phiscrub.io import read_corpus


@pytest.fixture(scope="module")
def ev(tmp_path_factory: pytest.TempPathFactory) -> Evaluation:
    return evaluation(tmp_path_factory.mktemp("eval"))


def report(folder: Path, out: Path, *extra: str, expect: int = 0) -> str:
    result = invoke(["report", str(folder), "-o", str(out), *extra], expect=expect)
    return out.read_text(encoding="utf-8") if expect == 0 else result.output


def test_out_dir_writes_scores_and_per_document_matches_without_text(ev: Evaluation) -> None:
    assert sorted(p.name for p in ev.out.iterdir()) == ["documents.jsonl", "evaluation.json", "evaluation.md"]
    rows = jsonl(ev.out / DETAILS_NAME)
    assert [r["doc_id"] for r in rows] == [g[0] for g in GOLD]
    scores = json.loads((ev.out / "evaluation.json").read_text(encoding="utf-8"))["result"]["entity"]
    assert sum(len(r["tp"]) for r in rows) == scores["tp"]  # type: ignore[arg-type]
    assert sum(len(r["fp"]) for r in rows) == scores["fp"]  # type: ignore[arg-type]
    assert sum(len(r["fn"]) for r in rows) == scores["fn"]  # type: ignore[arg-type]
    assert scores["fn"] >= 2 and scores["fp"] >= 1  # the rules miss the bare name and the town
    raw = (ev.out / DETAILS_NAME).read_text(encoding="utf-8")
    for phi in EVAL_PHI:
        assert phi not in raw
    # No ./evaluation.* was written where the command ran (no -o given).
    assert not list(ev.gold.parent.glob("evaluation.*"))


def test_match_kinds() -> None:
    from phiscrub.document import Document, Span

    text = "Seen by Zoltan Quenwick on 03/12/2019 at Wexhampton."
    gold = Document("d", text, (Span(8, 23, "NAME"), Span(27, 37, "DATE"), Span(41, 51, "LOCATION")))
    pred = Document("d", text, (Span(8, 14, "NAME"), Span(27, 37, "ID")))
    (row,) = document_details([gold], [pred])
    assert [(i["label"], i["match"]) for i in row["fn"]] == [
        ("NAME", "overlap"),
        ("DATE", "label"),
        ("LOCATION", "none"),
    ]
    assert [(i["label"], i["match"]) for i in row["fp"]] == [("NAME", "overlap"), ("ID", "label")]
    assert row["tp"] == [] and (row["gold"], row["pred"], row["length"]) == (3, 2, len(text))


def test_eval_report_charts_and_errors_match_the_evaluation(ev: Evaluation, tmp_path: Path) -> None:
    html = report(ev.out, tmp_path / "e.html", "--sample", "50")
    els = parse(html)
    per_label = json.loads((ev.out / "evaluation.json").read_text(encoding="utf-8"))["result"]["per_label"]
    for level in ("entity", "token"):
        rects = select(els, "rect", "bar", f"chart-{level}")
        got = {(r.attrs["data-label"], r.attrs["data-series"]): float(r.attrs["data-value"]) for r in rects}
        want = {
            (lab, series): round(scores[level][key], 4)
            for lab, scores in per_label.items()
            for series, key in (("precision", "precision"), ("recall", "recall"), ("F1", "f1"))
        }
        assert got == want
    rows = jsonl(ev.out / DETAILS_NAME)
    fn = {str(i["label"]): 0 for r in rows for i in r["fn"]}  # type: ignore[attr-defined]
    fp = {str(i["label"]): 0 for r in rows for i in r["fp"]}  # type: ignore[attr-defined]
    for r in rows:
        for i in r["fn"]:  # type: ignore[attr-defined]
            fn[i["label"]] += 1
        for i in r["fp"]:  # type: ignore[attr-defined]
            fp[i["label"]] += 1
    assert bars(els, "chart-fn") == fn and bars(els, "chart-fp") == fp

    shown = {d.attrs["data-doc-id"] for d in select(els, "div", "doc", "errors")}
    assert shown == {str(r["doc_id"]) for r in rows if r["fn"] or r["fp"]}
    errors = [
        (el.attrs["data-kind"], el.attrs["data-label"], int(el.attrs["data-start"]))
        for el in select(els, "tr", "error")
    ]
    want_errors = [(k, i["label"], i["start"]) for r in rows for k in ("fn", "fp") for i in r[k]]  # type: ignore[attr-defined]
    assert sorted(errors) == sorted(want_errors)


def test_without_show_text_the_context_is_masked(ev: Evaluation, tmp_path: Path) -> None:
    html = report(ev.out, tmp_path / "e.html", "--sample", "50")
    for phi in EVAL_PHI:
        assert phi not in html, phi
    els = parse(html)
    contexts = [el for el in select(els, "mark", "err")]
    assert contexts and all(m.text.startswith("[") and m.text.endswith("]") for m in contexts)
    assert "was admitted" in html  # the text the gold calls not PHI is there
    assert "replaced by <code>[LABEL]</code>" in html


def test_show_text_shows_the_errors_in_their_context(ev: Evaluation, tmp_path: Path) -> None:
    html = report(ev.out, tmp_path / "e.html", "--sample", "50", "--show-text")
    els = parse(html)
    marked = sorted(m.text for m in select(els, "mark", "err"))
    gold = read_corpus(ev.gold)[0]
    texts = {d.id: d.text for d in gold}
    rows = jsonl(ev.out / DETAILS_NAME)
    assert marked == sorted(
        texts[str(r["doc_id"])][i["start"] : i["end"]]  # type: ignore[index]
        for r in rows
        for k in ("fn", "fp")
        for i in r[k]  # type: ignore[attr-defined]
    )
    assert "Marisol Threnody" in marked and "Wexhampton" in marked and "04/05/2020" in marked
    assert "This report shows note text" in html


def test_without_the_gold_corpus_only_offsets_and_labels(ev: Evaluation, tmp_path: Path) -> None:
    moved = tmp_path / "eval"
    shutil.copytree(ev.out, moved)
    data = json.loads((moved / "evaluation.json").read_text(encoding="utf-8"))
    data["config"]["gold"] = str(tmp_path / "gone.jsonl")
    (moved / "evaluation.json").write_text(json.dumps(data), encoding="utf-8")
    html = report(moved, tmp_path / "e.html", "--sample", "50")
    assert "no text (give the gold corpus with --input)" in html
    assert "No note text in this report" in html
    for phi in ("was admitted", *EVAL_PHI):
        assert phi not in html
    assert select(parse(html), "tr", "error")
    message = report(moved, tmp_path / "f.html", "--show-text", expect=2)
    assert "--show-text needs the gold corpus" in message
    # --input gives the corpus back.
    html = report(moved, tmp_path / "g.html", "--sample", "50", "--input", str(ev.gold), "--show-text")
    assert "Marisol Threnody" in html


def test_a_gold_corpus_that_is_not_the_evaluations_is_refused(ev: Evaluation, tmp_path: Path) -> None:
    other = write_gold(tmp_path / "other.jsonl")
    lines = other.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[1])
    first["text"] += " Zoltan Quenwick again."
    lines[1] = json.dumps(first)
    other.write_text("\n".join(lines) + "\n", encoding="utf-8")
    message = report(ev.out, tmp_path / "e.html", "--sample", "50", "--input", str(other), expect=2)
    assert "document g2 of" in message and "give the gold corpus of this evaluation" in message
    assert "Quenwick" not in message


def test_an_evaluation_without_details_says_how_to_get_them(ev: Evaluation, tmp_path: Path) -> None:
    folder = tmp_path / "scores"
    folder.mkdir()
    invoke(["evaluate", "--gold", str(ev.gold), "--pred", str(ev.pred), "-o", f"{folder}/"])
    assert (folder / "evaluation.json").is_file() and not (folder / DETAILS_NAME).exists()
    html = report(folder, tmp_path / "e.html")
    assert "rerun <code>phiscrub evaluate ... --out-dir DIR</code>" in html
    assert select(parse(html), "rect", "bar", "chart-entity")


def test_out_dir_is_refused_with_leaks_or_an_official_scheme(ev: Evaluation, tmp_path: Path) -> None:
    for extra in (["--leaks"], ["--scheme", "i2b2"]):
        result = invoke(
            [
                "evaluate",
                "--gold",
                str(ev.gold),
                "--pred",
                str(ev.pred),
                "--out-dir",
                str(tmp_path / "x"),
                *extra,
            ],
            expect=2,
        )
        assert "--out-dir goes with the phiscrub scores" in result.output
    assert not (tmp_path / "x").exists()


def test_a_scores_file_of_something_else_is_named(tmp_path: Path) -> None:
    (tmp_path / "evaluation.json").write_text(json.dumps({"scores": [1, 2]}), encoding="utf-8")
    message = report(tmp_path, tmp_path / "e.html", expect=2)
    assert f"{tmp_path / 'evaluation.json'} holds no phiscrub scores" in message
