from __future__ import annotations

import random

import pytest

from phiscrub.augment import (
    AUGMENT_METHODS,
    DOCUMENT_METHODS,
    CorpusAugmenter,
    build_augmenter,
    document_augmenter,
)
from phiscrub.augment.base import (
    AugmentStats,
    ChainAugmenter,
    augment_corpus,
    validate_augmented,
)
from phiscrub.augment.phi import PhiAugmenter
from phiscrub.augment.registry import AugmentOptions
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError

TEXT = "Seen by Dr. Ilse Marwick on 02/03/2020."


def _doc(doc_id: str = "n1") -> Document:
    return Document(doc_id, TEXT, (Span(12, 24, "DOCTOR"), Span(28, 38, "DATE")))


class _Broken:
    """Returns copies that break one invariant each, chosen by the doc id."""

    name = "broken"
    keeps_surfaces = False
    unchanged = 0

    def fit(self, docs: object) -> _Broken:
        return self

    def augment(self, doc: Document, rng: random.Random) -> Document:
        if doc.id == "relabel":
            return doc.with_spans([doc.spans[0].with_label("PATIENT"), doc.spans[1]])
        if doc.id == "drop":
            return doc.with_spans(doc.spans[:1])
        if doc.id == "blank":
            return Document(doc.id, doc.text[:12] + " " * 12 + doc.text[24:], doc.spans)
        if doc.id == "raise":
            raise ValueError("[doc raise] edit cuts into span")
        return doc


def test_augment_corpus_yields_alpha_copies_with_ids_and_metadata() -> None:
    stats = AugmentStats()
    out = list(augment_corpus([_doc("a"), _doc("b")], PhiAugmenter("en"), alpha=3, seed=7, stats=stats))
    assert [d.id for d in out] == ["a#aug0", "a#aug1", "a#aug2", "b#aug0", "b#aug1", "b#aug2"]
    assert out[1].metadata["augmented_from"] == "a"
    assert out[1].metadata["augment_copy"] == 1
    assert out[1].metadata["augment_method"] == "phi"
    assert out[1].metadata["augment_seed"] == 7
    assert (stats.documents_in, stats.documents_out, stats.skipped) == (2, 6, 0)


def test_augment_corpus_copies_do_not_depend_on_document_order() -> None:
    docs = [_doc("a"), _doc("b")]
    forward = {d.id: d.text for d in augment_corpus(docs, PhiAugmenter("en"), 2, seed=1)}
    backward = {d.id: d.text for d in augment_corpus(docs[::-1], PhiAugmenter("en"), 2, seed=1)}
    assert forward == backward
    assert forward["a#aug0"] != forward["a#aug1"]


def test_augment_corpus_skips_and_counts_bad_copies_without_crashing() -> None:
    docs = [_doc(i) for i in ("relabel", "drop", "blank", "raise", "fine")]
    stats = AugmentStats()
    out = list(augment_corpus(docs, _Broken(), alpha=2, stats=stats))
    assert [d.id for d in out] == ["fine#aug0", "fine#aug1"]
    assert stats.skipped == 8 and stats.documents_out == 2
    assert stats.reasons["augmenter raised ValueError"] == 2
    assert all(TEXT not in reason for reason in stats.reasons)


@pytest.mark.parametrize(
    ("change", "keep", "reason"),
    [
        ("none", False, None),
        ("surface", False, None),
        ("surface", True, "span DOCTOR surface changed"),
        ("label", False, "label order changed (DOCTOR -> PATIENT)"),
        ("count", False, "span count changed (2 -> 1)"),
    ],
)
def test_validate_augmented_names_the_broken_invariant(change: str, keep: bool, reason: str | None) -> None:
    doc = _doc()
    if change == "surface":
        new = Document(doc.id, TEXT.replace("Ilse Marwick", "Ilse Marwood"), doc.spans)
    elif change == "label":
        new = doc.with_spans([doc.spans[0].with_label("PATIENT"), doc.spans[1]])
    elif change == "count":
        new = doc.with_spans(doc.spans[:1])
    else:
        new = doc
    assert validate_augmented(doc, new, keep_surfaces=keep) == reason


def test_augment_corpus_refuses_alpha_below_one() -> None:
    with pytest.raises(ConfigError):
        list(augment_corpus([_doc()], PhiAugmenter("en"), alpha=0))


@pytest.mark.parametrize("method", DOCUMENT_METHODS)
def test_document_augmenter_builds_every_per_document_method_by_name(method: str) -> None:
    aug = document_augmenter(method, AugmentOptions())
    assert aug.name == method
    if method == "phicon":
        assert isinstance(aug, ChainAugmenter) and [s.name for s in aug.steps] == ["phi", "context"]


@pytest.mark.parametrize("method", AUGMENT_METHODS)
def test_build_augmenter_gives_every_offline_method_the_corpus_contract(method: str) -> None:
    aug = build_augmenter(method)
    assert isinstance(aug, CorpusAugmenter) and aug.name == method


def test_registry_rejects_unknown_methods() -> None:
    with pytest.raises(ConfigError):
        build_augmenter("nope")
    with pytest.raises(ConfigError):
        document_augmenter("daga", AugmentOptions())
