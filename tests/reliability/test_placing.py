"""Placing a run's output as one unit (issue 28, item 8).

Run A fills OUTDIR; run B, on other notes, fails while its files are moved into OUTDIR (a rename
raising EPERM, by wrapping ``os.replace`` inside the run's placing function). OUTDIR must then be
run A's, byte for byte, and the message must say so; when putting it back fails too, the message
and ``placing/state.json`` must say exactly which files are from which run. Real CLI runs, rules only.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import phiscrub.runs.redact as runs
from phiscrub.cli.app import cli


def write_notes(folder: Path, notes: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for doc_id, text in notes.items():
        (folder / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    return folder


def snapshot(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".phiscrub-run" not in p.parts
    }


def run(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        result.output
    )
    return result.exit_code, result.output


def failing_replace(fail: Callable[[int], bool], monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make ``os.replace`` raise EPERM on the calls ``fail`` picks, while the run places its output
    (inside ``phiscrub.runs.redact._commit`` only: the batches are written as usual)."""
    real_replace, real_commit = os.replace, runs._commit
    calls: list[int] = []

    def replace(src: str | Path, dst: str | Path) -> None:
        calls.append(len(calls) + 1)
        if fail(len(calls)):
            raise PermissionError(errno.EPERM, "Operation not permitted", str(dst))
        real_replace(src, dst)

    def commit(staging: Path, out_dir: Path) -> None:
        os.replace = replace  # type: ignore[assignment]
        try:
            real_commit(staging, out_dir)
        finally:
            os.replace = real_replace

    monkeypatch.setattr(runs, "_commit", commit)
    return calls


@pytest.fixture()
def run_a(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """OUTDIR after run A (with a warnings.jsonl: a note with undecodable bytes)."""
    notes = write_notes(
        tmp_path / "a", {"n1": "Seen by Dr. Zoltan Quenwick.\n", "n2": "Call 617-555-0134.\n"}
    )
    (notes / "n3.txt").write_bytes(b"Caf\xe9 on Elm.\n")
    out = tmp_path / "out"
    code, log = run("redact", notes, "-o", out, "--rules-only", "--encoding-errors", "replace")
    assert code == 0, log
    assert (out / "warnings.jsonl").exists()
    return out, snapshot(out)


def test_a_failed_rename_puts_outdir_back_as_it_was(
    tmp_path: Path, run_a: tuple[Path, dict[str, bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, before = run_a
    notes_b = write_notes(tmp_path / "b", {"n1": "Pt Hal Brixby.\n", "n2": "MRN 0048-2231.\n", "n3": "Ok.\n"})
    calls = failing_replace(lambda k: k == 2, monkeypatch)
    code, log = run("redact", notes_b, "-o", out, "--rules-only")
    assert code == 3, log
    assert len(calls) > 2  # it failed, then undid what it had done
    assert snapshot(out) == before  # run A's files, all of them, and no file of run B
    assert "EPERM" in log and "was put back as it was before this run" in log and "--resume" in log
    assert "no output file of this run was placed" not in log
    monkeypatch.undo()
    code, log = run("redact", notes_b, "-o", out, "--rules-only", "--resume")
    assert code == 0, log
    after = snapshot(out)
    assert "Brixby" not in after["n1.txt"].decode() and "warnings.jsonl" not in after  # A's stale one gone
    assert not (out / ".phiscrub-run").exists()


def test_when_undoing_fails_too_the_message_says_which_file_is_from_which_run(
    tmp_path: Path, run_a: tuple[Path, dict[str, bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, before = run_a
    notes_b = write_notes(tmp_path / "b", {"n1": "Pt Hal Brixby.\n", "n2": "MRN 0048-2231.\n", "n3": "Ok.\n"})
    # Moves aside and in succeed up to call 6, then every rename fails (undoing included).
    failing_replace(lambda k: k >= 6, monkeypatch)
    code, log = run("redact", notes_b, "-o", out, "--rules-only")
    assert code == 3, log
    assert "MIXED" in log and "EPERM" in log
    state_file = out / ".phiscrub-run" / "placing" / "state.json"
    assert str(state_file) in log.replace("\n", "")
    state = json.loads(state_file.read_text(encoding="utf-8"))
    now = snapshot(out)
    ours, aside = state["from_this_run"], state["earlier_files_moved_aside"]
    assert ours and aside
    assert f"{len(ours)} files are from this run, {len(aside)} earlier files are missing" in log
    for rel in ours:  # what the state says is from run B is in OUTDIR and differs from A's
        assert now[rel] != before.get(rel)
    for rel in aside:  # what it says was moved aside is A's file, kept byte for byte
        assert (state_file.parent / "earlier" / rel).read_bytes() == before[rel]
    for rel, data in now.items():  # every other file of OUTDIR is still A's
        if rel not in ours:
            assert before[rel] == data
