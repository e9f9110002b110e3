"""The batch-level work of a ``redact`` run: redact a batch (one note at a time on failure), turn
the results into a durable :class:`~phiscrub.runs.manifest.Part` (documents, run-log lines, counts),
and flag repeated ids. Nothing here writes a file; :mod:`phiscrub.runs.redact` does.

Run-log lines hold ids, positions, offsets, labels and codes, never note text (the standoff
``text`` field only with ``audit_text``, at the user's request).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phiscrub.deid import Deidentifier, Redaction
from phiscrub.detect.mixed_language import MODEL_SKIPPED_WARNING
from phiscrub.detect.rules import has_rules
from phiscrub.document import Document
from phiscrub.io.source import Source
from phiscrub.io.standoff import standoff_line
from phiscrub.progress import stage_bars
from phiscrub.runs.manifest import Part

__all__ = [
    "ERRORS_NAME",
    "STANDOFF_NAME",
    "WARNINGS_NAME",
    "RunStats",
    "SeenIds",
    "log_line",
    "make_part",
    "mark_repeated_ids",
    "read_error_code",
    "redact_batch",
    "redact_list",
    "standoff_lines",
    "warnings_of",
]

log = logging.getLogger(__name__)

#: The standoff file of replaced spans in OUTDIR (schema: :mod:`phiscrub.io.standoff`).
STANDOFF_NAME = "phi_spans.jsonl"
#: The list of failed documents in OUTDIR (id, stage, error code or type; never text).
ERRORS_NAME = "errors.jsonl"
#: Documents redacted with a caveat (recovered undecodable bytes, a repeated id); written when any.
WARNINGS_NAME = "warnings.jsonl"
#: Warning code of a note whose language has no rule pack (only the language-neutral rules ran).
NO_PACK_WARNING = "no_language_pack"

_CODE_RE = re.compile(r"^[a-z][a-z0-9_]{0,40}$")


def standoff_lines(red: Redaction, audit_text: bool = False) -> list[str]:
    """The ``phi_spans.jsonl`` lines of ``red``'s replaced spans (original and output offsets)."""
    return [
        standoff_line(
            red.original.id, span, out, red.original.text[span.start : span.end] if audit_text else None
        )
        for span, out in zip(red.spans, red.result.spans)
    ]


def log_line(doc: Document, stage: str, error: str, key: str = "error", lang: str | None = None) -> str:
    """The ``errors.jsonl`` line recording that ``doc`` failed at ``stage`` with ``error`` (a code or
    an exception type), or under ``key="warning"`` a ``warnings.jsonl`` line; never the text.

    Each line is ``{"id": ..., "position": ..., "stage": "read" | "redact", "error": ...}``;
    ``position`` is the 0-based place of the document in the input, when the source records it;
    ``lang`` (the note's language code) is added when given.
    """
    row: dict[str, object] = {"id": doc.id}
    if isinstance(doc.metadata.get("position"), int):
        row["position"] = doc.metadata["position"]
    row.update({"stage": stage, key: error})
    if lang is not None:
        row["lang"] = lang
    return json.dumps(row, ensure_ascii=False) + "\n"


#: The counts and the per-key counters of :class:`RunStats` that a batch part records.
_PART_COUNTS = ("documents", "read_errors", "redact_errors")
_PART_COUNTERS = ("spans", "warnings")


@dataclass
class RunStats:
    """What a run did so far: documents seen, failures by stage, spans per label, files written."""

    documents: int = 0
    read_errors: int = 0
    redact_errors: int = 0
    spans: Counter[str] = field(default_factory=Counter)
    files: int = 0
    #: Documents taken from the batches an interrupted run had completed (``--resume``).
    resumed: int = 0
    #: Documents redacted with a caveat, by warning code (see :data:`WARNINGS_NAME`).
    warnings: Counter[str] = field(default_factory=Counter)
    #: Documents stored in the ``--vault`` (those with replaced spans).
    vaulted: int = 0

    @property
    def failed(self) -> int:
        """Documents written empty."""
        return self.read_errors + self.redact_errors

    def as_dict(self) -> dict[str, Any]:
        """The counts a batch part records (see :class:`~phiscrub.runs.manifest.Part`)."""
        counts: dict[str, Any] = {name: getattr(self, name) for name in _PART_COUNTS}
        return {**counts, **{name: dict(sorted(getattr(self, name).items())) for name in _PART_COUNTERS}}

    def summary(self, out_dir: Path, vault: Path | None = None) -> str:
        """The line ``redact`` prints when done: counts by outcome, label and warning; no text."""
        per_label = ", ".join(f"{k}={v}" for k, v in sorted(self.spans.items())) or "none"
        return (
            f"redacted {self.documents - self.failed} documents into {out_dir} "
            f"({self.files} files); spans: {sum(self.spans.values())} ({per_label}); errors: {self.failed} "
            f"(unreadable: {self.read_errors}, redaction failed: {self.redact_errors})"
            + (f"; failed ids in {out_dir / ERRORS_NAME}" if self.failed else "")
            + f"; input documents: {self.documents} = {self.documents - self.failed} redacted "
            f"+ {self.failed} failed"
            + (f"; {self.resumed} of them resumed from an interrupted run" if self.resumed else "")
            + (
                f"; warnings: {sum(self.warnings.values())} ("
                + ", ".join(f"{k}={v}" for k, v in sorted(self.warnings.items()))
                + f") in {out_dir / WARNINGS_NAME}"
                if self.warnings
                else ""
            )
            + (f"; encrypted vault of {self.vaulted} documents: {vault}" if vault is not None else "")
        )

    def add(self, counts: dict[str, Any]) -> None:
        """Add a batch's counts (:meth:`as_dict`)."""
        for name in _PART_COUNTS:
            setattr(self, name, getattr(self, name) + int(counts.get(name, 0)))
        for name in _PART_COUNTERS:
            getattr(self, name).update({str(k): int(v) for k, v in counts.get(name, {}).items()})


def make_part(
    batch: list[Document], done: list[tuple[Document, Redaction | None, str | None]], audit_text: bool
) -> Part:
    """The durable result of a batch: its documents (failed ones empty), run-log lines and counts."""
    results = iter(done)
    counts = RunStats()
    docs: list[tuple[str, str]] = []
    standoff: list[str] = []
    errors: list[str] = []
    warnings: list[str] = []
    for original in batch:
        # A free-text cell of a record is redacted as its own document but counted (and shown in
        # the progress bar) as part of its record.
        if "cell" not in original.metadata:
            counts.documents += 1
            for code in warnings_of(original):
                counts.warnings[code] += 1
                log.warning("document %s: %s", original.id, code)
                warnings.append(log_line(original, "read", code, key="warning"))
        red: Redaction | None = None
        if original.metadata.get("read_error"):
            counts.read_errors += 1
            code = read_error_code(original.metadata["read_error"])
            log.error("document %s cannot be read: %s", original.id, code)
            errors.append(log_line(original, "read", code))
        else:
            _, red, error_type = next(results)
            if red is None:
                counts.redact_errors += 1
                errors.append(log_line(original, "redact", error_type or "Exception"))
        if red is None:
            docs.append((original.id, ""))  # never fall back to the original text: written empty
        else:
            if red.lang is not None and not has_rules(red.lang):
                # Issue 27: only the language-neutral rules ran on this note; say so (id, code).
                counts.warnings[NO_PACK_WARNING] += 1
                warnings.append(log_line(original, "detect", NO_PACK_WARNING, key="warning", lang=red.lang))
            if red.model_skipped:
                # Issue 28, item 10: --lang auto left the English model out of a note that reads as
                # English outside a quoted passage; say so (id and code only).
                counts.warnings[MODEL_SKIPPED_WARNING] += 1
                warnings.append(log_line(original, "detect", MODEL_SKIPPED_WARNING, key="warning"))
            counts.spans.update(s.label for s in red.spans)
            standoff.extend(standoff_lines(red, audit_text))
            docs.append((red.result.id, red.result.text))
    logs = {STANDOFF_NAME: standoff, ERRORS_NAME: errors, WARNINGS_NAME: warnings}
    return Part(docs, logs, counts.as_dict())


def warnings_of(doc: Document) -> list[str]:
    """The caveats of a document that is redacted: recovered bytes, a repeated id."""
    codes = []
    if doc.metadata.get("decode") and not doc.metadata.get("read_error"):
        codes.append(str(doc.metadata["decode"]))
    if doc.metadata.get("repeated_id"):
        codes.append("duplicate_id")
    return codes


class SeenIds:
    """The ids seen so far, as 8-byte digests, in memory that does not grow with the input.

    Up to ``buffer`` digests live in a set; beyond that they spill to a temporary SQLite table (stdlib,
    primary-key index), so a 10-million-record input costs disk, not memory. The file holds digests
    only, never an id, and is deleted on close. Written here rather than with a Bloom filter because a
    false positive would flag a record that is not a duplicate.
    """

    def __init__(self, buffer: int = 200_000) -> None:
        self._buffer = buffer
        self._recent: set[int] = set()
        self._db: Any = None
        self._dir: Any = None

    @staticmethod
    def digest(doc_id: str) -> int:
        """The signed 64-bit digest of an id (fits SQLite's INTEGER)."""
        import hashlib

        raw = hashlib.blake2b(doc_id.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        return int.from_bytes(raw, "big", signed=True)

    def add(self, doc_id: str) -> bool:
        """Remember ``doc_id``; True when it was seen before."""
        d = self.digest(doc_id)
        if d in self._recent:
            return True
        if self._db is not None and self._db.execute("SELECT 1 FROM ids WHERE d = ?", (d,)).fetchone():
            return True
        self._recent.add(d)
        if len(self._recent) >= self._buffer:
            self._spill()
        return False

    def _spill(self) -> None:
        import sqlite3
        import tempfile

        if self._db is None:
            self._dir = tempfile.TemporaryDirectory(prefix="phiscrub-ids-")
            self._db = sqlite3.connect(Path(self._dir.name) / "ids.sqlite")
            self._db.execute("PRAGMA journal_mode = OFF")
            self._db.execute("PRAGMA synchronous = OFF")
            self._db.execute("CREATE TABLE ids (d INTEGER PRIMARY KEY) WITHOUT ROWID")
        with self._db:
            self._db.executemany("INSERT OR IGNORE INTO ids VALUES (?)", ((d,) for d in self._recent))
        self._recent.clear()

    def close(self) -> None:
        """Drop the spilled digests."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None


def mark_repeated_ids(source: Source) -> Iterator[Document]:
    """``source``'s documents, a record whose id an earlier record had marked ``repeated_id``.

    Only sources whose ids are read from the input (``--id-field``) can repeat one; a folder's ids
    are checked when it is listed. Memory stays bounded: see :class:`SeenIds`.
    """
    if source.id_field is None:
        yield from source.documents()
        return
    seen = SeenIds()
    try:
        for doc in source.documents():
            if "cell" not in doc.metadata and not doc.metadata.get("read_error") and seen.add(doc.id):
                doc = Document(doc.id, doc.text, doc.spans, {**doc.metadata, "repeated_id": True})
            yield doc
    finally:
        seen.close()


def read_error_code(value: Any) -> str:
    """A read-error marker as a short code; anything else (it could be a message) as ``read_error``."""
    return value if isinstance(value, str) and _CODE_RE.match(value) else "read_error"


def redact_list(
    deid: Deidentifier, batch: list[Document]
) -> list[tuple[Document, Redaction | None, str | None]]:
    """:func:`redact_batch` as a list (what a worker process sends back)."""
    with stage_bars(sys.stderr):  # progress inside notes of 1 MB and more
        return list(redact_batch(deid, batch))


def redact_batch(
    deid: Deidentifier, batch: list[Document]
) -> Iterator[tuple[Document, Redaction | None, str | None]]:
    """Redact a batch; on failure retry one by one so one bad note does not sink the batch.

    Yields:
        ``(document, redaction, None)``, or ``(document, None, exception type name)`` for a
        document that failed (any exception: a note is never passed through unredacted).
    """
    if not batch:
        return
    try:
        results = list(deid.redact_many(batch, batch_size=len(batch)))
    except Exception as exc:  # noqa: BLE001 - any failure: retry one by one, the type alone is logged
        log.warning("batch failed (%s); retrying documents one by one", type(exc).__name__)
    else:
        for doc, red in zip(batch, results):
            yield doc, red, None
        return
    for doc in batch:
        try:
            red = deid.redact_one(doc)
        except Exception as exc:  # noqa: BLE001 - whatever failed, the note is written empty, never in clear
            # Only the exception type: its message could, in a third-party library, hold text.
            log.error("document %s failed: %s", doc.id, type(exc).__name__)
            yield doc, None, type(exc).__name__
        else:
            yield doc, red, None
