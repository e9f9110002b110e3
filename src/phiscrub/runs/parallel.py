"""``redact --workers N``: batches of documents redacted in N worker processes, results in input order.

Each worker builds its own :class:`~phiscrub.deid.Deidentifier` from the parent's settings and loads
the model once. Batches are handed out as workers free up, at most ``2 * N`` in flight, so memory
stays bounded on big inputs; results come back in input order, so the output (files, standoff,
error list) is the same as with one worker. Workers are started with ``spawn`` (a fork would copy
ONNX Runtime's or torch's thread pools) and split the physical cores between them
(``$PHISCRUB_THREADS`` unless the user set it).

A worker that dies (killed, out of memory, crashed, or failing to load the model) breaks the pool:
:class:`concurrent.futures.ProcessPoolExecutor` fails every pending batch with ``BrokenProcessPool``
at once, where ``multiprocessing.Pool`` waited forever for the lost one (issue 28, item 3). That is
raised as :class:`WorkerDiedError`; the batches already yielded stay done (the run keeps them for
``--resume``). When the caller stops early (an error, Ctrl-C), the workers are terminated.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from phiscrub.deid import Deidentifier
from phiscrub.document import Document
from phiscrub.errors import PhiscrubError

__all__ = ["WorkerDiedError", "map_batches"]


class WorkerDiedError(PhiscrubError):
    """A worker process ended without returning its batch (killed, out of memory, crashed)."""


T = TypeVar("T")

_DEID: Deidentifier | None = None
_WORK: Callable[[Deidentifier, list[Document]], Any] | None = None


def _exit_with_parent(parent: int, poll_s: float = 0.5) -> None:
    """End this worker when the run that started it is gone.

    A run killed with SIGKILL (or by the OOM killer) cannot stop its workers, and they do not notice
    on their own: they waited forever, each holding its engine's memory. A thread checks every
    ``poll_s`` seconds that the parent is still the same process and ends the worker otherwise.
    """
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_s)
        os._exit(1)

    threading.Thread(target=watch, name="phiscrub-parent-watch", daemon=True).start()


def _init(
    deid: Deidentifier, work: Callable[[Deidentifier, list[Document]], Any], threads: int, parent: int
) -> None:
    global _DEID, _WORK
    _exit_with_parent(parent)
    if not os.environ.get("PHISCRUB_THREADS"):
        os.environ["PHISCRUB_THREADS"] = str(threads)
    # torch reads OMP_NUM_THREADS when a torch model imports it; importing torch here would cost
    # the ONNX path seconds of start-up and hundreds of MB per worker for nothing
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    _DEID = deid.load()
    _WORK = work


def _call(batch: list[Document]) -> Any:
    assert _DEID is not None and _WORK is not None, "worker not initialised"
    return _WORK(_DEID, batch)


def _fresh(deid: Deidentifier) -> Deidentifier:
    """An unloaded copy of ``deid`` with the same settings (what a worker loads for itself)."""
    return deid.derive()


def _one_ahead(
    deid: Deidentifier,
    work: Callable[[Deidentifier, list[Document]], T],
    batches: Iterable[tuple[Any, list[Document]]],
) -> Iterator[tuple[Any, T]]:
    """``map_batches`` in this process, reading one batch ahead: the model starts on the next batch
    (:meth:`~phiscrub.Deidentifier.prefetch`) while this one is selected, replaced and written."""
    ahead = iter(batches)
    current = next(ahead, None)
    if current is not None:
        deid.prefetch(current[1])
    while current is not None:
        following = next(ahead, None)
        if following is not None:
            deid.prefetch(following[1])
        yield current[0], work(deid, current[1])
        current = following


def map_batches(
    deid: Deidentifier,
    work: Callable[[Deidentifier, list[Document]], T],
    batches: Iterable[tuple[Any, list[Document]]],
    workers: int,
) -> Iterator[tuple[Any, T]]:
    """``(tag, work(deid, docs))`` for each ``(tag, docs)`` of ``batches``, in order.

    Args:
        deid: the loaded de-identifier (used as is with one worker; copied unloaded into each worker).
        work: a module-level function (picklable) run on each batch.
        batches: ``(tag, docs)`` pairs; the tag stays in this process and comes back with the result.
        workers: processes; 1 runs everything here.
    """
    if workers <= 1:
        yield from _one_ahead(deid, work, batches)
        return
    import multiprocessing

    from phiscrub.detect.onnx_tagger import physical_cores

    threads = max(1, physical_cores() // workers)
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=ctx, initializer=_init, initargs=(_fresh(deid), work, threads, os.getpid())
    )
    # The processes, kept here: shutdown() forgets them, and a stopped run must not leave them behind.
    processes: dict[int, Any] = {}
    finished = False
    try:
        pending: deque[tuple[Any, Future[Any]]] = deque()
        for tag, docs in batches:
            try:
                future = pool.submit(_call, docs)
            except BrokenProcessPool:
                raise _died() from None
            pending.append((tag, future))
            processes.update(getattr(pool, "_processes", None) or {})
            if len(pending) >= 2 * workers:
                head, future = pending.popleft()
                yield head, _result(future)
        while pending:
            head, future = pending.popleft()
            yield head, _result(future)
        finished = True
    finally:
        pool.shutdown(wait=finished, cancel_futures=True)
        if not finished:
            _terminate(processes.values())


def _result(future: Future[Any]) -> Any:
    """The batch's result, or :class:`WorkerDiedError` when the pool lost a worker."""
    try:
        return future.result()
    except BrokenProcessPool:
        raise _died() from None


def _died() -> WorkerDiedError:
    return WorkerDiedError(
        "a worker process ended abruptly (killed, out of memory, crashed or unable to load the "
        "model); its batch was not redacted"
    )


def _terminate(processes: Iterable[Any]) -> None:
    """Stop the workers of a run that stopped early (Ctrl-C, an error, a dead worker)."""
    alive = [p for p in processes if p.is_alive()]
    for p in alive:
        p.terminate()
    for p in alive:
        p.join(5)
        if p.is_alive():
            p.kill()
            p.join()
