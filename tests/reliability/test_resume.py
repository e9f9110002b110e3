"""Crash safety of ``phiscrub redact``: SIGKILL at random points, then ``--resume`` (issue 14, 15).

The real command runs in a subprocess and is killed with ``SIGKILL`` (no handler, no cleanup) at
seeded random points: after the manifest shows k completed batches (k drawn from 0 to all of them,
the last ones landing while the output is assembled and moved into place), or after a random delay.
Each input shape is killed several times in a row, each time resumed with ``--resume``, and the final
output must be byte-identical to an uninterrupted run (files, ``phi_spans.jsonl``, ``errors.jsonl``),
with no work folder left behind. Inputs hold good and bad records, so resumed runs also replay
failures. ``pytest tests/reliability/test_resume.py -s`` prints the kill points and how they ended.
"""

from __future__ import annotations

import csv
import fcntl
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from phiscrub.runs.manifest import MANIFEST_NAME, WORK_DIR_NAME, Manifest, Part

SEED = 1414
NAMES = ("Zoltan Quenwick", "Alma Quill", "Boris Sovik", "Celia Tamber")


def _note(rng: random.Random) -> str:
    lines = [
        f"Seen by Dr. {rng.choice(NAMES)} on {rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/2019, "
        f"MRN {rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}.\r\nCall 617-555-{rng.randint(1000, 9999)}."
        for _ in range(rng.randint(1, 3))
    ]
    return "\n".join(lines) + "\n"


def make_input(folder: Path, shape: str, n: int, seed: int = SEED) -> Path:
    """``n`` records of synthetic notes in ``shape`` (dir, jsonl, csv, parquet), a few of them bad."""
    rng = random.Random(seed)
    notes = [_note(rng) for _ in range(n)]
    if shape == "dir":
        src = folder / "notes"
        (src / "sub").mkdir(parents=True)
        for i, text in enumerate(notes):
            (src / ("sub" if i % 3 == 0 else "") / f"n{i:03d}.txt").write_text(
                text, encoding="utf-8", newline=""
            )
        (src / "n050bad.txt").write_bytes(b"Zoltan \xff Quenwick\n")  # not UTF-8: a failed document
        (src / "n051empty.txt").write_bytes(b"")
        return src
    rows: list[dict[str, str | None]] = [
        {"id": f"r{i}", "text": t, "seen_by": f"Dr. {rng.choice(NAMES)}"} for i, t in enumerate(notes)
    ]
    if shape == "jsonl":
        src = folder / "notes.jsonl"
        lines = [json.dumps(r) for r in rows]
        for i, line in ((7, '{"id": "r7", "text": "broken'), (20, json.dumps({"id": "r20", "text": 42}))):
            if i < n:  # 7: invalid JSON, 20: a text that is not a string
                lines[i] = line
        src.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return src
    if shape == "csv":
        src = folder / "notes.csv"
        with src.open("w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["id", "text", "seen_by"])
            for i, r in enumerate(rows):
                w.writerow([r["id"], r["text"], r["seen_by"]] + (["extra"] if i == 11 else []))  # 11: ragged
        return src
    if shape == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        src = folder / "notes.parquet"
        rows[5]["text"] = None  # a null note
        pq.write_table(pa.Table.from_pylist(rows), src, row_group_size=16)
        return src
    raise AssertionError(shape)


def _env(key: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PHISCRUB_KEY"}
    env["OMP_NUM_THREADS"] = "1"
    if key is not None:
        env["PHISCRUB_KEY"] = key
    return env


def _sync(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """Run a command to its end (its exit status is for the test to check)."""
    return subprocess.run(args, check=False, **kwargs)


def _cmd(src: Path, out: Path, extra: list[str]) -> list[str]:
    return [sys.executable, "-m", "phiscrub.cli", "redact", str(src), "-o", str(out), "--rules-only", *extra]


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _batches_done(out: Path) -> int:
    try:
        with (out / WORK_DIR_NAME / MANIFEST_NAME).open("rb") as fh:
            return max(0, fh.read().count(b"\n") - 1)
    except OSError:
        return 0


def _kill_at(proc: subprocess.Popen[bytes], out: Path, point: tuple[str, float]) -> bool:
    """SIGKILL ``proc`` at ``point`` (``("batches", k)`` or ``("delay", seconds)``); True if it was
    still running (killed), False if it had ended first."""
    how, value = point
    deadline = time.monotonic() + 120
    if how == "delay":
        end = time.monotonic() + value
        while time.monotonic() < end and proc.poll() is None:
            time.sleep(0.005)
    else:
        while _batches_done(out) < value and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
    if proc.poll() is not None:
        return False
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    return True


def _kill_and_resume(
    src: Path, out: Path, extra: list[str], points: list[tuple[str, float]], key: str | None = None
) -> tuple[list[int], subprocess.CompletedProcess[str]]:
    """Start, kill at each point in turn (resuming after each), then resume to the end.

    Returns:
        For each run killed, the batches its manifest held when it died; and the final run.
    """
    killed = []
    for i, point in enumerate(points):
        args = _cmd(src, out, extra + (["--resume"] if i else []))
        proc = subprocess.Popen(args, env=_env(key), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if _kill_at(proc, out, point):
            killed.append(_batches_done(out))
    final = _sync(
        _cmd(src, out, [*extra, "--resume"]), env=_env(key), capture_output=True, text=True, timeout=300
    )
    return killed, final


def _points(rng: random.Random, n_batches: int, k: int) -> list[tuple[str, float]]:
    """``k`` kill points in increasing order of progress: after a number of batches (up to all of them,
    i.e. during assembly) or after a random delay."""
    targets = sorted(rng.randint(1, n_batches) for _ in range(k))
    return [
        ("delay", round(rng.uniform(0.05, 1.5), 3)) if rng.random() < 0.3 else ("batches", t) for t in targets
    ]


CASES = [
    # shape, extra options, records, key
    ("dir", ["--batch-size", "4"], 60, None),
    ("jsonl", ["--batch-size", "5", "--id-field", "id", "--mode", "surrogate"], 70, "resume-test-key"),
    ("csv", ["--batch-size", "5", "--id-field", "id"], 70, None),
    ("parquet", ["--batch-size", "5", "--id-field", "id"], 70, None),
    ("jsonl", ["--batch-size", "5", "--id-field", "id", "--workers", "2"], 40, None),
]


@pytest.mark.parametrize(
    ("shape", "extra", "n", "key"), CASES, ids=[f"{c[0]}{'-workers' * ('--workers' in c[1])}" for c in CASES]
)
def test_sigkill_at_random_points_then_resume_gives_byte_identical_output(
    tmp_path: Path, shape: str, extra: list[str], n: int, key: str | None
) -> None:
    src = make_input(tmp_path, shape, n)
    base = tmp_path / "uninterrupted"
    r = _sync(_cmd(src, base, extra), env=_env(key), capture_output=True, text=True, timeout=300)
    bad = shape != "parquet"  # the bad records fail: exit 1, listed in errors.jsonl
    assert r.returncode == int(bad), r.stderr
    expected = _files(base)
    assert bool(expected["errors.jsonl"]) == bad and expected["phi_spans.jsonl"]
    n_batches = _batches(src, extra)
    rng = random.Random(f"{SEED}-{shape}-{' '.join(extra)}")
    points = _points(rng, n_batches, 3)
    out = tmp_path / "killed"
    killed, final = _kill_and_resume(src, out, extra, points, key)
    resumed = re.search(r"(\d+) of them resumed", final.stderr)
    inputs = re.search(r"input documents: (\d+)", final.stderr)
    print(
        f"\n{shape} {' '.join(extra)}: kill points {points}; {len(killed)} runs killed, with "
        f"{killed} of {n_batches} batches in the manifest; the last resume took "
        f"{resumed.group(1) if resumed else 0} of {inputs.group(1) if inputs else '?'} documents from them"
    )
    assert final.returncode == int(bad), final.stderr
    assert _files(out) == expected  # byte-identical, and no work folder left
    assert not (out / WORK_DIR_NAME).exists()
    assert len(killed) >= 2  # the points land mid-run, not after it ended


def _batches(src: Path, extra: list[str]) -> int:
    """How many batches a run over ``src`` has (documents of the input stream, cells included)."""
    from phiscrub.io.shapes import open_source

    id_field = extra[extra.index("--id-field") + 1] if "--id-field" in extra else None
    size = int(extra[extra.index("--batch-size") + 1])
    docs = sum(1 for _ in open_source(src, id_field=id_field).documents())
    return -(-docs // size)


# -- what a resume checks ----------------------------------------------------------------------------


def _interrupted(tmp_path: Path, extra: list[str], key: str | None = None) -> tuple[Path, Path]:
    """An input and an output folder holding a run killed after 3 batches."""
    src = make_input(tmp_path, "jsonl", 40)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        _cmd(src, out, extra), env=_env(key), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    assert _kill_at(proc, out, ("batches", 3))
    assert _batches_done(out) >= 3
    return src, out


@pytest.mark.parametrize(
    ("change", "differs"),
    [
        (["--mode", "mask"], "mode"),
        (["--batch-size", "7"], "batch_size"),
        (["--key-env", "other-key"], "key"),
        (["--touch-input"], "input"),
    ],
)
def test_resume_with_other_settings_is_refused_and_keeps_the_work(
    tmp_path: Path, change: list[str], differs: str
) -> None:
    extra = ["--batch-size", "3", "--id-field", "id", "--mode", "surrogate"]
    src, out = _interrupted(tmp_path, extra, key="first-key")
    manifest_before = (out / WORK_DIR_NAME / MANIFEST_NAME).read_bytes()
    key = "first-key"
    args = list(extra)
    if change[0] == "--key-env":
        key = change[1]
    elif change[0] == "--touch-input":
        src.write_text(
            src.read_text(encoding="utf-8") + json.dumps({"id": "new", "text": "x"}) + "\n", encoding="utf-8"
        )
    elif change[0] == "--batch-size":
        args[1] = change[1]
    else:
        args += change
    r = _sync(_cmd(src, out, [*args, "--resume"]), env=_env(key), capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    assert "cannot resume" in r.stderr and differs in r.stderr
    assert "first-key" not in r.stderr and "other-key" not in r.stderr
    assert (out / WORK_DIR_NAME / MANIFEST_NAME).read_bytes() == manifest_before


def test_manifest_never_holds_the_key_or_note_text(tmp_path: Path) -> None:
    extra = ["--batch-size", "3", "--id-field", "id", "--mode", "surrogate"]
    _, out = _interrupted(tmp_path, extra, key="secret-key-value")
    manifest = (out / WORK_DIR_NAME / MANIFEST_NAME).read_text(encoding="utf-8")
    assert "secret-key-value" not in manifest
    for name in NAMES:
        assert name.split()[1] not in manifest


def test_run_without_resume_discards_the_interrupted_work(tmp_path: Path) -> None:
    extra = ["--batch-size", "3", "--id-field", "id"]
    src, out = _interrupted(tmp_path, extra)
    base = tmp_path / "base"
    _sync(_cmd(src, base, extra), env=_env(), capture_output=True, timeout=300)
    r = _sync(_cmd(src, out, extra), env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    assert "discarding the work of an interrupted run" in r.stderr
    assert "resumed" not in r.stderr
    assert _files(out) == _files(base)


def test_resume_with_nothing_to_resume_runs_from_the_start(tmp_path: Path) -> None:
    src = make_input(tmp_path, "jsonl", 12)
    out = tmp_path / "out"
    r = _sync(_cmd(src, out, ["--resume"]), env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert "input documents: 12 = 11 redacted + 1 failed" in r.stderr
    assert "resumed from" not in r.stderr


def test_resume_says_how_many_documents_it_took_from_the_interrupted_run(tmp_path: Path) -> None:
    extra = ["--batch-size", "3", "--id-field", "id"]
    src, out = _interrupted(tmp_path, extra)
    r = _sync(_cmd(src, out, [*extra, "--resume"]), env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    assert "input documents: 40 = 38 redacted + 2 failed;" in r.stderr
    assert "of them resumed from an interrupted run" in r.stderr


def test_second_run_into_a_locked_output_folder_is_refused(tmp_path: Path) -> None:
    src = make_input(tmp_path, "jsonl", 5)
    out = tmp_path / "out"
    (out / WORK_DIR_NAME).mkdir(parents=True)
    with (out / WORK_DIR_NAME / "lock").open("ab") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)  # what a live run holds
        r = _sync(_cmd(src, out, []), env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 2
    assert "another phiscrub run is writing into" in r.stderr
    assert sorted(p.name for p in out.iterdir()) == [WORK_DIR_NAME]


def _limit_file_size() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))


def test_disk_full_keeps_the_batches_done_and_resume_finishes_the_run(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    for i in range(6):
        (src / f"a{i}.txt").write_text(_note(random.Random(i)), encoding="utf-8")
    (src / "z_big.txt").write_text(_note(random.Random(9)) * 400, encoding="utf-8")  # > the file size limit
    base = tmp_path / "base"
    assert _sync(_cmd(src, base, ["--batch-size", "2"]), env=_env(), timeout=300).returncode == 0
    out = tmp_path / "out"
    r = _sync(
        _cmd(src, out, ["--batch-size", "2"]),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limit_file_size,
    )
    assert r.returncode == 3, r.stderr
    assert "EFBIG" in r.stderr and "rerun with --resume to continue" in r.stderr
    assert sorted(p.name for p in out.iterdir()) == [WORK_DIR_NAME]  # no output file placed
    assert not (out / WORK_DIR_NAME / "out").exists()
    r = _sync(
        _cmd(src, out, ["--batch-size", "2", "--resume"]),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "6 of them resumed" in r.stderr
    assert _files(out) == _files(base)


# -- the manifest itself ---------------------------------------------------------------------------


def _manifest_with(tmp_path: Path, n: int) -> Path:
    work = tmp_path / WORK_DIR_NAME
    m = Manifest.create(work, {"batch_size": 2, "fingerprint": {"input": "x"}})
    for k in range(n):
        m.add(
            2 * k,
            2 * k + 2,
            Part([(f"d{2 * k}", "a"), (f"d{2 * k + 1}", "b")], {"errors.jsonl": []}, {"documents": 2}),
        )
    m.close()
    return work


def test_manifest_keeps_every_complete_batch(tmp_path: Path) -> None:
    work = _manifest_with(tmp_path, 4)
    m = Manifest.load(work)
    assert m is not None and m.documents_done == 8
    assert [p.docs[0][0] for p in m.parts()] == ["d0", "d2", "d4", "d6"]


@pytest.mark.parametrize(
    ("damage", "kept"),
    [
        ("torn_last_line", 3),
        ("garbage_line", 2),
        ("missing_part", 1),
        ("changed_part", 2),
        ("orphan_part", 4),
        ("no_header", None),
    ],
)
def test_manifest_keeps_the_longest_durable_prefix(tmp_path: Path, damage: str, kept: int | None) -> None:
    work = _manifest_with(tmp_path, 4)
    path = work / MANIFEST_NAME
    lines = path.read_bytes().split(b"\n")[:-1]
    if damage == "torn_last_line":
        path.write_bytes(b"\n".join(lines[:-1]) + b"\n" + lines[-1][:20])
    elif damage == "garbage_line":
        path.write_bytes(b"\n".join(lines[:3] + [b'{"batch": 2, "sta', *lines[4:]]) + b"\n")
    elif damage == "missing_part":
        (work / "parts" / "000000001.json").unlink()
    elif damage == "changed_part":
        (work / "parts" / "000000002.json").write_bytes(b'{"docs": [], "logs": {}, "stats": {}}')
    elif damage == "orphan_part":  # a part written but killed before its manifest line
        (work / "parts" / "000000004.json").write_bytes(b"{}")
    elif damage == "no_header":
        path.write_bytes(b"\n".join(lines[1:]) + b"\n")
    m = Manifest.load(work)
    if kept is None:
        assert m is None
        return
    assert m is not None and len(m.batches) == kept
    # The manifest on disk now holds exactly that prefix, ready for appends.
    assert path.read_bytes().count(b"\n") == kept + 1
    m.add(2 * kept, 2 * kept + 2, Part([("x", "y")]))
    m.close()
    again = Manifest.load(work)
    assert again is not None and len(again.batches) == kept + 1


def _interrupt_after(src: Path, out: Path, extra: list[str], batches: int) -> tuple[int, str] | None:
    """Send SIGINT to a run once its manifest shows ``batches`` batches; None if it ended first."""
    proc = subprocess.Popen(
        _cmd(src, out, extra),
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell starts background jobs with SIGINT ignored, and a child inherits that: a test run
        # launched with `&` would then send a signal the run never sees. A user's Ctrl-C reaches a
        # foreground run with the default disposition, which this restores.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509 (one signal call)
    )
    deadline = time.monotonic() + 120
    while _batches_done(out) < batches and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=120)
        if proc.returncode != 130 and "Interrupted after" not in stderr:
            return None  # the signal came after the last batch: the run had finished its work
        return proc.returncode, stderr
    proc.communicate(timeout=120)
    return None


def test_ctrl_c_exits_130_keeps_the_work_and_resume_finishes(tmp_path: Path) -> None:
    src = make_input(tmp_path, "csv", 240)
    extra = ["--batch-size", "3", "--id-field", "id"]
    base = tmp_path / "base"
    _sync(_cmd(src, base, extra), env=_env(), capture_output=True, timeout=300)
    for attempt in range(5):  # a fast run may end before the poller sees it or before the signal lands
        out = tmp_path / f"out{attempt}"
        got = _interrupt_after(src, out, extra, 4)
        if got is not None:
            break
    assert got is not None, "the run always ended before it could be interrupted"
    code, stderr = got
    assert code == 130, stderr
    assert "Interrupted after" in stderr and "rerun with --resume" in stderr
    assert "Traceback" not in stderr
    assert sorted(p.name for p in out.iterdir()) == [WORK_DIR_NAME]
    r = _sync(_cmd(src, out, [*extra, "--resume"]), env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert "of them resumed from an interrupted run" in r.stderr
    assert _files(out) == _files(base)


_KILL_MID_COMMIT = """
import os, signal, sys
import phiscrub.runs.placing as r  # the renames that place the output (issue 28, item 8)
from phiscrub.cli.app import main

class _Os:
    calls = 0
    def __getattr__(self, name):
        return getattr(os, name)
    def replace(self, src, dst):
        os.replace(src, dst)
        _Os.calls += 1
        if _Os.calls == KILL_AFTER:
            os.kill(os.getpid(), signal.SIGKILL)

r.os = _Os()
sys.argv[0] = "phiscrub"
main()
"""


@pytest.mark.parametrize("kill_after", [1, 3])
def test_sigkill_while_moving_the_output_into_place_then_resume(tmp_path: Path, kill_after: int) -> None:
    """A run killed between two of the renames that move its output into OUTDIR (some files new,
    some not yet) is finished by --resume, byte-identical to an uninterrupted run."""
    src = make_input(tmp_path, "dir", 12)
    extra = ["--batch-size", "4"]
    base = tmp_path / "base"
    _sync(_cmd(src, base, extra), env=_env(), capture_output=True, timeout=300)
    out = tmp_path / "out"
    driver = [sys.executable, "-c", _KILL_MID_COMMIT.replace("KILL_AFTER", str(kill_after))]
    r = _sync([*driver, *_cmd(src, out, extra)[3:]], env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == -signal.SIGKILL, r.stderr
    moved = [p for p in out.rglob("*") if p.is_file() and WORK_DIR_NAME not in p.parts]
    assert len(moved) == kill_after  # killed part-way through the renames
    r = _sync(_cmd(src, out, [*extra, "--resume"]), env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert _files(out) == _files(base)
