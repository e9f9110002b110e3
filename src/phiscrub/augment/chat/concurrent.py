"""An ordered, bounded thread-pool map: several requests in flight, results in input order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

__all__ = ["ordered_map"]

T = TypeVar("T")
R = TypeVar("R")


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    workers: int,
    on_submit: Callable[[T], None] | None = None,
) -> Iterator[R]:
    """Yield ``fn(item)`` for every item in input order, ``workers`` at a time.

    At most ``2 * workers`` items are taken from ``items`` ahead of the one yielded, so a long (lazy)
    input is never read at once. ``on_submit`` is called (in this thread) as each item is taken.
    """
    window = max(1, 2 * workers)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending: list[Future[R]] = []
        source = iter(items)
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                try:
                    item = next(source)
                except StopIteration:
                    exhausted = True
                    break
                if on_submit is not None:
                    on_submit(item)
                pending.append(pool.submit(fn, item))
            if not pending:
                break
            yield pending.pop(0).result()
