"""Privacy check: the share of the original's PHI strings and word n-grams found in the synthetic letter."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from phiscrub.document import Document, Span
from phiscrub.synth.metrics.tokens import (
    _WORDLIKE,
    DEFAULT_MASK_PATTERN,
    _unmatchable,
    ngrams,
    word_tokens,
)

__all__ = ["PrivacyCheck", "phi_strings", "privacy_check"]


# -- privacy --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PrivacyCheck:
    """How much of an original letter survives verbatim in another letter.

    Args:
        phi_total: distinct PHI strings of the original.
        phi_survived: how many of them occur verbatim in the other letter.
        ngram_total: distinct word n-grams of the original.
        ngram_survived: how many of them occur in the other letter.
        n: the n-gram order.
    """

    phi_total: int
    phi_survived: int
    ngram_total: int
    ngram_survived: int
    n: int = 5

    @property
    def phi_share(self) -> float | None:
        """Share of PHI strings that survived; None when the original has none."""
        return self.phi_survived / self.phi_total if self.phi_total else None

    @property
    def ngram_share(self) -> float | None:
        """Share of n-grams that survived; None when the original has fewer than ``n`` words."""
        return self.ngram_survived / self.ngram_total if self.ngram_total else None


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def phi_strings(doc: Document, spans: Iterable[Span] | None = None) -> list[str]:
    """Distinct PHI surfaces of ``doc`` (its spans, or ``spans``), whitespace-collapsed and stripped.

    Surfaces without any letter or digit are left out.

    Args:
        doc: the original letter.
        spans: spans to use instead of ``doc.spans``.
    """
    seen: dict[str, None] = {}
    for s in doc.spans if spans is None else spans:
        surface = _squash(doc.text[s.start : s.end]).strip()
        if surface and _WORDLIKE.search(surface):
            seen.setdefault(surface, None)
    return list(seen)


def privacy_check(
    original: str,
    phi: Sequence[str],
    other: str,
    n: int = 5,
    mask_pattern: str | None = DEFAULT_MASK_PATTERN,
) -> PrivacyCheck:
    """Count the original's PHI strings and word n-grams that occur in ``other``.

    A PHI string survives when it occurs in ``other`` case-sensitively, with runs of whitespace
    collapsed on both sides, and not inside a longer word (unless the original has it only inside a
    longer word, as when an annotation cuts a word). N-grams are over :func:`word_tokens`
    (lowercased; an n-gram holding a mask token never survives).

    Args:
        original: the original letter.
        phi: its PHI strings (see :func:`phi_strings`).
        other: the synthetic (or masked) letter.
        n: n-gram order.
        mask_pattern: mask tokens.
    """
    squashed, squashed_original = _squash(other), _squash(original)
    distinct = list(dict.fromkeys(_squash(p).strip() for p in phi if p.strip()))
    survived = 0
    for p in distinct:
        bounded = re.compile(rf"(?<!\w){re.escape(p)}(?!\w)")
        # A span cut inside a word of the original is looked for as a plain substring.
        if bounded.search(squashed_original) is None:
            survived += p in squashed
        else:
            survived += bounded.search(squashed) is not None
    orig_grams = set(ngrams(_unmatchable(word_tokens(original, mask_pattern), "r"), n))
    other_grams = set(ngrams(_unmatchable(word_tokens(other, mask_pattern), "c"), n))
    return PrivacyCheck(len(distinct), survived, len(orig_grams), len(orig_grams & other_grams), n)
