"""Invisible characters do not hide names (issue 28, item 4): detection on a normalized view.

The real rules pipeline (``Deidentifier(model=None)``) on invented notes; the property test inserts
format characters into every detected name of a small corpus and requires the same coverage.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phiscrub.cli.app import cli
from phiscrub.deid import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.labels import fold

RULES = Deidentifier(model=None).load()

#: Characters a reader does not see (category Cf) and a soft hyphen, as inserted by an attacker or an export.
INVISIBLE = ["\u200b", "\u2060", "\u202e", "\u00ad", "\u200c", "\u200d", "\ufeff", "\u2066", "\u180e"]

CORPUS = [
    "Patient Zebulon Quackenbush was seen in clinic today.",
    "Seen by Dr. Harriet Pennywhistle on the ward.",
    "Discussed with his daughter, Marisol Fenwick-Abara, by phone.",
    "Pt Hal Brixby (MRN 4471-2290) is stable.",
    "Mrs. Odalys Verhoeven lives with her son Caspian.",
]


def name_chars(text: str, spans: list[Span]) -> set[int]:
    return {
        i
        for s in spans
        if fold(s.label, "coarse") == "NAME"
        for i in range(s.start, s.end)
        if text[i].isalnum()
    }


def covered(text: str, spans: list[Span]) -> set[int]:
    return {i for s in spans for i in range(s.start, s.end)}


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("Patient Zeb\u200bulon Quack\u200benbush was seen.", "Zeb\u200bulon Quack\u200benbush"),
        ("Patient Zebulon Quack\u2060enbush was seen.", "Quack\u2060enbush"),
        ("Patient Zebulon Quac\u202ekenbush was seen.", "Quac\u202ekenbush"),
        ("Patient Zeb\u00adulon Quackenbush was seen.", "Zeb\u00adulon Quackenbush"),
        ("Patient Ｚｅｂｕｌｏｎ Quackenbush was seen.", "Ｚｅｂｕｌｏｎ Quackenbush"),
        ("Patient Zebulon\nQuackenbush was seen.", "Quackenbush"),
        ("MRN 9 9 8 8 7 7 6 6, seen today.", "9 9 8 8 7 7 6 6"),
    ],
)
def test_hidden_names_and_spaced_ids_are_replaced_whole(text: str, hidden: str) -> None:
    red = RULES.redact(text).text
    seen = unicodedata.normalize("NFKC", red)
    for part in re.split(r"[\s\u200b\u2060\u202e\u00ad]+", hidden):  # every visible piece is gone
        assert part not in red and unicodedata.normalize("NFKC", part) not in seen, red
    if "\n" in text:  # the line break survives: the name is replaced on both lines
        assert red.count("\n") == 1 and red.count("[NAME]") == 2


def test_a_line_break_before_a_header_or_an_english_word_is_not_a_name() -> None:
    for text in ("Seen by Dr Smith\nPlan: rest and fluids.", "Seen by Dr Smith\nContinue the same dose."):
        spans = RULES.detect(text)
        assert all("\n" not in text[s.start : s.end] for s in spans)
        assert "Plan" in RULES.redact(text).text or "Continue" in RULES.redact(text).text


def test_a_note_without_such_characters_has_no_view() -> None:
    from phiscrub.text_view import make_view

    assert make_view("Patient Zebulon Quackenbush was seen on 03/12/2019.\nPlan: rest.") is None


def test_view_offsets_map_back_to_the_note() -> None:
    from phiscrub.text_view import make_view

    text = "Pt Ｚｅｂ\u200bulon ﬁne, MRN 1 2 3 4 5 6 7."
    view = make_view(text)
    assert view is not None and view.text == "Pt Zebulon fine, MRN 1234567."
    assert len(view.origin) == len(view.text)
    for k, ch in enumerate(view.text):  # each view character comes from its note character
        src = text[view.origin[k]]
        assert ch == src or ch in unicodedata.normalize("NFKC", src)


def test_redact_cli_replaces_a_name_hidden_by_a_zero_width_space(tmp_path: Path) -> None:
    notes = tmp_path / "in"
    notes.mkdir()
    (notes / "a.txt").write_text("Patient Zeb\u200bulon Quack\u200benbush was seen.\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(notes), "-o", str(out), "--rules-only"])
    assert result.exit_code == 0, result.output
    red = (out / "a.txt").read_text(encoding="utf-8")
    assert "ulon" not in red and "enbush" not in red and "[NAME]" in red


# -- property: the same coverage with invisible characters inside every name ------------------------------

EXAMPLES = int(os.environ.get("PHISCRUB_FUZZ_EXAMPLES", "60"))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=os.environ.get("PHISCRUB_FUZZ_EXAMPLES") is None,
)


@PROPERTY
@given(
    note=st.sampled_from(CORPUS),
    picks=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(INVISIBLE)), min_size=1, max_size=6),
)
def test_invisible_characters_inside_names_keep_the_same_coverage(
    note: str, picks: list[tuple[int, str]]
) -> None:
    clean = RULES.detect(Document("n", note))
    names = sorted(name_chars(note, clean))
    assert names, "every corpus note has a name the rules find"
    # Insert each picked character before a name character that is not the name's first.
    inside = [i for i in names if i - 1 in names]
    at: dict[int, str] = {}
    for k, ch in picks:
        pos = inside[k % len(inside)]
        at[pos] = at.get(pos, "") + ch
    text, where = "", []  # where[i]: the index of note character i in the new text
    for i, ch in enumerate(note):
        text += at.get(i, "")
        where.append(len(text))
        text += ch
    hidden = covered(text, RULES.detect(Document("n", text)))
    missed = [note[i] for i in names if where[i] not in hidden]
    assert not missed, (text, missed)


def test_the_format_character_list_is_category_cf() -> None:
    """The regex of format characters is the whole of Unicode category Cf (of this Python)."""
    import sys

    from phiscrub.text_view import _FORMAT_RE

    cf = {chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"}
    listed = {chr(c) for c in range(sys.maxunicode + 1) if _FORMAT_RE.match(chr(c))}
    assert listed == cf


def test_line_breaks_are_joined_in_english_notes_only() -> None:
    """Whether a capitalised word is a name is read from the English lexicon, so only English
    notes (or notes of no decided language) get their name line breaks joined."""
    from phiscrub.text_view import propose_on_views

    text = "Remiss fra Rigshospitalet\nEgen lege."
    seen: list[str] = []

    def propose(docs: Sequence[Document]) -> list[list[Span]]:
        seen.extend(d.text for d in docs)
        return [[] for _ in docs]

    propose_on_views([Document("a", text, (), {"lang": "nb"})], propose)
    propose_on_views([Document("b", text, (), {"lang": "en"})], propose)
    assert seen == [text, text.replace("\n", " ")]
