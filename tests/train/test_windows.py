"""One windowing for every tagger: encoder windows, word-slot labels and the owned-score loop."""

from __future__ import annotations

import numpy as np
import pytest

from phiscrub.tagger.decode import owned_scores
from phiscrub.tagger.windows import (
    IGNORE_INDEX,
    WindowExample,
    document_windows,
    encoder_windows,
    plan_windows,
    window_labels,
    window_owners,
)

from .test_dataset import _synthetic_encoded

AFFIXES = ([101], [102])


def test_window_labels_relabel_a_cut_entity_and_ignore_at_inference() -> None:
    assert window_labels(None, [4, 5, 6], {2: 1}) == [IGNORE_INDEX] * 3
    assert window_labels([0, 2, 2, 2], [1, 2, 3], {2: 1}) == [1, 2, 2]
    assert window_labels([0, 2, 2, 2], [1, 2, 3], None) == [2, 2, 2]
    assert window_labels([0, 1], [], {2: 1}) == []


def test_document_windows_are_the_planned_windows_and_their_owners() -> None:
    enc = _synthetic_encoded([1, 2, 1, 3] * 40, sentence_every=7)
    windows, owners = document_windows(enc, 24, 6, sentence_aware=True)
    assert windows == plan_windows(enc, 24, 6, sentence_aware=True)
    assert owners == window_owners(windows, enc)
    assert document_windows(_synthetic_encoded([]), 24, 6, sentence_aware=True) == ([], [])


def test_encoder_windows_give_training_and_inference_the_same_windows() -> None:
    docs = [_synthetic_encoded([1, 2] * n, sentence_every=5) for n in (3, 40, 90)]
    args = (40, 8, True, "first")
    examples, owners = encoder_windows(docs, AFFIXES, *args)
    tag_ids = [[2] * len(d.tokens) for d in docs]
    labelled, _ = encoder_windows(docs, AFFIXES, *args, tag_ids=tag_ids, begin_of={2: 1})
    assert [(e.doc_index, e.window_index, e.input_ids) for e in examples] == [
        (e.doc_index, e.window_index, e.input_ids) for e in labelled
    ]
    assert all(set(e.labels) == {IGNORE_INDEX} for e in examples)
    assert all(e.labels[0] == 1 and set(e.labels[1:]) <= {2} for e in labelled)
    for d, doc in enumerate(docs):
        assert len(owners[d]) == len(doc.tokens)
        # every word is owned by a window of its document that holds it
        for w, owner in enumerate(owners[d]):
            (ex,) = [e for e in examples if e.doc_index == d and e.window_index == owner]
            assert w in ex.words
    assert max(len(e.input_ids) for e in examples) <= 40


@pytest.mark.parametrize("token_budget", [None, 60, 1])
def test_owned_scores_take_each_word_from_its_owner_whatever_the_batching(token_budget: int | None) -> None:
    docs = [_synthetic_encoded([1, 1, 2] * n) for n in (2, 30, 55)]
    examples, owners = encoder_windows(docs, AFFIXES, 32, 8, False, "first")
    batches: list[list[WindowExample]] = []

    def run(chunk: list[WindowExample]) -> np.ndarray:
        # one tag; every slot of a window scores 1000 * doc + 10 * window + 0.5
        batches.append(chunk)
        width = max(len(e.words) for e in chunk)
        out = np.zeros((len(chunk), width, 1))
        for r, e in enumerate(chunk):
            out[r, : len(e.words), 0] = [1000 * e.doc_index + 10 * e.window_index + 0.5 for _ in e.words]
        return out

    def size(e: WindowExample) -> int:
        return len(e.input_ids)

    scores = owned_scores(examples, owners, [len(d.tokens) for d in docs], 1, run, size, 4, token_budget)
    for d, own in enumerate(owners):
        assert scores[d][:, 0].tolist() == [1000 * d + 10 * o + 0.5 for o in own]
    assert sorted(id(e) for b in batches for e in b) == sorted(id(e) for e in examples)
    lengths = [size(e) for b in batches for e in b]
    assert lengths == sorted(lengths), "windows run shortest first"
    for b in batches:
        assert len(b) <= 4
        if token_budget is not None and len(b) > 1:
            assert len(b) * max(size(e) for e in b) <= token_budget
