"""Apply text replacements to a document and return a new document whose spans point at them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from phiscrub.document import Document, Span
from phiscrub.errors import SpanOffsetError

__all__ = ["apply_edits", "rewrite"]


def rewrite(
    doc: Document,
    replacements: Sequence[tuple[Span, str]],
    *,
    label_map: Callable[[str], str | None] | None = None,
    record_offsets: bool = False,
) -> Document:
    """Replace each span's text with its replacement string.

    The replacements are applied as if right to left, so no offset is invalidated by an earlier
    edit; the text is rebuilt in one pass. The new document keeps the id and a copy of the
    metadata; its spans are exactly the replacements (other spans of ``doc`` are dropped, since
    their offsets would no longer mean anything), each with the mapped label and the original
    span's score and source, so that ``new.text[s.start:s.end] == replacement``.

    Args:
        doc: the source document (not modified).
        replacements: ``(span, new_text)`` pairs; spans must not overlap (touching is fine).
        label_map: maps each span's label to the output label; None drops the span from the output
            (its text is still replaced). Default: keep labels.
        record_offsets: also store ``metadata["source_offsets"]``, a list of
            ``[new_start, new_end, old_start, old_end]`` per output span, in order.

    Returns:
        A new :class:`Document`. Empty replacement strings delete text and yield no span.

    Raises:
        ValueError: two spans overlap (the message names their offsets only).
        SpanOffsetError: a span ends past the text.
    """
    ordered = sorted(replacements, key=lambda pair: (pair[0].start, pair[0].end))
    n = len(doc.text)
    for (a, _), (b, _) in pairwise(ordered):
        if b.start < a.end:
            raise ValueError(
                f"[doc {doc.id}] overlapping replacements [{a.start}:{a.end}] and [{b.start}:{b.end}]"
            )
    for span, _ in ordered:
        if span.end > n:
            raise SpanOffsetError(doc.id, None, span.start, span.end, f"ends past the text (length {n})")

    pieces: list[str] = []
    spans: list[Span] = []
    offsets: list[list[int]] = []
    pos = 0  # position in the old text
    new_len = 0  # length of the new text built so far
    for span, new in ordered:
        gap = doc.text[pos : span.start]
        pieces.append(gap)
        new_len += len(gap)
        start = new_len
        pieces.append(new)
        new_len += len(new)
        pos = span.end
        label = span.label if label_map is None else label_map(span.label)
        if label is None or not new:
            continue
        spans.append(Span(start, new_len, label, score=span.score, source=span.source))
        offsets.append([start, new_len, span.start, span.end])
    pieces.append(doc.text[pos:])

    metadata = dict(doc.metadata)
    if record_offsets:
        metadata["source_offsets"] = offsets
    return Document(doc.id, "".join(pieces), tuple(spans), metadata)


def apply_edits(doc: Document, edits: Sequence[tuple[int, int, str]]) -> Document:
    """Apply text edits and keep every span of ``doc``, moved or resized as needed.

    Unlike :func:`rewrite`, the edits need not be spans: an edit either covers exactly one span
    (the span's surface becomes the new text and the span is kept with the new bounds) or touches no
    span at all (the spans after it shift). Insertions are edits with ``start == end``.

    Raises:
        ValueError: edits overlap each other, or an edit cuts into a span without covering it exactly.
    """
    ordered = sorted(edits, key=lambda e: (e[0], e[1]))
    for a, b in pairwise(ordered):
        if b[0] < a[1]:
            raise ValueError(f"[doc {doc.id}] overlapping edits [{a[0]}:{a[1]}] and [{b[0]}:{b[1]}]")
    by_bounds = {(s.start, s.end): s for s in doc.spans}
    for start, end, _ in ordered:
        if (start, end) in by_bounds:
            continue
        for s in doc.spans:
            if start < s.end and s.start < end or (start == end and s.start < start < s.end):
                raise ValueError(f"[doc {doc.id}] edit [{start}:{end}] cuts into span [{s.start}:{s.end}]")
    pieces: list[str] = []
    pos = 0
    shift_points: list[tuple[int, int]] = []  # (old offset, cumulative delta after it)
    delta = 0
    resized: dict[tuple[int, int], tuple[int, int]] = {}
    for start, end, new in ordered:
        pieces.append(doc.text[pos:start])
        if (start, end) in by_bounds:
            resized[(start, end)] = (start + delta, start + delta + len(new))
        pieces.append(new)
        delta += len(new) - (end - start)
        shift_points.append((end, delta))
        pos = end
    pieces.append(doc.text[pos:])

    def moved(offset: int) -> int:
        d = 0
        for old, cum in shift_points:
            if old <= offset:
                d = cum
            else:
                break
        return offset + d

    spans = []
    for s in doc.spans:
        if (s.start, s.end) in resized:
            ns, ne = resized[(s.start, s.end)]
        else:
            ns, ne = moved(s.start), moved(s.start) + (s.end - s.start)
        if ne > ns:
            spans.append(Span(ns, ne, s.label, s.score, s.source))
    return Document(doc.id, "".join(pieces), tuple(spans), dict(doc.metadata))
