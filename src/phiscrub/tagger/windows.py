"""Overlapping windows over a document: planning, owner windows, labels, encoder inputs.

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

The same planning serves the transformer tagger's subword windows (:func:`encoder_windows`) and the
BiLSTM taggers' word windows (:func:`phiscrub.tagger.bilstm.word_windows`), in training and at
inference (torch and ONNX); documents are encoded by :func:`phiscrub.tagger.encoding.encode_documents`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from phiscrub.errors import ConfigError
from phiscrub.text import Token

__all__ = [
    "IGNORE_INDEX",
    "EncodedDocument",
    "WindowExample",
    "document_windows",
    "encoder_windows",
    "plan_windows",
    "window_examples",
    "window_labels",
    "window_owners",
]

#: Label of positions that take no part in the loss (padding).
IGNORE_INDEX = -100


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
        shape_ids: per word, word-shape class id (:mod:`phiscrub.tagger.features`).
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
    "subword" per word, :func:`phiscrub.tagger.bilstm.word_windows`), in training and inference.
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
