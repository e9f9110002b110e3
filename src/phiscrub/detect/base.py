"""The Detector role: anything that proposes PHI spans for a document."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from phiscrub.document import Document, Span

__all__ = ["Detector"]


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
