"""The resolve stage (io -> detect -> **resolve** -> transform -> rewrite): overlapping span proposals
become one non-overlapping set.

Strategies (by name, see :data:`RESOLVE_STRATEGIES`):

``merge`` (default, privacy first)
    Overlapping proposals are merged into their union, so no part of a candidate PHI string survives
    redaction. The merged span's label comes from the members that agree with the longest one on
    the span (they cover at least half of it), by evidence (:func:`evidence`): a keyword-typed rule
    (``rule:*`` with a specific label, e.g. ``MEDICALRECORD`` after "NHC:") beats the model, the
    model beats a generic rule label (``IDNUM``, ``LOCATION``: a rule's fallback when no keyword
    says which kind) and other sources (lexicon, propagation); a model speaking a corpus-native
    scheme (``--labels native``) beats every rule. Ties: longer, higher score, then the detector
    listed first.
``longest``
    Greedy: longer spans win, then higher score, then earlier start. Losers are dropped whole.
``score``
    Greedy by score, then length. Useful when detectors are calibrated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from phiscrub.document import Span, remove_overlaps
from phiscrub.errors import ConfigError
from phiscrub.labels import COARSE_LABELS, FINE_TO_COARSE

__all__ = ["GENERIC_LABELS", "RESOLVE_STRATEGIES", "evidence", "resolve"]


#: Labels a rule gives when no keyword says which kind of PHI it is (its fallback type).
GENERIC_LABELS: frozenset[str] = frozenset({"IDNUM", "ID", "LOCATION", "NAME", "OTHER"})


#: Labels rules and models share (fine and coarse); a model label outside them is corpus-native.
_SHARED_LABELS: frozenset[str] = frozenset(FINE_TO_COARSE) | frozenset(COARSE_LABELS)


def evidence(span: Span) -> int:
    """How well a span's *label* is evidenced: 2 keyword-typed rule, 1 model, 0 anything else.

    A model label of a corpus-native scheme (``FECHAS``, a BRAT corpus's own type) ranks 3: the
    rules' fine labels cannot say it.

    A rule with a specific label found it through a keyword or a checked format; a rule with a
    generic label (:data:`GENERIC_LABELS`) only knows "some identifier / some place", which the
    model, reading the context, types better. Lexicon and propagated spans carry the type of a
    list entry or of another mention, so they lose to both.
    """
    source = span.source.split("+")[0]
    if source.startswith("rule:"):
        return 0 if span.label.upper() in GENERIC_LABELS else 2
    if source.startswith("model"):
        # A model trained on a corpus's own types (--labels native) speaks a scheme no rule does.
        return 1 if span.label.upper() in _SHARED_LABELS else 3
    return 0


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
        longest = min(group, key=lambda s: (-(s.end - s.start), -s.score, rank[id(s)]))
        agree = [
            s
            for s in group
            if 2 * (min(s.end, longest.end) - max(s.start, longest.start)) >= longest.end - longest.start
        ]
        best = min(agree, key=lambda s: (-evidence(s), -(s.end - s.start), -s.score, rank[id(s)]))
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
