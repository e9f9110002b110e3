"""Micro-batching of concurrent requests, and a lane of its own for long notes.

The notes of all requests in flight in one worker process go through two lanes:

- **small lane** (notes of at most ``long_chars`` characters): the notes of concurrent requests are
  gathered for a few milliseconds (or until :data:`MAX_DOCS` notes or :data:`MAX_CHARS` characters)
  and detected with one ``propose`` call, so many small notes share one model run; each note is
  then finished (policy, replacement) by its own request's function. One worker thread.
- **long lane** (longer notes): one note at a time, detected whole. The service runs this lane in a
  process of its own at low CPU priority (``long_lane``, :mod:`phiscrub.service.long_lane`): in a
  thread of the server, the long note's pure-Python stages (rules over the whole note, the model's
  tokenization, decoding), which report no progress, held the GIL and slowed the small batches
  down several times over. Without ``long_lane`` it runs in a second thread, as follows. It never
  holds up the small lane: the small lane never waits for it, and the pipeline reports progress at
  every model batch and every detector (:mod:`phiscrub.progress`), where the long lane yields. At
  each report, unless the small lane has been idle for :data:`IDLE_S`, it pauses until it has
  been, or until it has paused three times as long as it ran since its last pause: under a steady stream of small
  requests the long note gets at most :data:`LONG_SHARE` of the time (and still progresses); with
  no small notes it runs at full speed. Since the long note is detected as one document, exactly as
  ``phiscrub redact`` would, its output is that of the unsplit note; only the timing changes.

Every request has a deadline: notes whose request gave up are skipped (a long note stops at its next
report), and :meth:`Batcher.run` raises :class:`DeadlineExceeded`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.progress import reporting

__all__ = [
    "IDLE_S",
    "LONG_SHARE",
    "MAX_CHARS",
    "MAX_DOCS",
    "WINDOW_S",
    "Batcher",
    "DeadlineExceeded",
    "Finish",
    "LongLane",
    "Propose",
]

#: ``propose(docs)``: every detector's proposals for a batch (one model run).
Propose = Callable[[Sequence[Document]], list[list[Span]]]
#: ``finish(doc, proposals)``: a note's answer (runs in a lane's thread).
Finish = Callable[[Document, list[Span]], Any]
#: ``long_lane(doc, finish, dropped)``: a long note's answer, made elsewhere (e.g. in a process of its
#: own, :mod:`phiscrub.service.long_lane`); gives up when ``dropped()`` turns true. Has ``close()``.
LongLane = Callable[[Document, Finish, Callable[[], bool]], Any]

#: How long the first note of a batch waits for others to join it (seconds).
WINDOW_S = 0.004
#: Most notes in one small-lane batch.
MAX_DOCS = 64
#: A small-lane batch takes no more notes once it holds this many characters.
MAX_CHARS = 48_000
#: The most of the time the long lane takes while small notes wait.
LONG_SHARE = 0.25
#: The small lane counts as idle once it had no note for this long (seconds): the clients whose
#: answers just went out are about to send their next requests.
IDLE_S = 0.05


class DeadlineExceeded(Exception):
    """A request's deadline passed before all its notes were done."""


class _Abandoned(Exception):
    """Raised inside the long lane when its note's request has given up."""


@dataclass(eq=False)
class _Job:
    """One note of one request."""

    doc: Document
    finish: Finish
    deadline: float  # time.monotonic()
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop
    enqueued: float = field(default_factory=time.monotonic)
    given_up: bool = False

    def dropped(self) -> bool:
        """Whether nobody waits for this note any more."""
        return self.given_up or time.monotonic() >= self.deadline

    def settle(self, value: Any = None, error: BaseException | None = None) -> None:
        """Hand the answer (or the error) to the waiting request, from any thread."""

        def done() -> None:
            if self.future.done():
                return
            if error is not None:
                self.future.set_exception(error)
            else:
                self.future.set_result(value)

        self.loop.call_soon_threadsafe(done)


class _Gate:
    """The small lane's right of way: the long lane pauses at its reports while small notes wait.

    Args:
        share: the most of the time the long lane runs while small notes are pending.
    """

    def __init__(self, share: float = LONG_SHARE, idle_s: float = IDLE_S) -> None:
        self._cond = threading.Condition()
        self._pending = 0  # small notes queued or running
        self._ratio = (1.0 - share) / share
        self._idle_s = idle_s
        self._resumed = self._idle_since = time.monotonic()

    def small_added(self, n: int) -> None:
        with self._cond:
            self._pending += n

    def small_done(self, n: int) -> None:
        with self._cond:
            self._pending -= n
            if self._pending == 0:
                self._idle_since = time.monotonic()
                self._cond.notify_all()

    def long_start(self) -> None:
        with self._cond:
            self._resumed = time.monotonic()

    def long_yield(self, timeout: float) -> None:
        """Pause until the small lane is idle (no note for :data:`IDLE_S`), at most ``ratio`` times
        the time run since the last pause (and at most ``timeout`` s)."""
        with self._cond:
            now = time.monotonic()
            until = now + min(max(0.0, timeout), (now - self._resumed) * self._ratio)
            while now < until:
                if self._pending == 0:
                    idle = now - self._idle_since
                    if idle >= self._idle_s:
                        break
                    self._cond.wait(min(until - now, self._idle_s - idle))
                else:
                    self._cond.wait(until - now)
                now = time.monotonic()
            self._resumed = time.monotonic()


class Batcher:
    """Run the notes of concurrent requests in the two lanes (module doc).

    Args:
        propose: the detection of a batch of notes (thread-safe).
        long_chars: notes longer than this go to the long lane.
        window_s: how long a batch waits for more notes.
        max_docs: most notes in one small batch.
        max_chars: a small batch takes no more notes past this many characters.
        long_lane: runs the long notes instead of a thread of this process (the service runs them
            in a process of its own, :class:`~phiscrub.service.long_lane.ProcessLane`); None: the
            long lane is a thread here that yields to the small lane at every progress report.
    """

    def __init__(
        self,
        propose: Propose,
        long_chars: int,
        window_s: float = WINDOW_S,
        max_docs: int = MAX_DOCS,
        max_chars: int = MAX_CHARS,
        long_lane: LongLane | None = None,
    ) -> None:
        self._propose = propose
        self._long_lane = long_lane
        self.long_chars = long_chars
        self.window_s = window_s
        self.max_docs = max_docs
        self.max_chars = max_chars
        self._gate = _Gate()
        self._small = ThreadPoolExecutor(1, thread_name_prefix="phiscrub-small")
        self._long = ThreadPoolExecutor(1, thread_name_prefix="phiscrub-long")
        self._queue: asyncio.Queue[_Job] | None = None
        self._task: asyncio.Task[None] | None = None
        #: Small batches run so far, and the notes in them (counts, for tests and the curious).
        self.batches = 0
        self.batched_docs = 0

    async def run(self, docs: Sequence[Document], finish: Finish, deadline: float) -> list[Any]:
        """The answers of ``docs`` (``finish`` of each), in order.

        Args:
            docs: the notes of one request.
            finish: turns a note and its proposals into its answer (runs in a lane's thread).
            deadline: ``time.monotonic()`` by which the answers are due.

        Raises:
            DeadlineExceeded: the deadline passed first (unstarted notes are skipped).
            Exception: what ``propose`` or ``finish`` raised for one of the notes.
        """
        loop = asyncio.get_running_loop()
        queue = self._start(loop)
        jobs = [_Job(doc, finish, deadline, loop.create_future(), loop) for doc in docs]
        small = [j for j in jobs if len(j.doc.text) <= self.long_chars]
        self._gate.small_added(len(small))
        for job in jobs:
            if len(job.doc.text) > self.long_chars:
                loop.run_in_executor(self._long, self._run_long, job)
            else:
                queue.put_nowait(job)
        try:
            return await asyncio.wait_for(
                asyncio.gather(*(j.future for j in jobs)), timeout=max(0.0, deadline - time.monotonic())
            )
        except asyncio.TimeoutError:
            raise DeadlineExceeded from None
        finally:
            for job in jobs:
                job.given_up = True

    def _start(self, loop: asyncio.AbstractEventLoop) -> asyncio.Queue[_Job]:
        if self._queue is None or self._task is None or self._task.get_loop() is not loop:
            self._queue = asyncio.Queue()
            self._task = loop.create_task(self._small_loop(self._queue))
        return self._queue

    async def _small_loop(self, queue: asyncio.Queue[_Job]) -> None:
        """Gather the queued small notes into batches and run them, one batch at a time."""
        loop = asyncio.get_running_loop()
        while True:
            first = await queue.get()
            wait = first.enqueued + self.window_s - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)  # let the notes of concurrent requests join
            batch, chars = [first], len(first.doc.text)
            while len(batch) < self.max_docs and chars < self.max_chars and not queue.empty():
                job = queue.get_nowait()
                batch.append(job)
                chars += len(job.doc.text)
            live = [j for j in batch if not j.dropped()]
            self._gate.small_done(len(batch) - len(live))
            if live:
                await loop.run_in_executor(self._small, self._run_small, live)

    def _run_small(self, batch: list[_Job]) -> None:
        """One small batch: one ``propose`` for all its notes, then each note's ``finish``."""
        try:
            self.batches += 1
            self.batched_docs += len(batch)
            try:
                found: list[list[Span]] | None = self._propose([j.doc for j in batch])
            except Exception:  # noqa: BLE001 - one bad note must not fail the other requests' notes
                found = None
            for k, job in enumerate(batch):
                try:
                    spans = found[k] if found is not None else self._propose([job.doc])[0]
                    job.settle(job.finish(job.doc, spans))
                except Exception as exc:  # noqa: BLE001 - handed to the note's own request
                    job.settle(error=exc)
        finally:
            self._gate.small_done(len(batch))

    def _run_long(self, job: _Job) -> None:
        """One long note, whole: in :attr:`_long_lane`, or here yielding to the small lane at every
        progress report."""
        if job.dropped():
            return
        if self._long_lane is not None:
            try:
                job.settle(self._long_lane(job.doc, job.finish, job.dropped))
            except Exception as exc:  # noqa: BLE001 - handed to the note's own request
                job.settle(error=exc)
            return

        def yield_to_small(stage: str, done: int, total: int) -> None:
            self._gate.long_yield(job.deadline - time.monotonic())
            if job.dropped():
                raise _Abandoned

        self._gate.long_start()
        try:
            with reporting(yield_to_small, min_chars=0):
                spans = self._propose([job.doc])[0]
                job.settle(job.finish(job.doc, spans))
        except _Abandoned:
            return
        except Exception as exc:  # noqa: BLE001 - handed to the note's own request
            job.settle(error=exc)

    def close(self) -> None:
        """Stop the lanes' threads (after their current work)."""
        if self._task is not None:
            self._task.cancel()
        self._small.shutdown(wait=False, cancel_futures=True)
        self._long.shutdown(wait=False, cancel_futures=True)
        close = getattr(self._long_lane, "close", None)
        if close is not None:
            close()
