"""``phiscrub report`` on real ``phiscrub redact`` output folders (rules-only runs, made-up PHI)."""

from __future__ import annotations

import json
import stat
from collections import Counter
from pathlib import Path

import pytest
from html_probe import Element, bars, parse, select
from report_data import BAD_NOTE, NOTES, RUN_PHI, Run, invoke, jsonl, redact_run, write_notes

from phiscrub.report.run import ERRORS_NAME, STANDOFF_NAME, WARNINGS_NAME


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return redact_run(tmp_path_factory.mktemp("run"))


def report(folder: Path, out: Path, *extra: str, expect: int = 0) -> str:
    result = invoke(["report", str(folder), "-o", str(out), *extra], expect=expect)
    if expect == 0:
        assert f"report written to {out}" in result.output
        return out.read_text(encoding="utf-8")
    assert not out.exists()
    return result.output


def cards(elements: list[Element]) -> dict[str, str]:
    return {el.attrs["data-key"]: el.attrs["data-value"] for el in select(elements, "div", "card")}


def test_log_names_match_the_redact_command() -> None:
    from phiscrub.cli import redact

    assert (STANDOFF_NAME, ERRORS_NAME, WARNINGS_NAME) == (
        redact.STANDOFF_NAME,
        redact.ERRORS_NAME,
        redact.WARNINGS_NAME,
    )


def test_run_report_counts_labels_sources_and_histogram(run: Run, tmp_path: Path) -> None:
    html = report(run.out, tmp_path / "r.html", "--sample", "100")
    els = parse(html)
    spans = jsonl(run.out / STANDOFF_NAME)
    errors = jsonl(run.out / ERRORS_NAME)
    assert spans and len(errors) == 1 and errors[0]["id"] == BAD_NOTE[0]

    n_docs = len(NOTES) + 1
    got = cards(els)
    assert got["documents"] == str(n_docs)
    assert got["failed"] == "1"
    assert got["redacted"] == str(n_docs - 1)
    assert got["spans replaced"] == str(len(spans))

    assert bars(els, "chart-labels") == dict(Counter(str(s["label"]) for s in spans))
    families = Counter("rules" if str(s["source"]).startswith("rule:") else str(s["source"]) for s in spans)
    families = Counter({("propagation" if k == "propagate" else k): v for k, v in families.items()})
    assert bars(els, "chart-sources") == dict(families)
    assert families["rules"] > 0

    per_note = Counter(Counter(str(s["doc_id"]) for s in spans).get(doc_id, 0) for doc_id in NOTES)
    hist = bars(els, "chart-histogram")
    assert {int(k): int(v) for k, v in hist.items() if v} == dict(per_note)
    assert sum(hist.values()) == len(NOTES)  # the failed note is not in the histogram

    # The failure is listed by id, stage and error code.
    failed = select(els, "table", "failed")[0].text
    assert BAD_NOTE[0] in failed and "decode_error" in failed

    # Every redacted note is sampled (--sample 100), each with its spans highlighted at the output offsets.
    docs = select(els, "div", "doc", "samples")
    assert [d.attrs["data-doc-id"] for d in docs] == sorted(NOTES)
    by_doc: dict[str, list[dict[str, object]]] = {}
    for s in spans:
        by_doc.setdefault(str(s["doc_id"]), []).append(s)
    for doc in docs:
        doc_id = doc.attrs["data-doc-id"]
        marks = [m for m in select(els, "mark", "phi") if doc in m.ancestors]
        expected = sorted(by_doc.get(doc_id, []), key=lambda s: int(s["start"]))  # type: ignore[call-overload]
        assert [m.attrs["data-label"] for m in marks] == [s["label"] for s in expected]
        redacted = (run.out / f"{doc_id}.txt").read_text(encoding="utf-8")
        assert [m.text for m in marks] == [redacted[s["out_start"] : s["out_end"]] for s in expected]  # type: ignore[misc]
    legend = {
        el.attrs["data-label"]
        for el in select(els, "span")
        if el.within("samples") and "data-label" in el.attrs
    }
    assert legend == {str(s["label"]) for s in spans}


def test_without_show_text_no_phi_is_in_the_report(run: Run, tmp_path: Path) -> None:
    for phi in RUN_PHI:  # the precondition: the rules caught every one of them
        assert all(phi not in p.read_text(encoding="utf-8") for p in run.out.rglob("*.txt")), phi
    # The input given without --show-text is not read for text.
    html = report(run.out, tmp_path / "r.html", "--sample", "100", "--input", str(run.notes))
    for phi in RUN_PHI:
        assert phi not in html, phi
    assert "[NAME]" in html and "clinic/a1" in html
    assert "<script>" not in html and "&lt;script&gt;" in html  # the note's markup is text
    assert stat.S_IMODE((tmp_path / "r.html").stat().st_mode) == 0o644
    # Self-contained: no script, no reference to anything outside the file.
    els = parse(html)
    assert not select(els, "script") and not select(els, "link") and not select(els, "img")
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html


def test_show_text_shows_the_original_phi_highlighted(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    html = report(run.out, out, "--sample", "100", "--show-text", "--input", str(run.notes))
    for phi in RUN_PHI:
        assert phi in html, phi
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # it holds PHI now
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    els = parse(html)
    spans = jsonl(run.out / STANDOFF_NAME)
    originals = [m for m in select(els, "mark", "phi") if any("original" in a.classes for a in m.ancestors)]
    assert sorted(m.text for m in originals) == sorted(
        NOTES[str(s["doc_id"])][s["start"] : s["end"]]  # type: ignore[misc]
        for s in spans
    )
    assert "shows original note text" in select(els, "section", "privacy")[0].text


def test_show_text_needs_the_input_and_the_right_one(run: Run, tmp_path: Path) -> None:
    message = report(run.out, tmp_path / "a.html", "--show-text", expect=2)
    assert "--show-text needs the run's input (--input PATH)" in message
    other = write_notes(tmp_path / "other", {"x/y": "Seen by Dr. Zoltan Quenwick."}, bad=False)
    message = report(
        run.out, tmp_path / "b.html", "--show-text", "--input", str(other), "--sample", "100", expect=2
    )
    assert f"--input {other} has no document" in message
    assert "Quenwick" not in message


def test_sampling_is_seeded(run: Run, tmp_path: Path) -> None:
    def sampled(seed: str) -> list[str]:
        html = report(run.out, tmp_path / f"s{seed}.html", "--sample", "3", "--seed", seed)
        return [d.attrs["data-doc-id"] for d in select(parse(html), "div", "doc", "samples")]

    first = sampled("1")
    assert len(first) == 3 and set(first) <= set(NOTES)
    assert first == sorted(first)  # shown in input order
    assert sampled("1") == first
    assert {tuple(sampled(s)) for s in ("2", "3", "4")} != {tuple(first)}
    assert (
        sampled("0") != [] and report(run.out, tmp_path / "z.html", "--sample", "0").count('class="doc"') == 0
    )


def test_not_a_report_folder_exits_2_naming_it(tmp_path: Path) -> None:
    notes = write_notes(tmp_path / "notes", {"a": "Seen by Dr. Zoltan Quenwick."}, bad=False)
    message = report(notes, tmp_path / "r.html", expect=2)
    assert str(notes) in message and "neither a `phiscrub redact` output folder" in message
    assert "Quenwick" not in message
    missing = tmp_path / "missing"
    message = report(missing, tmp_path / "r.html", expect=2)
    assert f"{missing} is not a folder" in message
    message = report(notes / "a.txt", tmp_path / "r.html", expect=2)
    assert "is not a folder" in message
    from phiscrub.runs.manifest import WORK_DIR_NAME

    (tmp_path / "stopped" / WORK_DIR_NAME).mkdir(parents=True)
    message = report(tmp_path / "stopped", tmp_path / "r.html", expect=2)
    assert "holds an unfinished `phiscrub redact` run" in message and "--resume" in message


def test_a_broken_run_log_is_named_by_file_and_line_never_its_text(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / ERRORS_NAME).write_text("", encoding="utf-8")
    (out / STANDOFF_NAME).write_text(
        json.dumps({"doc_id": "a", "start": 0, "end": 3, "label": "NAME", "source": "rule:name"})
        + "\nZoltan Quenwick 03/12/2019\n",
        encoding="utf-8",
    )
    message = report(out, tmp_path / "r.html", expect=2)
    assert f"{out / STANDOFF_NAME} line 2: not a JSON line" in message
    assert "Quenwick" not in message and "03/12" not in message


def test_empty_run(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    invoke(["redact", str(notes), "-o", str(tmp_path / "out"), "--rules-only"])
    html = report(tmp_path / "out", tmp_path / "r.html")
    els = parse(html)
    got = cards(els)
    assert got["documents"] == "0" and got["spans replaced"] == "0" and got["failed"] == "0"
    assert "This run has no documents." in html
    assert not select(els, "rect", "bar")
    assert {"empty"} <= {c for el in select(els, "svg", "chart") for c in el.classes}


def test_a_run_that_only_failed(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "x.txt").write_bytes(b"\xff\xfe broken")
    invoke(["redact", str(notes), "-o", str(tmp_path / "out"), "--rules-only"], expect=1)
    els = parse(report(tmp_path / "out", tmp_path / "r.html"))
    got = cards(els)
    assert (got["documents"], got["failed"], got["redacted"]) == ("1", "1", "0")
    assert "decode_error" in select(els, "table", "failed-by-error")[0].text


def test_jsonl_run_with_ids_and_other_cells(tmp_path: Path) -> None:
    src = tmp_path / "visits.jsonl"
    rows = [
        {"nid": "v1", "text": "Seen by Dr. Zoltan Quenwick on 03/12/2019.", "name": "Dr. Ysolde Fenwright"},
        {"nid": "v2", "text": "Call 617-555-0134.", "name": ""},
        {"nid": "v3", "text": "Nothing to see.", "name": "Dr. Bartholomew Oxlade"},
    ]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out"
    invoke(["redact", str(src), "-o", str(out), "--rules-only", "--id-field", "nid"])
    spans = jsonl(out / STANDOFF_NAME)
    assert any("#/name" in str(s["doc_id"]) for s in spans)

    els = parse(report(out, tmp_path / "r.html", "--id-field", "nid", "--sample", "10"))
    assert "spans name documents that are not in the output" not in "".join(e.text for e in els)
    assert cards(els)["documents"] == "3"
    # A record's cell spans count with its note: v1 has 2 + 1, v2 1, v3 0 + 1.
    per_record = Counter(str(s["doc_id"]).split("#/")[0] for s in spans)
    hist = {int(k): int(v) for k, v in bars(els, "chart-histogram").items() if v}
    assert hist == dict(Counter(per_record[r["nid"]] for r in rows))
    assert [d.attrs["data-doc-id"] for d in select(els, "div", "doc", "samples")] == ["v1", "v2", "v3"]
    for phi in ("Zoltan Quenwick", "03/12/2019", "617-555-0134", "Ysolde Fenwright", "Oxlade"):
        assert phi not in "".join(e.text for e in els)

    # Without the run's --id-field the ids do not match: the report says so instead of guessing.
    html = report(out, tmp_path / "r2.html")
    assert "spans name documents that are not in the output" in html

    # --show-text reads the JSONL input with the same options.
    html = report(out, tmp_path / "r3.html", "--id-field", "nid", "--show-text", "--input", str(src))
    assert "Zoltan Quenwick" in html and "617-555-0134" in html


def test_many_failures_are_counted_and_the_first_ones_listed(tmp_path: Path) -> None:
    from phiscrub.report.run import MAX_FAILED_LISTED

    notes = write_notes(tmp_path / "notes", {"ok": "Seen on 03/12/2019."}, bad=False)
    n_bad = MAX_FAILED_LISTED + 2
    for i in range(n_bad):
        (notes / f"bad{i:03d}.txt").write_bytes(b"\xff")
    invoke(["redact", str(notes), "-o", str(tmp_path / "out"), "--rules-only"], expect=1)
    els = parse(report(tmp_path / "out", tmp_path / "r.html"))
    got = cards(els)
    assert (got["documents"], got["failed"], got["redacted"]) == (str(n_bad + 1), str(n_bad), "1")
    listed = select(els, "table", "failed")[0]
    assert sum(1 for el in select(els, "tr") if listed in el.ancestors) == MAX_FAILED_LISTED + 1  # + header
    assert f"first {MAX_FAILED_LISTED}" in "".join(el.text for el in select(els, "h3"))
    assert [d.attrs["data-doc-id"] for d in select(els, "div", "doc", "samples")] == ["ok"]


def test_show_text_reads_the_input_as_the_run_did(tmp_path: Path) -> None:
    """A row the run recovered (``--encoding-errors replace``) is read again the same way."""
    src = tmp_path / "visits.csv"
    src.write_bytes(
        b"id,text\na1,Seen by Dr. Zoltan Quenwick on 03/12/2019 caf\xe9.\na2,Call 617-555-0134.\n"
    )
    out = tmp_path / "out"
    invoke(
        [
            "redact",
            str(src),
            "-o",
            str(out),
            "--rules-only",
            "--id-field",
            "id",
            "--encoding-errors",
            "replace",
        ]
    )
    args = ("--id-field", "id", "--show-text", "--input", str(src))
    # Read strictly, the recovered row is not there: the report says which options to give.
    message = report(out, tmp_path / "r1.html", *args, expect=2)
    assert "has no document a1" in message and "--encoding-errors" in message
    html = report(out, tmp_path / "r2.html", *args, "--encoding-errors", "replace")
    assert "Zoltan Quenwick" in html and "617-555-0134" in html
