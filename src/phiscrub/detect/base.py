"""The Detector role: anything that proposes PHI spans for a document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from phiscrub.document import Document, Span

__all__ = ["Detector", "detect_batch"]


@runtime_checkable
class Detector(Protocol):
    """Proposes spans; never mutates the document.

    Implementations set ``name`` (used as the span ``source`` prefix) and return spans whose
    offsets index ``doc.text``. Spans may overlap: the resolve step picks one set.
    """

    name: str

    def detect(self, doc: Document) -> list[Span]:
        """Return proposed PHI spans for ``doc``."""
        ...


def detect_batch(detector: Detector, docs: Sequence[Document]) -> list[list[Span]]:
    """``detector``'s spans for each of ``docs``: its ``detect_many`` when it batches (models), else
    :meth:`Detector.detect` per document."""
    many = getattr(detector, "detect_many", None)
    return many(list(docs)) if many is not None else [detector.detect(d) for d in docs]
