from __future__ import annotations

import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "notes"

# Synthetic PHI written into the example notes that the rules must always catch.
STRUCTURED_PHI = [
    "0048-2231",
    "04/17/1951",
    "03/02/2024",
    "03/09/2024",
    "(617) 555-0134",
    "careteam@mercyvalley-health.org",
    "77120934",
    "A7731902",
    "508-555-0199",
    "217-555-0147",
    "217-555-0148",
    "XKW-448812",
    "9/30/1988",
    "8/14/2024",
    "62704",
    "1428 Elm Street",
    "Lucia Ferraro",
    "Okafor",
    "Wendell Osei",
    "Stefania Kowalczyk",
]


def _run(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _read_tree(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))}


def test_redact_folder_placeholder_keeps_shape_and_writes_standoff(tmp_path: Path) -> None:
    out = tmp_path / "out"
    output = _run(["redact", str(EXAMPLES), "-o", str(out), "--rules-only"])
    assert "redacted 3 documents" in output
    redacted = _read_tree(out)
    assert sorted(redacted) == sorted(p.name for p in EXAMPLES.glob("*.txt"))
    joined = "\n".join(redacted.values())
    for phi in STRUCTURED_PHI:
        assert phi not in joined
    assert "[DATE]" in joined and "[ID]" in joined and "[CONTACT]" in joined
    # non-PHI numbers survive
    for keep in ("BP 96/60", "WBC 17.2 K/uL", "2 g IV q24h", "at 10:15", "GCS 15", "25/100 TID"):
        assert keep in joined
    rows = [json.loads(line) for line in (out / "phi_spans.jsonl").read_text().splitlines()]
    assert rows and all("text" not in r for r in rows)
    assert {"doc_id", "start", "end", "label", "source"} <= set(rows[0]) and "id" not in rows[0]


def test_redact_audit_text_writes_original_strings_only_when_asked(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _run(["redact", str(EXAMPLES), "-o", str(out), "--rules-only", "--audit-text"])
    rows = [json.loads(line) for line in (out / "phi_spans.jsonl").read_text().splitlines()]
    texts = {r["text"] for r in rows}
    assert "0048-2231" in texts
    originals = {p.stem: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.txt")}
    for r in rows:
        assert originals[r["doc_id"]][r["start"] : r["end"]] == r["text"]


def test_redact_surrogate_is_deterministic_per_key(tmp_path: Path) -> None:
    outs = []
    for name, key in (("a", "k1"), ("b", "k1"), ("c", "k2")):
        _run(
            [
                "redact",
                str(EXAMPLES),
                "-o",
                str(tmp_path / name),
                "--rules-only",
                "--mode",
                "surrogate",
                "--key",
                key,
            ]
        )
        outs.append(_read_tree(tmp_path / name))
    assert outs[0] == outs[1]
    assert outs[0] != outs[2]
    joined = "\n".join(outs[0].values()) + "\n".join(outs[2].values())
    for phi in STRUCTURED_PHI:
        assert phi not in joined


def test_redact_surrogate_without_key_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PHISCRUB_KEY", raising=False)
    result = CliRunner().invoke(
        cli, ["redact", str(EXAMPLES), "-o", str(tmp_path), "--mode", "surrogate", "--rules-only"]
    )
    assert result.exit_code != 0
    assert "PHISCRUB_KEY" in str(result.exception) + result.output


def test_redact_jsonl_keeps_other_fields_and_order(tmp_path: Path) -> None:
    src = tmp_path / "notes.jsonl"
    records = [
        {"note_id": "n2", "body": "Seen on 03/12/2019 by Dr. Quentin Blackwood.", "site": "x"},
        {"note_id": "n1", "body": "No PHI here.", "site": "y"},
        {"note_id": "n3", "body": "", "site": "z"},
    ]
    src.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    _run(
        [
            "redact",
            str(src),
            "-o",
            str(tmp_path / "out"),
            "--rules-only",
            "--text-field",
            "body",
            "--id-field",
            "note_id",
        ]
    )
    got = [json.loads(line) for line in (tmp_path / "out" / "notes.jsonl").read_text().splitlines()]
    assert [g["note_id"] for g in got] == ["n2", "n1", "n3"]
    assert [g["site"] for g in got] == ["x", "y", "z"]
    assert got[0]["body"] == "Seen on [DATE] by Dr. [NAME]."
    assert got[1]["body"] == "No PHI here."


def test_redact_csv_and_parquet_keep_columns(tmp_path: Path) -> None:
    rows = [
        {"id": "1", "note_text": "Call 617-555-0134 on 4/2/2020.", "unit": "ICU"},
        {"id": "2", "note_text": "BP 120/80, HR 72.", "unit": "ward"},
    ]
    csv_path = tmp_path / "notes.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["id", "note_text", "unit"])
        w.writeheader()
        w.writerows(rows)
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "notes.parquet")
    _run(["redact", str(csv_path), "-o", str(tmp_path / "o1"), "--rules-only", "--text-column", "note_text"])
    _run(
        [
            "redact",
            str(tmp_path / "notes.parquet"),
            "-o",
            str(tmp_path / "o2"),
            "--rules-only",
            "--text-column",
            "note_text",
        ]
    )
    with (tmp_path / "o1" / "notes.csv").open(newline="", encoding="utf-8") as fh:
        got_csv = list(csv.DictReader(fh))
    got_pq = pq.read_table(tmp_path / "o2" / "notes.parquet").to_pylist()
    for got in (got_csv, got_pq):
        assert [g["unit"] for g in got] == ["ICU", "ward"]
        assert got[0]["note_text"] == "Call [CONTACT] on [DATE]."
        assert got[1]["note_text"] == "BP 120/80, HR 72."


def test_redact_output_and_logs_hold_no_phi(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "-vv",
            "redact",
            str(EXAMPLES),
            "-o",
            str(tmp_path / "o"),
            "--rules-only",
            "--mode",
            "surrogate",
            "--key",
            "s3cr3t-XYZ",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0
    for phi in STRUCTURED_PHI:
        assert phi not in result.output
    assert "s3cr3t-XYZ" not in result.output
