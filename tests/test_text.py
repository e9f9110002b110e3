"""Sentence splitting keeps its behaviour and looks back a bounded stretch (issue 18, case 3)."""

from __future__ import annotations

import re

import pytest

from phiscrub import text as text_module
from phiscrub.text import sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Seen by Dr. Grant today. Stable.", ["Seen by Dr. Grant today.", "Stable."]),
        ("Pt J. A. Smith seen. BP ok", ["Pt J. A. Smith seen.", "BP ok"]),
        ("Line one\nLine two", ["Line one", "Line two"]),
        ("Given 5 mg. then rest. Next", ["Given 5 mg. then rest.", "Next"]),
    ],
)
def test_sentences_end_at_periods_and_line_breaks_but_not_abbreviations(
    text: str, expected: list[str]
) -> None:
    assert [text[s:e] for s, e in sentences(text)] == expected


class _Recorder:
    """Stands in for the look-back pattern and records how long each searched stretch is."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.lengths: list[int] = []

    def search(self, string: str) -> re.Match[str] | None:
        self.lengths.append(len(string))
        return self.pattern.search(string)


def test_case3_sentence_splitter_looks_back_a_bounded_stretch(monkeypatch: pytest.MonkeyPatch) -> None:
    # One line of abbreviations never ends a sentence: the old splitter searched the whole
    # sentence so far before every period (quadratic in the line's length).
    recorder = _Recorder(text_module._WORD_BEFORE_RE)
    monkeypatch.setattr(text_module, "_WORD_BEFORE_RE", recorder)
    line = "seen by Dr. Grant and Dr. Sattler " * 2000
    assert len(sentences(line)) == 1
    assert len(recorder.lengths) == 4000
    assert max(recorder.lengths) <= 64
