"""The standoff span list: one JSON line per span, offsets into the original text, no PHI string.

This is the schema of ``OUTDIR/phi_spans.jsonl`` written by ``phiscrub redact`` (docs/redact.md), and
of :func:`write_standoff` for any documents' spans. One line per span, keys in this order:

=============  ==========================================================================
key            value
=============  ==========================================================================
``doc_id``     the document id (``<record id>#<JSON Pointer>`` for a cell of a record)
``start``      start offset into the original text
``end``        end offset into the original text
``label``      the label
``source``     the detector that found it (``rule:date``, ``model``, ``gold``, ...)
``out_start``  start offset of its replacement in the redacted text (replaced spans only)
``out_end``    end offset of its replacement in the redacted text (replaced spans only)
``text``       the original string, only when asked for (``--audit-text``): the file then holds PHI
=============  ==========================================================================

Compatibility: before issue 13, :func:`write_standoff` also wrote ``score`` (after ``source``) and
never ``out_start``/``out_end``; scores are in the standoff JSONL corpus format
(:class:`phiscrub.io.jsonl.JsonlWriter`) instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.io.base import PathLike
from phiscrub.io.jsonl import dumps_line

__all__ = ["STANDOFF_KEYS", "standoff_line", "standoff_row", "write_standoff"]

#: The keys of a standoff line, in the order they are written (optional ones included).
STANDOFF_KEYS: tuple[str, ...] = ("doc_id", "start", "end", "label", "source", "out_start", "out_end", "text")


def standoff_row(
    doc_id: str, span: Span, out: Span | None = None, surface: str | None = None
) -> dict[str, Any]:
    """The standoff record of ``span`` of document ``doc_id``.

    Args:
        doc_id: the document id.
        span: the span, offsets into the original text.
        out: its replacement in the redacted text, when the span was replaced.
        surface: the original string, only when the user asked for it (the record then holds PHI).
    """
    row: dict[str, Any] = {
        "doc_id": doc_id,
        "start": span.start,
        "end": span.end,
        "label": span.label,
        "source": span.source,
    }
    if out is not None:
        row["out_start"] = out.start
        row["out_end"] = out.end
    if surface is not None:
        row["text"] = surface
    return row


def standoff_line(doc_id: str, span: Span, out: Span | None = None, surface: str | None = None) -> str:
    """:func:`standoff_row` as one JSON line, newline included."""
    return dumps_line(standoff_row(doc_id, span, out, surface)) + "\n"


def write_standoff(docs: Iterable[Document], path: PathLike, audit_text: bool = False) -> int:
    """Write the spans of ``docs`` as standoff lines (no document text), one span per line.

    Args:
        docs: documents whose spans to write, in order.
        path: output file (parent folders created).
        audit_text: also write each span's surface under ``text`` (the file then holds PHI).

    Returns:
        The number of spans written.
    """
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with out.open("w", encoding="utf-8", newline="\n") as fh:
        for doc in docs:
            for s in doc.spans:
                fh.write(standoff_line(doc.id, s, surface=doc.text[s.start : s.end] if audit_text else None))
                n += 1
    return n
