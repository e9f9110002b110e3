"""i2b2 XML reading (2014 and 2006 styles) and 2014-style writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiscrub.document import Document, Span
from phiscrub.errors import InputFormatError
from phiscrub.io.i2b2 import I2b2Reader, I2b2Writer

XML_2014 = """<?xml version="1.0" encoding="UTF-8" ?>
<deIdi2b2>
<TEXT><![CDATA[Record date: 2067-05-03
Zorblat Quenwick, 64, seen at Vexmoor Clinic in Trellford.
]]></TEXT>
<TAGS>
<DATE id="P0" start="13" end="23" text="2067-05-03" TYPE="DATE" comment="" />
<NAME id="P1" start="24" end="40" text="Zorblat Quenwick" TYPE="PATIENT" comment="" />
<AGE id="P2" start="42" end="44" text="64" TYPE="AGE" comment="" />
<LOCATION id="P3" start="54" end="68" text="Vexmoor Clinic" TYPE="HOSPITAL" comment="" />
<LOCATION id="P4" start="72" end="81" text="Trellford" TYPE="OTHER" comment="" />
</TAGS>
</deIdi2b2>
"""

XML_2006 = """<ROOT>
<RECORD ID="101">
<TEXT>Admitted <PHI TYPE="DATE">03/14/2071</PHI> by Dr. <PHI TYPE="DOCTOR">Ilsa Marrow</PHI>.
MRN <PHI TYPE="ID">884-21-09</PHI> &amp; phone <PHI TYPE="PHONE">555-0142</PHI>
</TEXT>
</RECORD>
<RECORD ID="102">
<TEXT>Patient <PHI TYPE="PATIENT">Ode Varnish</PHI> at <PHI TYPE="HOSPITAL">St. Wobble</PHI></TEXT>
</RECORD>
</ROOT>
"""


def _surfaces(doc: Document) -> list[tuple[str, str]]:
    return [(s.label, doc.text[s.start : s.end]) for s in doc.spans]


@pytest.mark.parametrize(
    ("corpus", "labels"),
    [
        (None, ["DATE", "PATIENT", "AGE", "HOSPITAL", "LOCATION-OTHER"]),
        ("i2b2-2014", ["DATE", "PATIENT", "AGE", "HOSPITAL", "LOCATION"]),
    ],
)
def test_reads_2014_standoff_tags(tmp_path: Path, corpus: str | None, labels: list[str]) -> None:
    (tmp_path / "110-01.xml").write_text(XML_2014, encoding="utf-8")
    reader = I2b2Reader(corpus=corpus)
    (doc,) = reader.read(tmp_path / "110-01.xml")
    assert not reader.problems
    assert doc.id == "110-01"
    surfaces = ["2067-05-03", "Zorblat Quenwick", "64", "Vexmoor Clinic", "Trellford"]
    assert _surfaces(doc) == list(zip(labels, surfaces))


def test_reads_2006_inline_records_with_offsets_on_the_untagged_text(tmp_path: Path) -> None:
    (tmp_path / "train.xml").write_text(XML_2006, encoding="utf-8")
    reader = I2b2Reader(corpus="i2b2-2006")
    docs = list(reader.read(tmp_path / "train.xml"))
    assert not reader.problems
    assert [d.id for d in docs] == ["101", "102"]
    assert docs[0].text == "Admitted 03/14/2071 by Dr. Ilsa Marrow.\nMRN 884-21-09 & phone 555-0142\n"
    assert _surfaces(docs[0]) == [
        ("DATE", "03/14/2071"),
        ("DOCTOR", "Ilsa Marrow"),
        ("IDNUM", "884-21-09"),
        ("PHONE", "555-0142"),
    ]
    assert docs[1].text == "Patient Ode Varnish at St. Wobble"
    assert _surfaces(docs[1]) == [("PATIENT", "Ode Varnish"), ("HOSPITAL", "St. Wobble")]


def test_2006_unknown_inline_type_is_reported(tmp_path: Path) -> None:
    xml = '<ROOT><RECORD ID="7"><TEXT>Seen by <PHI TYPE="GADGET">Ode</PHI>.</TEXT></RECORD></ROOT>'
    (tmp_path / "x.xml").write_text(xml, encoding="utf-8")
    reader = I2b2Reader()
    (doc,) = reader.read(tmp_path / "x.xml")
    assert doc.text == "Seen by Ode." and doc.spans == ()
    (problem,) = reader.problems
    assert (problem.doc_id, problem.kind, problem.start, problem.end) == ("7", "unknown_label", 8, 11)


def test_malformed_xml_is_reported_naming_the_file_and_other_files_are_read(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text(XML_2014, encoding="utf-8")
    (tmp_path / "b.xml").write_text("<deIdi2b2><TEXT>Zorblat & co</TEXT>", encoding="utf-8")
    (tmp_path / "c.xml").write_text(XML_2014, encoding="utf-8")
    reader = I2b2Reader()
    docs = list(reader.read(tmp_path))
    assert [d.id for d in docs] == ["a", "c"]
    (problem,) = reader.problems
    assert problem.kind == "malformed_file" and "b.xml" in problem.doc_id and "b.xml" in problem.message
    assert "Zorblat" not in problem.message


@pytest.mark.parametrize(
    ("tag", "kind", "span_id"),
    [
        ('<DATE id="P9" start="13" end="900" text="x" TYPE="DATE" />', "span_offset", "P9"),
        ('<DATE id="P9" start="13" end="23" text="2067-05-04" TYPE="DATE" />', "surface_mismatch", "P9"),
        ('<DATE id="P9" start="13" end="23" text="2067-05-03" TYPE="EPOCH" />', "unknown_label", "P9"),
        ('<DATE id="P9" start="x" end="23" text="2067-05-03" TYPE="DATE" />', "malformed_span", "P9"),
    ],
)
def test_2014_bad_tag_is_reported_and_the_note_kept(
    tmp_path: Path, tag: str, kind: str, span_id: str
) -> None:
    (tmp_path / "n.xml").write_text(XML_2014.replace("</TAGS>", tag + "\n</TAGS>"), encoding="utf-8")
    reader = I2b2Reader()
    (doc,) = reader.read(tmp_path / "n.xml")
    assert len(doc.spans) == 5
    (problem,) = reader.problems
    assert (problem.doc_id, problem.kind, problem.span_id) == ("n", kind, span_id)


def test_writer_round_trips_crlf_accents_tabs_and_markup_characters(tmp_path: Path) -> None:
    docs = [
        Document(
            "n1",
            'Zoë Ñúñez <b> & "Q"\r\nDOB:\t2071-01-02 ]]> end',
            (
                Span(0, 9, "PATIENT"),
                Span(10, 13, "OTHER"),
                Span(26, 36, "DATE"),
                Span(4, 14, "LOCATION-OTHER"),
            ),
        ),
        Document(
            "n2", "Plain note for Ode Varnish at Vexmoor.\n", (Span(15, 26, "PATIENT"), Span(30, 37, "NAME"))
        ),
        Document("n3", "", ()),
    ]
    I2b2Writer().write(docs, tmp_path)
    reader = I2b2Reader()
    back = list(reader.read(tmp_path))
    assert not reader.problems
    assert [(d.id, d.text, d.spans) for d in back] == [(d.id, d.text, d.spans) for d in docs]
    assert "<![CDATA[" in (tmp_path / "n2.xml").read_text(encoding="utf-8")
    assert '<LOCATION id="P1"' in (tmp_path / "n1.xml").read_text(encoding="utf-8")


def test_writer_refuses_text_that_xml_cannot_hold(tmp_path: Path) -> None:
    doc = Document("ff", "Page one\x0cZoë Quenwick", (Span(9, 21, "PATIENT"),))
    with pytest.raises(InputFormatError, match="U\\+000C") as err:
        I2b2Writer().write([doc], tmp_path)
    assert err.value.doc_id == "ff" and "Quenwick" not in str(err.value)
