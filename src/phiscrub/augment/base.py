"""The augmenter contract and the loop that makes ``alpha`` re-validated copies of a corpus.

An :class:`Augmenter` turns one gold :class:`~phiscrub.document.Document` into a new one with the
same PHI labels in the same order (surfaces may change, spans move with the text). Corpus-dependent
augmenters (mention replacement) also have ``fit(docs)``, called once on the corpus before use.

:func:`augment_corpus` runs an augmenter ``alpha`` times over a corpus, as PHICON does ("we can run
alpha times, by setting different random seeds"): copy ``k`` of document ``d`` is drawn from its own
random stream, seeded by ``(seed, d.id, k)``, so a copy does not depend on the order of the documents or
on the other copies. Every copy is re-validated; a copy that fails is skipped and counted, never fatal.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from phiscrub.document import Document
from phiscrub.errors import ConfigError, PhiscrubError

__all__ = [
    "AugmentStats",
    "Augmenter",
    "ChainAugmenter",
    "augment_corpus",
    "copy_rng",
    "validate_augmented",
]

logger = logging.getLogger(__name__)


@runtime_checkable
class Augmenter(Protocol):
    """What every augmenter provides.

    Attributes:
        name: short method name (``phi``, ``context``, ``phicon``, ``mr``), stored in the copies' metadata.

    An augmenter may also define ``keeps_surfaces = True`` when it never changes a span's text (context
    augmentation); :func:`augment_corpus` then checks that too. Augmenters that learn from the corpus
    define ``fit(docs) -> self``.
    """

    name: str

    def augment(self, doc: Document, rng: random.Random) -> Document:
        """A new document drawn from ``doc`` with ``rng``; same labels in the same order."""
        ...


class ChainAugmenter:
    """Run several augmenters one after the other on each document (PHICON = PHI, then context).

    Args:
        steps: the augmenters, in order; they share the copy's random stream.
        name: the method name of the chain.

    Raises:
        ConfigError: no steps.
    """

    def __init__(self, steps: Sequence[Augmenter], name: str) -> None:
        if not steps:
            raise ConfigError("a chain of augmenters needs at least one step")
        self.steps = tuple(steps)
        self.name = name

    @property
    def keeps_surfaces(self) -> bool:
        """True when every step keeps span surfaces."""
        return all(getattr(step, "keeps_surfaces", False) for step in self.steps)

    def fit(self, docs: Iterable[Document]) -> ChainAugmenter:
        """Fit the steps that learn from the corpus; return self."""
        corpus = list(docs)
        for step in self.steps:
            fit = getattr(step, "fit", None)
            if fit is not None:
                fit(corpus)
        return self

    def augment(self, doc: Document, rng: random.Random) -> Document:
        """Apply every step in turn."""
        for step in self.steps:
            doc = step.augment(doc, rng)
        return doc


@dataclass
class AugmentStats:
    """Counts of one :func:`augment_corpus` run (filled in as the copies are consumed).

    Attributes:
        documents_in: source documents seen.
        documents_out: augmented copies yielded.
        skipped: copies dropped because they failed validation or the augmenter raised.
        reasons: skipped copies per reason (no note text).
    """

    documents_in: int = 0
    documents_out: int = 0
    skipped: int = 0
    reasons: Counter[str] = field(default_factory=Counter)


def copy_rng(seed: int, doc_id: str, copy: int) -> random.Random:
    """The random stream of copy ``copy`` of document ``doc_id`` under ``seed``.

    The key is prefixed with ``augment`` so that the stream differs from the placeholder reader's
    (``"<seed>:<id>:<draw>"``): with the same seed, both would otherwise draw the same values.
    """
    return random.Random(f"augment:{seed}:{doc_id}:{copy}")


def validate_augmented(source: Document, augmented: Document, *, keep_surfaces: bool = False) -> str | None:
    """Why an augmented copy is unusable, or None when it is fine.

    Checks: the same number of spans with the same labels in the same order; every span inside the
    text with a non-blank surface; with ``keep_surfaces``, every surface equal to the source's.

    Returns:
        A short reason (labels and counts only, never text), or None.
    """
    if len(source.spans) != len(augmented.spans):
        return f"span count changed ({len(source.spans)} -> {len(augmented.spans)})"
    n = len(augmented.text)
    for old, new in zip(source.spans, augmented.spans):
        if old.label != new.label:
            return f"label order changed ({old.label} -> {new.label})"
        if new.end > n:
            return f"span {new.label} ends past the text"
        if not augmented.text[new.start : new.end].strip():
            return f"span {new.label} has a blank surface"
        if keep_surfaces and source.surface(old) != augmented.surface(new):
            return f"span {new.label} surface changed"
    return None


def augment_corpus(
    docs: Iterable[Document],
    augmenter: Augmenter,
    alpha: int,
    seed: int = 0,
    stats: AugmentStats | None = None,
) -> Iterator[Document]:
    """Yield ``alpha`` augmented copies of every document, re-validated.

    Copies get the id ``"<id>#aug<k>"`` (k from 0) and metadata ``augmented_from``, ``augment_method``,
    ``augment_copy`` and ``augment_seed`` on top of the source's. Fit corpus-dependent augmenters first.

    Args:
        docs: gold documents.
        augmenter: the method.
        alpha: copies per document (at least 1).
        seed: base seed; each copy has its own stream (see :func:`copy_rng`).
        stats: filled in with counts while the iterator is consumed.

    Raises:
        ConfigError: ``alpha`` < 1.
    """
    if alpha < 1:
        raise ConfigError("alpha must be at least 1")
    stats = stats if stats is not None else AugmentStats()
    keep = bool(getattr(augmenter, "keeps_surfaces", False))
    for doc in docs:
        stats.documents_in += 1
        for k in range(alpha):
            copy_id = f"{doc.id}#aug{k}"
            try:
                out = augmenter.augment(doc, copy_rng(seed, doc.id, k))
                reason = validate_augmented(doc, out, keep_surfaces=keep)
            except (PhiscrubError, ValueError) as err:
                # The type only: messages of lower layers are meant to be text-free, but be sure.
                reason = f"augmenter raised {type(err).__name__}"
            if reason is not None:
                stats.skipped += 1
                stats.reasons[reason] += 1
                logger.warning("[doc %s] augmented copy skipped: %s", copy_id, reason)
                continue
            metadata = {
                **dict(out.metadata),
                "augmented_from": doc.id,
                "augment_method": augmenter.name,
                "augment_copy": k,
                "augment_seed": seed,
            }
            stats.documents_out += 1
            yield Document(copy_id, out.text, out.spans, metadata)
