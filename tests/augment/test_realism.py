from __future__ import annotations

import random

import pytest

from phiscrub.augment.realism import abbreviate, realistic_variant, recase
from phiscrub.document import Document, Span
from phiscrub.transform.rewrite import apply_edits

TEXT = "Dr. Alan Grant saw Mr. Ian Malcolm, a 58-year-old, at Isla Nublar General Hospital in 1993."


def _doc() -> Document:
    def sp(surface: str, label: str) -> Span:
        i = TEXT.index(surface)
        return Span(i, i + len(surface), label)

    return Document(
        "d1",
        TEXT,
        (
            sp("Alan Grant", "DOCTOR"),
            sp("Ian Malcolm", "PATIENT"),
            sp("58", "AGE"),
            sp("Isla Nublar General Hospital", "HOSPITAL"),
            sp("1993", "DATE"),
        ),
    )


def _labels(doc: Document) -> list[str]:
    return [s.label for s in doc.spans]


@pytest.mark.parametrize("seed", range(40))
def test_realistic_variant_keeps_spans_valid_and_labels(seed: int) -> None:
    doc = _doc()
    out = realistic_variant(doc, random.Random(seed))
    assert _labels(out) == _labels(doc)
    for s in out.spans:
        surface = out.text[s.start : s.end]
        assert surface and surface == surface.strip()


def test_realistic_variant_produces_real_note_habits() -> None:
    outs = [realistic_variant(_doc(), random.Random(i)) for i in range(300)]
    texts = [o.text for o in outs]
    assert any(t.isupper() for t in texts)
    assert any(t == t.lower() for t in texts)
    assert any("dr " in t or "dr. " in t for t in texts)
    assert any("58yo" in t or "58 yo" in t or "58 y/o" in t for t in texts)
    assert any("INGH" in t for t in texts)
    assert any("'93" in t for t in texts)
    assert any(o.text[o.spans[1].start : o.spans[1].end] == "Malcolm" for o in outs)


def test_realistic_variant_is_deterministic_by_seed() -> None:
    assert realistic_variant(_doc(), random.Random(3)) == realistic_variant(_doc(), random.Random(3))


def test_recase_keeps_offsets_even_for_length_changing_characters() -> None:
    doc = Document("x", "Straße Müller", (Span(7, 13, "PATIENT"),))
    up = recase(doc, "upper")
    assert up.text == "STRAßE MÜLLER"
    assert up.text[7:13] == "MÜLLER"


@pytest.mark.parametrize(
    ("name", "acronym"),
    [("Mercy General Hospital", "MGH"), ("Hospital of the Good Shepherd", "HGS"), ("Lahey", "Lahey")],
)
def test_abbreviate(name: str, acronym: str) -> None:
    assert abbreviate(name) == acronym


def test_apply_edits_moves_and_resizes_spans() -> None:
    doc = Document(
        "x",
        "Dr. Ann Lee saw pt on 3/4. Age 58-year-old.",
        (Span(4, 11, "DOCTOR"), Span(22, 25, "DATE"), Span(31, 33, "AGE")),
    )
    out = apply_edits(doc, [(0, 3, "dr"), (4, 11, "A. Lee"), (33, 42, "yo"), (26, 26, " OK")])
    assert out.text == "dr A. Lee saw pt on 3/4. OK Age 58yo."
    assert [out.text[s.start : s.end] for s in out.spans] == ["A. Lee", "3/4", "58"]


@pytest.mark.parametrize("edit", [(5, 9, "x"), (6, 6, "x")])
def test_apply_edits_refuses_cutting_into_a_span(edit: tuple[int, int, str]) -> None:
    doc = Document("x", "Dr. Ann Lee saw pt.", (Span(4, 11, "DOCTOR"),))
    with pytest.raises(ValueError, match="cuts into span"):
        apply_edits(doc, [edit])


TEXT2 = "Plan per Alan Grant. Daughter Lex at bedside. Cultures sent on 03/14/2019; CVA 3/1998, CABG 2004."


def _doc2() -> Document:
    def sp(surface: str, label: str) -> Span:
        i = TEXT2.index(surface)
        return Span(i, i + len(surface), label)

    return Document(
        "d2",
        TEXT2,
        (sp("Alan Grant", "DOCTOR"), sp("Lex", "RELATIVE"), sp("03/14/2019", "DATE"), sp("3/1998", "DATE"),
         sp("2004", "DATE")),
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(60))
def test_realistic_variant_keeps_new_forms_valid(seed: int) -> None:
    out = realistic_variant(_doc2(), random.Random(seed))
    out.validate()
    assert _labels(out) == _labels(_doc2())
    for s in out.spans:
        surface = out.text[s.start : s.end]
        assert surface and surface == surface.strip()


@pytest.mark.parametrize(
    ("index", "pattern"),
    [
        (0, r"[A-Z]\.? [A-Z]{2,}"),  # "per A. GRANT"
        (1, r"lex"),  # "daughter lex" in a mixed-case note
        (2, r"3/14"),  # running text drops the year
        (3, r"3/98"),  # month / two-digit year
    ],
)
def test_realistic_variant_writes_real_note_dates_and_names(index: int, pattern: str) -> None:
    import re

    hits = 0
    for seed in range(400):
        out = realistic_variant(_doc2(), random.Random(seed))
        if out.text != out.text.lower() and out.text != out.text.upper():
            span = out.spans[index]
            hits += bool(re.fullmatch(pattern, out.text[span.start : span.end]))
    assert 0 < hits < 200
