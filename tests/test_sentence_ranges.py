"""phiscrub.document.sentence_ranges: the one sentence builder behind sentence-level corpora."""

from __future__ import annotations

import pytest

from phiscrub.augment.llm import to_sentence_documents
from phiscrub.crosslingual.fewshot import sentence_documents
from phiscrub.document import Document, Span, sentence_ranges

TEXT = "Seen by Dr. Alma Rivers today. Follow up in two weeks. Call 617-555-0142."


def _doc(*spans: Span) -> Document:
    return Document("n1", TEXT, spans)


def test_sentences_without_spans_are_the_text_splitter_ranges() -> None:
    ranges = sentence_ranges(_doc())
    assert [TEXT[s:e] for s, e in ranges] == [
        "Seen by Dr. Alma Rivers today.",
        "Follow up in two weeks.",
        "Call 617-555-0142.",
    ]


@pytest.mark.parametrize(
    ("start", "end", "joined"),
    [
        (TEXT.index("today"), TEXT.index("Follow") + 6, 2),  # crosses one boundary: two sentences join
        (TEXT.index("Rivers"), TEXT.index("Call") + 4, 3),  # crosses two: all three join
        (TEXT.index(" Follow"), TEXT.index("Follow") + 6, 1),  # starts in the gap: stretched, not cut
    ],
)
def test_a_span_is_never_cut(start: int, end: int, joined: int) -> None:
    span = Span(start, end, "PATIENT")
    ranges = sentence_ranges(_doc(span))
    assert len(ranges) == 3 - joined + 1
    assert any(s <= span.start and span.end <= e for s, e in ranges)


def test_llm_and_fewshot_sentence_documents_share_the_ranges() -> None:
    span = Span(TEXT.index(" Follow"), TEXT.index("Follow") + 6, "PATIENT")
    doc = _doc(span)
    llm = to_sentence_documents(doc)
    few = sentence_documents([doc], granularity="fine")
    assert [d.text for d in llm] == [d.text for d in few] == [TEXT[s:e] for s, e in sentence_ranges(doc)]
    assert sum(len(d.spans) for d in llm) == sum(len(d.spans) for d in few) == 1
