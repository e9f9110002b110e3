"""Builders of synthetic gold/predicted documents for the evaluate tests (made-up PHI only)."""

from __future__ import annotations

from phiscrub.document import Document, Span


def make_doc(doc_id: str, text: str, *annotations: tuple[str, str]) -> Document:
    """A document whose spans are located by surface, left to right.

    Args:
        doc_id: document id.
        text: synthetic note text.
        annotations: ``(surface, label)`` pairs in text order; each surface is searched after the
            start of the previous one, so a repeated surface gets its next occurrence.
    """
    spans = []
    cursor = 0
    for surface, label in annotations:
        start = text.index(surface, cursor)
        span = Span(start, start + len(surface), label)
        # The project-wide invariant: offsets point at the surface.
        assert text[span.start : span.end] == surface
        spans.append(span)
        cursor = start + 1
    return Document(doc_id, text, tuple(spans)).validate()
