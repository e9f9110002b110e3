"""Standoff JSONL: one document per line.

::

    {"id": "n1", "text": "...", "spans": [{"start": 0, "end": 4, "label": "PATIENT",
      "source": "gold", "score": 1.0}], "metadata": {...}}

A span may also carry ``"text"`` (its surface), which is then checked against the document text.
Writing then reading gives back the same documents (ids, texts, spans with score and source,
metadata). :func:`write_standoff` writes spans only, one per line, for audit trails.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.io.base import PathLike, Reader, Writer, files_with_suffix, input_files

__all__ = [
    "JSONL_SUFFIXES",
    "MAX_DEPTH",
    "JsonlReader",
    "JsonlWriter",
    "document_to_dict",
    "dumps_line",
    "pointer_token",
    "replace_leaves",
    "replace_lone_surrogates",
    "string_leaves",
    "write_standoff",
]

#: File suffixes read from a folder.
JSONL_SUFFIXES: tuple[str, ...] = (".jsonl", ".ndjson")

# Characters that str.splitlines() treats as line breaks but JSON leaves unescaped: escaping them
# keeps one record per line for every line-oriented consumer.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def dumps_line(obj: Any) -> str:
    """``obj`` as one JSON line (UTF-8 text kept, Unicode line separators escaped), without newline."""
    return json.dumps(obj, ensure_ascii=False).translate(_LINE_BREAKS)


#: Deepest nesting of lists and objects that :func:`string_leaves` walks (deeper raises ValueError).
MAX_DEPTH = 100

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def replace_lone_surrogates(value: Any) -> Any:
    """``value`` with every lone UTF-16 surrogate in its strings and keys replaced by U+FFFD.

    ``json.loads`` accepts escapes such as ``"\\ud800"`` that stand for no character; such a string
    cannot be written as UTF-8. One code point is replaced by one, so offsets into a string stay valid.
    """
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {replace_lone_surrogates(k): replace_lone_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [replace_lone_surrogates(v) for v in value]
    return value


def pointer_token(key: str | int) -> str:
    """One reference token of a JSON Pointer (RFC 6901): ``~`` as ``~0``, ``/`` as ``~1``."""
    return str(key).replace("~", "~0").replace("/", "~1")


def string_leaves(value: Any, pointer: str = "", depth: int = 0) -> Iterator[tuple[str, str]]:
    """``(JSON Pointer, string)`` for every non-empty string in ``value``, in document order.

    Object keys are not leaves (they are the record's structure).

    Raises:
        ValueError: ``value`` nests lists and objects deeper than :data:`MAX_DEPTH`.
    """
    if isinstance(value, str):
        if value:
            yield pointer, value
    elif isinstance(value, (dict, list)):
        if depth >= MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            yield from string_leaves(v, f"{pointer}/{pointer_token(k)}", depth + 1)


def replace_leaves(value: Any, strings: dict[str, str], pointer: str = "") -> Any:
    """``value`` rebuilt with each non-empty string at pointer ``p`` replaced by ``strings[p]``,
    every number replaced by ``None``, and booleans, nulls and empty strings kept.

    ``strings`` must hold every pointer that :func:`string_leaves` yields for ``value``: a missing
    one raises KeyError rather than let the original string through.
    """
    if isinstance(value, str):
        return strings[pointer] if value else value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, dict):
        return {k: replace_leaves(v, strings, f"{pointer}/{pointer_token(k)}") for k, v in value.items()}
    if isinstance(value, list):
        return [replace_leaves(v, strings, f"{pointer}/{pointer_token(i)}") for i, v in enumerate(value)]
    return None  # numbers: they can be identifiers (an MRN, a date as a timestamp)


class JsonlReader(Reader):
    """Read standoff JSONL from a file or a folder of ``.jsonl``/``.ndjson`` files.

    A line that is not JSON, not an object, or lacks a string ``text`` is reported
    (``malformed_record``) and skipped. A missing ``id`` becomes ``<file stem>-<line number>``.

    Args:
        corpus: label mapping name, see :class:`~phiscrub.io.base.Reader`.
    """

    format_name = "jsonl"

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield the documents at ``path``.

        Raises:
            InputFormatError: ``path`` does not exist.
        """
        # Ids come from the records (or file stem and line number), not from input_files.
        for f, _ in input_files(path, lambda root: files_with_suffix(root, JSONL_SUFFIXES)):
            yield from self._read_file(f)

    def _read_file(self, path: Path) -> Iterator[Document]:
        with path.open("rb") as fh:
            for lineno, raw in enumerate(fh, start=1):
                if not raw.strip():
                    continue
                where = f"{path.name}:{lineno}"
                try:
                    record = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError) as err:
                    # JSONDecodeError.msg names the syntax problem only (no input text).
                    reason = err.msg if isinstance(err, json.JSONDecodeError) else "not UTF-8"
                    self.report(where, "malformed_record", f"{where} is not valid JSON: {reason}")
                    continue
                if not isinstance(record, dict) or not isinstance(record.get("text"), str):
                    self.report(where, "malformed_record", f"{where} is not an object with a string 'text'")
                    continue
                doc = self._document(record, f"{path.stem}-{lineno}")
                if doc is not None:
                    yield doc

    def _document(self, record: dict[str, Any], default_id: str) -> Document | None:
        doc_id = str(record["id"]) if record.get("id") is not None else default_id
        text: str = record["text"]
        metadata = record.get("metadata") or {}
        if not isinstance(metadata, dict):
            self.report(doc_id, "malformed_record", "'metadata' is not an object; record skipped")
            return None
        raw_spans = record.get("spans") or []
        if not isinstance(raw_spans, list):
            self.report(doc_id, "malformed_record", "'spans' is not a list; record skipped")
            return None
        spans: list[Span] = []
        for i, item in enumerate(raw_spans):
            span_id = str(i)
            if not isinstance(item, dict) or not isinstance(item.get("label"), str):
                self.report(doc_id, "malformed_span", "span is not an object with a string 'label'", span_id)
                continue
            score = item.get("score", 1.0)
            source = item.get("source", "gold")
            surface = item.get("text")
            if (
                not isinstance(score, (int, float))
                or isinstance(score, bool)
                or not isinstance(source, str)
                or not (surface is None or isinstance(surface, str))
            ):
                self.report(doc_id, "malformed_span", "'score', 'source' or 'text' has a wrong type", span_id)
                continue
            span = self.make_span(
                doc_id,
                text,
                item.get("start"),
                item.get("end"),
                item["label"],
                span_id=span_id,
                surface=surface,
                score=float(score),
                source=source,
            )
            if span is not None:
                spans.append(span)
        return Document(doc_id, text, tuple(spans), metadata)


def document_to_dict(doc: Document) -> dict[str, Any]:
    """The JSON-ready record of a document in the standoff JSONL layout."""
    return {
        "id": doc.id,
        "text": doc.text,
        "spans": [
            {"start": s.start, "end": s.end, "label": s.label, "source": s.source, "score": s.score}
            for s in doc.spans
        ],
        "metadata": dict(doc.metadata),
    }


class JsonlWriter(Writer):
    """Write documents as standoff JSONL (UTF-8, non-ASCII kept as is), one line each."""

    format_name = "jsonl"

    def write(self, docs: Iterable[Document], path: PathLike) -> list[Path]:
        """Write ``docs`` to the file ``path`` (parent folders created); return ``[path]``.

        Raises:
            TypeError: a document's metadata is not JSON-serialisable.
        """
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8", newline="\n") as fh:
            for doc in docs:
                fh.write(dumps_line(document_to_dict(doc)) + "\n")
        return [out]


def write_standoff(docs: Iterable[Document], path: PathLike, audit_text: bool = False) -> int:
    """Write the spans of ``docs`` as JSONL, one span per line (no document text).

    Each line is ``{"doc_id", "start", "end", "label", "source", "score"}``, plus ``"text"``
    (the span's surface) only when ``audit_text`` is true: that file then contains PHI.

    Args:
        docs: documents whose spans to write, in order.
        path: output file (parent folders created).
        audit_text: also write each span's surface.

    Returns:
        The number of spans written.
    """
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with out.open("w", encoding="utf-8", newline="\n") as fh:
        for doc in docs:
            for s in doc.spans:
                row: dict[str, Any] = {
                    "doc_id": doc.id,
                    "start": s.start,
                    "end": s.end,
                    "label": s.label,
                    "source": s.source,
                    "score": s.score,
                }
                if audit_text:
                    row["text"] = doc.text[s.start : s.end]
                fh.write(dumps_line(row) + "\n")
                n += 1
    return n
