"""Property-based tests (hypothesis) of the invariants phiscrub's output rests on (issue 14, part 4).

* every reader/writer pair gives back the spans it wrote (JSONL, BRAT, i2b2 XML, CoNLL, plain text,
  CSV, and the placeholder filler, whose spans must sit exactly on its fills);
* the tokenizer's tokens and the sentence splitter's ranges cover every non-space character;
* rewriting keeps every character outside the replaced spans, byte for byte (the bare
  :func:`~phiscrub.transform.rewrite.rewrite` and the whole rules pipeline);
* surrogates never equal the original and keep its shape class as each generator promises;
* the same key gives the same output, another key another one, and date shifts keep intervals.

Bounded for CI: ``PHISCRUB_FUZZ_EXAMPLES`` examples per property (default 150), no deadline. A longer
fuzz run: ``PHISCRUB_FUZZ_EXAMPLES=5000 python -m pytest tests/reliability/test_properties.py``.
All values are invented; none is a real person's data.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import re
import string
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from phiscrub.deid import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.io import (
    BratReader,
    BratWriter,
    ConllReader,
    ConllWriter,
    CsvReader,
    CsvWriter,
    I2b2Reader,
    I2b2Writer,
    JsonlReader,
    JsonlWriter,
    TextReader,
    TextWriter,
)
from phiscrub.labels import FINE_LABELS
from phiscrub.text import sentences, tokenize
from phiscrub.transform.dates import format_date, parse_date, shift_date
from phiscrub.transform.fill import fill_text
from phiscrub.transform.rewrite import rewrite
from phiscrub.transform.surrogates import SHAPE_LABELS, SurrogateGenerator

#: Examples per property: bounded in CI, raised for a fuzz run.
EXAMPLES = int(os.environ.get("PHISCRUB_FUZZ_EXAMPLES", "150"))
BOUNDED = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=os.environ.get("PHISCRUB_FUZZ_EXAMPLES") is None,  # CI: the same examples every run
)
#: Slow properties (the whole rules pipeline, files on disk) get a third of the examples.
BOUNDED_SLOW = settings(BOUNDED, max_examples=max(EXAMPLES // 3, 10))

# -- strategies ---------------------------------------------------------------------------------------

#: Any text: every Unicode code point but lone surrogates (which no UTF-8 file can hold).
any_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=200)
#: Text plus the control characters and line breaks notes really hold.
note_chars = st.characters(exclude_categories=("Cs",)) | st.sampled_from("\r\n\t \x0b\x0c\x85\u2028\ufeff")
note_text = st.text(note_chars, min_size=1, max_size=200)
labels = st.sampled_from(FINE_LABELS)
doc_ids = st.from_regex(r"[a-z][a-z0-9_-]{0,11}", fullmatch=True)


@st.composite
def spans_over(draw: st.DrawFn, text: str, overlapping: bool = False, max_spans: int = 6) -> list[Span]:
    """Spans inside ``text``: any ranges when ``overlapping``, else disjoint ones in order."""
    n = len(text)
    if n == 0:
        return []
    if overlapping:
        out = []
        for _ in range(draw(st.integers(0, max_spans))):
            start = draw(st.integers(0, n - 1))
            end = draw(st.integers(start + 1, n))
            out.append(Span(start, end, draw(labels)))
        return out
    cuts = sorted(draw(st.sets(st.integers(0, n), max_size=2 * max_spans)))
    out = []
    for a, b in zip(cuts[::2], cuts[1::2]):
        if b > a and draw(st.booleans()):
            out.append(Span(a, b, draw(labels)))
    return out


@st.composite
def documents(
    draw: st.DrawFn, text: st.SearchStrategy[str] = note_text, overlapping: bool = True
) -> Document:
    body = draw(text)
    return Document(draw(doc_ids), body, tuple(draw(spans_over(body, overlapping))))


def unique_ids(docs: list[Document]) -> list[Document]:
    seen: set[str] = set()
    return [d for d in docs if not (d.id in seen or seen.add(d.id))]  # type: ignore[func-returns-value]


def span_triples(doc: Document) -> list[tuple[int, int, str]]:
    return sorted((s.start, s.end, s.label) for s in doc.spans)


# -- readers and writers ------------------------------------------------------------------------------


@BOUNDED_SLOW
@given(st.lists(documents(), min_size=1, max_size=3).map(unique_ids))
def test_jsonl_round_trip_keeps_texts_spans_scores_and_metadata(docs: list[Document]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        docs = [
            Document(
                d.id, d.text, tuple(Span(s.start, s.end, s.label, 0.5, "model") for s in d.spans), {"k": d.id}
            )
            for d in docs
        ]
        path = tmp_path / "c.jsonl"
        JsonlWriter().write(docs, path)
        reader = JsonlReader()
        back = list(reader.read(path))
        assert not reader.problems
        assert [(d.id, d.text, dict(d.metadata)) for d in back] == [
            (d.id, d.text, dict(d.metadata)) for d in docs
        ]
        for a, b in zip(docs, back):
            assert [(s.start, s.end, s.label, s.score, s.source) for s in b.spans] == [
                (s.start, s.end, s.label, s.score, s.source) for s in a.spans
            ]


@BOUNDED_SLOW
@given(st.lists(documents(), min_size=1, max_size=3).map(unique_ids))
def test_brat_round_trip_keeps_texts_byte_exact_and_spans(docs: list[Document]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        folder = tmp_path / "brat"
        BratWriter().write(docs, folder)
        reader = BratReader()
        back = {d.id: d for d in reader.read(folder)}
        assert not reader.problems, [str(p) for p in reader.problems]
        for doc in docs:
            assert back[doc.id].text == doc.text
            assert (folder / f"{doc.id}.txt").read_bytes() == doc.text.encode("utf-8")
            assert span_triples(back[doc.id]) == span_triples(doc)


_XML_OK = st.characters(exclude_categories=("Cs",), exclude_characters="\ufffe\uffff").filter(
    lambda c: c in "\t\n\r" or ord(c) >= 0x20
)


@BOUNDED_SLOW
@given(st.lists(documents(st.text(_XML_OK | st.sampled_from("\r\n<>&]]>\"'"), min_size=1, max_size=200)),
                min_size=1, max_size=3).map(unique_ids))  # fmt: skip
def test_i2b2_round_trip_keeps_texts_and_spans(docs: list[Document]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        folder = tmp_path / "xml"
        I2b2Writer().write(docs, folder)
        reader = I2b2Reader()
        back = {d.id: d for d in reader.read(folder)}
        assert not reader.problems, [str(p) for p in reader.problems]
        for doc in docs:
            assert back[doc.id].text == doc.text
            assert span_triples(back[doc.id]) == span_triples(doc)


# CoNLL keeps tokens, not spacing: a text of single-spaced tokens on non-empty lines (no sentence-ending
# punctuation, so each line is one sentence) comes back exactly, and so do token-aligned spans.
_conll_token = st.from_regex(r"[A-Za-z0-9]{1,8}", fullmatch=True) | st.sampled_from(list(",:;/()#+@&%*"))
_conll_line = st.lists(_conll_token, min_size=1, max_size=8)


@st.composite
def conll_documents(draw: st.DrawFn) -> Document:
    lines = draw(st.lists(_conll_line, min_size=1, max_size=4))
    text = "\n".join(" ".join(toks) for toks in lines)
    tokens = tokenize(text)
    spans: list[Span] = []
    line_of = [text.count("\n", 0, t.start) for t in tokens]
    i = 0
    while i < len(tokens):
        if draw(st.booleans()):
            j = i
            while j + 1 < len(tokens) and line_of[j + 1] == line_of[i] and draw(st.booleans()):
                j += 1
            spans.append(Span(tokens[i].start, tokens[j].end, draw(labels)))
            i = j + 1
        else:
            i += 1
    return Document(draw(doc_ids), text, tuple(spans))


@BOUNDED
@given(st.lists(conll_documents(), min_size=1, max_size=3).map(unique_ids))
def test_conll_round_trip_keeps_token_aligned_spans(docs: list[Document]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        path = tmp_path / "c.conll"
        ConllWriter().write(docs, path)
        reader = ConllReader()
        back = list(reader.read(path))
        assert not reader.problems
        assert [d.id for d in back] == [d.id for d in docs]
        for a, b in zip(docs, back):
            assert b.text == a.text
            assert span_triples(b) == span_triples(a)


@BOUNDED_SLOW
@given(st.lists(documents(overlapping=False), min_size=1, max_size=3).map(unique_ids))
def test_text_and_csv_round_trips_keep_every_byte(docs: list[Document]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        folder = tmp_path / "txt"
        TextWriter().write(docs, folder)
        assert {d.id: d.text for d in TextReader().read(folder)} == {d.id: d.text for d in docs}
        table = tmp_path / "t.csv"
        CsvWriter().write(docs, table)
        reader = CsvReader(id_column="id")
        assert [(d.id, d.text) for d in reader.read(table)] == [(d.id, d.text) for d in docs]
        assert not reader.problems


_template_piece = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="[]"), max_size=30)
_placeholder = st.sampled_from(["[PATIENT]", "[DOCTOR]", "[DATE]", "[AGE]", "[PHONE]", "[HOSPITAL]", "[CITY]",
                                "[STREET]", "[ZIP]", "[MEDICALRECORD]", "[ID]", "[EMAIL]", "[URL]", "[USERNAME]"])  # fmt: skip


@BOUNDED
@given(st.lists(st.tuples(_template_piece, _placeholder), min_size=1, max_size=6), _template_piece,
       st.integers(0, 2**32), st.sampled_from(["en", "es", "zh"]))  # fmt: skip
def test_placeholder_fill_spans_sit_exactly_on_the_fills(
    pieces: list[tuple[str, str]], tail: str, seed: int, lang: str
) -> None:
    template = "".join(a + b for a, b in pieces) + tail
    filled, spans = fill_text(template, random.Random(seed), lang)
    assert len(spans) == len(pieces)
    # Everything outside the spans is the template around the placeholders, in order.
    pos = 0
    for (before, placeholder), span in zip(pieces, spans):
        assert filled[pos : span.start] == before
        assert span.end > span.start and filled[span.start : span.end].strip()
        pos = span.end
    assert filled[pos:] == tail


# -- tokenizer ------------------------------------------------------------------------------------------


@BOUNDED
@given(any_text | note_text)
def test_tokens_and_sentences_cover_every_non_space_character(text: str) -> None:
    tokens = tokenize(text)
    pos = 0
    for tok in tokens:
        assert tok.start >= pos and tok.end > tok.start
        assert text[tok.start : tok.end] == tok.text
        assert not text[pos : tok.start].strip()  # the gap before a token is whitespace only
        assert not any(c.isspace() for c in tok.text)
        pos = tok.end
    assert not text[pos:].strip()
    pos = 0
    for start, end in sentences(text):
        assert pos <= start < end <= len(text)
        assert not text[pos:start].strip()
        assert text[start:end] == text[start:end].strip()
        pos = end
    assert not text[pos:].strip()


# -- rewrite keeps the rest of the text ---------------------------------------------------------------


def outside(text: str, spans: list[tuple[int, int]]) -> list[str]:
    """The pieces of ``text`` between the (sorted, disjoint) ranges."""
    out, pos = [], 0
    for start, end in spans:
        out.append(text[pos:start])
        pos = end
    return [*out, text[pos:]]


@BOUNDED
@given(st.data(), note_text)
def test_rewrite_keeps_text_outside_spans_and_points_at_replacements(data: st.DataObject, text: str) -> None:
    doc = Document("d", text)
    spans = data.draw(spans_over(text))
    news = [data.draw(st.text(max_size=12)) for _ in spans]
    out = rewrite(doc, list(zip(spans, news)), record_offsets=True)
    kept = [(a, b) for (a, b, *_ ) in out.metadata["source_offsets"]]  # fmt: skip
    assert all(out.text[a:b] == new for (a, b), new in zip(kept, [n for n in news if n]))
    # Between the replacements (empty ones delete text and leave no span) the old text is kept.
    rebuilt = outside(text, [(s.start, s.end) for s in spans])
    pieces = []
    for new in news:
        pieces.append(rebuilt.pop(0))
        pieces.append(new)
    assert out.text == "".join(pieces) + rebuilt[0]


_phi_words = st.sampled_from([
    "Dr. Zoltan Quenwick", "03/12/2019", "March 3, 2021", "617-555-0134", "MRN 0048-2231", "age 93",
    "zq@example.org", "Boston", "12 Elm Street", "Mr. Hal Brixby", "SSN 123-45-6789", "2/3/98",
])  # fmt: skip
_filler_words = st.text(st.characters(exclude_categories=("Cs",)), max_size=25)


@pytest.fixture(scope="module")
def rules_deid() -> Deidentifier:
    return Deidentifier(model=None, mode="placeholder", labels="fine").load()


@BOUNDED_SLOW
@given(st.lists(_phi_words | _filler_words, min_size=1, max_size=10))
def test_redaction_keeps_every_character_outside_the_replaced_spans(rules_deid: Deidentifier,
                                                                     parts: list[str]) -> None:  # fmt: skip
    text = " ".join(parts)
    red = rules_deid.redact_one(Document("d", text))
    assert len(red.spans) == len(red.result.spans)
    before = outside(text, [(s.start, s.end) for s in red.spans])
    after = outside(red.result.text, [(s.start, s.end) for s in red.result.spans])
    assert before == after
    assert all(red.result.text[s.start : s.end] == f"[{s.label}]" for s in red.result.spans)


# -- surrogates -----------------------------------------------------------------------------------------

KEY = b"property-test-key"
GEN = SurrogateGenerator(KEY)


def same_shape(original: str, new: str) -> bool:
    """Digits stay ASCII digits, letters ASCII letters of the same case, everything else as it was."""
    if len(original) != len(new):
        return False
    for a, b in zip(original, new):
        if a.isdigit() and a.isascii():
            ok = b.isdigit() and b.isascii()
        elif a.isalpha() and not re.match(r"[\u3400-\u9fff]", a):
            ok = b in string.ascii_letters and (b.isupper() if a.isupper() else b.islower())
        else:
            ok = a == b
        if not ok:
            return False
    return True


_id_text = st.text(st.sampled_from(string.ascii_letters + string.digits + "-/. #:"), min_size=1, max_size=16)


@BOUNDED
@given(st.sampled_from(sorted(SHAPE_LABELS | {"ZIP"})), _id_text, st.text(max_size=6))
def test_identifier_surrogates_differ_and_keep_the_shape(label: str, surface: str, patient: str) -> None:
    assume(any(c.isalnum() for c in surface))
    new = GEN.surrogate(label, surface, patient_id=patient)
    assert new != surface
    assert same_shape(surface, new)


_phone = st.from_regex(
    r"(\+\(?\d{1,3}\)? ?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}( ?(x|ext\.?) ?\d{1,5})?", fullmatch=True
)


@BOUNDED
@given(_phone, st.sampled_from(["PHONE", "FAX"]))
@example("+(1) 617-555-0134", "PHONE")  # a bracketed country code crashed phone() (an assert)
def test_phone_surrogates_differ_and_keep_digits_in_place(surface: str, label: str) -> None:
    new = GEN.surrogate(label, surface)
    assert new != surface
    assert len(new) == len(surface)
    assert all(b.isdigit() if a.isdigit() else a == b for a, b in zip(surface, new))


@BOUNDED
@given(st.tuples(*[st.integers(0, 255)] * 4))
def test_ip_surrogates_are_valid_addresses_of_the_same_widths(octets: tuple[int, ...]) -> None:
    surface = ".".join(map(str, octets))
    new = GEN.surrogate("IPADDRESS", surface)
    assert new != surface
    parts = new.split(".")
    assert [len(p) for p in parts] == [len(str(o)) for o in octets]
    assert all(0 <= int(p) <= 255 for p in parts)


_name_word = st.from_regex(r"[A-Z][a-z]{1,9}", fullmatch=True)
_names = st.builds(lambda ws, caps: (" ".join(ws).upper() if caps else " ".join(ws)),
                   st.lists(_name_word, min_size=1, max_size=3), st.booleans())  # fmt: skip


@BOUNDED
@given(_names, st.sampled_from(["PATIENT", "DOCTOR", "RELATIVE"]))
def test_name_surrogates_differ_and_keep_case_and_word_count(surface: str, label: str) -> None:
    new = GEN.surrogate(label, surface)
    assert new != surface
    assert len(new.split()) == len(surface.split())
    if surface.isupper():
        assert new.isupper()
    for a, b in zip(surface.split(), new.split()):
        assert b[0].isupper() and (len(b) == 1) == (len(a) == 1)


@BOUNDED
@given(st.integers(0, 130))
def test_ages_over_89_are_bucketed_and_younger_ones_kept(age: int) -> None:
    new = GEN.surrogate("AGE", f"{age} years")
    assert new == ("90+ years" if age > 89 else f"{age} years")


_DATE_TEMPLATES = ["{MM}/{DD}/{YYYY}", "{M}/{D}/{YYYY}", "{YYYY}-{MM}-{DD}", "{Month} {D}, {YYYY}",
                   "{D} {Mon} {YYYY}", "{Month} {Do}, {YYYY}", "{MONTH} {DD} {YYYY}"]  # fmt: skip
_days = st.dates(dt.date(1901, 3, 1), dt.date(2098, 10, 1))


@BOUNDED
@given(_days, st.sampled_from(_DATE_TEMPLATES), st.integers(-3000, 3000))
def test_date_shift_moves_by_exactly_the_days_in_the_same_format(
    day: dt.date, template: str, delta: int
) -> None:
    surface = format_date(day, template)
    parsed = parse_date(surface)
    assert parsed is not None and (parsed.year, parsed.month, parsed.day) == (day.year, day.month, day.day)
    moved = day + dt.timedelta(days=delta)
    assume(1900 <= moved.year <= 2099)
    # "10/10/2000" does not say whether days are zero-padded: the format kept is the one read.
    shifted = shift_date(surface, delta)
    assert shifted == format_date(moved, parsed.template)
    again = parse_date(shifted)
    assert again is not None and (again.year, again.month, again.day) == (moved.year, moved.month, moved.day)


@BOUNDED
@given(_days, _days, st.sampled_from(_DATE_TEMPLATES), st.text(min_size=1, max_size=6))
def test_date_surrogates_keep_intervals_within_a_patient(
    a: dt.date, b: dt.date, template: str, patient: str
) -> None:
    def back(surface: str) -> dt.date:
        p = parse_date(GEN.surrogate("DATE", surface, patient_id=patient))
        assert p is not None and p.year is not None and p.month is not None and p.day is not None
        return dt.date(p.year, p.month, p.day)

    new_a, new_b = back(format_date(a, template)), back(format_date(b, template))
    assert new_a - new_b == a - b
    assert new_a != a and (a - new_a).days % 7 == 0  # moved back by whole weeks
    assert 28 <= (a - new_a).days <= 364


@BOUNDED
@given(st.sampled_from(FINE_LABELS), st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30),
       st.text(max_size=6))  # fmt: skip
def test_the_same_key_gives_the_same_surrogate_and_never_crashes(
    label: str, surface: str, patient: str
) -> None:
    first = GEN.surrogate(label, surface, patient_id=patient, doc_id="d1")
    again = SurrogateGenerator(KEY).surrogate(label, surface, patient_id=patient, doc_id="d1")
    assert first == again


@BOUNDED
@given(
    _names | _id_text.filter(lambda s: sum(c.isalnum() for c in s) >= 6), st.binary(min_size=1, max_size=16)
)
def test_another_key_gives_other_surrogates(surface: str, other_key: bytes) -> None:
    assume(other_key != KEY)
    other = SurrogateGenerator(other_key)
    # One value can collide by chance (names are picked from finite lists): over a few values a
    # second key must give something else.
    label = "MEDICALRECORD" if any(c.isdigit() for c in surface) else "PATIENT"
    values = [surface, *(["Quenwick", "Brixby", "Oyelaran", "Tashkova"] if label == "PATIENT" else
                         [surface + "7", surface + "Q", "7" + surface])]  # fmt: skip
    assert [GEN.surrogate(label, v) for v in values] != [other.surrogate(label, v) for v in values]


@BOUNDED_SLOW
@given(st.lists(_phi_words | _filler_words, min_size=1, max_size=8), st.text(min_size=1, max_size=12))
def test_the_same_key_redacts_the_same_note_the_same_way(parts: list[str], key: str) -> None:
    assume(key.strip())
    text = " ".join(parts)
    doc = Document("n1", text, (), {"patient_id": "p1"})
    one = Deidentifier(model=None, mode="surrogate", key=key).redact(doc)
    two = Deidentifier(model=None, mode="surrogate", key=key).redact(doc)
    assert one.text == two.text and one.spans == two.spans
