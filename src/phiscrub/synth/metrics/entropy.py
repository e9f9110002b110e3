"""Information entropy of a letter's unigram distribution of word tokens, in bits per token."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from phiscrub.synth.metrics.tokens import (
    DEFAULT_MASK_PATTERN,
    word_tokens,
)

__all__ = ["text_entropy", "unigram_entropy"]


# -- entropy --------------------------------------------------------------------------------------
def unigram_entropy(tokens: Iterable[str]) -> float:
    """Shannon entropy of the unigram distribution of ``tokens``, in bits per token (0 when empty)."""
    counts = Counter(tokens)
    total = sum(counts.values())
    if not total:
        return 0.0
    return -sum(c / total * math.log2(c / total) for c in counts.values()) + 0.0


def text_entropy(text: str, mask_pattern: str | None = DEFAULT_MASK_PATTERN) -> float:
    """Unigram entropy of the word tokens of ``text`` (:func:`word_tokens`), bits per token."""
    return unigram_entropy(word_tokens(text, mask_pattern))
