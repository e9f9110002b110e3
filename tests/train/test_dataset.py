"""Words, BIO tags, subword alignment and windows."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, LabelError
from phiscrub.labels import Granularity, fold, labels_of
from phiscrub.tagger.encoding import (
    collate,
    encode_documents,
    is_valid_bio,
    special_affixes,
    tag_set,
    tags_to_spans,
)
from phiscrub.tagger.model import load_tokenizer
from phiscrub.tagger.windows import (
    IGNORE_INDEX,
    EncodedDocument,
    plan_windows,
    window_examples,
    window_owners,
)
from phiscrub.text import tokenize
from phiscrub.train.dataset import bio_tags, build_examples

from ._docs import make_doc, synthetic_docs

# ---------------------------------------------------------------- tags and spans


def test_tag_set_has_o_then_b_and_i_per_label() -> None:
    tags = tag_set("coarse")
    assert tags[0] == "O"
    assert len(tags) == 1 + 2 * len(labels_of("coarse"))
    assert all(f"B-{lab}" in tags and f"I-{lab}" in tags for lab in labels_of("coarse"))


@pytest.mark.parametrize(
    ("tags", "valid"),
    [
        (["O", "B-NAME", "I-NAME", "O"], True),
        (["B-NAME", "B-NAME", "I-NAME"], True),
        (["I-NAME"], False),
        (["O", "I-NAME"], False),
        (["B-DATE", "I-NAME"], False),
        (["B-NAME", "I-NAME", "I-DATE"], False),
        ([], True),
    ],
)
def test_is_valid_bio(tags: list[str], valid: bool) -> None:
    assert is_valid_bio(tags) is valid


def _tags(doc: Document, granularity: Granularity = "coarse") -> list[tuple[str, str]]:
    tokens, tags = bio_tags(doc, granularity)
    return [(t.text, tag) for t, tag in zip(tokens, tags)]


def test_bio_tags_fold_labels_and_mark_entity_starts() -> None:
    doc = make_doc(
        "d", [("Seen by ", None), ("Alma Quill", "DOCTOR"), (" on ", None), ("03/12/2019", "DATE")]
    )
    assert _tags(doc) == [
        ("Seen", "O"),
        ("by", "O"),
        ("Alma", "B-NAME"),
        ("Quill", "I-NAME"),
        ("on", "O"),
        ("03", "B-DATE"),
        ("/", "I-DATE"),
        ("12", "I-DATE"),
        ("/", "I-DATE"),
        ("2019", "I-DATE"),
    ]
    assert _tags(doc, "fine")[2:4] == [("Alma", "B-DOCTOR"), ("Quill", "I-DOCTOR")]


def test_adjacent_spans_with_the_same_label_stay_two_entities() -> None:
    doc = make_doc("d", [("Alma", "PATIENT"), (" ", None), ("Quill", "PATIENT")])
    assert _tags(doc) == [("Alma", "B-NAME"), ("Quill", "B-NAME")]


def test_labels_outside_the_granularity_are_dropped() -> None:
    doc = make_doc("d", [("aged ", None), ("44", "AGE"), (" nurse ", None), ("x", "OTHER")])
    assert [tag for _, tag in _tags(doc, "phicon5")] == ["O", "O", "O", "O"]
    assert _tags(doc, "coarse")[1] == ("44", "B-AGE")


def test_overlapping_spans_resolve_by_coverage_then_length() -> None:
    text = "Oakmere Clinic Boston"
    doc = Document("d", text, (Span(0, 21, "HOSPITAL"), Span(15, 21, "CITY")))
    # fine granularity: both cover "Boston" fully; the longer HOSPITAL span wins
    assert _tags(doc, "fine") == [
        ("Oakmere", "B-HOSPITAL"),
        ("Clinic", "I-HOSPITAL"),
        ("Boston", "I-HOSPITAL"),
    ]


def test_partial_token_overlap_labels_the_token() -> None:
    doc = Document("d", "MRN12345 ok", (Span(3, 8, "MEDICALRECORD"),))
    assert _tags(doc) == [("MRN12345", "B-ID"), ("ok", "O")]


def test_unknown_labels_raise_label_error() -> None:
    with pytest.raises(LabelError):
        bio_tags(Document("d", "abc", (Span(0, 3, "NOT_A_LABEL"),)), "coarse")


@pytest.mark.parametrize("granularity", ["fine", "coarse", "phicon5"])
def test_tags_to_spans_inverts_bio_tags(granularity: Granularity) -> None:
    for doc in synthetic_docs(5, seed=3):
        tokens, tags = bio_tags(doc, granularity)
        spans = tags_to_spans(tokens, tags)
        expected = [(s.start, s.end, fold(s.label, granularity)) for s in doc.spans]
        assert [(s.start, s.end, s.label) for s in spans] == [e for e in expected if e[2] is not None]
        for span in spans:
            assert doc.text[span.start : span.end] == doc.surface(span)


def test_tags_to_spans_scores_and_stray_inside_tags() -> None:
    tokens = tokenize("a b c d")
    spans = tags_to_spans(tokens, ["B-NAME", "I-NAME", "I-DATE", "O"], probs=[0.9, 0.7, 0.5, 1.0])
    assert [(s.start, s.end, s.label) for s in spans] == [(0, 3, "NAME"), (4, 5, "DATE")]
    assert spans[0].score == pytest.approx(0.8) and spans[1].score == pytest.approx(0.5)
    assert all(s.source == "model" for s in spans)


# ---------------------------------------------------------------- subword alignment


TRICKY = [
    "José Müller",
    "患者张伟，男，45岁",
    "Call 😀 me\tat\t555-0100",
    "Line one\r\nLine two\r\n",
    "Jose\u0301 with a decomposed accent",
    "zero\u200bwidth and soft\u00adhyphen",
    "Ünïcödé NAÏVE façade",
    "",
    "   \t\r\n  ",
]


@pytest.fixture(scope="module", params=["minilm", "roberta", "xlm-roberta"])
def any_tokenizer(request: pytest.FixtureRequest, minilm_tokenizer: Any, tiny_dirs: dict[str, Path]) -> Any:
    if request.param == "minilm":
        return minilm_tokenizer
    return load_tokenizer(tiny_dirs[request.param])


@pytest.mark.parametrize("text", TRICKY)
def test_every_word_gets_subwords_in_order(text: str, any_tokenizer: Any) -> None:
    (enc,) = encode_documents([Document("d", text)], any_tokenizer)
    assert [(t.start, t.end) for t in enc.tokens] == [(t.start, t.end) for t in tokenize(text)]
    assert len(enc.input_ids) == len(enc.subword_word)
    assert sorted(set(enc.subword_word)) == list(range(len(enc.tokens)))
    assert enc.subword_word == sorted(enc.subword_word)
    for w, p in enumerate(enc.word_first):
        assert enc.subword_word[p] == w and (p == 0 or enc.subword_word[p - 1] == w - 1)


@pytest.mark.parametrize(
    ("text", "pieces"),
    [("José Müller", ["jose", "muller"]), ("DOB 03/12", ["do ##b", "03", "/", "12"])],
)
def test_minilm_subwords_of_each_word(text: str, pieces: list[str], minilm_tokenizer: Any) -> None:
    (enc,) = encode_documents([Document("d", text)], minilm_tokenizer)
    got = []
    for w in range(len(enc.tokens)):
        ids = [i for i, ww in zip(enc.input_ids, enc.subword_word) if ww == w]
        got.append(" ".join(minilm_tokenizer.convert_ids_to_tokens(ids)))
    assert got == pieces


def test_vanishing_words_get_the_unknown_token(minilm_tokenizer: Any) -> None:
    (enc,) = encode_documents([Document("d", "a \u200b b")], minilm_tokenizer)
    assert len(enc.tokens) == 3
    assert enc.input_ids[enc.word_first[1]] == minilm_tokenizer.unk_token_id


def test_special_affixes_of_bert_and_roberta(minilm_tokenizer: Any, tiny_dirs: dict[str, Path]) -> None:
    assert special_affixes(minilm_tokenizer) == ([101], [102])
    rob = load_tokenizer(tiny_dirs["roberta"])
    assert special_affixes(rob) == ([rob.bos_token_id], [rob.eos_token_id])


# ---------------------------------------------------------------- windows


def _synthetic_encoded(word_lengths: list[int], sentence_every: int = 0) -> EncodedDocument:
    """An EncodedDocument with given subwords per word (no tokenizer needed)."""
    subword_word: list[int] = []
    for w, n in enumerate(word_lengths):
        subword_word += [w] * n
    word_first = [subword_word.index(w) for w in range(len(word_lengths))]
    n = len(word_lengths)
    return EncodedDocument(
        doc_id="synthetic",
        tokens=tokenize(" ".join("w" for _ in range(n))),
        input_ids=list(range(len(subword_word))),
        subword_word=subword_word,
        word_first=word_first,
        sentence_start=[sentence_every > 0 and w % sentence_every == 0 for w in range(n)],
        shape_ids=[1] * n,
        length_ids=[1] * n,
    )


def _check_windows(enc: EncodedDocument, windows: list[tuple[int, int]], size: int) -> None:
    n = len(enc.input_ids)
    assert windows[0][0] == 0 and windows[-1][1] == n
    for (a, b), (a2, _) in itertools.pairwise(windows):
        assert a < a2 <= b, "windows move forward and leave no gap"
    assert all(0 < b - a <= size for a, b in windows)


@pytest.mark.parametrize("sentence_aware", [True, False])
@pytest.mark.parametrize(("size", "overlap"), [(30, 0), (30, 8), (62, 16), (190, 32)])
def test_plan_windows_cover_everything_without_cutting_words(
    size: int, overlap: int, sentence_aware: bool
) -> None:
    rng = random.Random(size + overlap)
    enc = _synthetic_encoded([rng.choice([1, 1, 1, 2, 3]) for _ in range(1500)], sentence_every=17)
    windows = plan_windows(enc, size, overlap, sentence_aware)
    _check_windows(enc, windows, size)
    starts = set(enc.word_first)
    for a, b in windows:
        assert a in starts and (b in starts or b == len(enc.input_ids)), "no word is cut"
    assert len(windows) >= len(enc.input_ids) // size


def test_sentence_aware_windows_end_at_sentence_starts() -> None:
    enc = _synthetic_encoded([1] * 400, sentence_every=10)
    windows = plan_windows(enc, 64, 8, sentence_aware=True)
    assert all(b % 10 == 0 or b == 400 for _, b in windows)


def test_a_word_longer_than_a_window_is_cut_but_covered() -> None:
    enc = _synthetic_encoded([1, 1, 200, 1, 1, 90, 1])
    windows = plan_windows(enc, 40, 8, sentence_aware=False)
    _check_windows(enc, windows, 40)
    owners = window_owners(windows, enc)
    assert len(owners) == 7 and all(o >= 0 for o in owners)


def test_plan_windows_rejects_large_overlap() -> None:
    with pytest.raises(ConfigError):
        plan_windows(_synthetic_encoded([1] * 10), 20, 10)


def test_empty_document_has_no_windows() -> None:
    assert plan_windows(_synthetic_encoded([]), 20, 4) == []


def test_window_owner_is_the_window_where_the_word_is_farthest_from_a_cut() -> None:
    enc = _synthetic_encoded([1] * 300)
    windows = plan_windows(enc, 50, 20, sentence_aware=False)
    owners = window_owners(windows, enc)
    inf = 10**9
    for w, p in enumerate(enc.word_first):
        holders = [i for i, (a, b) in enumerate(windows) if a <= p < b]
        assert owners[w] in holders

        def margin(i: int, p: int = p) -> int:
            a, b = windows[i]
            return min(p - a if a > 0 else inf, b - 1 - p if b < 300 else inf)

        assert margin(owners[w]) == max(margin(i) for i in holders)
    # words of an overlap are split between the two windows, not all given to one
    assert len(set(owners)) == len(windows)


@pytest.mark.parametrize("strategy", ["first", "mean", "max"])
def test_window_examples_map_subwords_to_word_slots(strategy: str) -> None:
    enc = _synthetic_encoded([1, 3, 2, 1, 4, 1, 1, 2] * 10)
    windows = plan_windows(enc, 20, 4, sentence_aware=False)
    tag_ids = [2] * len(enc.tokens)  # every word I-X (id 2) of some label, B-X has id 1
    examples = window_examples(enc, windows, ([101], [102]), strategy, tag_ids=tag_ids, begin_of={2: 1})
    for ex in examples:
        a, b = windows[ex.window_index]
        assert ex.input_ids == [101, *enc.input_ids[a:b], 102]
        assert ex.sub_slot[0] == ex.sub_slot[-1] == -1
        slots = [s for s in ex.sub_slot if s >= 0]
        assert set(slots) == set(range(len(ex.words)))
        if strategy == "first":
            assert len(slots) == len(ex.words)
        else:
            assert len(slots) == sum(enc.subword_word[a:b].count(w) for w in ex.words)
        # the first slot of every window is relabelled I -> B so that each window is valid BIO
        assert ex.labels[0] == 1 and set(ex.labels[1:]) <= {2}


def test_build_examples_and_collate_on_a_long_document(minilm_tokenizer: Any) -> None:
    parts: list[tuple[str, str | None]] = []
    for i in range(120):
        parts += [(f"Visit {i} with Dr. ", None), ("Alma Quill", "DOCTOR"), (" today.\n", None)]
    doc = make_doc("long", parts)
    tags = tag_set("coarse")
    examples = build_examples([doc], minilm_tokenizer, tags, "coarse", 64, 16, True, "first")
    assert len(examples) > 5
    assert all(len(ex.input_ids) <= 64 for ex in examples)
    n_words = len(tokenize(doc.text))
    assert set().union(*(set(ex.words) for ex in examples)) == set(range(n_words))
    for ex in examples:
        assert is_valid_bio([tags[i] for i in ex.labels])
    batch = collate(examples[:4], minilm_tokenizer.pad_token_id)
    width = max(len(ex.words) for ex in examples[:4])
    assert batch["labels"].shape == (4, width) and batch["word_mask"].sum() == sum(
        len(e.words) for e in examples[:4]
    )
    assert (batch["labels"][~batch["word_mask"]] == IGNORE_INDEX).all()
    assert batch["input_ids"].shape == batch["attention_mask"].shape == batch["sub_slot"].shape
