"""Words, BIO tags and subword encoding of documents, shared by inference and training.

The inference half of what was ``phiscrub.train.dataset`` (the training half, gold spans to labelled
windows, is :mod:`phiscrub.train.dataset`). No torch at import (:func:`collate` imports it when
called), so the ONNX path (:mod:`phiscrub.detect.onnx_tagger`) uses this module without torch.

Words, tags and spans
---------------------
The unit of labelling is the *word*: a token of the project tokenizer
(:func:`phiscrub.text.tokenize`, the tokenizer the token-level metrics use). Each word gets a BIO
tag over the labels folded to the chosen granularity (:func:`phiscrub.labels.fold`;
:func:`phiscrub.train.dataset.bio_tags` for gold documents). Predicted word tags go back to character
spans from the first word's start to the last word's end (:func:`tags_to_spans`), so character
offsets are exact and never depend on the subword tokenizer's normalisation (lower-casing, accent
stripping, NFKC).

Subwords
--------
The words of a document are fed to the Hugging Face fast tokenizer with
``is_split_into_words=True`` and aligned with ``word_ids()``. A word that yields no subword at all
(e.g. a lone combining accent or a zero-width character that the normaliser deletes) is replaced by
the tokenizer's unknown token so that every word owns at least one subword and gets a prediction.

Subword strategy (how a word's subword vectors become one vector; ``TrainConfig.subword_strategy``):

* ``first``: the vector of the word's first subword (Hugging Face token classification; the other
  subwords carry label -100, i.e. they are ignored).
* ``mean`` / ``max``: mean or element-wise max over the word's subwords inside the window.

Windows
-------
A document is never truncated: it is cut into overlapping windows (:mod:`phiscrub.tagger.windows`).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.errors import ModelError
from phiscrub.labels import Granularity, labels_of
from phiscrub.tagger.features import word_features
from phiscrub.tagger.windows import IGNORE_INDEX, EncodedDocument, WindowExample
from phiscrub.text import Token, sentences, tokenize

__all__ = [
    "collate",
    "encode_documents",
    "is_valid_bio",
    "sentence_starts",
    "special_affixes",
    "tag_set",
    "tags_to_spans",
]

# Words per tokenizer call: keeps every call well below tokenizer length warnings on long notes.
_CHUNK_WORDS = 256


def tag_set(granularity: Granularity) -> tuple[str, ...]:
    """BIO tag inventory of a granularity: ``O`` then ``B-X``, ``I-X`` for each label X (sorted)."""
    tags = ["O"]
    for label in labels_of(granularity):
        tags += [f"B-{label}", f"I-{label}"]
    return tuple(tags)


def is_valid_bio(tags: Sequence[str]) -> bool:
    """True when every ``I-X`` follows ``B-X`` or ``I-X`` (the sequence start counts as ``O``)."""
    prev = "O"
    for tag in tags:
        if tag.startswith("I-") and prev[2:] != tag[2:]:
            return False
        prev = tag
    return True


def tags_to_spans(
    tokens: Sequence[Token],
    tags: Sequence[str],
    probs: Sequence[float] | None = None,
    source: str = "model",
) -> list[Span]:
    """Character spans from word BIO tags.

    A span runs from its first word's start to its last word's end; its score is the mean of the
    words' ``probs`` (1.0 without probs). A stray ``I-X`` (after ``O`` or another label) opens a
    new span, so the function also accepts sequences that are not valid BIO.
    """
    spans: list[Span] = []
    start_i: int | None = None
    label = ""

    def close(end_i: int) -> None:
        if start_i is None:
            return
        score = 1.0 if probs is None else sum(probs[start_i:end_i]) / (end_i - start_i)
        spans.append(Span(tokens[start_i].start, tokens[end_i - 1].end, label, score=score, source=source))

    for i, tag in enumerate(tags):
        if tag.startswith("I-") and start_i is not None and tag[2:] == label:
            continue
        close(i)
        if tag == "O":
            start_i = None
        else:
            start_i, label = i, tag[2:]
    close(len(tags))
    return spans


def special_affixes(tokenizer: Any) -> tuple[list[int], list[int]]:
    """Special token ids a tokenizer puts before and after one sequence (``[CLS]`` / ``[SEP]``)."""
    enc = tokenizer(["a"], is_split_into_words=True, add_special_tokens=True)
    ids = list(enc["input_ids"])
    word_ids = enc.word_ids()
    inner = [i for i, w in enumerate(word_ids) if w is not None]
    if not inner:
        raise ModelError("the tokenizer produced no subword for a plain word")
    return ids[: inner[0]], ids[inner[-1] + 1 :]


def sentence_starts(text: str, tokens: list[Token]) -> list[bool]:
    """Per token, True when it is the first token of a sentence (:func:`phiscrub.text.sentences`)."""
    flags = [False] * len(tokens)
    starts = [t.start for t in tokens]
    for s, _ in sentences(text):
        i = bisect.bisect_left(starts, s)
        if i < len(tokens):
            flags[i] = True
    return flags


def encode_documents(docs: Sequence[Document], tokenizer: Any) -> list[EncodedDocument]:
    """Tokenize documents into words and subwords (one batched tokenizer call for all of them).

    Args:
        docs: the documents.
        tokenizer: a Hugging Face *fast* tokenizer (``word_ids()`` is needed).

    Raises:
        ModelError: the tokenizer is not a fast tokenizer.
    """
    if not getattr(tokenizer, "is_fast", False):
        raise ModelError("a fast (Rust) tokenizer is required for word alignment")
    words_of: list[list[Token]] = [tokenize(doc.text) for doc in docs]
    chunks: list[tuple[int, int, list[str]]] = []  # (doc index, first word, words)
    for d, tokens in enumerate(words_of):
        for s in range(0, len(tokens), _CHUNK_WORDS):
            chunks.append((d, s, [t.text for t in tokens[s : s + _CHUNK_WORDS]]))
    chunk_ids: list[list[int]] = []
    chunk_words: list[list[int]] = []
    if chunks:
        enc = tokenizer(
            [c[2] for c in chunks],
            is_split_into_words=True,
            add_special_tokens=False,
            truncation=False,
            verbose=False,
        )
        all_ids = enc["input_ids"]  # once: a Rust encoding rebuilds its id lists on every read
        for k, (_, _, words) in enumerate(chunks):
            ids, wids = list(all_ids[k]), enc.word_ids(k)
            if len({w for w in wids if w is not None}) < len(words):
                ids, wids = _retokenize_with_unk(tokenizer, words, set(wids))
            chunk_ids.append(ids)
            chunk_words.append([w for w in wids if w is not None])
    out: list[EncodedDocument] = []
    per_doc: list[list[int]] = [[] for _ in docs]
    for k, (d, _, _) in enumerate(chunks):
        per_doc[d].append(k)
    for d, doc in enumerate(docs):
        tokens = words_of[d]
        input_ids: list[int] = []
        subword_word: list[int] = []
        for k in per_doc[d]:
            offset = chunks[k][1]
            input_ids += chunk_ids[k]
            subword_word += [offset + w for w in chunk_words[k]]
        word_first = [0] * len(tokens)
        for p in range(len(subword_word) - 1, -1, -1):
            word_first[subword_word[p]] = p
        shapes, lengths = word_features(tokens, doc.text)
        out.append(
            EncodedDocument(
                doc_id=doc.id,
                tokens=tokens,
                input_ids=input_ids,
                subword_word=subword_word,
                word_first=word_first,
                sentence_start=sentence_starts(doc.text, tokens),
                shape_ids=shapes,
                length_ids=lengths,
            )
        )
    return out


def _retokenize_with_unk(
    tokenizer: Any, words: list[str], seen: set[int | None]
) -> tuple[list[int], list[int | None]]:
    """Tokenize ``words`` again with the unknown token in place of words that vanished."""
    unk = tokenizer.unk_token if tokenizer.unk_token is not None else "?"
    fixed = [w if i in seen else unk for i, w in enumerate(words)]
    enc = tokenizer(
        fixed, is_split_into_words=True, add_special_tokens=False, truncation=False, verbose=False
    )
    wids = enc.word_ids()
    if len({w for w in wids if w is not None}) < len(words):
        raise ModelError("the tokenizer yields no subword for some words, even as the unknown token")
    return list(enc["input_ids"]), wids


def collate(examples: Sequence[WindowExample], pad_id: int) -> dict[str, Any]:
    """Pad a list of windows into a batch of tensors.

    Returns:
        ``input_ids``, ``attention_mask``, ``sub_slot`` (B x L); ``word_mask``, ``shape_ids``,
        ``length_ids``, ``labels`` (B x W).
    """
    import torch

    n_in = max(len(e.input_ids) for e in examples)
    n_w = max(len(e.words) for e in examples)

    def pad(rows: list[list[int]], width: int, value: int) -> torch.Tensor:
        return torch.tensor([r + [value] * (width - len(r)) for r in rows], dtype=torch.long)

    return {
        "input_ids": pad([e.input_ids for e in examples], n_in, pad_id),
        "attention_mask": pad([[1] * len(e.input_ids) for e in examples], n_in, 0),
        "sub_slot": pad([e.sub_slot for e in examples], n_in, -1),
        "word_mask": pad([[1] * len(e.words) for e in examples], n_w, 0).bool(),
        "shape_ids": pad([e.shape_ids for e in examples], n_w, 0),
        "length_ids": pad([e.length_ids for e in examples], n_w, 0),
        "labels": pad([e.labels for e in examples], n_w, IGNORE_INDEX),
    }
