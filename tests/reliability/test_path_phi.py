"""PHI in file names and metadata (issue 28, item 6): ``--rename-outputs``, the ``path_phi``
warning, and Parquet key-value metadata. Real CLI runs (rules only) on invented names.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli

NAME = "Zebulon_Quackenbush_MRN99887766"
NAME_BITS = ("Zebulon", "Quackenbush", "99887766")
SECRET = "correct horse battery staple 7"


def run(*args: str | Path, key: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], env={"PHISCRUB_KEY": key})
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        result.output
    )
    return result.exit_code, result.output


def folder(root: Path) -> Path:
    src = root / "in"
    (src / NAME).mkdir(parents=True)
    (src / NAME / "visit.txt").write_text("Seen by Dr. Zoltan Quenwick on 03/12/2019.\n", encoding="utf-8")
    (src / "progress_note.txt").write_text("Nothing here.\n", encoding="utf-8")
    (src / "Hal_Brixby.txt").write_bytes(b"Caf\xe9.\n")  # fails to decode: listed in errors.jsonl
    return src


def everything(out: Path) -> str:
    """Every path and every byte under ``out`` (the work folder included), as text."""
    parts = []
    for p in sorted(out.rglob("*")):
        parts.append(p.relative_to(out).as_posix())
        if p.is_file():
            parts.append(p.read_bytes().decode("utf-8", "replace"))
    return "\n".join(parts)


def test_names_that_look_like_phi_are_warned_about_without_being_repeated(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    code, log = run("redact", folder(tmp_path), "-o", tmp_path / "out", "--rules-only")
    assert code == 1, log  # the undecodable note failed
    warnings = [r.getMessage() for r in caplog.records if "path_phi" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].startswith(
        "[path_phi] 2 input file or folder names look like PHI"
    )
    assert not any(bit in warnings[0] for bit in (*NAME_BITS, "Brixby"))


def test_plain_names_get_no_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    src = tmp_path / "in"
    src.mkdir()
    for name in ("progress_note", "Discharge_Summary", "History-And-Physical", "2019-03"):
        (src / f"{name}.txt").write_text("Nothing here.\n", encoding="utf-8")
    code, log = run("redact", src, "-o", tmp_path / "out", "--rules-only")
    assert code == 0, log
    assert "path_phi" not in caplog.text


@pytest.mark.parametrize("scheme", ["positional", "hash"])
def test_rename_outputs_leaves_no_input_name_anywhere(
    tmp_path: Path, scheme: str, caplog: pytest.LogCaptureFixture
) -> None:
    out, names = tmp_path / "out", tmp_path / "private" / "names.jsonl"
    code, log = run(
        "redact", folder(tmp_path), "-o", out, "--rules-only", "--rename-outputs", scheme, key=SECRET
    )
    assert code == 1, log
    found = everything(out) + log + caplog.text
    assert not any(bit in found for bit in (*NAME_BITS, "Brixby", "visit", "progress")), found
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 5 and "errors.jsonl" in files and "phi_spans.jsonl" in files
    if scheme == "positional":
        assert files[:3] == ["000001.txt", "000002.txt", "000003.txt"]
    assert not names.exists()  # no map unless asked
    # The same run with a map: the map links new names to the input's, and is private.
    code, _ = run(
        "redact", folder(tmp_path / "again"), "-o", tmp_path / "out2", "--rules-only",
        "--rename-outputs", scheme, "--rename-map", names, key=SECRET,
    )  # fmt: skip
    assert code == 1
    rows = [json.loads(line) for line in names.read_text(encoding="utf-8").splitlines()]
    assert {r["input"] for r in rows} == {f"{NAME}/visit.txt", "progress_note.txt", "Hal_Brixby.txt"}
    assert {r["output"] for r in rows} == {p.name for p in (tmp_path / "out2").glob("*.txt")}
    assert stat.S_IMODE(names.stat().st_mode) == 0o600
    if scheme == "hash":  # keyed: the same secret gives the same names
        assert sorted(p.name for p in (tmp_path / "out2").glob("*.txt")) == files[:3]


def test_hash_names_need_a_secret(tmp_path: Path) -> None:
    code, log = run(
        "redact", folder(tmp_path), "-o", tmp_path / "out", "--rules-only", "--rename-outputs", "hash"
    )
    assert code == 2 and "needs a secret" in log


def test_a_renamed_jsonl_run_is_reidentified(tmp_path: Path) -> None:
    src = tmp_path / f"{NAME}.jsonl"
    notes = ["Seen by Dr. Zoltan Quenwick.", "Call 617-555-0134."]
    src.write_text("".join(json.dumps({"text": t}) + "\n" for t in notes), encoding="utf-8")
    out, vault, back = tmp_path / "out", tmp_path / "v", tmp_path / "back"
    code, log = run(
        "redact",
        src,
        "-o",
        out,
        "--rules-only",
        "--rename-outputs",
        "positional",
        "--vault",
        vault,
        key=SECRET,
    )
    assert code == 0, log
    assert sorted(p.name for p in out.iterdir()) == ["errors.jsonl", "output.jsonl", "phi_spans.jsonl"]
    assert not any(bit in everything(out) + log for bit in NAME_BITS)
    ids = {json.loads(line)["doc_id"] for line in (out / "phi_spans.jsonl").read_text().splitlines()}
    assert ids == {"output-0", "output-1"}
    code, log = run("reidentify", out, "-o", back, "--vault", vault, key=SECRET)
    assert code == 0, log
    assert [json.loads(line)["text"] for line in (back / "output.jsonl").read_text().splitlines()] == notes


def test_parquet_free_text_metadata_is_dropped(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import pandas as pd

    frame = pd.DataFrame({"text": ["Seen by Dr. Zoltan Quenwick."], "n": [1]})
    table = pa.Table.from_pandas(frame, preserve_index=False)
    fields = [
        table.schema.field(0).with_metadata({"note": "patient Zebulon Quackenbush"}),
        table.schema.field(1),
    ]
    schema = pa.schema(fields, metadata={**table.schema.metadata, b"source": b"MRN 99887766 export"})
    src = tmp_path / "notes.parquet"
    pq.write_table(table.cast(schema), src)
    assert pq.read_schema(src).metadata[b"source"]  # the input does carry it
    out = tmp_path / "out"
    code, log = run("redact", src, "-o", out, "--rules-only", "--keep-columns", "n")
    assert code == 0, log
    written = pq.read_schema(out / "notes.parquet")
    assert set(written.metadata or {}) <= {b"pandas", b"ARROW:schema"}
    assert not written.field("text").metadata
    raw = (out / "notes.parquet").read_bytes()
    assert not any(bit.encode() in raw for bit in NAME_BITS)
    assert pq.read_table(out / "notes.parquet").to_pandas()["n"].tolist() == [1]  # pandas still reads it
