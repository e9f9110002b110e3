"""Progress inside one long note: pipeline stages report counts, a front end shows them.

Redacting a note of tens of megabytes takes minutes; a per-document progress bar would sit at 0/1
the whole time. Stages that walk a long note (name propagation, the model's windows, each rule
detector) call :func:`report` with a stage name and counts (characters or windows done, of how
many). Nothing is shown unless a front end installed a callback with :func:`reporting`, as
``phiscrub redact`` does for notes of at least :data:`LONG_NOTE_CHARS` characters. Reports carry
stage names and counts only, never text.

Example:
    >>> seen = []
    >>> with reporting(lambda stage, done, total: seen.append((stage, done, total))):
    ...     report("propagate", 10, 20)
    >>> seen
    [('propagate', 10, 20)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import IO, Any

__all__ = [
    "CHUNK_CHARS",
    "LONG_NOTE_CHARS",
    "ProgressCallback",
    "StageBars",
    "report",
    "reporting",
    "stage_bars",
    "wants_progress",
]

#: ``callback(stage, done, total)``: counts only (characters, windows, detectors), never text.
ProgressCallback = Callable[[str, int, int], None]

#: Notes at least this long (characters) report progress while they are processed.
LONG_NOTE_CHARS = 1_000_000

#: Stages that walk a note report about once per this many characters.
CHUNK_CHARS = 1_000_000

_callback: ContextVar[ProgressCallback | None] = ContextVar("phiscrub_progress", default=None)
_min_chars: ContextVar[int] = ContextVar("phiscrub_progress_min_chars", default=LONG_NOTE_CHARS)


@contextmanager
def reporting(callback: ProgressCallback | None, min_chars: int | None = None) -> Iterator[None]:
    """Send the :func:`report` calls made inside the ``with`` block to ``callback``.

    Args:
        callback: receives the reports.
        min_chars: notes at least this long report (default: :data:`LONG_NOTE_CHARS`, read at the call; the service's long-note lane passes 0, so that
            every model batch and detector of its notes is a point where it can yield).
    """
    token = _callback.set(callback)
    least = _min_chars.set(LONG_NOTE_CHARS if min_chars is None else min_chars)
    try:
        yield
    finally:
        _min_chars.reset(least)
        _callback.reset(token)


def wants_progress(n_chars: int) -> bool:
    """True when a callback is installed and a note of ``n_chars`` characters is long enough."""
    return _callback.get() is not None and n_chars >= _min_chars.get()


def report(stage: str, done: int, total: int) -> None:
    """Report ``done`` of ``total`` units of ``stage`` to the installed callback (if any)."""
    callback = _callback.get()
    if callback is not None:
        callback(stage, done, total)


class StageBars:
    """A :data:`ProgressCallback` drawing one transient tqdm bar per stage (counts only).

    Args:
        file: where the bars go (stderr in the CLI).
    """

    def __init__(self, file: IO[str] | None = None) -> None:
        self.file = file
        self._bar: Any = None
        self._stage: str | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        """Show ``done`` of ``total`` for ``stage``, starting a new bar when the stage changes."""
        from tqdm import tqdm

        if self._bar is None or stage != self._stage:
            self.close()
            chars = stage == "propagate"
            self._bar = tqdm(
                desc=f"  note: {stage}",
                total=total,
                unit="char" if chars else "step",
                unit_scale=chars,
                file=self.file,
                leave=False,
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}]",
            )
            self._stage = stage
        self._bar.total = total
        self._bar.n = done
        self._bar.refresh()

    def close(self) -> None:
        """Remove the current bar, if any."""
        if self._bar is not None:
            self._bar.close()
        self._bar = None
        self._stage = None


@contextmanager
def stage_bars(file: IO[str] | None = None) -> Iterator[StageBars]:
    """Install a :class:`StageBars` callback for the ``with`` block (long notes only report)."""
    bars = StageBars(file)
    try:
        with reporting(bars):
            yield bars
    finally:
        bars.close()
