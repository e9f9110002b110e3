"""Site knowledge for ``phiscrub predict``: each document's patient, from ``--patient-field``.

``redact`` reads ``--patient-field`` with its input sources; ``predict`` reads corpora, whose
readers keep a JSONL record's ``metadata`` object but not its other top-level keys, so the field
is looked up in the metadata first and then in the JSONL records themselves (by document id).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from phiscrub.document import Document

__all__ = ["attach_patients"]


def _jsonl_fields(path: Path, field: str) -> dict[str, Any]:
    """Document id -> the top-level ``field`` of each record of a JSONL file (ids as strings)."""
    found: dict[str, Any] = {}
    if path.suffix.lower() not in (".jsonl", ".ndjson") or not path.is_file():
        return found
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and record.get("id") is not None and record.get(field) is not None:
                found[str(record["id"])] = record[field]
    return found


def attach_patients(docs: Sequence[Document], path: Path, field: str) -> tuple[list[Document], int]:
    """``docs`` with ``metadata["patient_id"]`` set from ``field``, and how many got one.

    Args:
        docs: the documents read from ``path``.
        path: the input (a JSONL file's top-level keys are read when the metadata lacks the field).
        field: metadata key or JSONL key holding the patient id.
    """
    top: dict[str, Any] | None = None
    out: list[Document] = []
    found = 0
    for doc in docs:
        value = doc.metadata.get(field)
        if value is None:
            if top is None:
                top = _jsonl_fields(path, field)
            value = top.get(doc.id)
        if value is None:
            out.append(doc)
            continue
        found += 1
        out.append(Document(doc.id, doc.text, doc.spans, {**doc.metadata, "patient_id": str(value)}))
    return out, found
