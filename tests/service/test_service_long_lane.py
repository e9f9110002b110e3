"""The long-note lane runs in a process of its own at low CPU priority (issue 28, item 9).

In a thread of the server, a long note's pure-Python stages held the GIL and slowed the short
requests' batches down several times over (docs/benchmarks.md, "Service under load"). A real
``phiscrub serve --workers 1 --rules-only`` on loopback: the long note is answered by a child
process at niceness 19 (the same answer as the Python API), the process is stopped when its
request passes the deadline, and a process that dies fails only its own request.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from live_server import NOTE, start_server
from test_service_batching import long_note

from phiscrub.deid import Deidentifier
from phiscrub.document import Document
from procs import spawned_children

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")


def children(pid: int) -> dict[int, int]:
    """The long-note processes (``multiprocessing`` spawned children) of ``pid``: niceness by id."""
    return spawned_children(pid, zombies=False)


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def wait_for(check: Any, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    return check()


def test_a_long_note_is_answered_by_a_low_priority_process_of_its_own(tmp_path: Path) -> None:
    srv = start_server(tmp_path / "proc.log", ["--workers", "1", "--rules-only", "--long-note-chars", "2000"])
    try:
        assert children(srv.proc.pid) == {}  # started on the first long note, not before
        text = long_note(20_000)
        with srv.client() as c:
            r = c.post("/v1/redact", json={"text": text, "mode": "mask"})
            assert r.status_code == 200
            kids = children(srv.proc.pid)
            assert list(kids.values()) == [19], kids
            # Short notes stay in the server process; the next long note goes to the same process.
            assert c.post("/v1/redact", json={"text": NOTE}).status_code == 200
            assert c.post("/v1/detect", json={"text": text}).status_code == 200
            assert children(srv.proc.pid) == kids
        want = Deidentifier(model=None, mode="mask").redact_one(Document("text", text))
        body = r.json()
        assert body["text"] == want.result.text
        assert [(s["start"], s["end"], s["label"]) for s in body["spans"]] == [
            (s.start, s.end, s.label) for s in want.spans
        ]
    finally:
        srv.stop()
    assert wait_for(lambda: not any(alive(p) for p in kids), 20.0), (
        "the long-note process outlived the server"
    )


def test_the_process_of_a_long_note_past_its_deadline_is_stopped(tmp_path: Path) -> None:
    args = ["--workers", "1", "--rules-only", "--long-note-chars", "2000", "--deadline", "1"]
    srv = start_server(tmp_path / "deadline.log", args)
    try:
        with srv.client() as c:
            # The first long notes may pass the deadline while the process loads; that leaves it
            # loading (it is not stopped), so a later one is answered.
            # The process runs at niceness 19: on a busy machine its loading may take a while.
            codes: list[int] = []
            give_up = time.monotonic() + 240
            while time.monotonic() < give_up and 200 not in codes:
                codes.append(c.post("/v1/redact", json={"text": long_note(5_000)}).status_code)
            assert codes[-1] == 200 and set(codes) <= {200, 503}, codes
            (first,) = children(srv.proc.pid)
            r = c.post("/v1/redact", json={"text": long_note(400_000)})
            assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1
            # The abandoned note's process is stopped (not left detecting), short notes go on, and
            # the next long note gets a new process.
            assert wait_for(lambda: not alive(first), 10.0), "the abandoned note's process still runs"
            assert c.post("/v1/redact", json={"text": NOTE}).status_code == 200
            c.post("/v1/redact", json={"text": long_note(5_000)})
            assert set(children(srv.proc.pid)) - {first}
    finally:
        srv.stop()


def test_a_long_note_process_that_dies_fails_only_its_own_request(tmp_path: Path) -> None:
    args = ["--workers", "1", "--rules-only", "--long-note-chars", "2000", "--max-body-bytes", "8000000"]
    srv = start_server(tmp_path / "died.log", args)
    try:
        with srv.client() as c:
            assert c.post("/v1/redact", json={"text": long_note(5_000)}).status_code == 200
            (first,) = children(srv.proc.pid)
            done: dict[str, Any] = {}

            def send_big() -> None:
                done["big"] = c.post("/v1/redact", json={"text": long_note(3_000_000)}, timeout=300)

            sender = threading.Thread(target=send_big)
            sender.start()
            time.sleep(1.0)  # the big note is in the works
            os.kill(first, signal.SIGKILL)  # e.g. the kernel's OOM killer
            sender.join(timeout=300)
            assert done["big"].status_code == 500
            assert done["big"].json() == {"error": "internal server error"}
            assert c.post("/v1/redact", json={"text": NOTE}).status_code == 200
            r = c.post("/v1/redact", json={"text": long_note(5_000)})
            assert r.status_code == 200 and "[NAME]" in r.json()["text"]
            assert set(children(srv.proc.pid)) - {first}
        assert "failed: LongLaneError" in srv.log()  # the type only, as for any error
    finally:
        srv.stop()


def test_each_of_two_workers_answers_long_notes_through_a_process_of_its_own(tmp_path: Path) -> None:
    args = ["--workers", "2", "--rules-only", "--long-note-chars", "2000"]
    srv = start_server(tmp_path / "two.log", args)
    text = long_note(8_000)
    want = Deidentifier(model=None).redact_one(Document("text", text)).result.text
    try:
        for _ in range(4):  # new connections: both workers get some
            with srv.client() as c:
                r = c.post("/v1/redact", json={"text": text})
                assert r.status_code == 200 and r.json()["text"] == want
    finally:
        srv.stop()
