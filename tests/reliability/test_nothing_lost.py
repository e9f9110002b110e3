"""Nothing lost: every input document ends in the output or in ``errors.jsonl`` (issue 14, part 2).

For every input shape (one ``.txt``, a folder, JSONL, CSV, TSV, Parquet) a seeded mix of good
records and bad ones (records that cannot be read, and documents whose redaction raises) goes
through the real ``redact``. The test reads the output back in its shape and checks that

- the output has one record per input record, in order, with the same ids;
- the ids listed in ``errors.jsonl`` (id, position, stage, error; no text) are exactly the bad
  ones, and each is written empty in the output; every other record is redacted;
- the summary states the input count as redacted + failed, and the numbers add up.

``pytest tests/reliability/test_nothing_lost.py -s`` prints the documents tried and failed per shape.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from phiscrub import deid as deid_module
from phiscrub.cli.app import cli
from phiscrub.deid import Deidentifier

NAMES = ("Zoltan Quenwick", "Alma Quill", "Boris Sovik")
PHI_MARKERS = ("Quenwick", "Quill", "Sovik", "617-555-")


def _note(rng: random.Random) -> str:
    return (
        f"Seen by Dr. {rng.choice(NAMES)} on {rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/2019.\n"
        f"Call 617-555-{rng.randint(1000, 9999)}.\n"
    )


@dataclass
class Mixed:
    """An input of good and bad records: ids in input order, the bad ones with their stage/code."""

    src: Path
    ids: list[str]
    bad: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (stage, error)
    options: list[str] = field(default_factory=list)


def _boom_ids(rng: random.Random, ids: list[str], taken: dict[str, tuple[str, str]], k: int) -> set[str]:
    """``k`` good ids whose redaction will raise."""
    pick = set(rng.sample([i for i in ids if i not in taken], k))
    for i in pick:
        taken[i] = ("redact", "RuntimeError")
    return pick


def make_dir(tmp: Path, rng: random.Random, n: int) -> Mixed:
    src = tmp / "notes"
    src.mkdir()
    ids, bad = [], {}
    for i in range(n):
        name = f"n{i:03d}"
        ids.append(name)
        kind = rng.random()
        path = src / f"{name}.txt"
        if kind < 0.08:
            path.write_bytes(_note(rng).encode("utf-8") + b"\xff")
            bad[name] = ("read", "decode_error")
        elif kind < 0.12:
            path.symlink_to(tmp / "missing.txt")
            bad[name] = ("read", "dangling_symlink")
        elif kind < 0.15:
            os.mkfifo(path)
            bad[name] = ("read", "not_regular_file")
        else:
            path.write_text(_note(rng), encoding="utf-8")
    return Mixed(src, ids, bad)


def make_txt(tmp: Path, rng: random.Random, n: int) -> Mixed:
    src = tmp / "one.txt"
    src.write_text(_note(rng), encoding="utf-8")
    return Mixed(src, ["one"])


def make_jsonl(tmp: Path, rng: random.Random, n: int) -> Mixed:
    lines, ids, bad = [], [], {}
    for i in range(n):
        rid = f"r{i}"
        kind = rng.random()
        if kind < 0.05:
            lines.append('{"id": "' + rid + '", "text": "Dr. Zoltan Quenwick')
            rid = f"notes-{i}"  # an unparsable line gets its positional id
            bad[rid] = ("read", "invalid_json")
        elif kind < 0.10:
            lines.append(json.dumps({"id": rid, "body": _note(rng)}))
            bad[rid] = ("read", "missing_text")
        elif kind < 0.14:
            lines.append(json.dumps({"id": rid, "text": 617555}))
            bad[rid] = ("read", "text_not_string")
        elif kind < 0.17:
            lines.append(json.dumps([rid, _note(rng)]))
            rid = f"notes-{i}"
            bad[rid] = ("read", "not_object")
        else:
            lines.append(json.dumps({"id": rid, "text": _note(rng), "by": f"Dr. {rng.choice(NAMES)}"}))
        ids.append(rid)
    src = tmp / "notes.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Mixed(src, ids, bad, ["--id-field", "id"])


def _make_table(tmp: Path, rng: random.Random, n: int, delimiter: str, suffix: str) -> Mixed:
    buf = io.StringIO(newline="")
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow(["id", "text", "by"])
    raw: list[bytes] = [buf.getvalue().encode()]
    ids, bad = [], {}
    for i in range(n):
        buf.seek(0)
        buf.truncate()
        rid = f"r{i}"
        kind = rng.random()
        if kind < 0.06:
            w.writerow([rid, _note(rng), "Dr. Alma Quill", "spill"])
            rid = f"notes-{i}"
            bad[rid] = ("read", "ragged_row")
            raw.append(buf.getvalue().encode())
        elif kind < 0.12:
            w.writerow([rid, _note(rng), "x"])
            raw.append(buf.getvalue().encode().replace(b"Seen", b"S\xe9en"))
            rid = f"notes-{i}"
            bad[rid] = ("read", "decode_error")
        else:
            w.writerow([rid, _note(rng), f"Dr. {rng.choice(NAMES)}"])
            raw.append(buf.getvalue().encode())
        ids.append(rid)
    src = tmp / f"notes.{suffix}"
    src.write_bytes(b"".join(raw))
    return Mixed(src, ids, bad, ["--id-field", "id"])


def make_csv(tmp: Path, rng: random.Random, n: int) -> Mixed:
    return _make_table(tmp, rng, n, ",", "csv")


def make_tsv(tmp: Path, rng: random.Random, n: int) -> Mixed:
    return _make_table(tmp, rng, n, "\t", "tsv")


def make_parquet(tmp: Path, rng: random.Random, n: int) -> Mixed:
    rows = [
        {"id": f"r{i}", "text": _note(rng) if i % 9 else None, "by": f"Dr. {rng.choice(NAMES)}"}
        for i in range(n)
    ]
    src = tmp / "notes.parquet"
    pq.write_table(pa.Table.from_pylist(rows), src, row_group_size=7)
    return Mixed(src, [f"r{i}" for i in range(n)], {}, ["--id-field", "id"])


def _read_output(out: Path, mixed: Mixed) -> list[tuple[str, str]]:
    """``(id, redacted note)`` of each output record, in order."""
    src = mixed.src
    if src.is_dir():
        return [(i, (out / f"{i}.txt").read_text(encoding="utf-8", errors="replace")) for i in mixed.ids]
    target = out / src.name
    if src.suffix == ".txt":
        return [(src.stem, target.read_text(encoding="utf-8"))]
    if src.suffix == ".jsonl":
        recs = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
        return [(r.get("id") or "", r.get("text") or "") for r in recs]
    if src.suffix in (".csv", ".tsv"):
        with target.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh, delimiter="\t" if src.suffix == ".tsv" else ","))[1:]
        return [(r[0], r[1]) for r in rows]
    table = pq.read_table(target).to_pylist()
    return [(r["id"], r["text"] or "") for r in table]


SHAPES = {
    "txt": make_txt,
    "dir": make_dir,
    "jsonl": make_jsonl,
    "csv": make_csv,
    "tsv": make_tsv,
    "parquet": make_parquet,
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_input_document_ends_in_the_output_or_in_errors_jsonl(
    tmp_path: Path, shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(f"nothing-lost-{shape}")
    mixed = SHAPES[shape](tmp_path, rng, 60)
    boom = _boom_ids(rng, mixed.ids, mixed.bad, 0 if shape == "txt" else 3)
    real_apply = deid_module.Deidentifier._apply

    def failing_apply(self: Deidentifier, doc, *args):  # type: ignore[no-untyped-def]
        if doc.id in boom:
            raise RuntimeError("a redaction that fails")
        return real_apply(self, doc, *args)

    monkeypatch.setattr(deid_module.Deidentifier, "_apply", failing_apply)
    out = tmp_path / "out"
    args = ["redact", str(mixed.src), "-o", str(out), "--rules-only", "--batch-size", "8", *mixed.options]
    result = CliRunner().invoke(cli, args)
    n, failed = len(mixed.ids), len(mixed.bad)
    assert result.exit_code == (1 if failed else 0), result.output
    # The summary: input = redacted + failed.
    assert f"input documents: {n} = {n - failed} redacted + {failed} failed" in result.output
    # errors.jsonl lists exactly the bad documents (id, position, stage, error; no text).
    errors = [json.loads(line) for line in (out / "errors.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {e["id"]: (e["stage"], e["error"]) for e in errors} == mixed.bad
    assert all(set(e) == {"id", "position", "stage", "error"} for e in errors)
    assert [e["position"] for e in errors] == sorted(mixed.ids.index(e["id"]) for e in errors)
    # The output: one record per input record, in order; failed ones empty, the others redacted.
    got = _read_output(out, mixed)
    assert len(got) == n
    for doc_id, (out_id, text) in zip(mixed.ids, got):
        if doc_id in mixed.bad:
            assert text == ""
        else:
            assert out_id == doc_id
            assert "[NAME]" in text or text == ""
        for marker in PHI_MARKERS:
            assert marker not in text
    print(f"\n{shape}: documents tried {n}, failed {failed} (all listed), redacted {n - failed}")


def test_nothing_lost_when_every_document_fails(tmp_path: Path) -> None:
    src = tmp_path / "notes.jsonl"
    src.write_text('not json\n[1]\n{"text": 5}\n', encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(src), "-o", str(out), "--rules-only"])
    assert result.exit_code == 1
    assert "input documents: 3 = 0 redacted + 3 failed" in result.output
    errors = [json.loads(line) for line in (out / "errors.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [e["error"] for e in errors] == ["invalid_json", "not_object", "text_not_string"]


def test_recovered_documents_are_counted_as_redacted_and_listed_as_warnings(tmp_path: Path) -> None:
    src = tmp_path / "notes"
    src.mkdir()
    rng = random.Random(3)
    for i in range(10):
        data = _note(rng).encode("utf-8")
        (src / f"n{i}.txt").write_bytes(data.replace(b"Seen", b"S\xe9en") if i % 3 == 0 else data)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["redact", str(src), "-o", str(out), "--rules-only", "--encoding-errors", "replace"]
    )
    assert result.exit_code == 0, result.output
    assert "input documents: 10 = 10 redacted + 0 failed" in result.output
    assert "warnings: 4 (decode_replaced=4)" in result.output
    warnings = [
        json.loads(line) for line in (out / "warnings.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert [w["id"] for w in warnings] == ["n0", "n3", "n6", "n9"]
    assert (out / "n3.txt").read_text(encoding="utf-8").startswith("S\ufffden by Dr. [NAME]")
