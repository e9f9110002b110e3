"""``redact --workers N`` when a worker dies, and the counts of a stopped run (issue 28, item 3).

A real run (rules only, 2 workers) on a CSV whose second column is redacted as a cell document of
its record; the test finds the worker processes among the children of the CLI process (in
``/proc``) and kills one with SIGKILL, as the kernel's OOM killer would. ``multiprocessing.Pool``
never learned that the dead worker's batch was lost: the run waited forever. It must now stop with
status 3 and a message without note text, keep the batches done, and ``--resume`` must finish with
the same output as a run that was never stopped.

The message of a stopped run counts records twice, the documents seen and those kept; both must be
records (a cell used to be counted as a document of its own in the second: "Interrupted after 360
documents: ... the 720 documents done").
"""

from __future__ import annotations

import csv
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from phiscrub.runs.manifest import MANIFEST_NAME, WORK_DIR_NAME, Manifest
from procs import spawned_children

# Made-up people only.
NAMES = ("Zoltan Quenwick", "Alma Quill", "Boris Sovik", "Celia Tamber")
RECORDS = 3000


def _input(folder: Path) -> Path:
    rng = random.Random(28)
    src = folder / "notes.csv"
    with src.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "text", "seen_by"])
        for i in range(RECORDS):
            text = (
                f"Seen by Dr. {rng.choice(NAMES)} on {rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/2019, "
                f"MRN {rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}. Call 617-555-{rng.randint(1000, 9999)}."
            )
            w.writerow([f"r{i}", text, f"Dr. {rng.choice(NAMES)}"])
    return src


def _cmd(src: Path, out: Path, *extra: str) -> list[str]:
    args = ["redact", str(src), "-o", str(out), "--rules-only", "--id-field", "id", "--batch-size", "5"]
    return [sys.executable, "-m", "phiscrub.cli", *args, *extra]


def _env() -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k != "PHISCRUB_KEY"}, "OMP_NUM_THREADS": "1"}


def _batches_done(out: Path) -> int:
    try:
        return max(0, (out / WORK_DIR_NAME / MANIFEST_NAME).read_bytes().count(b"\n") - 1)
    except OSError:
        return 0


def _workers(pid: int) -> list[int]:
    """The ``multiprocessing`` spawn workers among the children of ``pid`` (not its resource tracker)."""
    return sorted(spawned_children(pid))


def _wait_for(check: object, proc: subprocess.Popen[str], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not check() and proc.poll() is None and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.005)


def _counts(stderr: str) -> tuple[int, int]:
    """(documents seen, documents kept) as the stop message gives them."""
    seen = re.search(r"(?:Interrupted after|stopped after) (\d+) documents", stderr)
    kept = re.search(r"the (\d+) documents done are kept", stderr)
    assert seen and kept, stderr[-2000:]
    return int(seen[1]), int(kept[1])


def _kept_records(out: Path) -> int:
    manifest = Manifest.load(out / WORK_DIR_NAME)
    assert manifest is not None
    return sum(rec.records for rec in manifest.batches)


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _start_two_workers(src: Path, out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        _cmd(src, out, "--workers", "2"),
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _running_workers(proc: subprocess.Popen[str], out: Path) -> list[int]:
    """The two workers of ``proc``, once three batches are done (the run still going)."""
    _wait_for(lambda: _batches_done(out) >= 3 and len(_workers(proc.pid)) == 2, proc)
    workers = _workers(proc.pid)
    assert proc.poll() is None and len(workers) == 2, "the run ended before its workers were seen"
    return workers


def test_a_killed_worker_stops_the_run_with_status_3_and_resume_finishes(tmp_path: Path) -> None:
    src = _input(tmp_path)
    base = tmp_path / "base"
    done = subprocess.run(
        _cmd(src, base), env=_env(), capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = tmp_path / "out"
    proc = _start_two_workers(src, out)
    try:
        workers = _running_workers(proc, out)
        os.kill(workers[0], signal.SIGKILL)
        _, stderr = proc.communicate(timeout=60)  # used to hang here forever
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 3, stderr[-2000:]
    assert "worker process ended abruptly" in stderr and "rerun with --resume" in stderr
    assert "Traceback" not in stderr and not any(name in stderr for name in NAMES)
    seen, kept = _counts(stderr)
    assert seen == kept == _kept_records(out) > 0
    assert not _workers(proc.pid)  # no worker left behind
    assert sorted(p.name for p in out.iterdir()) == [WORK_DIR_NAME]
    again = subprocess.run(
        _cmd(src, out, "--workers", "2", "--resume"),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert again.returncode == 0, again.stderr[-2000:]
    assert _files(out) == _files(base)


def test_ctrl_c_counts_records_in_both_numbers(tmp_path: Path) -> None:
    src = _input(tmp_path)
    out = tmp_path / "out"
    proc = subprocess.Popen(
        _cmd(src, out),
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A background test run inherits SIGINT ignored; a user's Ctrl-C meets the default handler.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509 (one signal call)
    )
    try:
        _wait_for(lambda: _batches_done(out) >= 4, proc)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, stderr[-2000:]
    seen, kept = _counts(stderr)
    assert seen == kept == _kept_records(out) > 0


def test_workers_end_when_the_run_is_killed(tmp_path: Path) -> None:
    """A run killed with SIGKILL (the OOM killer) leaves no worker behind: they used to wait forever,
    orphaned, each holding its engine."""
    src = _input(tmp_path)
    out = tmp_path / "out"
    proc = _start_two_workers(src, out)
    workers: list[int] = []
    try:
        workers = _running_workers(proc, out)
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
        deadline = time.monotonic() + 20
        while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        alive = [w for w in workers if Path(f"/proc/{w}").exists()]
        assert not alive, f"{len(alive)} orphaned workers still running"
    finally:
        for w in workers:
            try:
                os.kill(w, signal.SIGKILL)
            except ProcessLookupError:
                pass
