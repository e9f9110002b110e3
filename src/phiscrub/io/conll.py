"""CoNLL-style token/tag files (BIO, read leniently as IOB1, BIOES or BILOU too).

Layout: one ``token<TAB or spaces>tag`` per line (extra middle columns are ignored: the token is
the first column and the tag the last), a blank line between sentences, and documents separated
by ``-DOCSTART-`` lines or ``# doc_id = X`` lines. Other lines starting with ``#`` whose last field
is not a tag are comments.

Reading rebuilds the text by joining tokens with one space and sentences with ``\\n``; the original
spacing is not recoverable from CoNLL. Tag rules when reading:

* ``B-X`` / ``S-X`` / ``U-X`` start an entity (``S``/``U`` also end it);
* ``I-X`` / ``E-X`` / ``L-X`` continue an open ``X`` entity, and start one after ``O``, after
  another type, or at the start of a sentence (IOB1 leniency); ``E``/``L`` end it;
* ``O`` ends any open entity. Entities never cross sentences.

Writing (convention): the text is split with :func:`phiscrub.text.sentences` and
:func:`phiscrub.text.tokenize`. A token is inside a span when it overlaps it (even partly); it is
tagged ``B-X`` when it is the first token of span X within its sentence, ``I-X`` otherwise. A token
overlapping several spans takes the first (leftmost) one. Each document starts with
``# doc_id = <id>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from phiscrub.document import Document, Span
from phiscrub.io.base import PathLike, SuffixReader, Writer
from phiscrub.text import sentences, tokenize

__all__ = ["CONLL_SUFFIXES", "ConllReader", "ConllWriter", "decode_tags", "looks_like_conll", "to_bio"]

#: File suffixes read from a folder.
CONLL_SUFFIXES: tuple[str, ...] = (".conll", ".bio", ".tsv", ".iob", ".bioes")

_TAG_RE = re.compile(r"^(?:O|[BIESLU]-\S+)$")
_DOC_ID_RE = re.compile(r"^#\s*doc_id\s*=\s*(.*?)\s*$")


def looks_like_conll(path: Path, max_lines: int = 50) -> bool:
    """True when the first non-blank, non-comment lines of ``path`` all end with a BIO-style tag."""
    seen = 0
    try:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if not line or line.startswith(("#", "-DOCSTART-")):
                    continue
                fields = line.split()
                if len(fields) < 2 or not _TAG_RE.match(fields[-1]):
                    return False
                seen += 1
                if seen >= max_lines:
                    break
    except (OSError, UnicodeDecodeError):
        return False
    return seen > 0


@dataclass
class _DocBuilder:
    doc_id: str
    explicit: bool
    sentences: list[list[tuple[str, str, int]]] = field(default_factory=list)
    current: list[tuple[str, str, int]] = field(default_factory=list)

    def end_sentence(self) -> None:
        if self.current:
            self.sentences.append(self.current)
            self.current = []


class ConllReader(SuffixReader):
    """Read CoNLL token/tag files from one file or a folder of :data:`CONLL_SUFFIXES` files.

    Document ids: the ``# doc_id`` value when given, else ``<stem>`` for a file holding one
    document, else ``<stem>-<n>`` (n from 1) per ``-DOCSTART-`` document.

    Args:
        corpus: label mapping name, see :class:`~phiscrub.io.base.Reader`.
    """

    format_name = "conll"
    suffixes = CONLL_SUFFIXES

    def read_file(self, path: Path, stem: str) -> Iterator[Document]:
        """Yield the documents of one CoNLL file."""
        try:
            lines = path.read_bytes().decode("utf-8").splitlines()
        except UnicodeDecodeError as err:
            self.report(str(path), "decode_error", f"{path} is not UTF-8 at byte {err.start}")
            return
        builders: list[_DocBuilder] = []
        cur = _DocBuilder(stem, explicit=False)
        n_docstart = 0
        for lineno, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line:
                cur.end_sentence()
                continue
            m = _DOC_ID_RE.match(line)
            if m or line.split()[0] == "-DOCSTART-":
                cur.end_sentence()
                builders.append(cur)
                if m:
                    cur = _DocBuilder(m.group(1), explicit=True)
                else:
                    n_docstart += 1
                    cur = _DocBuilder(f"{stem}-{n_docstart}", explicit=False)
                continue
            fields = raw.rstrip("\r\n").split("\t") if "\t" in raw else line.split()
            fields = [f.strip() for f in fields if f.strip()]
            if line.startswith("#") and (len(fields) < 2 or not _TAG_RE.match(fields[-1])):
                continue  # a comment line
            if len(fields) < 2:
                self.report(
                    cur.doc_id, "malformed_line", f"{path.name} line {lineno} has no tag; token skipped"
                )
                continue
            cur.current.append((fields[0], fields[-1], lineno))
        cur.end_sentence()
        builders.append(cur)
        kept = [b for b in builders if b.explicit or b.sentences]
        if len(kept) == 1 and not kept[0].explicit:
            kept[0].doc_id = stem
        for b in kept:
            yield self._build(b, path)

    def _build(self, b: _DocBuilder, path: Path) -> Document:
        parts: list[str] = []
        pos = 0
        found: list[tuple[int, int, str, int]] = []  # start, end, label, line of the first token
        for si, sent in enumerate(b.sentences):
            if si:
                parts.append("\n")
                pos += 1
            offsets: list[tuple[int, int]] = []
            tags: list[str] = []
            for ti, (tok, tag, lineno) in enumerate(sent):
                if ti:
                    parts.append(" ")
                    pos += 1
                offsets.append((pos, pos + len(tok)))
                parts.append(tok)
                pos += len(tok)
                if not _TAG_RE.match(tag):
                    self.report(
                        b.doc_id, "malformed_line", f"{path.name} line {lineno}: tag is not BIO; read as O"
                    )
                    tag = "O"
                tags.append(tag)
            for first, last, label in decode_tags(tags):
                found.append((offsets[first][0], offsets[last][1], label, sent[first][2]))
        text = "".join(parts)
        spans = [
            span
            for start, end, label, lineno in found
            if (span := self.make_span(b.doc_id, text, start, end, label, span_id=f"line{lineno}"))
            is not None
        ]
        return Document(b.doc_id, text, tuple(spans))


def decode_tags(tags: list[str]) -> list[tuple[int, int, str]]:
    """Entities of one sentence's tags as ``(first token, last token, label)``, read leniently.

    Accepts BIO, IOB1, BIOES and BILOU (rules in the module docstring); anything that is not
    ``O`` or ``<prefix>-<label>`` counts as ``O``.
    """
    out: list[tuple[int, int, str]] = []
    cur: tuple[int, str] | None = None  # (first token, label) of the open entity
    for i, tag in enumerate(tags):
        if not _TAG_RE.match(tag) or tag == "O":
            if cur is not None:
                out.append((cur[0], i - 1, cur[1]))
            cur = None
            continue
        prefix, label = tag[0], tag[2:]
        if prefix in "BSU" or cur is None or cur[1] != label:
            if cur is not None:
                out.append((cur[0], i - 1, cur[1]))
            cur = (i, label)
        if prefix in "SUEL":
            out.append((cur[0], i, cur[1]))
            cur = None
    if cur is not None:
        out.append((cur[0], len(tags) - 1, cur[1]))
    return out


class ConllWriter(Writer):
    """Write documents to one CoNLL file (``token<TAB>tag``), see the module docstring for tags."""

    format_name = "conll"

    def write(self, docs: Iterable[Document], path: PathLike) -> list[Path]:
        """Write ``docs`` to the file ``path`` (parent folders created); return ``[path]``."""
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8", newline="\n") as fh:
            for doc in docs:
                fh.write(f"# doc_id = {doc.id}\n")
                for sent in to_bio(doc):
                    fh.writelines(f"{tok}\t{tag}\n" for tok, tag in sent)
                    fh.write("\n")
        return [out]


def to_bio(doc: Document) -> list[list[tuple[str, str]]]:
    """The document as sentences of ``(token, BIO tag)`` pairs (convention in the module docstring)."""
    tokens = tokenize(doc.text)
    spans = list(doc.spans)  # sorted by start
    out: list[list[tuple[str, str]]] = []
    ti = 0
    lo = 0  # spans before lo end before the current token: they can no longer overlap any token
    for s_start, s_end in sentences(doc.text):
        sent: list[tuple[str, str]] = []
        prev: Span | None = None
        while ti < len(tokens) and tokens[ti].start < s_end:
            tok = tokens[ti]
            ti += 1
            if tok.start < s_start:
                continue
            while lo < len(spans) and spans[lo].end <= tok.start:
                lo += 1
            span: Span | None = None
            for k in range(lo, len(spans)):
                if spans[k].start >= tok.end:
                    break
                if spans[k].end > tok.start:
                    span = spans[k]
                    break
            if span is None:
                sent.append((tok.text, "O"))
            else:
                sent.append((tok.text, ("I-" if span is prev else "B-") + span.label))
            prev = span
        if sent:
            out.append(sent)
    return out
