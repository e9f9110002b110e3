"""Input shapes for ``redact``: read notes from a file or folder and write them back in the same shape.

:func:`open_source` picks the shape from the path (``fmt`` overrides it):

=================  ===========================  ============================================
shape              input                        output of :meth:`Source.write`
=================  ===========================  ============================================
``txt``            ``notes.txt``                ``OUT/notes.txt``
``dir``            folder of ``.txt`` (nested)  the same relative tree of ``.txt`` under OUT
``jsonl``          ``.jsonl`` / ``.ndjson``     ``OUT/<name>``: same lines and keys (blank lines
                                                and line ends kept); annotation fields dropped
``csv`` / ``tsv``  ``.csv`` / ``.tsv``          ``OUT/<name>``: same header, delimiter, quoting,
                                                line ends, BOM, encoding, rows and order
``parquet``        ``.parquet``                 ``OUT/<name>``: same schema, rows and order
=================  ===========================  ============================================

In the record shapes (JSONL, CSV/TSV, Parquet) nothing but the id is copied unexamined: the note
and every other value are redacted, except the id field/column (ids must not hold PHI) and the
keys or columns named in ``keep_columns`` (an explicit opt-in). Each other non-empty string becomes
a *cell document* with id ``<record id>#<JSON Pointer>`` (``n1#/name``, ``n1#/meta/tags/0``) and
``metadata["cell"]`` set to the pointer, yielded right after its record's note. Numbers (JSONL) and
Parquet columns that are not strings or booleans are written as nulls unless kept.

Both sides stream: :meth:`Source.documents` yields one document at a time, and :meth:`Source.write`
re-reads the input while consuming the transformed documents, which must come in the order
:meth:`Source.documents` produced them (ids are checked). Every document has
``metadata["position"]`` (0-based order of its record in the input) and, when ``patient_field`` is
given, ``metadata["patient_id"]``.

A record that cannot be trusted (:data:`RECORD_PROBLEMS`: a CSV row with the wrong number of cells
or broken quoting, undecodable bytes, a JSONL line that is not an object with the text field) is
yielded as a document with empty text, ``metadata["read_error"]`` (a code, never text) and
``metadata["line"]`` (its first line in the file), and written back with every value empty: the run
goes on and reports it. Problems that concern the whole input (a missing or repeated column, a
Parquet text column that is not strings, a field missing from the first JSONL record) raise
:class:`~phiscrub.errors.InputFormatError` when the source is opened. No message holds a value
read from the input, only paths, line numbers, positions, ids and the column names given as options.

Where each shape lives: the :class:`~phiscrub.io.source.Source` contract and the record machinery in
:mod:`phiscrub.io.source`; ``txt``/``dir`` in :mod:`phiscrub.io.text`, ``jsonl`` in
:mod:`phiscrub.io.jsonl`, ``csv``/``tsv`` in :mod:`phiscrub.io.tabular`, ``parquet`` in
:mod:`phiscrub.io.parquet`. Each format's :class:`~phiscrub.io.base.Reader` reads through the same
source (``txt``, ``csv``, ``parquet``), so there is one parser per format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import PathLike
from phiscrub.io.decoding import check_policy
from phiscrub.io.jsonl import JsonlSource
from phiscrub.io.parquet import ParquetSource
from phiscrub.io.source import RECORD_PROBLEMS, RecordFields, Source, cell_id, codec_name
from phiscrub.io.tabular import CsvSource
from phiscrub.io.text import TextFileSource, TextFolderSource

__all__ = [
    "RECORD_PROBLEMS",
    "SHAPES",
    "CsvSource",
    "InputOptions",
    "JsonlSource",
    "ParquetSource",
    "Source",
    "TextFileSource",
    "TextFolderSource",
    "cell_id",
    "detect_shape",
    "open_source",
]

#: Shape names accepted by ``open_source(fmt=...)``.
SHAPES: tuple[str, ...] = ("txt", "dir", "jsonl", "csv", "tsv", "parquet")

_SUFFIX_SHAPES = {
    ".txt": "txt",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".tsv": "tsv",
    ".parquet": "parquet",
}


def detect_shape(path: PathLike) -> str:
    """The shape of ``path``: ``dir`` for a folder, else by extension (see :data:`SHAPES`).

    Raises:
        InputFormatError: the path does not exist or its extension is not a known shape.
    """
    p = Path(path)
    if p.is_dir():
        return "dir"
    if not p.is_file():
        if p.exists():
            raise InputFormatError(f"{p} is not a regular file or folder (a fifo, socket or device)")
        raise InputFormatError(f"no such file or folder: {p}")
    shape = _SUFFIX_SHAPES.get(p.suffix.lower())
    if shape is None:
        raise InputFormatError(
            f"{p}: cannot tell the input shape from {p.suffix!r}; known: {sorted(_SUFFIX_SHAPES)}"
        )
    return shape


@dataclass(frozen=True)
class InputOptions:
    """How an input is read: the keyword arguments of :func:`open_source` but the shape.

    One object for every door that reads notes again: ``redact`` (its manifest fingerprint and its
    vault record them), ``reidentify`` (from the vault) and ``report`` (the run's output and input).
    """

    text_field: str = "text"
    text_column: str = "text"
    id_field: str | None = None
    patient_field: str | None = None
    keep_columns: tuple[str, ...] = ()
    encoding: str = "utf-8"
    encoding_errors: str = "fail"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> InputOptions:
        """The options among ``data``'s keys (other keys are ignored; lists become tuples), as a
        run's manifest or vault records them."""
        known = {f.name for f in dataclass_fields(cls)}
        given: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in known
        }
        return cls(**given)

    def open(self, path: PathLike, fmt: str | None = None) -> Source:
        """:func:`open_source` of ``path`` with these options."""
        return open_source(path, fmt=fmt, **asdict(self))


def open_source(
    path: PathLike,
    *,
    text_field: str = "text",
    text_column: str = "text",
    id_field: str | None = None,
    patient_field: str | None = None,
    fmt: str | None = None,
    keep_columns: Sequence[str] = (),
    encoding: str = "utf-8",
    encoding_errors: str = "fail",
) -> Source:
    """Open ``path`` as a :class:`Source` of the matching shape.

    Args:
        path: a ``.txt`` file, a folder of ``.txt``, a JSONL, CSV, TSV or Parquet file.
        text_field: JSONL key holding the note text.
        text_column: CSV/TSV/Parquet column holding the note text.
        id_field: JSONL key or table column giving document ids (default: ``<stem>-<position>``).
            It is copied as read, so ids must not hold PHI.
        patient_field: JSONL key or table column copied to ``metadata["patient_id"]``.
        fmt: force a shape (one of :data:`SHAPES`) instead of detecting it.
        keep_columns: JSONL keys or table columns copied as read; every other value besides the
            text and the id is redacted (JSONL, CSV/TSV, Parquet only).
        encoding: text encoding of a CSV/TSV file (JSONL is UTF-8 by definition).
        encoding_errors: what a document with undecodable bytes becomes
            (:data:`phiscrub.io.decoding.ENCODING_ERRORS`): ``fail`` (a ``decode_error`` read
            error), or recovered and flagged in ``metadata["decode"]`` (``replace``, ``latin-1``).

    Raises:
        InputFormatError: unknown shape, missing path, or a table without the named columns.
        ConfigError: ``keep_columns`` or a non-UTF-8 ``encoding`` for a shape that has no use for
            it, or the text column in ``keep_columns``.
    """
    p = Path(path)
    if fmt is None:
        shape = detect_shape(p)
    elif fmt in SHAPES:
        shape = fmt
        if not p.exists():
            raise InputFormatError(f"no such file or folder: {p}")
    else:
        raise InputFormatError(f"unknown input shape {fmt!r}; known: {list(SHAPES)}")
    if (shape == "dir") != p.is_dir():
        raise InputFormatError(f"{p}: shape {shape!r} needs {'a folder' if shape == 'dir' else 'a file'}")
    if keep_columns and shape in ("txt", "dir"):
        raise ConfigError(f"--keep-columns applies to JSONL, CSV/TSV and Parquet input, not {shape!r}")
    if shape not in ("csv", "tsv") and codec_name(encoding) != "utf-8":
        raise ConfigError(f"an encoding other than UTF-8 applies to CSV/TSV input only, not {shape!r}")
    check_policy(encoding_errors)
    if shape == "txt":
        return TextFileSource(p, encoding_errors)
    source: Source
    fields = RecordFields(id_field, patient_field, tuple(keep_columns))
    if shape == "dir":
        source = TextFolderSource(p)
    elif shape == "jsonl":
        source = JsonlSource(p, text_field, fields)
    elif shape in ("csv", "tsv"):
        source = CsvSource(p, text_column, fields, tsv=shape == "tsv", encoding=encoding)
    else:
        source = ParquetSource(p, text_column, fields)
    source.encoding_errors = encoding_errors
    return source
