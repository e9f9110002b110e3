"""Gold documents to labelled training windows: the training half of the encoding.

:func:`bio_tags` gives each word of a gold document its BIO tag; :func:`build_examples` (transformer
taggers) and :func:`build_word_examples` (BiLSTM-CRF and GGUF taggers) cut gold documents into
labelled windows. The encoding they share with inference (words, subwords, :func:`tag_set`,
:func:`tags_to_spans`) is :mod:`phiscrub.tagger.encoding`; the windows are :mod:`phiscrub.tagger.windows`.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from phiscrub.document import Document
from phiscrub.labels import Granularity, fold
from phiscrub.tagger.encoding import encode_documents, special_affixes
from phiscrub.tagger.windows import WindowExample, encoder_windows
from phiscrub.text import Token, tokenize

if TYPE_CHECKING:  # torch: imported only by the BiLSTM path (bio_tags serves the augmenters without it)
    from phiscrub.tagger.bilstm import BiLstmTagger, WordWindow

__all__ = ["bio_tags", "build_examples", "build_word_examples", "tag_indices"]


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
    """Index of each tag, and the ``B-X`` index of each ``I-X`` index (see :func:`~phiscrub.tagger.windows.window_labels`)."""
    tag_index = {t: i for i, t in enumerate(tags)}
    begin_of = {tag_index[t]: tag_index["B-" + t[2:]] for t in tags if t.startswith("I-")}
    return tag_index, begin_of


def build_word_examples(docs: Sequence[Document], model: BiLstmTagger) -> list[WordWindow]:
    """Labelled training windows of gold documents for a BiLSTM-CRF tagger.

    Raises:
        LabelError: a span label is unknown.
    """
    tag_index, begin_of = tag_indices(model.tags)
    tag_ids = [[tag_index[t] for t in bio_tags(doc, model.config.granularity)[1]] for doc in docs]
    from phiscrub.tagger.bilstm import windows_of

    return windows_of(model, model.encode(docs), tag_ids, begin_of)[0]
