"""i2b2 de-identification XML, 2014 and 2006 styles.

* 2014 (one note per file)::

    <deIdi2b2><TEXT><![CDATA[...]]></TEXT><TAGS>
      <DATE id="P0" start="16" end="26" text="2067-05-03" TYPE="DATE" comment=""/> ...
    </TAGS></deIdi2b2>

  The element name is the coarse category, ``TYPE`` the fine type. ``TYPE="OTHER"`` under
  ``LOCATION`` is read as ``LOCATION-OTHER`` (a location, not the not-PHI ``OTHER``).
* 2006 (many records per file, inline tags)::

    <ROOT><RECORD ID="1"><TEXT>Seen on <PHI TYPE="DATE">2067-05-03</PHI> ...</TEXT></RECORD></ROOT>

  Offsets are computed on the text with the tags removed. The document id is the record ``ID``.

The writer writes 2014 style. XML parsing turns ``\\r\\n`` into ``\\n``, so the writer escapes
carriage returns (``&#13;``) and then uses an escaped text instead of CDATA.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from xml.parsers import expat

from phiscrub.document import Document, Span
from phiscrub.errors import InputFormatError, LabelError
from phiscrub.io.base import FolderWriter, SuffixReader, doc_path
from phiscrub.labels import COARSE_LABELS, FINE_TO_COARSE, to_fine

__all__ = ["I2b2Reader", "I2b2Writer", "to_2014_xml"]

# Characters XML 1.0 forbids even as character references (form feeds in old notes, for instance).
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


class I2b2Reader(SuffixReader):
    """Read i2b2 XML files (2014 or 2006 style, detected per file) from a file or a folder of ``.xml``.

    Args:
        corpus: label mapping name (``"i2b2-2014"``, ``"i2b2-2006"``), see
            :class:`~phiscrub.io.base.Reader`.
    """

    format_name = "i2b2"
    suffixes = (".xml",)

    def read_file(self, path: Path, stem: str) -> Iterator[Document]:
        """Yield the notes of one XML file (folders are read recursively, sorted)."""
        try:
            tree = ET.parse(path)
        except ET.ParseError as err:
            line, col = err.position
            reason = expat.errors.messages.get(err.code, "parse error")
            self.report(
                str(path), "malformed_file", f"malformed XML in {path}: {reason} at line {line}, col {col}"
            )
            return
        except UnicodeDecodeError:
            self.report(str(path), "decode_error", f"{path} is not valid in its declared encoding")
            return
        root = tree.getroot()
        if root.tag == "deIdi2b2" or (root.find("TEXT") is not None and root.find("TAGS") is not None):
            doc = self._read_2014(root, stem, path)
            if doc is not None:
                yield doc
        elif root.tag == "ROOT" or root.find("RECORD") is not None:
            yield from self._read_2006(root, stem)
        else:
            self.report(
                str(path), "malformed_file", f"{path}: root <{root.tag}> is neither i2b2 2014 nor 2006"
            )

    def _read_2014(self, root: ET.Element, doc_id: str, path: Path) -> Document | None:
        text_el = root.find("TEXT")
        if text_el is None:
            self.report(doc_id, "malformed_file", f"{path} has no <TEXT>")
            return None
        text = text_el.text or ""
        spans: list[Span] = []
        tags = root.find("TAGS")
        for i, tag in enumerate(tags if tags is not None else []):
            span_id = tag.get("id") or f"#{i}"
            label = tag.get("TYPE") or tag.tag
            if label.upper() == "OTHER" and tag.tag.upper() not in ("OTHER", "PHI"):
                label = f"{tag.tag}-OTHER"
            start, end = _int_or_none(tag.get("start")), _int_or_none(tag.get("end"))
            if start is None or end is None:
                self.report(doc_id, "malformed_span", "start/end attributes missing or not integers", span_id)
                continue
            span = self.make_span(doc_id, text, start, end, label, span_id=span_id, surface=tag.get("text"))
            if span is not None:
                spans.append(span)
        return Document(doc_id, text, tuple(spans))

    def _read_2006(self, root: ET.Element, stem: str) -> Iterator[Document]:
        for n, record in enumerate(root.iter("RECORD"), start=1):
            doc_id = record.get("ID") or f"{stem}-{n}"
            text_el = record.find("TEXT")
            if text_el is None:
                self.report(doc_id, "malformed_record", "record has no <TEXT>")
                continue
            pieces: list[str] = [text_el.text or ""]
            pos = len(pieces[0])
            found: list[tuple[int, int, str, str]] = []
            for k, child in enumerate(text_el):
                surface = "".join(child.itertext())
                if child.tag == "PHI" or child.get("TYPE") is not None:
                    label = child.get("TYPE") or child.tag
                    found.append((pos, pos + len(surface), label, child.get("id") or f"#{k}"))
                tail = child.tail or ""
                pieces += [surface, tail]
                pos += len(surface) + len(tail)
            text = "".join(pieces)
            spans = [
                span
                for start, end, label, span_id in found
                if (span := self.make_span(doc_id, text, start, end, label, span_id=span_id)) is not None
            ]
            yield Document(doc_id, text, tuple(spans))


class I2b2Writer(FolderWriter):
    """Write one i2b2-2014-style XML file per document, ``<id>.xml``, under a folder.

    The element name is the coarse category of the span label (``PHI`` when unknown, ``OTHER``
    for not-PHI labels); ``TYPE`` is the label itself (``LOCATION-OTHER`` is written as
    ``<LOCATION TYPE="OTHER">``, as in the 2014 release).
    """

    format_name = "i2b2"

    def write_document(self, doc: Document, root: Path) -> list[Path]:
        """Write ``<id>.xml`` under ``root``; return its path.

        Raises:
            InputFormatError: the document id cannot be used as a file name, or the text cannot
                be held in XML (see :func:`to_2014_xml`).
        """
        out = doc_path(root, doc.id, ".xml")
        with out.open("w", encoding="utf-8", newline="") as fh:
            fh.write(to_2014_xml(doc))
        return [out]


def to_2014_xml(doc: Document) -> str:
    """Serialise one document as an i2b2-2014 XML string.

    Raises:
        InputFormatError: the text holds control characters that XML 1.0 cannot represent.
    """
    bad = _XML_ILLEGAL.search(doc.text)
    if bad is not None:
        raise InputFormatError(
            f"text has a control character (U+{ord(bad.group()):04X}) at offset {bad.start()} "
            "that XML 1.0 cannot hold",
            doc_id=doc.id,
        )
    if "\r" in doc.text or "]]>" in doc.text:
        body = _escape(doc.text)
    else:
        body = f"<![CDATA[{doc.text}]]>"
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>', "<deIdi2b2>", f"<TEXT>{body}</TEXT>", "<TAGS>"]
    for i, span in enumerate(doc.spans):
        tag, type_ = _category(span.label)
        surface = _escape(doc.text[span.start : span.end], attr=True)
        lines.append(
            f'<{tag} id="P{i}" start="{span.start}" end="{span.end}" text="{surface}" '
            f'TYPE="{_escape(type_, attr=True)}" comment="" />'
        )
    lines += ["</TAGS>", "</deIdi2b2>", ""]
    return "\n".join(lines)


def _category(label: str) -> tuple[str, str]:
    """(element name, TYPE) for a span label."""
    if label.upper() == "LOCATION-OTHER":
        return "LOCATION", "OTHER"
    try:
        fine = to_fine(label)
    except LabelError:
        return "PHI", label
    if fine in COARSE_LABELS:
        return fine, label
    return FINE_TO_COARSE.get(fine) or "OTHER", label


def _escape(value: str, attr: bool = False) -> str:
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    if attr:
        # Attribute-value normalisation would turn these into spaces.
        value = value.replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")
    return value


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
