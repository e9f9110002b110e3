"""A file or folder name that is not UTF-8 in an input folder (issue 28, item 5).

Such an entry is an unreadable document (``bad_filename`` in ``errors.jsonl``, id
``bad_filename-<k>``); the run goes on, ``--resume`` works, and no byte of the name (which may be
PHI, as in ``Zebulon_Quackenbush.txt``) is written into any output file or printed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli

#: Latin-1 names (not UTF-8): a file, and a folder holding a file.
BAD_FILE = b"Quackenbush_Zeb\xe9.txt"
BAD_DIR = b"Zeb\xe9_Quackenbush"
NAME_BYTES = (b"Quackenbush", b"Zeb\xe9", b"Zeb\\udce9", b"Zeb\xc3\xa9")


def make_folder(root: Path) -> Path:
    folder = root / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("Seen by Dr. Zoltan Quenwick.\n", encoding="utf-8")
    (folder / "z.txt").write_text("Nothing here.\n", encoding="utf-8")
    base = os.fsencode(folder)
    with open(os.path.join(base, BAD_FILE), "wb") as fh:
        fh.write(b"Pt Hal Brixby, MRN 99887766.\n")
    os.mkdir(os.path.join(base, BAD_DIR))
    with open(os.path.join(base, BAD_DIR, b"visit.txt"), "wb") as fh:
        fh.write(b"Pt Hal Brixby again.\n")
    return folder


def run(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        result.output
    )
    return result.exit_code, result.output


def assert_no_name_bytes(out: Path, log: str) -> None:
    for dirpath, dirnames, filenames in os.walk(os.fsencode(out)):
        for name in dirnames + filenames:
            assert not any(b in name for b in NAME_BYTES), name
        for name in filenames:
            with open(os.path.join(dirpath, name), "rb") as fh:
                data = fh.read()
            assert not any(b in data for b in NAME_BYTES), name
    assert "Quackenbush" not in log and "Zeb" not in log


def test_a_non_utf8_name_is_an_unreadable_entry_and_the_run_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, log = run("redact", make_folder(tmp_path), "-o", out, "--rules-only")
    assert code == 1, log  # some documents failed, the others were redacted
    assert "Quenwick" not in (out / "a.txt").read_text(encoding="utf-8")
    assert (out / "z.txt").read_text(encoding="utf-8") == "Nothing here.\n"
    rows = [json.loads(line) for line in (out / "errors.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {(r["id"], r["error"]) for r in rows} == {
        ("bad_filename-1", "bad_filename"),
        ("bad_filename-2", "bad_filename"),
    }
    assert_no_name_bytes(out, log)


def test_a_run_with_a_non_utf8_name_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import phiscrub.runs.redact as runs

    folder, out = make_folder(tmp_path), tmp_path / "out"
    commit = runs._commit

    def fail(staging: Path, out_dir: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(runs, "_commit", fail)
    code, log = run("redact", folder, "-o", out, "--rules-only", "--batch-size", "1")
    assert code != 0 and "--resume" in log, log
    monkeypatch.setattr(runs, "_commit", commit)
    code, log2 = run("redact", folder, "-o", out, "--rules-only", "--batch-size", "1", "--resume")
    assert code == 1, log2
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "errors.jsonl", "phi_spans.jsonl", "z.txt"]
    assert (out / "errors.jsonl").read_text(encoding="utf-8").count('"bad_filename"') == 2
    assert_no_name_bytes(out, log + log2)
