"""Resolve step: turn overlapping span proposals into one non-overlapping set.

Strategies (by name, see :data:`RESOLVE_STRATEGIES`):

``merge`` (default, privacy first)
    Overlapping proposals are merged into their union, so no part of a candidate PHI string survives
    redaction. The merged span takes the label of its longest member (ties: higher score, then the
    detector listed first).
``longest``
    Greedy: longer spans win, then higher score, then earlier start. Losers are dropped whole.
``score``
    Greedy by score, then length. Useful when detectors are calibrated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from phiscrub.document import Span, remove_overlaps
from phiscrub.errors import ConfigError

__all__ = ["RESOLVE_STRATEGIES", "resolve"]


def _merge(spans: Sequence[Span]) -> list[Span]:
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    groups: list[list[Span]] = []
    end = -1
    for span in ordered:
        if groups and span.start < end:
            groups[-1].append(span)
            end = max(end, span.end)
        else:
            groups.append([span])
            end = span.end
    out: list[Span] = []
    rank = {id(s): i for i, s in enumerate(spans)}
    for group in groups:
        best = min(group, key=lambda s: (-(s.end - s.start), -s.score, rank[id(s)]))
        start = min(s.start for s in group)
        stop = max(s.end for s in group)
        sources = "+".join(sorted({s.source for s in group}))
        out.append(Span(start, stop, best.label, max(s.score for s in group), sources))
    return out


def _score(spans: Sequence[Span]) -> list[Span]:
    chosen: list[Span] = []
    for span in sorted(spans, key=lambda s: (-s.score, -(s.end - s.start), s.start)):
        if not any(span.overlaps(c) for c in chosen):
            chosen.append(span)
    return sorted(chosen)


RESOLVE_STRATEGIES: dict[str, Callable[[Sequence[Span]], list[Span]]] = {
    "merge": _merge,
    "longest": remove_overlaps,
    "score": _score,
}


def resolve(spans: Iterable[Span], strategy: str = "merge") -> list[Span]:
    """Return a sorted, non-overlapping span list chosen from ``spans`` by ``strategy``.

    Raises:
        ConfigError: unknown strategy name.
    """
    try:
        fn = RESOLVE_STRATEGIES[strategy]
    except KeyError:
        raise ConfigError(
            f"unknown resolve strategy {strategy!r}; known: {sorted(RESOLVE_STRATEGIES)}"
        ) from None
    # Exact duplicates (same offsets and label) from several detectors collapse first.
    unique: dict[tuple[int, int, str], Span] = {}
    for s in spans:
        k = (s.start, s.end, s.label)
        if k not in unique or s.score > unique[k].score:
            unique[k] = s
    return sorted(fn(list(unique.values())))
