"""No head-of-line blocking (issue 28, item 9): micro-batches, a long-note lane, a deadline.

The batcher itself with the real rule detectors (one detection for the notes of many concurrent
requests; a bad note fails only its own request), then a real ``phiscrub serve --workers 1`` with the
bundled model: short requests are answered while a long note is in flight, and the long note's
answer is the one the unsplit note gets from the Python API; a request past the deadline gets 503.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from live_server import NOTE, start_server

from phiscrub.deid import Deidentifier
from phiscrub.document import Document, Span

#: Made-up short notes.
SHORT = [
    f"Seen by Dr. Alan Grant on 0{1 + i % 9}/12/2019, MRN {4455660 + i}. Call 617-555-01{10 + i}."
    for i in range(16)
]


def long_note(chars: int) -> str:
    """A long made-up note: the synthetic note repeated, with a different MRN in each copy."""
    parts, n, i = [], 0, 0
    while n < chars:
        part = NOTE.replace("4455667", str(5_000_000 + i)) + "\n"
        parts.append(part)
        n += len(part)
        i += 1
    return "".join(parts)


@pytest.fixture(scope="module")
def rules() -> Deidentifier:
    return Deidentifier(model=None).load()


def run_all(
    batcher: Any, requests: Sequence[list[Document]], finish: Any, deadline_s: float = 60.0
) -> list[Any]:
    async def main() -> list[Any]:
        deadline = time.monotonic() + deadline_s
        return list(
            await asyncio.gather(
                *(batcher.run(docs, finish, deadline) for docs in requests), return_exceptions=True
            )
        )

    return asyncio.run(main())


def test_concurrent_small_notes_share_one_detection(rules: Deidentifier) -> None:
    from phiscrub.service.batcher import Batcher

    calls: list[int] = []

    def propose(docs: Sequence[Document]) -> list[list[Span]]:
        calls.append(len(docs))
        return rules.propose_many(docs)

    batcher = Batcher(propose, long_chars=10_000, window_s=0.05)
    docs = [Document(str(i), t) for i, t in enumerate(SHORT)]
    got = run_all(batcher, [[d] for d in docs], rules.select)
    assert got == [[spans] for spans in rules.detect_many(docs)]
    assert sum(calls) == 16 and len(calls) <= 2  # 16 requests, one or two detections
    assert batcher.batches == len(calls)
    batcher.close()


def test_a_note_that_fails_fails_only_its_own_request(rules: Deidentifier) -> None:
    from phiscrub.service.batcher import Batcher

    def propose(docs: Sequence[Document]) -> list[list[Span]]:
        if any(d.id == "bad" for d in docs):
            raise ValueError("cannot detect")
        return rules.propose_many(docs)

    batcher = Batcher(propose, long_chars=10_000, window_s=0.05)
    requests = [[Document("bad", SHORT[0])]] + [[Document(str(i), t)] for i, t in enumerate(SHORT[1:6])]
    got = run_all(batcher, requests, rules.select)
    assert isinstance(got[0], ValueError)
    assert got[1:] == [[rules.detect(d[0])] for d in requests[1:]]
    batcher.close()


def test_a_long_note_in_its_lane_gives_the_unsplit_output(rules: Deidentifier) -> None:
    from phiscrub.service.batcher import Batcher

    batcher = Batcher(rules.propose_many, long_chars=2_000, window_s=0.001)
    big = Document("big", long_note(150_000))
    short = [Document(str(i), t) for i, t in enumerate(SHORT[:4])]
    got = run_all(batcher, [[big], short], rules.select)
    assert got[0] == [rules.detect(big)]
    assert got[1] == rules.detect_many(short)
    batcher.close()


# -- a real server --------------------------------------------------------------------------------


def test_short_requests_are_answered_while_a_long_note_is_in_flight(tmp_path: Path) -> None:
    """One worker, the bundled model: a long note does not hold up the short requests behind it."""
    srv = start_server(tmp_path / "lanes.log", ["--workers", "1"])
    big = long_note(60_000)
    try:
        with srv.client() as c:
            done: dict[str, Any] = {}

            def send_long() -> None:
                r = c.post("/v1/redact", json={"text": big}, timeout=600)
                done["long"] = (r, time.monotonic())

            sender = threading.Thread(target=send_long)
            started = time.monotonic()
            sender.start()
            time.sleep(1.0)
            short: list[float] = []
            for text in SHORT[:5]:
                t0 = time.monotonic()
                r = c.post("/v1/redact", json={"text": text})
                assert r.status_code == 200
                short.append(time.monotonic() - t0)
            short_done = time.monotonic()
            # A batch with a long note and a short one keeps its order.
            both = c.post("/v1/detect", json={"notes": [{"text": SHORT[0]}, {"id": "L", "text": big[:5000]}]})
            assert [x["id"] for x in both.json()["results"]] == ["0", "L"]
            sender.join(timeout=600)
        r, long_done = done["long"]
        assert r.status_code == 200
        assert short_done < long_done, "the short requests waited for the long note"
        assert max(short) < max(3.0, (long_done - started) / 4), short
    finally:
        srv.stop()
    # The long note, detected in its lane between the short requests, is redacted as the unsplit
    # note by the Python API (same spans, scores, sources and text).
    want = Deidentifier(mode="placeholder").redact_one(Document("text", big))
    body = r.json()
    assert body["text"] == want.result.text
    assert [(s["start"], s["end"], s["label"], s["source"], s["score"]) for s in body["spans"]] == [
        (s.start, s.end, s.label, s.source, round(float(s.score), 4)) for s in want.spans
    ]


def test_a_request_past_the_deadline_gets_503_and_the_server_goes_on(tmp_path: Path) -> None:
    srv = start_server(tmp_path / "deadline.log", ["--rules-only", "--deadline", "1"])
    try:
        with srv.client() as c:
            t0 = time.monotonic()
            r = c.post("/v1/redact", json={"text": long_note(400_000)})
            assert r.status_code == 503
            assert time.monotonic() - t0 < 6.0
            assert int(r.headers["retry-after"]) >= 1
            assert r.json() == {"error": "not done within the server's deadline of 1 s"}
            # The abandoned note stops at its next detector; short notes are answered meanwhile.
            codes = []
            for _ in range(10):
                ok = c.post("/v1/redact", json={"text": NOTE})
                codes.append(ok.status_code)
                if ok.status_code == 200:
                    break
            assert codes[-1] == 200 and "[NAME]" in ok.json()["text"], codes
            assert c.get("/healthz").json()["deadline_s"] == 1.0
        assert "POST /v1/redact 503" in srv.log()
    finally:
        srv.stop()


def test_the_long_lane_pauses_while_short_notes_are_pending_for_at_most_three_times_its_run() -> None:
    from phiscrub.service.batcher import _Gate

    gate = _Gate(share=0.25, idle_s=0.05)
    time.sleep(0.06)
    gate.long_start()
    t0 = time.monotonic()
    gate.long_yield(timeout=10.0)  # the small lane is idle: no pause
    assert time.monotonic() - t0 < 0.05
    gate.small_added(3)
    gate.long_start()
    time.sleep(0.1)  # the long lane "ran" 0.1 s
    t0 = time.monotonic()
    gate.long_yield(timeout=10.0)  # short notes pending all along: pauses 3 x 0.1 s
    assert 0.25 <= time.monotonic() - t0 < 1.0
    # Short notes done: the long lane goes on once the small lane has been idle for idle_s.
    time.sleep(0.1)
    threading.Timer(0.05, gate.small_done, args=(3,)).start()
    t0 = time.monotonic()
    gate.long_yield(timeout=10.0)
    assert 0.09 <= time.monotonic() - t0 < 0.3
