"""decode_documents (documents decoded side by side) gives decode_document's tags and probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from phiscrub.tagger import decode
from phiscrub.tagger.decode import bio_constraints, constraint_scores, decode_document, decode_documents
from phiscrub.text import tokenize

TAGS = ("O", "B-NAME", "I-NAME", "B-DATE", "I-DATE")


def _crf_scores(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    allowed, allowed_start = bio_constraints(TAGS)
    trans = np.where(allowed, rng.normal(size=(len(TAGS), len(TAGS))), -np.inf)
    start = np.where(allowed_start, rng.normal(size=len(TAGS)), -np.inf)
    return trans, start, rng.normal(size=len(TAGS))


def _items(rng: np.random.Generator, lengths: list[int], scale: float) -> list:
    items = []
    for k, n in enumerate(lengths):
        text = " ".join(f"w{i}" for i in range(n))
        tokens = tokenize(text)
        assert len(tokens) == n
        items.append((f"d{k}", tokens, rng.normal(scale=scale, size=(n, len(TAGS)))))
    return items


@pytest.mark.parametrize("use_crf", [True, False])
@pytest.mark.parametrize("scale", [1.0, 8.0])
def test_many_equals_one_by_one(use_crf: bool, scale: float) -> None:
    rng = np.random.default_rng(4)
    transitions = _crf_scores(rng) if use_crf else constraint_scores(TAGS)
    # lengths 0 and 1, equal lengths, and a long one that gets a group of its own
    items = _items(rng, [5, 0, 1, 17, 5, 3, 40, 2, 17, 9], scale)
    many = decode_documents(items, TAGS, transitions, use_crf)
    assert [p.doc_id for p in many] == [it[0] for it in items]
    for pred, item in zip(many, items):
        one = decode_document(*item, TAGS, transitions, use_crf)
        assert pred.tags == one.tags
        assert pred.probs == pytest.approx(one.probs, abs=1e-9)


def test_groups_are_bounded_and_an_underflow_takes_the_exact_route(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(5)
    transitions = _crf_scores(rng)
    monkeypatch.setattr(decode, "_DECODE_CELLS", 30)  # several groups of at most 30 word positions
    items = _items(rng, [4, 6, 8, 10, 12, 3], 1.0)
    # scores so extreme that the scaled forward-backward underflows: the log-space route answers
    items.append(("huge", tokenize("a b c d"), np.array([[-900, -900, 900, -900, -900]] * 4, dtype=float)))
    many = decode_documents(items, TAGS, transitions, True)
    for pred, item in zip(many, items):
        one = decode_document(*item, TAGS, transitions, True)
        assert pred.tags == one.tags
        assert pred.probs == pytest.approx(one.probs, abs=1e-9)
