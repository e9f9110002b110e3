"""Per-document entity matches of an evaluation: what ``phiscrub report`` shows in context.

``phiscrub evaluate --out-dir DIR`` writes ``DIR/documents.jsonl`` next to ``evaluation.json``:
one line per document with its true positives, false positives and false negatives at the entity
level (the ``E`` score of :mod:`phiscrub.evaluate.metrics`: exact ``(start, end, label)`` after
folding and whitespace stripping). Offsets, labels and ids only, never text: the report reads the
gold corpus again when it shows context.

Each false positive or false negative says how it failed (``match``):

* ``label``: the other side has a span with the same offsets and another label;
* ``overlap``: the other side has a span that overlaps it (a boundary error);
* ``none``: nothing on the other side touches it (a missed or invented entity).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import InputFormatError
from phiscrub.evaluate.metrics import entities
from phiscrub.labels import Granularity

__all__ = ["DETAILS_NAME", "MATCH_KINDS", "document_details", "write_details"]

#: The per-document file of an evaluation folder.
DETAILS_NAME = "documents.jsonl"
#: How a false positive or negative relates to the other side (see the module docstring).
MATCH_KINDS: tuple[str, ...] = ("label", "overlap", "none")

_Entity = tuple[int, int, str]


def _match(entity: _Entity, other: set[_Entity]) -> str:
    start, end, _ = entity
    if any(o[0] == start and o[1] == end for o in other):
        return "label"
    if any(o[0] < end and start < o[1] for o in other):
        return "overlap"
    return "none"


def _rows(entities_: Iterable[_Entity], other: set[_Entity] | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for ent in sorted(entities_):
        row: dict[str, Any] = {"start": ent[0], "end": ent[1], "label": ent[2]}
        if other is not None:
            row["match"] = _match(ent, other)
        out.append(row)
    return out


def _row(doc_id: str, length: int, gold: set[_Entity], pred: set[_Entity]) -> dict[str, Any]:
    return {
        "doc_id": doc_id,
        "length": length,
        "gold": len(gold),
        "pred": len(pred),
        "tp": _rows(gold & pred),
        "fp": _rows(pred - gold, gold),
        "fn": _rows(gold - pred, pred),
    }


def document_details(
    gold: Iterable[Document], pred: Iterable[Document], granularity: Granularity = "coarse"
) -> Iterator[dict[str, Any]]:
    """Per document, the entity-level true positives, false positives and false negatives.

    Documents are paired by id as :func:`~phiscrub.evaluate.metrics.evaluate` pairs them: a gold
    document without a prediction has only false negatives, a predicted one without gold only
    false positives (yielded after the gold documents, in their order).

    Yields:
        ``{"doc_id", "length", "gold", "pred", "tp", "fp", "fn"}``: ``length`` is the text length in
        characters, ``gold``/``pred`` the entity counts, and ``tp``/``fp``/``fn`` lists of
        ``{"start", "end", "label"}`` (``fp``/``fn`` add ``match``, one of :data:`MATCH_KINDS`).

    Raises:
        InputFormatError: a document id repeated on the predicted side.
    """
    preds: dict[str, Document] = {}
    for doc in pred:
        if doc.id in preds:
            raise InputFormatError("duplicate document id among predicted documents", doc_id=doc.id)
        preds[doc.id] = doc
    for gdoc in gold:
        pdoc = preds.pop(gdoc.id, None)
        pred_ents = entities(pdoc, granularity) if pdoc is not None else set()
        yield _row(gdoc.id, len(gdoc.text), entities(gdoc, granularity), pred_ents)
    for pdoc in preds.values():
        yield _row(pdoc.id, len(pdoc.text), set(), entities(pdoc, granularity))


def write_details(
    gold: Iterable[Document], pred: Iterable[Document], granularity: Granularity, folder: Path
) -> Path:
    """Write :func:`document_details` as ``folder/documents.jsonl`` (created if needed); returns the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / DETAILS_NAME
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for row in document_details(gold, pred, granularity):
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    tmp.replace(path)
    return path
