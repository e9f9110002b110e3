from __future__ import annotations

import random

import pytest

from phiscrub.augment.mention import MentionReplacementAugmenter
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError

NOTES = [
    ("m1", "Seen by Dr. Pelletier on 01/02/2020 in Rivermouth.", [("Pelletier", "DOCTOR"), ("01/02/2020", "DATE"),
                                                                  ("Rivermouth", "CITY")]),
    ("m2", "Dr. Abernathy-Soto called Mr. Quill on 3/4/21.", [("Abernathy-Soto", "DOCTOR"), ("Quill", "PATIENT"),
                                                             ("3/4/21", "DATE")]),
    ("m3", "Quill returned on March 5, 2021; Dr. Pelletier agreed.", [("Quill", "PATIENT"), ("March 5, 2021", "DATE"),
                                                                    ("Pelletier", "DOCTOR")]),
]  # fmt: skip


def _corpus() -> list[Document]:
    docs = []
    for doc_id, text, phi in NOTES:
        spans, pos = [], 0
        for surface, label in phi:
            start = text.index(surface, pos)
            spans.append(Span(start, start + len(surface), label))
            pos = start + len(surface)
        docs.append(Document(doc_id, text, tuple(spans)))
    return docs


def _surfaces(docs: list[Document]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for d in docs:
        for s in d.spans:
            out.setdefault(s.label, set()).add(d.surface(s))
    return out


@pytest.mark.parametrize("seed", range(30))
def test_mention_replacement_uses_only_same_label_surfaces_from_the_corpus(seed: int) -> None:
    corpus = _corpus()
    seen = _surfaces(corpus)
    aug = MentionReplacementAugmenter().fit(corpus)
    for doc in corpus:
        out = aug.augment(doc, random.Random(seed))
        assert [s.label for s in out.spans] == [s.label for s in doc.spans]
        for span in out.spans:
            assert out.surface(span) in seen[span.label]


def test_probability_one_replaces_every_entity_that_has_an_alternative() -> None:
    corpus = _corpus()
    aug = MentionReplacementAugmenter(p=1.0).fit(corpus)
    for seed in range(10):
        out = aug.augment(corpus[0], random.Random(seed))
        old = [corpus[0].surface(s) for s in corpus[0].spans]
        new = [out.surface(s) for s in out.spans]
        assert new[0] == "Abernathy-Soto" and new[1] != old[1]
        assert new[2] == old[2] == "Rivermouth"  # the only CITY of the corpus stays


def test_probability_zero_changes_nothing() -> None:
    corpus = _corpus()
    aug = MentionReplacementAugmenter(p=0.0).fit(corpus)
    assert all(aug.augment(d, random.Random(1)) == d for d in corpus)


def test_about_half_of_the_entities_are_replaced_at_the_default_probability() -> None:
    text = " ".join(f"Patient{i} met Doctor{i}." for i in range(200))
    spans = []
    for i in range(200):
        for name in (f"Patient{i}", f"Doctor{i}"):
            start = text.index(name + " ") if name.startswith("P") else text.index(name + ".")
            spans.append(Span(start, start + len(name), "PATIENT" if name.startswith("P") else "DOCTOR"))
    doc = Document("big", text, tuple(spans))
    out = MentionReplacementAugmenter().fit([doc]).augment(doc, random.Random(0))
    changed = sum(doc.surface(a) != out.surface(b) for a, b in zip(doc.spans, out.spans))
    assert 0.4 < changed / len(spans) < 0.6


def test_mention_replacement_is_deterministic_by_seed_and_varies_across_seeds() -> None:
    corpus = _corpus()
    aug = MentionReplacementAugmenter(p=0.9).fit(corpus)
    assert aug.augment(corpus[1], random.Random(5)) == aug.augment(corpus[1], random.Random(5))
    assert len({aug.augment(corpus[1], random.Random(s)).text for s in range(10)}) > 1
    # Fitting on the same corpus in another order gives the same draws.
    again = MentionReplacementAugmenter(p=0.9).fit(corpus[::-1])
    assert again.augment(corpus[1], random.Random(5)) == aug.augment(corpus[1], random.Random(5))


def test_mention_replacement_needs_fit_and_a_probability() -> None:
    with pytest.raises(ConfigError):
        MentionReplacementAugmenter().augment(_corpus()[0], random.Random(0))
    with pytest.raises(ConfigError):
        MentionReplacementAugmenter(p=1.5)
