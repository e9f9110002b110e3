"""BRAT standoff: a folder of ``NAME.txt`` + ``NAME.ann`` pairs.

Only text-bound annotations are read: ``T1<TAB>LABEL start end<TAB>surface``. A discontinuous
annotation ``LABEL s1 e1;s2 e2`` becomes one span per fragment (its recorded surface is the
fragments joined by a space, as BRAT writes it). Other lines (``#`` notes, ``A`` attributes,
``R`` relations, ``E`` events, ...) are ignored.

Texts are read and written with ``newline=""`` so that ``\\r\\n`` counts as two characters, as in
BRAT's offsets. The document id is the path of the ``.txt`` relative to the folder, without the
extension (the file stem for a flat folder).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from phiscrub.document import Document, Span
from phiscrub.errors import InputFormatError
from phiscrub.io.base import FolderWriter, PathLike, Reader, doc_path, surfaces_match

__all__ = ["BratReader", "BratWriter"]


class BratReader(Reader):
    """Read BRAT ``.txt``/``.ann`` pairs from a folder (recursively) or from one ``.txt``/``.ann``.

    A ``.txt`` without ``.ann`` is a document without annotations; an ``.ann`` without ``.txt``
    is reported (``missing_file``) and skipped.

    Args:
        corpus: label mapping name (e.g. ``"meddocan"``), see :class:`~phiscrub.io.base.Reader`.
    """

    format_name = "brat"

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield one document per ``.txt``/``.ann`` stem under ``path``, sorted by id.

        Raises:
            InputFormatError: ``path`` does not exist.
        """
        root = Path(path)
        if root.is_dir():
            stems = sorted(
                {p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*") if _is_doc_file(p)}
            )
            for stem in stems:
                yield from self._read_pair(root / (stem + ".txt"), root / (stem + ".ann"), stem)
        elif root.is_file():
            # Build the pair from the name, not with_suffix twice: "note.v2.txt" is the note "note.v2".
            base = root.with_suffix("")
            yield from self._read_pair(
                base.parent / (base.name + ".txt"), base.parent / (base.name + ".ann"), base.name
            )
        else:
            raise InputFormatError(f"no such file or folder: {root}")

    def _read_pair(self, txt: Path, ann: Path, doc_id: str) -> Iterator[Document]:
        if not txt.is_file():
            self.report(doc_id, "missing_file", f"no .txt next to {ann}")
            return
        try:
            text = txt.read_bytes().decode("utf-8")
            ann_text = ann.read_bytes().decode("utf-8") if ann.is_file() else ""
        except UnicodeDecodeError as err:
            self.report(doc_id, "decode_error", f"not UTF-8 at byte {err.start}")
            return
        spans = self._parse_ann(doc_id, text, ann_text)
        yield Document(doc_id, text, tuple(spans))

    def _parse_ann(self, doc_id: str, text: str, ann_text: str) -> list[Span]:
        spans: list[Span] = []
        for lineno, raw in enumerate(ann_text.split("\n"), start=1):
            line = raw.rstrip("\r")
            if not line.startswith("T"):
                continue  # notes, attributes, relations, events, blank lines
            parts = line.split("\t")
            if len(parts) < 2 or " " not in parts[1]:
                self.report(doc_id, "malformed_line", f".ann line {lineno} is not a text-bound annotation")
                continue
            span_id = parts[0]
            surface = "\t".join(parts[2:]) if len(parts) > 2 else None
            label, _, locs = parts[1].partition(" ")
            fragments: list[tuple[int, int]] = []
            try:
                for frag in locs.split(";"):
                    s, e = frag.split()
                    fragments.append((int(s), int(e)))
            except ValueError:
                self.report(doc_id, "malformed_line", f".ann line {lineno} has unreadable offsets", span_id)
                continue
            spans.extend(self._entity_spans(doc_id, text, span_id, label, fragments, surface))
        return spans

    def _entity_spans(
        self,
        doc_id: str,
        text: str,
        span_id: str,
        label: str,
        fragments: list[tuple[int, int]],
        surface: str | None,
    ) -> list[Span]:
        """One span per fragment, or none (reported) when any fragment or the surface is bad."""
        if len(fragments) == 1:
            s, e = fragments[0]
            span = self.make_span(doc_id, text, s, e, label, span_id=span_id, surface=surface)
            return [span] if span is not None else []
        # Discontinuous: check every fragment's offsets, then the joined surface, then the label.
        out: list[Span] = []
        for s, e in fragments:
            span = self.make_span(doc_id, text, s, e, label, span_id=span_id)
            if span is None:
                return []
            out.append(span)
        if surface is not None:
            joined = " ".join(text[s:e] for s, e in fragments)
            if not surfaces_match(surface, joined):
                self.report(
                    doc_id,
                    "surface_mismatch",
                    "recorded surface differs from the text",
                    span_id,
                    fragments[0][0],
                    fragments[-1][1],
                )
                return []
        return out


class BratWriter(FolderWriter):
    """Write documents as ``<id>.txt`` + ``<id>.ann`` pairs under a folder.

    T ids are renumbered ``T1..Tn`` in span order; surfaces have line breaks replaced by spaces
    so each annotation stays on one line. Score and source are not stored (BRAT has no place).
    """

    format_name = "brat"

    def write_document(self, doc: Document, root: Path) -> list[Path]:
        """Write ``<id>.txt`` and ``<id>.ann`` under ``root``; return both paths.

        Raises:
            InputFormatError: the document id cannot be used as a file name.
        """
        txt = doc_path(root, doc.id, ".txt")
        ann = doc_path(root, doc.id, ".ann")
        with txt.open("w", encoding="utf-8", newline="") as fh:
            fh.write(doc.text)
        with ann.open("w", encoding="utf-8", newline="") as fh:
            for i, span in enumerate(doc.spans, start=1):
                surface = doc.text[span.start : span.end].replace("\r\n", " ")
                surface = surface.replace("\n", " ").replace("\r", " ")
                fh.write(f"T{i}\t{span.label} {span.start} {span.end}\t{surface}\n")
        return [txt, ann]


def _is_doc_file(p: Path) -> bool:
    return p.suffix in (".txt", ".ann") and p.is_file() and not p.name.startswith(".")
