"""Mention replacement (MR; Dai & Adel 2020, used by Wang et al. 2022 for Chinese de-identification).

Each gold entity is replaced, with probability ``p`` (0.5 in Wang et al.: "a binomial distribution
... the entity is chosen for replacement by another entity from the training set that has the same
entity type when P > .5"), by another mention of the same label drawn from the training corpus itself.
Unlike PHI augmentation no outside value is used: the augmented corpus only re-combines the corpus's
own mentions with its own contexts.

Mentions are drawn in proportion to how often each surface occurs in the corpus (a draw over mentions,
not over distinct strings), never the span's own surface unless it is the only one of its label.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable

from phiscrub.augment.phi import standalone_spans
from phiscrub.document import Document
from phiscrub.errors import ConfigError
from phiscrub.transform.rewrite import apply_edits

__all__ = ["MentionReplacementAugmenter"]


class MentionReplacementAugmenter:
    """Replace entities by other mentions of the same label seen in the corpus.

    Args:
        p: probability that each entity is replaced.

    Attributes:
        mentions_: after :meth:`fit`, per label, the distinct surfaces (sorted) and their counts.

    Raises:
        ConfigError: ``p`` outside ``[0, 1]``.
    """

    name = "mr"
    keeps_surfaces = False
    unchanged = 0

    def __init__(self, p: float = 0.5) -> None:
        if not 0.0 <= p <= 1.0:
            raise ConfigError("mention replacement probability must be in [0, 1]")
        self.p = p
        self.mentions_: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] | None = None

    def fit(self, docs: Iterable[Document]) -> MentionReplacementAugmenter:
        """Collect every span surface per label (blank surfaces ignored); return self."""
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        for doc in docs:
            for span in doc.spans:
                surface = doc.surface(span)
                if surface.strip():
                    counts[span.label][surface] += 1
        # Sorted so that draws depend on the seed only, not on hash order or document order.
        self.mentions_ = {
            label: (tuple(sorted(c)), tuple(c[s] for s in sorted(c))) for label, c in sorted(counts.items())
        }
        return self

    def augment(self, doc: Document, rng: random.Random) -> Document:
        """A copy of ``doc`` where each entity is, with probability ``p``, another mention of its label.

        Raises:
            ConfigError: the augmenter was not fitted.
        """
        if self.mentions_ is None:
            raise ConfigError("mention replacement needs fit(corpus) before augment()")
        edits: list[tuple[int, int, str]] = []
        for span in standalone_spans(doc):
            if rng.random() >= self.p:
                continue
            surfaces, weights = self.mentions_.get(span.label, ((), ()))
            own = doc.surface(span)
            pool = [(s, w) for s, w in zip(surfaces, weights) if s != own]
            if not pool:
                continue
            new = rng.choices([s for s, _ in pool], weights=[w for _, w in pool], k=1)[0]
            edits.append((span.start, span.end, new))
        out = apply_edits(doc, edits)
        return Document(doc.id, out.text, out.spans, dict(doc.metadata))
