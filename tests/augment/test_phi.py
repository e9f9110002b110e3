from __future__ import annotations

import random
import re

import pytest

from phiscrub.augment.phi import PhiAugmenter, standalone_spans
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, LabelError
from phiscrub.transform.fill import draw_surrogate

TEXT = (
    "PATIENT: ZEBULON QUIMBY\n"
    "Mr. Quimby (MRN 4471-220) was seen by Dr. Orla Fennimore at Larkspur Valley Hospital on 03/14/2021.\n"
    "He lives at 12 Heron Lane, Duckburg 90210, and can be reached at 555-201-7788.\n"
    "Age 58 years. Quimby works as a lighthouse keeper. Seen again by Dr. Fennimore.\n"
)


def _sp(surface: str, label: str, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(surface, start + 1)
    return Span(start, start + len(surface), label)


def _doc() -> Document:
    return Document(
        "n1",
        TEXT,
        (
            _sp("ZEBULON QUIMBY", "PATIENT"),
            _sp("Quimby", "PATIENT"),
            _sp("4471-220", "MEDICALRECORD"),
            _sp("Orla Fennimore", "DOCTOR"),
            _sp("Larkspur Valley Hospital", "HOSPITAL"),
            _sp("03/14/2021", "DATE"),
            _sp("12 Heron Lane", "STREET"),
            _sp("Duckburg", "CITY"),
            _sp("90210", "LOCATION"),
            _sp("555-201-7788", "PHONE"),
            _sp("58 years", "AGE"),
            _sp("Quimby", "NAME", 1),
            _sp("lighthouse keeper", "PROFESSION"),
            _sp("Fennimore", "DOCTOR", 1),
        ),
    )


def _gaps(doc: Document) -> list[str]:
    """The text between spans (and before the first, after the last)."""
    out, pos = [], 0
    for s in doc.spans:
        out.append(doc.text[pos : s.start])
        pos = s.end
    return [*out, doc.text[pos:]]


@pytest.mark.parametrize("seed", range(25))
def test_phi_augmentation_keeps_labels_order_and_text_between_spans(seed: int) -> None:
    doc = _doc()
    out = PhiAugmenter("en").augment(doc, random.Random(seed))
    assert [s.label for s in out.spans] == [s.label for s in doc.spans]
    for span in out.spans:
        assert span.end <= len(out.text)
        assert out.text[span.start : span.end].strip()
    assert _gaps(out) == _gaps(doc)


def test_phi_augmentation_replaces_every_value_over_a_few_copies() -> None:
    doc = _doc()
    changed = [False] * len(doc.spans)
    for seed in range(8):
        out = PhiAugmenter("en").augment(doc, random.Random(seed))
        for i, (old, new) in enumerate(zip(doc.spans, out.spans)):
            changed[i] |= doc.surface(old) != out.surface(new)
    assert all(changed)


def test_phi_augmentation_is_deterministic_by_seed_and_varies_across_seeds() -> None:
    doc = _doc()
    aug = PhiAugmenter("en")
    assert aug.augment(doc, random.Random(3)) == aug.augment(doc, random.Random(3))
    assert len({aug.augment(doc, random.Random(s)).text for s in range(6)}) == 6


@pytest.mark.parametrize("seed", range(10))
def test_phi_augmentation_keeps_shapes_of_case_age_and_postcode(seed: int) -> None:
    doc = _doc()
    out = PhiAugmenter("en").augment(doc, random.Random(seed))
    by_label = {s.label: out.surface(s) for s in reversed(out.spans)}  # first span of each label
    assert by_label["PATIENT"] == by_label["PATIENT"].upper()  # "ZEBULON QUIMBY" was in capitals
    assert re.fullmatch(r"\d+ years", by_label["AGE"])
    assert re.fullmatch(r"\d{5}(-\d{4})?", by_label["LOCATION"])  # a bare postcode stays a postcode
    assert re.search(r"\d", by_label["MEDICALRECORD"]) and re.search(r"\d", by_label["PHONE"])


def test_same_surface_of_same_type_gets_one_surrogate_within_a_copy() -> None:
    text = "Dr. Penhallow called. Penhallow will call back; ask for Penhallow."
    spans = [Span(m.start(), m.end(), "DOCTOR") for m in re.finditer("Penhallow", text)]
    out = PhiAugmenter("en").augment(Document("d", text, tuple(spans)), random.Random(1))
    assert len({out.surface(s) for s in out.spans}) == 1


def test_other_labels_and_overlapping_spans_are_left_as_they_are() -> None:
    text = "Sex: female. Seen at Saint Aldric Clinic North."
    other = Span(5, 11, "OTHER")
    outer = Span(text.index("Saint"), text.index(".", 20), "HOSPITAL")
    inner = Span(text.index("Saint"), text.index(" Clinic"), "CITY")
    doc = Document("d", text, (other, outer, inner))
    assert standalone_spans(doc) == [other]
    for seed in range(5):
        assert PhiAugmenter("en").augment(doc, random.Random(seed)) == doc


@pytest.mark.parametrize(
    ("label", "lang", "pattern"),
    [
        ("ZIP", "en", r"\d{5}(-\d{4})?"),
        ("ZIP", "es", r"\d{5}"),
        ("PHONE", "en", r"[\d()+. -]+(ext\. \d+)?"),
        ("DATE", "en", r".*\d.*"),
        ("MEDICALRECORD", "en", r"[A-Z0-9-]*\d[A-Z0-9-]*"),
        ("EMAIL", "en", r"[^@\s]+@[^@\s]+\.\w+"),
        ("NAME", "en", r"[^\d]+"),  # coarse NAME draws a patient name
        ("ID", "en", r".*\d.*"),  # coarse ID draws an identifier
        ("NOMBRE_SUJETO_ASISTENCIA", "es", r"[^\d]+"),  # corpus-native labels are mapped
        ("HOSPITAL", "en", r".*[A-Za-z].*"),
    ],
)
def test_draw_surrogate_gives_values_shaped_like_the_label(label: str, lang: str, pattern: str) -> None:
    for seed in range(15):
        value = draw_surrogate(label, random.Random(seed), lang)
        assert re.fullmatch(pattern, value), (label, seed)


@pytest.mark.parametrize(("label", "error"), [("OTHER", ConfigError), ("NOT_A_LABEL", LabelError)])
def test_draw_surrogate_refuses_labels_without_surrogates(label: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        draw_surrogate(label, random.Random(0))


def test_phi_augmenter_rejects_unknown_language() -> None:
    with pytest.raises(ConfigError):
        PhiAugmenter("xx")
