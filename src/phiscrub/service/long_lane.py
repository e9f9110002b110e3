"""The service's long-note lane in a process of its own, at low CPU priority (issue 28).

A long note (over ``--long-note-chars``) spends seconds in pure-Python stages that report no
progress: the rule detectors over the whole note, the model's tokenization and windowing, decoding,
name propagation. Run in a thread of the server process, such a stage holds the GIL and a core, and
the short requests' batches slowed down several times over while it lasted, whatever the lane's
pausing at its reports (docs/benchmarks.md, "Service under load"). So the service detects and
finishes its long notes in a child process instead:

- the process is started (``spawn``) on the first long note (which waits for it to load; a request
  that gives up meanwhile leaves it loading for the next), loads its own engine from the same
  configuration as the server (:func:`~phiscrub.service.engine.load_engine`), and then serves one
  note at a time: it gets the note and a picklable :class:`Recipe` of how the request's answer is
  made, and sends back the answer. The note is detected whole, exactly as in the server process,
  so the answer is that of the unsplit note (the same as ``phiscrub redact``).
- it runs at niceness :data:`NICENESS`: while short requests keep the cores busy the long note gets
  only what they leave, and with no short requests it runs at full speed. No GIL is shared.
- when the note's request gives up (deadline, 503) the process is stopped at once and a new one is
  started for the next long note. If the process dies (e.g. killed for memory), the note's request
  fails (500) and the next long note starts a new process.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from phiscrub.document import Document
from phiscrub.service.batcher import DeadlineExceeded, Finish
from phiscrub.service.config import ServiceConfig

__all__ = ["NICENESS", "Bound", "LongLaneError", "ProcessLane", "Recipe"]

#: Niceness of the long-note process (Linux weight 15 against 1024 for the server's threads).
NICENESS = 19
#: How often the waiting lane thread checks whether the note's request gave up (seconds).
POLL_S = 0.05


class LongLaneError(RuntimeError):
    """The long-note process stopped before answering (e.g. killed for memory)."""


@dataclass(frozen=True)
class Recipe:
    """How a note's answer is made, picklable: ``make(engine, *args)`` is the note's :data:`Finish`.

    ``make`` is a module-level function (pickled by name), ``args`` picklable values.
    """

    make: Callable[..., Finish]
    args: tuple[Any, ...]


class Bound:
    """A :class:`Recipe` made with this process's engine: the :data:`Finish` the batcher calls.

    The long lane (:class:`ProcessLane`) sends the recipe to its process instead, where it is made
    with that process's engine.
    """

    def __init__(self, recipe: Recipe, engine: Any) -> None:
        self.recipe = recipe
        self._finish = recipe.make(engine, *recipe.args)

    def __call__(self, doc: Document, proposals: list[Any]) -> Any:
        return self._finish(doc, proposals)


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a :class:`LongLaneError` naming its type (no message)."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any pickling failure
        return LongLaneError(f"{type(exc).__name__} in the long-note process")
    return exc


def _serve(conn: Any, config_json: str, niceness: int) -> None:
    """The long-note process: load the engine, then answer one ``(recipe, doc)`` at a time."""
    try:
        os.nice(niceness)  # before ONNX Runtime starts its threads: they inherit it
    except OSError:
        pass
    from phiscrub.service.engine import load_engine

    engine = load_engine(ServiceConfig.from_json(config_json))
    conn.send(("ready", None))
    while True:
        try:
            recipe, doc = conn.recv()
        except (EOFError, OSError):
            return  # the server closed its end
        try:
            finish = recipe.make(engine, *recipe.args)
            reply: tuple[str, Any] = ("ok", finish(doc, engine.propose([doc])[0]))
        except Exception as exc:  # noqa: BLE001 - handed to the note's own request
            reply = ("error", _portable(exc))
        conn.send(reply)


class ProcessLane:
    """The long lane of :class:`~phiscrub.service.batcher.Batcher`, run in a child process.

    Called from the batcher's long-lane thread, one note at a time.

    Args:
        config: the server's configuration (the process builds its engine from it).
        niceness: the process's niceness.
        poll_s: how often the lane checks whether the note's request gave up.
    """

    def __init__(self, config: ServiceConfig, niceness: int = NICENESS, poll_s: float = POLL_S) -> None:
        self._config_json = config.to_json()
        self.niceness = niceness
        self.poll_s = poll_s
        self._lock = threading.Lock()
        self._proc: Any = None
        self._conn: Any = None
        self._ready = False  # the process has loaded its engine

    @property
    def pid(self) -> int | None:
        """The process id of the long-note process, while one runs."""
        proc = self._proc
        return proc.pid if proc is not None and proc.is_alive() else None

    def __call__(self, doc: Document, finish: Finish, dropped: Callable[[], bool]) -> Any:
        """The answer of ``doc``, made by the long-note process.

        Raises:
            TypeError: ``finish`` is not a :class:`Bound` (the process needs its recipe).
            DeadlineExceeded: the request gave up (``dropped()``) first; the process was stopped.
            LongLaneError: the process stopped before answering.
            Exception: what detecting or finishing the note raised in the process.
        """
        if not isinstance(finish, Bound):
            raise TypeError("the long-note process needs a Bound finish (a picklable recipe)")
        with self._lock:
            conn = self._start()
            try:
                if not self._ready:
                    # A request that gives up while the process loads leaves it loading for the next.
                    while not conn.poll(self.poll_s):
                        if dropped():
                            raise DeadlineExceeded
                    conn.recv()  # "ready"
                    self._ready = True
                conn.send((finish.recipe, doc))
                while not conn.poll(self.poll_s):
                    if dropped():
                        self._stop()
                        raise DeadlineExceeded
                status, value = conn.recv()
            except (EOFError, OSError):
                code = self._stop()
                raise LongLaneError(f"the long-note process stopped (exit code {code})") from None
        if status == "error":
            raise value
        return value

    def _start(self) -> Any:
        """The connection to a running long-note process (started now if none runs)."""
        if self._proc is not None and self._proc.is_alive():
            return self._conn
        self._stop()
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        proc = ctx.Process(
            target=_serve, args=(theirs, self._config_json, self.niceness), name="phiscrub-long", daemon=True
        )
        proc.start()
        theirs.close()
        self._proc, self._conn, self._ready = proc, ours, False
        return ours

    def _stop(self) -> int | None:
        """Stop the process (if any); its exit code."""
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            conn.close()
        if proc is None:
            return None
        if proc.is_alive():
            proc.kill()
        proc.join(timeout=10)
        return proc.exitcode  # type: ignore[no-any-return]

    def close(self) -> None:
        """Stop the long-note process (a note in the works fails)."""
        self._stop()
