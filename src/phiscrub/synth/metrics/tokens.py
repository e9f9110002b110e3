"""Word tokens of letters for every metric: lowercased project tokens, mask tokens as one symbol."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from phiscrub.errors import ConfigError
from phiscrub.text import tokenize

__all__ = ["DEFAULT_MASK_PATTERN", "MASK_SYMBOL", "ngrams", "word_tokens"]

#: Mask tokens of common masked language models (BERT ``[MASK]``, RoBERTa ``<mask>``, T5 sentinels).
DEFAULT_MASK_PATTERN = r"\[MASK\]|<mask>|<extra_id_\d+>"
#: The word token a mask becomes in :func:`word_tokens` (the project tokenizer never yields it).
MASK_SYMBOL = "<mask>"

_WORDLIKE = re.compile(r"\w")
_LETTER = re.compile(r"[^\W\d_]")


# -- tokens ---------------------------------------------------------------------------------------
def _mask_re(mask_pattern: str | None) -> re.Pattern[str] | None:
    if not mask_pattern:
        return None
    try:
        return re.compile(mask_pattern)
    except re.error as exc:
        raise ConfigError(f"bad mask pattern: {exc}") from None


def _segments(text: str, mask_pattern: str | None) -> list[str | None]:
    """Pieces of ``text`` between mask tokens, with ``None`` where a mask token stood."""
    rx = _mask_re(mask_pattern)
    if rx is None:
        return [text]
    out: list[str | None] = []
    pos = 0
    for m in rx.finditer(text):
        if m.end() == m.start():
            continue
        out.extend([text[pos : m.start()], None])
        pos = m.end()
    out.append(text[pos:])
    return out


def word_tokens(text: str, mask_pattern: str | None = DEFAULT_MASK_PATTERN) -> list[str]:
    """Lowercased word tokens of ``text``; each mask token becomes :data:`MASK_SYMBOL`.

    Args:
        text: a letter.
        mask_pattern: regular expression of mask tokens; None or "" for none.

    Returns:
        Project tokens (``phiscrub-word-v1``) with at least one letter or digit, lowercased.
    """
    out: list[str] = []
    for seg in _segments(text, mask_pattern):
        if seg is None:
            out.append(MASK_SYMBOL)
            continue
        out.extend(t.text.lower() for t in tokenize(seg) if _WORDLIKE.search(t.text))
    return out


def ngrams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    """Counts of the ``n``-grams of ``tokens`` (empty when there are fewer than ``n`` tokens).

    Args:
        tokens: a token sequence.
        n: the n-gram order (>= 1).
    """
    if n < 1:
        raise ConfigError(f"n-gram order must be >= 1, got {n}")
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _unmatchable(tokens: Sequence[str], side: str) -> list[str]:
    """Replace each :data:`MASK_SYMBOL` by a string no other token equals."""
    return [f"\x00{side}{i}" if t == MASK_SYMBOL else t for i, t in enumerate(tokens)]
