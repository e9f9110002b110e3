"""From gold :class:`~phiscrub.document.Document` spans to subword windows, and back.

Words, tags and spans
---------------------
The unit of labelling is the *word*: a token of the project tokenizer
(:func:`phiscrub.text.tokenize`, the tokenizer the token-level metrics use). Each word gets a BIO
tag over the labels folded to the chosen granularity (:func:`phiscrub.labels.fold`); a word takes
the label of the span covering most of it (same rule as :mod:`phiscrub.evaluate.metrics`) and is
``B-`` when it starts that span. Predicted word tags go back to character spans from the first
word's start to the last word's end (:func:`tags_to_spans`), so character offsets are exact and
never depend on the subword tokenizer's normalisation (lower-casing, accent stripping, NFKC).

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
A document is never truncated. Its subword sequence is cut into windows of at most
``max_length`` tokens including the special tokens (``[CLS]`` ... ``[SEP]``), consecutive windows
sharing about ``overlap`` subwords (:func:`plan_windows`):

* window ends are moved back to a word start (a word is not cut unless it alone is longer than a
  window), and with ``sentence_aware`` to a sentence start when one lies in the back half of the
  window;
* the next window starts ``overlap`` subwords before the previous end, moved back to a word start
  (or forward to the first sentence start in the overlap when ``sentence_aware``).

A word belongs to every window that holds its first subword. At inference each word is *owned* by
the window in which its first subword is farthest from a cut edge (a document edge is not a cut)
(:func:`window_owners`); its scores come from that window only, and the whole document is then
decoded once with a BIO-constrained Viterbi, so an entity crossing a window boundary is never split.
In training every window is a sample; a window's first word tagged ``I-X`` (an entity cut by the
window start) is relabelled ``B-X`` so that each window is a valid BIO sequence.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, ModelError
from phiscrub.labels import Granularity, fold, labels_of
from phiscrub.text import Token, sentences, tokenize
from phiscrub.train.features import word_features

__all__ = [
    "IGNORE_INDEX",
    "EncodedDocument",
    "WindowExample",
    "bio_tags",
    "build_examples",
    "collate",
    "document_windows",
    "encode_documents",
    "encoder_windows",
    "is_valid_bio",
    "plan_windows",
    "sentence_starts",
    "special_affixes",
    "tag_indices",
    "tag_set",
    "tags_to_spans",
    "window_examples",
    "window_labels",
    "window_owners",
]

#: Label of positions that take no part in the loss (padding).
IGNORE_INDEX = -100
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


def bio_tags(doc: Document, granularity: Granularity) -> tuple[list[Token], list[str]]:
    """Word tokens of ``doc`` and their BIO tags from its (folded) spans.

    A token overlapped by several spans takes the span covering more of it; ties go to the longer
    span, then the earlier start, then the label name (as in :mod:`phiscrub.evaluate.metrics`).
    Spans whose label folds to None (not PHI at this granularity) are ignored.

    Raises:
        LabelError: a span label is unknown.
    """
    tokens = tokenize(doc.text)
    starts = [t.start for t in tokens]
    # best[i] = (sort key, span key) of the winning span of token i
    best: list[tuple[tuple[int, int, int, str], tuple[int, int, str]] | None] = [None] * len(tokens)
    for span in doc.spans:
        label = fold(span.label, granularity)
        if label is None:
            continue
        # first token that may overlap: the one starting at or before span.start
        i = max(bisect.bisect_right(starts, span.start) - 1, 0)
        while i < len(tokens) and tokens[i].start < span.end:
            tok = tokens[i]
            covered = min(tok.end, span.end) - max(tok.start, span.start)
            if covered > 0:
                key = (covered, span.end - span.start, -span.start, label)
                current = best[i]
                # larger covered, then longer, then earlier start; then the smaller label name
                if (
                    current is None
                    or key[:3] > current[0][:3]
                    or (key[:3] == current[0][:3] and label < current[0][3])
                ):
                    best[i] = (key, (span.start, span.end, label))
            i += 1
    tags: list[str] = []
    prev: tuple[int, int, str] | None = None
    for entry in best:
        if entry is None:
            tags.append("O")
            prev = None
            continue
        span_key = entry[1]
        tags.append(("I-" if span_key == prev else "B-") + span_key[2])
        prev = span_key
    return tokens, tags


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


@dataclass(frozen=True)
class EncodedDocument:
    """A document as words and subwords (no text kept beyond the word tokens).

    Args:
        doc_id: the document id.
        tokens: the word tokens (:func:`phiscrub.text.tokenize`).
        input_ids: subword ids of the whole document, no special tokens.
        subword_word: word index of each subword.
        word_first: index of the first subword of each word.
        sentence_start: per word, True when the word starts a sentence.
        shape_ids: per word, word-shape class id (:mod:`phiscrub.train.features`).
        length_ids: per word, length-bucket id.
    """

    doc_id: str
    tokens: list[Token]
    input_ids: list[int]
    subword_word: list[int]
    word_first: list[int]
    sentence_start: list[bool]
    shape_ids: list[int]
    length_ids: list[int]


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
        for k, (_, _, words) in enumerate(chunks):
            ids, wids = list(enc["input_ids"][k]), enc.word_ids(k)
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


def plan_windows(
    encoded: EncodedDocument, size: int, overlap: int, sentence_aware: bool = True
) -> list[tuple[int, int]]:
    """Cut a document's subwords into overlapping windows ``[a, b)`` of at most ``size`` subwords.

    Args:
        encoded: the document.
        size: subwords per window, special tokens *not* included.
        overlap: subwords shared by consecutive windows (before snapping to word starts).
        sentence_aware: prefer sentence boundaries for window ends and starts.

    Returns:
        Windows covering every subword, in order, each starting after the previous start.

    Raises:
        ConfigError: ``overlap`` is not below ``size // 2``.
    """
    if not 0 <= overlap < size // 2:
        raise ConfigError("window overlap must be >= 0 and below half of the window size")
    n = len(encoded.input_ids)
    if n == 0:
        return []
    word_start = [False] * n
    sent_start = [False] * n
    for w, p in enumerate(encoded.word_first):
        word_start[p] = True
        sent_start[p] = encoded.sentence_start[w]
    windows: list[tuple[int, int]] = []
    a = 0
    while True:
        b = min(a + size, n)
        if b < n:
            lo = a + size // 2
            cut = _last(sent_start, lo + 1, b) if sentence_aware else None
            if cut is None:
                cut = _last(word_start, lo + 1, b)
            if cut is not None:
                b = cut
        windows.append((a, b))
        if b >= n:
            return windows
        target = max(b - overlap, a + 1)
        nxt = _first(sent_start, target, b) if sentence_aware else None
        if nxt is None:
            nxt = _last(word_start, a + 1, target)
        # A single word longer than a window: cut inside it.
        a = nxt if nxt is not None else target


def _last(flags: list[bool], lo: int, hi: int) -> int | None:
    """Largest k in [lo, hi] with flags[k] (k == len(flags) counts as set: the document end)."""
    for k in range(hi, lo - 1, -1):
        if k >= len(flags) or flags[k]:
            return k
    return None


def _first(flags: list[bool], lo: int, hi: int) -> int | None:
    """Smallest k in [lo, hi] with flags[k]."""
    for k in range(lo, hi + 1):
        if k < len(flags) and flags[k]:
            return k
    return None


def window_owners(windows: Sequence[tuple[int, int]], encoded: EncodedDocument) -> list[int]:
    """For each word, the index of the window whose prediction it takes.

    The owner is the window holding the word's first subword farthest from a cut window edge (an
    edge at the document start or end is not a cut: no context is missing there). Ties go to the
    earlier window.
    """
    n = len(encoded.input_ids)
    owners: list[int] = []
    lo = 0  # first window that may still contain the current word (windows are ordered)
    inf = n + 1
    for p in encoded.word_first:
        while windows[lo][1] <= p:
            lo += 1
        best_i, best_score = -1, -1
        i = lo
        while i < len(windows) and windows[i][0] <= p:
            a, b = windows[i]
            if p < b:
                left = p - a if a > 0 else inf
                right = b - 1 - p if b < n else inf
                score = min(left, right)
                if score > best_score:
                    best_i, best_score = i, score
            i += 1
        owners.append(best_i)
    return owners


def document_windows(
    encoded: EncodedDocument, size: int, overlap: int, sentence_aware: bool
) -> tuple[list[tuple[int, int]], list[int]]:
    """The windows of one document (:func:`plan_windows`) and each word's owner (:func:`window_owners`).

    The one window planning of every tagger kind: subword windows of the transformer tagger
    (:func:`encoder_windows`) and word windows of the BiLSTM taggers (an encoded document with one
    "subword" per word, :func:`phiscrub.train.bilstm.word_windows`), in training and inference.
    """
    windows = plan_windows(encoded, size, overlap, sentence_aware)
    return windows, (window_owners(windows, encoded) if windows else [])


def window_labels(
    tag_ids: Sequence[int] | None, words: Sequence[int], begin_of: dict[int, int] | None
) -> list[int]:
    """Tag ids of a window's word slots; :data:`IGNORE_INDEX` each at inference (``tag_ids`` None).

    Args:
        tag_ids: per document word, its tag id (training), or None.
        words: the document word index of each slot.
        begin_of: maps an ``I-X`` id to its ``B-X`` id: a window's first slot is relabelled, since
            a window starting inside an entity sees its first word as the entity's beginning.
    """
    if tag_ids is None:
        return [IGNORE_INDEX] * len(words)
    labels = [tag_ids[w] for w in words]
    if begin_of is not None and labels and labels[0] in begin_of:
        labels[0] = begin_of[labels[0]]
    return labels


@dataclass(frozen=True)
class WindowExample:
    """One encoder input: a window of a document with its word slots.

    Args:
        doc_index: index of the document in the batch of documents it came from.
        window_index: index of the window in its document's :func:`plan_windows` list.
        input_ids: subword ids with special tokens.
        sub_slot: per input position, the word slot it feeds (-1: none; with ``first`` only the
            first subword of each word feeds its slot).
        words: document word index of each slot (slots are consecutive words).
        shape_ids: shape class id of each slot.
        length_ids: length bucket id of each slot.
        labels: tag id of each slot, or :data:`IGNORE_INDEX` when unlabelled (inference).
    """

    doc_index: int
    window_index: int
    input_ids: list[int]
    sub_slot: list[int]
    words: list[int]
    shape_ids: list[int]
    length_ids: list[int]
    labels: list[int]


def window_examples(
    encoded: EncodedDocument,
    windows: Sequence[tuple[int, int]],
    affixes: tuple[list[int], list[int]],
    strategy: str,
    doc_index: int = 0,
    tag_ids: Sequence[int] | None = None,
    begin_of: dict[int, int] | None = None,
) -> list[WindowExample]:
    """Encoder inputs for the windows of one document (windows holding no word start are skipped).

    Args:
        encoded: the document.
        windows: from :func:`plan_windows`.
        affixes: from :func:`special_affixes`.
        strategy: ``first``, ``mean`` or ``max``.
        doc_index: stored in each example.
        tag_ids: per word tag id (training), or None (inference: labels are ignored).
        begin_of: maps an ``I-X`` id to its ``B-X`` id, to relabel a window's first slot.
    """
    prefix, suffix = affixes
    out: list[WindowExample] = []
    for wi, (a, b) in enumerate(windows):
        first_word = encoded.subword_word[a]
        if encoded.word_first[first_word] < a:
            first_word += 1  # the window starts inside a word: that word is not in it
        end_word = encoded.subword_word[b - 1] + 1
        if end_word <= first_word:
            continue
        sub_slot = [-1] * len(prefix)
        for p in range(a, b):
            w = encoded.subword_word[p]
            if w < first_word or (strategy == "first" and encoded.word_first[w] != p):
                sub_slot.append(-1)
            else:
                sub_slot.append(w - first_word)
        sub_slot += [-1] * len(suffix)
        words = list(range(first_word, end_word))
        labels = window_labels(tag_ids, words, begin_of)
        out.append(
            WindowExample(
                doc_index=doc_index,
                window_index=wi,
                input_ids=prefix + encoded.input_ids[a:b] + suffix,
                sub_slot=sub_slot,
                words=words,
                shape_ids=[encoded.shape_ids[w] for w in words],
                length_ids=[encoded.length_ids[w] for w in words],
                labels=labels,
            )
        )
    return out


def encoder_windows(
    encoded: Sequence[EncodedDocument],
    affixes: tuple[list[int], list[int]],
    max_length: int,
    overlap: int,
    sentence_aware: bool,
    strategy: str,
    tag_ids: Sequence[Sequence[int]] | None = None,
    begin_of: dict[int, int] | None = None,
) -> tuple[list[WindowExample], list[list[int]]]:
    """Encoder windows of many documents, and the owner window of each word of each document.

    The same windows in training (with ``tag_ids``) and inference (the torch and ONNX paths): a
    word takes the scores of the window in which it lies farthest from a cut (:func:`document_windows`).

    Args:
        encoded: the documents (:func:`encode_documents`).
        affixes: special tokens around a window (:func:`special_affixes`).
        max_length: tokens per window, special tokens included.
        overlap: subwords shared by consecutive windows.
        sentence_aware: prefer sentence boundaries for window cuts.
        strategy: subword strategy (``first``, ``mean``, ``max``).
        tag_ids: per document, per word tag id (training), or None (inference).
        begin_of: see :func:`window_labels`.

    Returns:
        ``(examples, owners)``: every window (``doc_index`` = position in ``encoded``), and per
        document the owner window index of each word.

    Raises:
        ConfigError: the windows cannot be planned with these sizes.
    """
    size = max_length - len(affixes[0]) - len(affixes[1])
    examples: list[WindowExample] = []
    owners: list[list[int]] = []
    for d, enc in enumerate(encoded):
        windows, owned = document_windows(enc, size, overlap, sentence_aware)
        owners.append(owned)
        ids = None if tag_ids is None else tag_ids[d]
        examples += window_examples(enc, windows, affixes, strategy, d, ids, begin_of)
    return examples, owners


def build_examples(
    docs: Sequence[Document],
    tokenizer: Any,
    tags: Sequence[str],
    granularity: Granularity,
    max_length: int,
    overlap: int,
    sentence_aware: bool,
    strategy: str,
) -> list[WindowExample]:
    """Labelled training windows of gold documents.

    Raises:
        LabelError: a span label is unknown.
        ConfigError: the windows cannot be planned with these sizes.
    """
    tag_index, begin_of = tag_indices(tags)
    tag_ids = [[tag_index[t] for t in bio_tags(doc, granularity)[1]] for doc in docs]
    encoded = encode_documents(docs, tokenizer)
    affixes = special_affixes(tokenizer)
    args = (max_length, overlap, sentence_aware, strategy)
    return encoder_windows(encoded, affixes, *args, tag_ids=tag_ids, begin_of=begin_of)[0]


def tag_indices(tags: Sequence[str]) -> tuple[dict[str, int], dict[int, int]]:
    """Index of each tag, and the ``B-X`` index of each ``I-X`` index (see :func:`window_labels`)."""
    tag_index = {t: i for i, t in enumerate(tags)}
    begin_of = {tag_index[t]: tag_index["B-" + t[2:]] for t in tags if t.startswith("I-")}
    return tag_index, begin_of


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
