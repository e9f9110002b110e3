"""The reader/writer contract shared by every io format.

A :class:`Reader` yields good :class:`~phiscrub.document.Document` objects and collects a
:class:`Problem` for everything it had to leave out, so one bad span or file never stops a batch:

* a span outside the text, empty, or whose recorded surface differs from the text is dropped
  (``kind="span_offset"`` or ``"surface_mismatch"``); its document is kept;
* a span with a label outside every known label set is dropped (``kind="unknown_label"``);
* a file or record that cannot be parsed (bad XML, bad JSON line) is skipped (``"malformed_file"``,
  ``"malformed_record"``, ``"malformed_line"``).

Problem messages name documents, span ids, offsets, line numbers and paths, never note text; an
unknown label, read from the user's file, is shown as a digest (:func:`phiscrub.labels.label_digest`).

Every reader is lenient by default (report and go on); ``strict=True`` makes the first problem raise
:class:`~phiscrub.errors.InputFormatError` with the same message instead.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, InputFormatError, LabelError
from phiscrub.labels import CORPUS_MAPPINGS, label_digest, to_fine

__all__ = [
    "PROBLEM_KINDS",
    "FolderWriter",
    "PathLike",
    "Problem",
    "ReadResult",
    "Reader",
    "SuffixReader",
    "Writer",
    "doc_path",
    "files_with_suffix",
    "input_files",
    "surfaces_match",
]

PathLike = str | Path

#: Every ``Problem.kind`` a reader of this package emits.
PROBLEM_KINDS: tuple[str, ...] = (
    "span_offset",  # offsets not integers, empty, negative, or past the end of the text
    "surface_mismatch",  # the recorded surface is not the text at the offsets
    "unknown_label",  # the label is in no known label set
    "malformed_span",  # a span record lacks fields or has wrong types
    "malformed_line",  # a line of a line-oriented format cannot be parsed
    "malformed_record",  # a record (JSON line, XML record) cannot be used
    "malformed_file",  # a whole file cannot be parsed
    "missing_file",  # a companion file is missing (e.g. BRAT .ann without .txt)
    "decode_error",  # a file is not valid UTF-8
)

_WS_RE = re.compile(r"\s+")


@dataclass(frozen=True)
class Problem:
    """Something a reader left out, described without note text.

    Args:
        doc_id: the document (or, for file-level problems, the file path) concerned.
        kind: one of :data:`PROBLEM_KINDS`.
        message: what went wrong: offsets, labels, line numbers; never note text.
        span_id: the span's id in the input (BRAT ``T3``, i2b2 ``P0``, JSONL index), when known.
        start: the span's start offset, when known.
        end: the span's end offset, when known.
    """

    doc_id: str
    kind: str
    message: str
    span_id: str | None = None
    start: int | None = None
    end: int | None = None

    def __str__(self) -> str:
        where = ""
        if self.span_id is not None:
            where += f" span {self.span_id}"
        if self.start is not None or self.end is not None:
            where += f" [{self.start}:{self.end}]"
        return f"[doc {self.doc_id}] {self.kind}{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """The problem as a JSON-ready dict."""
        return asdict(self)


@dataclass
class ReadResult:
    """Documents read from one input together with the problems met on the way."""

    documents: list[Document] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing was left out."""
        return not self.problems


def surfaces_match(expected: str, actual: str) -> bool:
    """True when a recorded surface equals the text, exactly or up to whitespace runs.

    Standoff formats store surfaces on one line (BRAT) or in XML attributes (i2b2), where line
    breaks and tabs become spaces; a whitespace-only difference is therefore not an error.
    """
    if expected == actual:
        return True
    return _WS_RE.sub(" ", expected).strip() == _WS_RE.sub(" ", actual).strip()


def doc_path(root: Path, doc_id: str, suffix: str) -> Path:
    """The output file ``root/<doc_id><suffix>``, refusing ids that would escape ``root``.

    Raises:
        InputFormatError: the id is empty, absolute, or has ``..`` parts.
    """
    rel = Path(doc_id)
    if not doc_id or rel.is_absolute() or ".." in rel.parts or doc_id.startswith(("/", "\\")):
        raise InputFormatError("document id cannot be used as a file name", doc_id=doc_id)
    out = root / (doc_id + suffix)
    out.parent.mkdir(parents=True, exist_ok=True)
    return out


def input_files(path: PathLike, list_files: Callable[[Path], Iterable[Path]]) -> Iterator[tuple[Path, str]]:
    """The input files at ``path`` with the document id (or id stem) each one stands for.

    A folder gives the files ``list_files(folder)`` returns, in that order, each with its path
    relative to the folder without the extension (``sub/note``); a file gives itself with its stem.
    Readers of one-file-per-unit formats share this so that ids and errors agree across formats.

    Args:
        path: a file or a folder.
        list_files: the files to read under a folder, already in reading order.

    Raises:
        InputFormatError: ``path`` does not exist (raised on iteration, like the readers' own).
    """
    root = Path(path)
    if root.is_dir():
        for f in list_files(root):
            yield f, f.relative_to(root).with_suffix("").as_posix()
    elif root.is_file():
        yield root, root.stem
    else:
        raise InputFormatError(f"no such file or folder: {root}")


def files_with_suffix(root: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The files under ``root`` (recursively) whose suffix is one of ``suffixes``, sorted by path."""
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in suffixes)


class Reader(ABC):
    """Base of every reader: yields good documents, collects :class:`Problem` objects.

    Problems accumulate over successive :meth:`read` calls in :attr:`problems`;
    :meth:`read_all` returns only those of its own call.

    Args:
        corpus: a key of :data:`phiscrub.labels.CORPUS_MAPPINGS`; labels are then mapped to fine
            labels with :func:`phiscrub.labels.to_fine`. Without it labels are kept as read when
            known to any label set. ``"native"`` keeps every label as written (upper case, spaces
            as ``_``), unknown ones included (``--labels native``).
        strict: raise :class:`~phiscrub.errors.InputFormatError` on the first problem instead of
            recording it and going on.

    Raises:
        ConfigError: ``corpus`` is not a known corpus mapping.
    """

    format_name: ClassVar[str] = ""

    def __init__(self, corpus: str | None = None, *, strict: bool = False) -> None:
        if corpus is not None and corpus != "native" and corpus not in CORPUS_MAPPINGS:
            raise ConfigError(f"unknown corpus mapping {corpus!r}; known: {sorted(CORPUS_MAPPINGS)}")
        self.corpus = corpus
        self.strict = strict
        self.problems: list[Problem] = []

    @abstractmethod
    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield the documents found at ``path`` (a file, or a folder where the format allows)."""

    def read_all(self, path: PathLike) -> ReadResult:
        """Read everything at ``path`` into a :class:`ReadResult`."""
        first = len(self.problems)
        docs = list(self.read(path))
        return ReadResult(docs, self.problems[first:])

    # -- helpers for subclasses -------------------------------------------------------------------

    def report(
        self,
        doc_id: str,
        kind: str,
        message: str,
        span_id: str | None = None,
        start: int | None = None,
        end: int | None = None,
    ) -> None:
        """Record a problem (the message must not contain note text).

        Raises:
            InputFormatError: the reader is strict (the problem is raised, not recorded).
        """
        problem = Problem(doc_id, kind, message, span_id, start, end)
        if self.strict:
            raise InputFormatError(str(problem))
        self.problems.append(problem)

    def resolve_label(
        self,
        doc_id: str,
        label: str,
        span_id: str | None = None,
        start: int | None = None,
        end: int | None = None,
    ) -> str | None:
        """The label to store for ``label`` as read, or None (reported) when it is unknown."""
        if self.corpus == "native":
            # --labels native: the label as written, known or not (never dropped).
            return label.strip().upper().replace(" ", "_") or None
        try:
            fine = to_fine(label, self.corpus)
        except LabelError:
            # The label comes from the user's file and could hold anything: show a digest only.
            self.report(
                doc_id, "unknown_label", f"unknown label ({label_digest(label)})", span_id, start, end
            )
            return None
        return fine if self.corpus is not None else label

    def make_span(
        self,
        doc_id: str,
        text: str,
        start: Any,
        end: Any,
        label: str,
        *,
        span_id: str | None = None,
        surface: str | None = None,
        score: float = 1.0,
        source: str = "gold",
    ) -> Span | None:
        """Check one span against ``text`` and build it, or report why not and return None.

        Args:
            doc_id: the document, for problems.
            text: the document text.
            start: start offset as read (checked to be an int).
            end: end offset as read.
            label: the label as read (mapped with :meth:`resolve_label`).
            span_id: the span's id in the input, for problems.
            surface: the surface recorded in the input, checked when given.
            score: the span score.
            source: the span source.
        """
        if not _is_int(start) or not _is_int(end):
            self.report(doc_id, "span_offset", "offsets are not integers", span_id)
            return None
        if start < 0 or end <= start or end > len(text):
            self.report(
                doc_id,
                "span_offset",
                f"empty, negative or past the end of the text (length {len(text)})",
                span_id,
                start,
                end,
            )
            return None
        if surface is not None and not surfaces_match(surface, text[start:end]):
            self.report(
                doc_id, "surface_mismatch", "recorded surface differs from the text", span_id, start, end
            )
            return None
        fine = self.resolve_label(doc_id, label, span_id, start, end)
        if fine is None:
            return None
        return Span(start, end, fine, score=score, source=source)


class SuffixReader(Reader):
    """A reader of one file, or of every file under a folder whose suffix is in :attr:`suffixes`
    (recursively, sorted by path), one file at a time (:meth:`read_file`)."""

    #: The suffixes of the files read from a folder.
    suffixes: ClassVar[tuple[str, ...]] = ()

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield the documents at ``path``.

        Raises:
            InputFormatError: ``path`` does not exist.
        """
        for f, stem in input_files(path, lambda root: files_with_suffix(root, self.suffixes)):
            yield from self.read_file(f, stem)

    @abstractmethod
    def read_file(self, path: Path, stem: str) -> Iterator[Document]:
        """Yield the documents of the file ``path`` (``stem``: its id stem, see :func:`input_files`)."""


class Writer(ABC):
    """Base of every writer."""

    format_name: ClassVar[str] = ""

    @abstractmethod
    def write(self, docs: Iterable[Document], path: PathLike) -> list[Path]:
        """Write ``docs`` to ``path``; return the files written."""


class FolderWriter(Writer):
    """Base of writers that put each document in its own file(s) under a folder.

    Subclasses implement :meth:`write_document`; :meth:`write` creates the folder and collects
    the files written, in document order.
    """

    def write(self, docs: Iterable[Document], path: PathLike) -> list[Path]:
        """Write ``docs`` under the folder ``path`` (created if needed); return the files written.

        Raises:
            InputFormatError: a document id cannot be used as a file name.
        """
        root = Path(path)
        root.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        for doc in docs:
            written += self.write_document(doc, root)
        return written

    @abstractmethod
    def write_document(self, doc: Document, root: Path) -> list[Path]:
        """Write one document under the folder ``root`` (names from :func:`doc_path`); return its files."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
