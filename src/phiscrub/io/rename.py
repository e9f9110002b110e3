"""Output names that do not repeat the input's names: ``redact --rename-outputs``.

File and folder names of clinical exports often hold PHI (``Zebulon_Quackenbush_MRN99887766/
visit.txt``). Without renaming they become the output's paths and the document ids of
``phi_spans.jsonl``, ``errors.jsonl``, ``warnings.jsonl`` and the log. :class:`RenamedSource`
wraps a source so that every name it hands out is new:

* a folder of ``.txt``: each note becomes ``OUTDIR/<name>.txt`` (flat), its id ``<name>``;
* a JSONL, CSV or Parquet file: the output file is ``<name><suffix>`` and the default record ids
  ``<stem>-<row>`` become ``<name>-<row>`` (ids read from ``--id-field`` are kept: the user
  declared them free of PHI), which is what reading the renamed output gives again, so
  ``phiscrub reidentify`` works on a renamed run.

Two schemes (:data:`RENAME_SCHEMES`): ``positional`` (``000001``, ``000002``, ... in input order;
``output`` for a single file) and ``hash`` (16 hex digits of an HMAC-SHA256 of the input's relative
path under a key derived from the run's secret: stable across runs of one secret, unlinkable
without it). The map from new names to input names is written only on request (``--rename-map``),
0600, as :func:`write_rename_map`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import PathLike
from phiscrub.io.private import open_private
from phiscrub.io.source import Aligner, Source
from phiscrub.io.text import TextEntry, TextFolderSource

__all__ = ["RENAME_SCHEMES", "OutputNamer", "RenamedSource", "write_rename_map"]

#: The naming schemes of ``--rename-outputs``.
RENAME_SCHEMES = ("positional", "hash")

#: Label of the naming key: HMAC-SHA256(secret, this), so names never equal surrogates or checks.
_NAME_KEY_LABEL = b"phiscrub output names v1"


class OutputNamer:
    """New names for input paths.

    Args:
        scheme: ``positional`` or ``hash``.
        secret: the run's secret (``hash`` only).

    Raises:
        ConfigError: an unknown scheme, or ``hash`` without a secret.
    """

    def __init__(self, scheme: str, secret: bytes | None = None) -> None:
        if scheme not in RENAME_SCHEMES:
            raise ConfigError(f"--rename-outputs must be one of {', '.join(RENAME_SCHEMES)}")
        if scheme == "hash" and not secret:
            raise ConfigError("--rename-outputs hash needs a secret: set $PHISCRUB_KEY or use --key-file")
        self.scheme = scheme
        self._key = hmac.new(secret, _NAME_KEY_LABEL, hashlib.sha256).digest() if secret else b""

    def name(self, original: str, position: int, total: int) -> str:
        """The new name of the ``position``-th (0-based) of ``total`` input names, ``original``."""
        if self.scheme == "positional":
            return f"{position + 1:0{max(6, len(str(total)))}d}"
        raw = original.encode("utf-8", "surrogateescape")  # a non-UTF-8 name hashes too
        return hmac.new(self._key, raw, hashlib.sha256).hexdigest()[:16]

    def file_name(self, path: Path) -> str:
        """The new name of a single input file (its suffix kept)."""
        stem = "output" if self.scheme == "positional" else self.name(path.name, 0, 1)
        return stem + path.suffix.lower()


class RenamedSource(Source):
    """``inner`` with new output names and ids (see the module docstring).

    Args:
        inner: the source as opened from the input.
        namer: how names are made.
    """

    def __init__(self, inner: Source, namer: OutputNamer) -> None:
        super().__init__(inner.path)
        self.inner = inner
        self.namer = namer
        self.shape = inner.shape
        self.id_field = inner.id_field
        self.encoding_errors = inner.encoding_errors
        self._names: dict[str, str] | None = None
        self._ids: dict[str, str] | None = None

    @property
    def count(self) -> int | None:
        return self.inner.count

    def names(self) -> dict[str, str]:
        """Input name -> new name: every ``.txt`` entry's relative path (a folder), or the file name."""
        if self._names is None:
            if self.shape == "dir":
                rels = [e.rel.as_posix() for e in self._entries()]
                self._names = {rel: self.namer.name(rel, i, len(rels)) + ".txt" for i, rel in enumerate(rels)}
            else:
                self._names = {self.path.name: self.namer.file_name(self.path)}
        return self._names

    def _entries(self) -> list[TextEntry]:
        assert isinstance(self.inner, TextFolderSource)
        return self.inner.entries()

    def _new_id(self, doc: Document) -> str:
        """The id ``doc`` gets: a folder entry's new name; a record's with the new file stem."""
        if self.shape == "dir":
            return self._dir_ids()[doc.id]
        if self.id_field is not None:
            return doc.id
        pointer = doc.metadata.get("cell")
        base = doc.id[: -len(pointer) - 1] if isinstance(pointer, str) else doc.id
        old = f"{self.path.stem}-{doc.metadata.get('position')}"
        if base != old:
            return doc.id
        new = f"{Path(self.names()[self.path.name]).stem}-{doc.metadata.get('position')}"
        return new + doc.id[len(base) :]

    def _dir_ids(self) -> dict[str, str]:
        if self._ids is None:
            names = self.names()
            self._ids = {e.doc_id: names[e.rel.as_posix()][: -len(".txt")] for e in self._entries()}
        return self._ids

    def documents(self) -> Iterator[Document]:
        for doc in self.inner.documents():
            yield Document(self._new_id(doc), doc.text, doc.spans, doc.metadata)

    def output_path(self, out_dir: PathLike) -> Path:
        return Path(out_dir) if self.shape == "dir" else Path(out_dir) / self.names()[self.path.name]

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        if self.shape == "dir":
            return self._write_folder(Path(out_dir), transformed)
        # The inner source writes the records; its ids and output path are put back to its own.
        stem, new_stem = self.path.stem, Path(self.names()[self.path.name]).stem
        back = (
            Document(_old_id(d.id, stem, new_stem) if self.id_field is None else d.id, d.text)
            for d in transformed
        )
        target = self.output_path(out_dir)

        # An instance attribute over the method: the inner writer opens ``target`` instead.
        def output_path(out_dir: PathLike) -> Path:
            return target

        self.inner.output_path = output_path  # type: ignore[method-assign]
        try:
            return self.inner.write(out_dir, back)
        finally:
            del self.inner.output_path

    def _write_folder(self, out_root: Path, transformed: Iterable[Document]) -> list[Path]:
        src, dst = self.path.resolve(), out_root.resolve()
        if dst == src or src in dst.parents:
            raise ConfigError(f"output folder {out_root} is inside the input folder; choose another one")
        align = Aligner(transformed, self.path)
        written: list[Path] = []
        for name in self.names().values():
            doc = align.take(name[: -len(".txt")])
            out = out_root / name
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(doc.text.encode("utf-8"))
            written.append(out)
        align.finish()
        return written


def _old_id(doc_id: str, stem: str, new_stem: str) -> str:
    """The inner source's id of a renamed record id ``<new_stem>-<row>[#pointer]``."""
    prefix = f"{new_stem}-"
    if not doc_id.startswith(prefix):
        return doc_id
    base, sep, pointer = doc_id.partition("#")
    row = base[len(prefix) :]
    if not row.isdigit():
        raise InputFormatError(f"renamed output: unexpected document id at row {row!r}")
    return f"{stem}-{row}{sep}{pointer}"


def write_rename_map(path: Path, names: dict[str, str]) -> int:
    """Write the new name -> input name map (JSON lines, ASCII, 0600); returns the lines written.

    It links the renamed output to the input's names (which may be PHI): written only on request.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open_private(path) as fh:
        for original, new in names.items():
            fh.write(json.dumps({"output": new, "input": original}, ensure_ascii=True) + "\n")
    return len(names)
