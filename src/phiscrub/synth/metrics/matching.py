"""Pairing synthetic letters (and masked ones) with their originals by id."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from phiscrub.document import Document

__all__ = ["Matching", "match_documents"]

#: Characters that may separate an original id from a suffix in a synthetic id (``doc1#synth0``).
ID_SEPARATORS = "#:@|/~_-. "
#: Metadata keys that may name the original document of a synthetic one.
SOURCE_ID_KEYS = ("source_id", "original_id")


# -- pairing ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Matching:
    """Synthetic letters paired with their originals (and masked versions).

    Args:
        pairs: ``(original, synthetic, masked or None)`` in synthetic-corpus order.
        unmatched_synthetic: synthetic ids with no original.
        originals_without_synthetic: original ids no synthetic letter points to.
        unmatched_masked: masked ids with no original.
        originals_without_masked: paired original ids with no masked version (only with masked input).
    """

    pairs: list[tuple[Document, Document, Document | None]]
    unmatched_synthetic: tuple[str, ...] = ()
    originals_without_synthetic: tuple[str, ...] = ()
    unmatched_masked: tuple[str, ...] = ()
    originals_without_masked: tuple[str, ...] = ()


def _original_id(doc: Document, known: Mapping[str, Document]) -> str | None:
    """The original id of ``doc``: its own, a metadata source id, or the longest id prefix before a separator."""
    if doc.id in known:
        return doc.id
    for key in SOURCE_ID_KEYS:
        value = doc.metadata.get(key)
        if value is not None and str(value) in known:
            return str(value)
    for i in range(len(doc.id) - 1, 0, -1):
        if doc.id[i] in ID_SEPARATORS and doc.id[:i] in known:
            return doc.id[:i]
    return None


def match_documents(
    originals: Sequence[Document],
    synthetic: Sequence[Document],
    masked: Sequence[Document] | None = None,
) -> Matching:
    """Pair synthetic (and masked) letters with originals by id.

    A letter matches the original with the same id, else the one named by ``metadata["source_id"]``
    (or ``original_id``), else the original whose id is the longest prefix of the letter's id
    followed by a separator (``doc1#synth0`` → ``doc1``). Several synthetic letters may share an
    original. A synthetic letter's masked version is the masked letter with the same id, else the
    first masked letter of the same original.

    Args:
        originals: the original letters (ids should be unique; the first of a repeated id is kept).
        synthetic: the synthetic letters.
        masked: the masked letters, if any.
    """
    by_id: dict[str, Document] = {}
    for d in originals:
        by_id.setdefault(d.id, d)
    masked_by_id: dict[str, Document] = {}
    masked_by_orig: dict[str, Document] = {}
    unmatched_masked: list[str] = []
    for md in masked or ():
        masked_by_id.setdefault(md.id, md)
        oid = _original_id(md, by_id)
        if oid is None:
            unmatched_masked.append(md.id)
        else:
            masked_by_orig.setdefault(oid, md)
    pairs: list[tuple[Document, Document, Document | None]] = []
    unmatched: list[str] = []
    used: set[str] = set()
    no_masked: dict[str, None] = {}
    for s in synthetic:
        oid = _original_id(s, by_id)
        if oid is None:
            unmatched.append(s.id)
            continue
        used.add(oid)
        m: Document | None = None
        if masked is not None:
            m = masked_by_id.get(s.id) or masked_by_orig.get(oid)
            if m is None:
                no_masked.setdefault(oid, None)
        pairs.append((by_id[oid], s, m))
    return Matching(
        pairs=pairs,
        unmatched_synthetic=tuple(unmatched),
        originals_without_synthetic=tuple(i for i in by_id if i not in used),
        unmatched_masked=tuple(unmatched_masked),
        originals_without_masked=tuple(no_masked),
    )
