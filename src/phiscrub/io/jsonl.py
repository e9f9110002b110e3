"""Standoff JSONL: one document per line.

::

    {"id": "n1", "text": "...", "spans": [{"start": 0, "end": 4, "label": "PATIENT",
      "source": "gold", "score": 1.0}], "metadata": {...}}

A span may also carry ``"text"`` (its surface), which is then checked against the document text.
Writing then reading gives back the same documents (ids, texts, spans with score and source,
metadata).

:class:`JsonlSource` reads JSONL records of any layout for ``redact`` (the note under a named key,
every other string redacted too) and writes them back with the same keys and lines.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.errors import InputFormatError
from phiscrub.io.base import PathLike, SuffixReader, Writer
from phiscrub.io.decoding import decode_bytes
from phiscrub.io.source import Aligner, Record, RecordFields, RecordSource, row_id

__all__ = [
    "ANNOTATION_FIELDS",
    "JSONL_SUFFIXES",
    "MAX_DEPTH",
    "JsonlReader",
    "JsonlSource",
    "JsonlWriter",
    "document_to_dict",
    "dumps_line",
    "parse_line",
    "pointer_token",
    "replace_leaves",
    "replace_lone_surrogates",
    "string_leaves",
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


#: Why a line is not read as JSON, by :func:`parse_line` code (words for :class:`JsonlReader`'s problems).
_REASONS: dict[str, str] = {
    "decode_error": "not UTF-8",
    "invalid_json": "syntax error",
    "too_deep": "nested too deep",
}

# A JSON escape of a UTF-16 surrogate: only then can json.loads return a lone surrogate.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")


def parse_line(
    raw: bytes, encoding_errors: str = "fail"
) -> tuple[dict[str, Any] | None, str | None, str | None]:
    """One JSONL line as an object: the one line parser of :class:`JsonlReader` and :class:`JsonlSource`.

    A lone UTF-16 surrogate escape (``"\\ud800"``) is read as U+FFFD; undecodable bytes are handled
    under ``encoding_errors`` (:data:`phiscrub.io.decoding.ENCODING_ERRORS`).

    Returns:
        ``(object, None, decode note)`` for a line holding a JSON object, else ``(None, code, None)``
        with a :data:`~phiscrub.io.source.RECORD_PROBLEMS` code (``decode_error``, ``invalid_json``,
        ``too_deep``, ``not_object``).
    """

    note = None
    try:
        value = json.loads(raw)
    except UnicodeDecodeError:
        line, note = decode_bytes(raw, encoding_errors)
        if line is None:
            return None, "decode_error", None
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            return None, "invalid_json", None
    except RecursionError:
        return None, "too_deep", None
    except ValueError:  # JSONDecodeError, or an integer too long to convert
        return None, "invalid_json", None
    if not isinstance(value, dict):
        return None, "not_object", None
    try:
        return (replace_lone_surrogates(value) if _SURROGATE_ESCAPE.search(raw) else value), None, note
    except RecursionError:
        return None, "too_deep", None


class JsonlReader(SuffixReader):
    """Read standoff JSONL from a file or a folder of ``.jsonl``/``.ndjson`` files.

    A line that is not JSON, not an object, or lacks a string ``text`` is reported
    (``malformed_record``) and skipped. A missing ``id`` becomes ``<file stem>-<line number>``.

    Args:
        corpus: label mapping name, see :class:`~phiscrub.io.base.Reader`.
    """

    format_name = "jsonl"
    suffixes = JSONL_SUFFIXES

    def read_file(self, path: Path, stem: str) -> Iterator[Document]:
        """Yield the records of one JSONL file (ids from the records, else stem and line number)."""
        with path.open("rb") as fh:
            for lineno, raw in enumerate(fh, start=1):
                if not raw.strip():
                    continue
                where = f"{path.name}:{lineno}"
                record, code, _ = parse_line(raw)
                if code is not None and code != "not_object":
                    self.report(where, "malformed_record", f"{where} is not valid JSON: {_REASONS[code]}")
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


#: Record fields dropped from redacted JSONL output: annotations of the original text (their offsets
#: no longer match, and they may hold the PHI strings themselves).
ANNOTATION_FIELDS: tuple[str, ...] = ("spans", "entities", "annotations")


class JsonlSource(RecordSource):
    """A JSONL file of records holding the note in ``text_field``.

    Every other string in a record (nested ones included) is redacted as a cell document, numbers
    become ``null``, booleans and nulls are kept, unless the top-level key is the id field or in
    ``keep_columns`` (copied as read). Keys are never changed. The annotation fields of
    :data:`ANNOTATION_FIELDS` are dropped. A lone UTF-16 surrogate (``"\\ud800"``, which ``json.loads``
    accepts but UTF-8 cannot hold) is read as U+FFFD.

    A line that cannot be a record (:data:`RECORD_PROBLEMS`) fails alone: it is written as
    ``{id_field: id, text_field: ""}`` when its id could be read, else ``{text_field: ""}``.

    Args:
        path: the input file.
        text_field: key of the note text (a string, or null read as an empty note).
        fields: the id key (a string or number; a record without it fails), the patient key (copied
            to ``metadata["patient_id"]``) and the top-level keys copied as read
            (:class:`~phiscrub.io.source.RecordFields`).

    Raises:
        InputFormatError: the first record lacks ``text_field``, ``id_field`` or ``patient_field``
            (most likely a misspelt option).
    """

    shape = "jsonl"

    def __init__(self, path: Path, text_field: str = "text", fields: RecordFields | None = None) -> None:
        super().__init__(path, fields)
        self.text_field = text_field
        self._check_keep(text_field)
        self._check_first_record()

    def _check_first_record(self) -> None:
        with self.path.open("rb") as fh:
            for lineno, raw in enumerate(fh, start=1):
                try:
                    record = json.loads(raw) if raw.strip() else None
                except (ValueError, RecursionError):
                    continue
                if not isinstance(record, dict):
                    continue
                for key, option in self._named(self.text_field, "--text-field", keep=False):
                    if key is not None and key not in record:
                        raise InputFormatError(
                            f"{self.path}: the first record (line {lineno}) has no field {key!r} ({option}); "
                            "is the name spelt right?"
                        )
                return

    @property
    def count(self) -> int | None:
        """The number of non-blank lines (each a record, readable or not)."""
        if self._count is None:
            with self.path.open("rb") as fh:
                self._count = sum(1 for raw in fh if raw.strip())
        return self._count

    def _items(self) -> Iterator[tuple[bytes, Record | None, dict[str, Any] | None]]:
        """(raw line, record or None for a blank line, the parsed object if the line is one)."""
        pos = 0
        with self.path.open("rb") as fh:
            for lineno, raw in enumerate(fh, start=1):
                if not raw.strip():
                    yield raw, None, None
                    continue
                rec, obj = self._parse(raw, pos, lineno)
                yield raw, rec, obj
                pos += 1

    def _load(self, raw: bytes) -> tuple[dict[str, Any] | None, str | None, str | None]:
        return parse_line(raw, self.encoding_errors)

    def _parse(self, raw: bytes, pos: int, lineno: int) -> tuple[Record, dict[str, Any] | None]:
        obj, code, note = self._load(raw)

        def failed(code: str, doc_id: str | None = None) -> tuple[Record, dict[str, Any] | None]:
            rec = Record(pos, doc_id or row_id(self.path.stem, pos, None), error=code, line=lineno)
            rec.id_read = doc_id is not None
            return rec, obj

        if obj is None:
            return failed(code or "invalid_json")
        doc_id = None
        if self.id_field is not None:
            if self.id_field not in obj:
                return failed("missing_id")
            ident = obj[self.id_field]
            if isinstance(ident, (dict, list)):
                return failed("bad_id")
            doc_id = row_id(self.path.stem, pos, ident)
        if self.text_field not in obj:
            return failed("missing_text", doc_id)
        text = obj[self.text_field]
        if text is not None and not isinstance(text, str):
            return failed("text_not_string", doc_id)
        try:
            cells = [
                leaf
                for key, value in obj.items()
                if self._redacted(key)
                for leaf in string_leaves(value, "/" + pointer_token(key))
            ]
        except ValueError:
            return failed("too_deep", doc_id)
        patient = obj.get(self.patient_field) if self.patient_field else None
        rec = Record(pos, doc_id or row_id(self.path.stem, pos, None), text or "", patient, cells)
        rec.decode = note
        return rec, obj

    def _redacted(self, key: str) -> bool:
        """Whether top-level ``key`` goes through redaction (strings) and number nulling."""
        return key not in (self.text_field, self.id_field, *ANNOTATION_FIELDS, *self.keep_columns)

    def _records(self) -> Iterator[Record]:
        return (rec for _, rec, _ in self._items() if rec is not None)

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the same lines: note replaced, other values redacted, failed records emptied."""
        out = self._open_output(out_dir)
        align = Aligner(transformed, self.path)
        with out.open("wb") as fh:
            for raw, rec, obj in self._items():
                if rec is None:
                    fh.write(raw)
                    continue
                text, cells = rec.take(align)
                new: dict[str, Any] = {}
                if rec.error is not None or obj is None:
                    # A failed record: nothing of it is copied but an id read as the id field.
                    if rec.id_read and self.id_field is not None and obj is not None:
                        new[self.id_field] = obj[self.id_field]
                    new[self.text_field] = ""
                else:
                    for key, value in obj.items():
                        if key == self.text_field:
                            new[key] = None if value is None and text == "" else text
                        elif key in ANNOTATION_FIELDS:
                            continue  # gold annotations point into the original text, may hold PHI
                        elif self._redacted(key):
                            new[key] = replace_leaves(value, cells, "/" + pointer_token(key))
                        else:
                            new[key] = value
                ending = b"\r\n" if raw.endswith(b"\r\n") else b"\n" if raw.endswith(b"\n") else b""
                fh.write(dumps_line(new).encode("utf-8") + ending)
            align.finish()
        return [out]
