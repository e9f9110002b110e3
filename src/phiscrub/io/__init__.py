"""Readers and writers: files in, :class:`~phiscrub.document.Document` objects out, and back.

Formats (registry names): ``brat``, ``i2b2``, ``conll``, ``jsonl``, ``txt``, ``csv``, ``parquet``, and
``placeholder`` (zero-shot notes with ``[LABEL]`` placeholders; its reader,
:mod:`phiscrub.transform.placeholders`, fills them with :mod:`phiscrub.transform.fill`, so it lives
above ``io``: the package root adds it to :data:`READERS`, imported only when asked for).

Every reader follows :class:`phiscrub.io.base.Reader`: it yields good documents and collects a
:class:`phiscrub.io.base.Problem` for every span, record or file it had to leave out.
:mod:`phiscrub.io.shapes` reads notes for ``redact`` and writes them back in the input's shape; the
``txt``, ``csv`` and ``parquet`` readers read through those same sources (one parser per format).
Every reader takes ``strict=True`` to raise on the first problem instead. :mod:`phiscrub.io.standoff`
writes the standoff span list (``phi_spans.jsonl``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import PathLike, Problem, Reader, ReadResult, Writer
from phiscrub.io.brat import BratReader, BratWriter
from phiscrub.io.conll import CONLL_SUFFIXES, ConllReader, ConllWriter, looks_like_conll
from phiscrub.io.i2b2 import I2b2Reader, I2b2Writer
from phiscrub.io.jsonl import JSONL_SUFFIXES, JsonlReader, JsonlWriter
from phiscrub.io.parquet import ParquetReader, ParquetWriter
from phiscrub.io.shapes import Source, open_source
from phiscrub.io.standoff import write_standoff
from phiscrub.io.tabular import CsvReader, CsvWriter
from phiscrub.io.text import TextReader, TextWriter

__all__ = [
    "COMMON_READER_OPTIONS",
    "FILTERS_OWN_OPTIONS",
    "READERS",
    "WRITERS",
    "BratReader",
    "BratWriter",
    "ConllReader",
    "ConllWriter",
    "CsvReader",
    "CsvWriter",
    "I2b2Reader",
    "I2b2Writer",
    "JsonlReader",
    "JsonlWriter",
    "ParquetReader",
    "ParquetWriter",
    "Problem",
    "ReadResult",
    "Reader",
    "Source",
    "TextReader",
    "TextWriter",
    "Writer",
    "detect_format",
    "get_reader",
    "get_writer",
    "open_source",
    "read_corpus",
    "write_standoff",
]


#: Options any caller may pass to :func:`get_reader`; readers that do not take one ignore it (so a
#: CLI can pass ``corpus``, ``seed`` and ``strict`` whatever the format). Other options must be accepted.
COMMON_READER_OPTIONS: tuple[str, ...] = ("corpus", "seed", "strict")


#: Reader factories by format name; each is called with the reader's options. A format whose reader
#: lives above ``io`` is added by the layer that defines it (``placeholder``: the package root).
READERS: dict[str, Callable[..., Reader]] = {
    "brat": BratReader,
    "i2b2": I2b2Reader,
    "conll": ConllReader,
    "jsonl": JsonlReader,
    "txt": TextReader,
    "csv": CsvReader,
    "parquet": ParquetReader,
}
#: Formats whose factory takes every common option and drops those its reader does not take.
FILTERS_OWN_OPTIONS: set[str] = set()

#: Writer factories by format name.
WRITERS: dict[str, Callable[..., Writer]] = {
    "brat": BratWriter,
    "i2b2": I2b2Writer,
    "conll": ConllWriter,
    "jsonl": JsonlWriter,
    "txt": TextWriter,
    "csv": CsvWriter,
    "parquet": ParquetWriter,
}


def _accepts(factory: Callable[..., Any], name: str) -> bool:
    params = inspect.signature(factory).parameters.values()
    return any(p.name == name or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


_F = TypeVar("_F")


def _factory(table: dict[str, _F], fmt: str, side: str) -> _F:
    """``table[fmt]``, or a ConfigError naming the known formats (``side``: input or output)."""
    try:
        return table[fmt]
    except KeyError:
        raise ConfigError(f"unknown {side} format {fmt!r}; known: {sorted(table)}") from None


def get_reader(fmt: str, **opts: Any) -> Reader:
    """A reader for format ``fmt`` built with ``opts`` (e.g. ``corpus="meddocan"``).

    Options in :data:`COMMON_READER_OPTIONS` are dropped for readers that do not take them, and
    ``None`` values of those options are dropped always (meaning "the reader's default").

    Raises:
        ConfigError: unknown format name.
    """
    factory = _factory(READERS, fmt, "input")
    kwargs = {
        k: v
        for k, v in opts.items()
        if k not in COMMON_READER_OPTIONS
        or (v is not None and (fmt in FILTERS_OWN_OPTIONS or _accepts(factory, k)))
    }
    try:
        return factory(**kwargs)
    except TypeError as err:
        raise ConfigError(f"bad options for input format {fmt!r}: {err}") from None


def get_writer(fmt: str, **opts: Any) -> Writer:
    """A writer for format ``fmt`` built with ``opts``.

    Raises:
        ConfigError: unknown format name.
    """
    return _factory(WRITERS, fmt, "output")(**opts)


#: Formats told by a file's suffix alone (after BRAT and CoNLL, which need a look at the file).
_FILE_FORMATS: dict[str, str] = {
    ".xml": "i2b2",
    **dict.fromkeys(JSONL_SUFFIXES, "jsonl"),
    ".txt": "txt",
    ".csv": "csv",
    ".tsv": "csv",
    ".parquet": "parquet",
}
#: Suffixes that are CoNLL whatever the content (``.tsv`` is CoNLL only when its lines end in tags).
_CONLL_FILE_SUFFIXES: tuple[str, ...] = (".conll", ".bio", ".iob", ".bioes")


def _folder_format(p: Path) -> str:
    """The format of the folder ``p`` (see :func:`detect_format`)."""
    suffixes = {f.suffix.lower() for f in p.rglob("*") if f.is_file() and not f.name.startswith(".")}
    if ".ann" in suffixes:
        return "brat"
    if ".xml" in suffixes:
        return "i2b2"
    if suffixes & set(JSONL_SUFFIXES):
        return "jsonl"
    conll_files = [f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in CONLL_SUFFIXES]
    if conll_files and looks_like_conll(min(conll_files)):
        return "conll"
    if ".txt" in suffixes:
        return "txt"
    raise InputFormatError(f"{p}: no .ann, .xml, .jsonl, CoNLL or .txt files found")


def detect_format(path: PathLike) -> str:
    """Guess the format of a file or folder.

    Folders: any ``.ann`` → ``brat``; else any ``.xml`` → ``i2b2``; else any JSONL → ``jsonl``;
    else CoNLL files with tags → ``conll``; else ``.txt`` only → ``txt``. Files: ``.ann`` (or a
    ``.txt`` with an ``.ann`` beside it) → ``brat``; ``.xml`` → ``i2b2``; ``.jsonl``/``.ndjson`` →
    ``jsonl``; ``.conll``/``.bio``/``.iob``/``.bioes``, or ``.tsv`` whose lines end in tags → ``conll``;
    ``.txt`` → ``txt``; ``.csv`` → ``csv``; ``.parquet`` → ``parquet``.

    Raises:
        InputFormatError: missing path or no recognisable format.
    """
    p = Path(path)
    if p.is_dir():
        return _folder_format(p)
    if not p.is_file():
        raise InputFormatError(f"no such file or folder: {p}")
    suffix = p.suffix.lower()
    if suffix == ".ann" or (suffix == ".txt" and p.with_suffix(".ann").is_file()):
        return "brat"
    if suffix in _CONLL_FILE_SUFFIXES or (suffix == ".tsv" and looks_like_conll(p)):
        return "conll"
    if suffix in _FILE_FORMATS:
        return _FILE_FORMATS[suffix]
    raise InputFormatError(f"{p}: cannot tell the format from {suffix!r}")


def read_corpus(
    path: PathLike, fmt: str | None = None, corpus: str | None = None
) -> tuple[list[Document], list[Problem]]:
    """Read a whole corpus into memory.

    Args:
        path: file or folder.
        fmt: format name (see :data:`READERS`); detected with :func:`detect_format` when None.
        corpus: label mapping name (e.g. ``"meddocan"``) applied by the reader.

    Returns:
        The documents read and the problems met.

    Raises:
        ConfigError: unknown format or corpus.
        InputFormatError: the path is missing or its format cannot be detected.
    """
    reader = get_reader(fmt or detect_format(path), corpus=corpus)
    result = reader.read_all(path)
    return result.documents, result.problems
