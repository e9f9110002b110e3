"""The one data model: :class:`Document` with standoff :class:`Span` annotations."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from phiscrub.errors import SpanOffsetError

__all__ = ["Document", "Span", "check_spans", "remove_overlaps", "sentence_ranges"]


@dataclass(frozen=True, order=True)
class Span:
    """A labelled half-open character range ``[start, end)`` of a document's text.

    Args:
        start: first character offset.
        end: one past the last character.
        label: PHI label (fine or coarse, see :mod:`phiscrub.labels`).
        score: confidence in ``[0, 1]``; 1.0 for gold and rules.
        source: who proposed it (``gold``, ``rule:date``, ``model``, ``lexicon`` ...).
    """

    start: int
    end: int
    label: str
    score: float = field(default=1.0, compare=False)
    source: str = field(default="gold", compare=False)

    def __post_init__(self) -> None:
        if self.start < 0 or self.end <= self.start:
            raise ValueError(f"invalid span offsets [{self.start}:{self.end}] label {self.label}")

    def __len__(self) -> int:
        return self.end - self.start

    def overlaps(self, other: Span) -> bool:
        """True when the two character ranges share at least one character."""
        return self.start < other.end and other.start < self.end

    def with_label(self, label: str) -> Span:
        """Copy of this span with another label."""
        return replace(self, label=label)

    def shifted(self, delta: int) -> Span:
        """Copy of this span moved by ``delta`` characters."""
        return replace(self, start=self.start + delta, end=self.end + delta)


@dataclass(frozen=True)
class Document:
    """A note: immutable text, standoff spans, and free metadata.

    ``doc.text[s.start:s.end]`` is the surface of every span ``s``; :meth:`validate` checks it.
    """

    id: str
    text: str
    spans: tuple[Span, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Keep spans sorted and as a tuple whatever the caller passed.
        object.__setattr__(self, "spans", tuple(sorted(self.spans, key=lambda s: (s.start, s.end, s.label))))

    def surface(self, span: Span) -> str:
        """The text covered by ``span``."""
        return self.text[span.start : span.end]

    def with_spans(self, spans: Iterable[Span]) -> Document:
        """Copy of the document with other spans (text and metadata kept)."""
        return Document(self.id, self.text, tuple(spans), dict(self.metadata))

    def validate(self) -> Document:
        """Check that every span lies inside the text; return self.

        Raises:
            SpanOffsetError: naming the document and the span offsets (never the text).
        """
        check_spans(self.id, self.text, self.spans)
        return self


def check_spans(
    doc_id: str,
    text: str,
    spans: Iterable[Span],
    surfaces: Mapping[Span, str] | None = None,
) -> None:
    """Check spans against a text: in range, non-empty, and matching ``surfaces`` when given.

    Raises:
        SpanOffsetError: for the first bad span.
    """
    n = len(text)
    for span in spans:
        if span.end > n:
            raise SpanOffsetError(doc_id, None, span.start, span.end, f"ends past the text (length {n})")
        if surfaces is not None and span in surfaces and text[span.start : span.end] != surfaces[span]:
            raise SpanOffsetError(doc_id, None, span.start, span.end, "surface does not match the text")


def remove_overlaps(spans: Iterable[Span]) -> list[Span]:
    """Greedy non-overlapping subset: longer, then higher-score, then earlier spans win."""
    chosen: list[Span] = []
    for span in sorted(spans, key=lambda s: (-(s.end - s.start), -s.score, s.start)):
        if not any(span.overlaps(c) for c in chosen):
            chosen.append(span)
    return sorted(chosen)


def sentence_ranges(doc: Document) -> list[tuple[int, int]]:
    """Sentence ranges of ``doc`` that no span crosses: the ranges of :func:`phiscrub.text.sentences`,
    with the sentences a span runs across joined (and stretched to the span), so no span is ever cut.

    The one builder behind every sentence-level corpus (the LLM path's sentence documents, few-shot
    samples); callers choose their ids, labels and metadata.
    """
    from phiscrub.text import sentences

    ranges = [list(r) for r in sentences(doc.text)]
    if not ranges:
        return []
    for span in doc.spans:
        first = next((i for i, (_, e) in enumerate(ranges) if span.start < e), len(ranges) - 1)
        last = first
        while last + 1 < len(ranges) and ranges[last + 1][0] < span.end:
            last += 1
        merged = [min(ranges[first][0], span.start), max(ranges[last][1], span.end)]
        ranges[first : last + 1] = [merged]
    return [(s, e) for s, e in ranges]
