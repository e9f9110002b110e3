"""The augmentation contract: one corpus-level protocol, and the per-document loop behind most methods.

Every augmentation method is a :class:`CorpusAugmenter`: ``fit(docs, seed=...)`` learns what it needs
from the gold corpus (nothing, mentions, a language model), then ``augment(docs, alpha, seed)`` returns
an :class:`AugmentResult`: the new documents, the counts for a results file, the warnings and the
summary line a front end prints. :mod:`phiscrub.augment.registry` builds them by method name.

Most methods edit one document at a time: a :class:`DocumentAugmenter` turns one gold
:class:`~phiscrub.document.Document` into a new one with the same PHI labels in the same order
(surfaces may change, spans move with the text). :class:`CopyAugmenter` makes one of those a corpus
augmenter through :func:`augment_corpus`, which runs it ``alpha`` times over a corpus, as PHICON does
("we can run alpha times, by setting different random seeds"): copy ``k`` of document ``d`` is drawn
from its own random stream, seeded by ``(seed, d.id, k)``, so a copy does not depend on the order of
the documents or on the other copies. Every copy is re-validated; a copy that fails is skipped and
counted, never fatal.

DAGA (:class:`~phiscrub.augment.daga.DagaAugmenter`), the LLM path
(:class:`~phiscrub.augment.llm_client.LLMAugmenter`) and the masked-LM refill
(:class:`~phiscrub.synth.augmenter.MaskedLMAugmenter`) implement :class:`CorpusAugmenter` directly.
"""

from __future__ import annotations

import logging
import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, ClassVar, Protocol, runtime_checkable

from typing_extensions import Self

from phiscrub.document import Document
from phiscrub.errors import ConfigError, PhiscrubError

__all__ = [
    "AugmentResult",
    "AugmentStats",
    "Augmenter",
    "ChainAugmenter",
    "CopiesResult",
    "CopyAugmenter",
    "CorpusAugmenter",
    "DocumentAugmenter",
    "PretrainedAugmenter",
    "ResultLines",
    "augment_corpus",
    "copy_rng",
    "reason_lines",
    "validate_augmented",
]

logger = logging.getLogger(__name__)


@runtime_checkable
class AugmentResult(Protocol):
    """What one :meth:`CorpusAugmenter.augment` call gives back (ids, counts and labels only, no text).

    Attributes:
        documents: the new documents (the input not included).
    """

    documents: list[Document]

    def counts(self) -> dict[str, Any]:
        """JSON-ready counts of the call (an experiment cell's ``augmentation`` record)."""
        ...

    def warnings(self) -> list[str]:
        """Lines about dropped or unchanged output, for stderr (counts and reasons only)."""
        ...

    def summary(self, written: int, destination: str) -> str:
        """The one-line summary after ``written`` documents went to ``destination``."""
        ...


@runtime_checkable
class CorpusAugmenter(Protocol):
    """Every augmentation method: learn from a gold corpus, then make new gold documents from it.

    Attributes:
        name: the method name (``phi``, ``context``, ``phicon``, ``mr``, ``daga``, ``llm-oneshot``, ...).
    """

    name: str

    def fit(self, docs: Sequence[Document], *, seed: int = 0, progress: bool = False) -> CorpusAugmenter:
        """Learn from the corpus (a no-op for methods that need nothing); return self."""
        ...

    def augment(
        self, docs: Sequence[Document], alpha: int, seed: int = 0, *, progress: bool = False
    ) -> AugmentResult:
        """New documents at augmentation level ``alpha`` (copies or samples per document), seeded."""
        ...


@runtime_checkable
class DocumentAugmenter(Protocol):
    """A method that edits one document at a time (wrapped by :class:`CopyAugmenter`).

    Attributes:
        name: short method name (``phi``, ``context``, ``phicon``, ``mr``), stored in the copies' metadata.
        keeps_surfaces: True when it never changes a span's text (context augmentation);
            :func:`augment_corpus` then checks that too.
        unchanged: copies returned as they were because the method does not apply to the note (context
            augmentation of a note that does not look English), counted since construction.
    """

    name: str

    @property
    def keeps_surfaces(self) -> bool:
        """True when span texts never change."""
        ...

    @property
    def unchanged(self) -> int:
        """Copies returned unchanged so far."""
        ...

    def fit(self, docs: Sequence[Document]) -> DocumentAugmenter:
        """Learn from the corpus (a no-op for most); return self."""
        ...

    def augment(self, doc: Document, rng: random.Random) -> Document:
        """A new document drawn from ``doc`` with ``rng``; same labels in the same order."""
        ...


#: The per-document protocol's former name.
Augmenter = DocumentAugmenter


class ChainAugmenter:
    """Run several augmenters one after the other on each document (PHICON = PHI, then context).

    Args:
        steps: the augmenters, in order; they share the copy's random stream.
        name: the method name of the chain.

    Raises:
        ConfigError: no steps.
    """

    def __init__(self, steps: Sequence[DocumentAugmenter], name: str) -> None:
        if not steps:
            raise ConfigError("a chain of augmenters needs at least one step")
        self.steps = tuple(steps)
        self.name = name

    @property
    def keeps_surfaces(self) -> bool:
        """True when every step keeps span surfaces."""
        return all(step.keeps_surfaces for step in self.steps)

    @property
    def unchanged(self) -> int:
        """Copies the steps left unchanged, summed."""
        return sum(step.unchanged for step in self.steps)

    def fit(self, docs: Sequence[Document]) -> ChainAugmenter:
        """Fit every step on the corpus; return self."""
        corpus = list(docs)
        for step in self.steps:
            step.fit(corpus)
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


def reason_lines(template: str, counts: Mapping[str, int]) -> list[str]:
    """One line per reason, sorted: ``template`` formatted with the count ``n``, then ``: reason``.

    Example:
        >>> reason_lines("skipped {n} copies", {"blank surface": 2})
        ['skipped 2 copies: blank surface']
    """
    return [f"{template.format(n=count)}: {reason}" for reason, count in sorted(counts.items())]


class ResultLines:
    """:meth:`AugmentResult.warnings` and :meth:`AugmentResult.summary` from a result class's templates.

    A result class declares only its text:

    * ``DROPPED``: the :func:`reason_lines` template of its dropped output and the attribute path of its
      per-reason counts (``("skipped {n} copies", "stats.reasons")``);
    * ``SUMMARY``: its one-line summary, a :meth:`str.format` template over ``r`` (the result),
      ``written`` and ``destination`` (``"{r.stats.documents_in} documents in, ..."``);
    * :meth:`notes`, when it has warning lines beyond its dropped output.
    """

    DROPPED: ClassVar[tuple[str, str]]
    SUMMARY: ClassVar[str]

    def notes(self) -> list[str]:
        """Warning lines beyond the dropped output (none here)."""
        return []

    def warnings(self) -> list[str]:
        """Dropped output per reason, sorted, then :meth:`notes`."""
        template, path = self.DROPPED
        reasons: Mapping[str, int] = attrgetter(path)(self)
        return reason_lines(template, reasons) + self.notes()

    def summary(self, written: int, destination: str) -> str:
        """The one-line summary after ``written`` documents went to ``destination``."""
        return self.SUMMARY.format(r=self, written=written, destination=destination)


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
    augmenter: DocumentAugmenter,
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
    keep = augmenter.keeps_surfaces
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


@dataclass
class CopiesResult(ResultLines):
    """The result of a :class:`CopyAugmenter`: ``alpha`` validated copies per document.

    Attributes:
        method: the method name.
        documents: the copies.
        stats: the :func:`augment_corpus` counts.
        alpha: copies per document.
        seed: base seed.
        unchanged_non_english: copies left unchanged for not looking English (context augmentation).
    """

    method: str
    documents: list[Document]
    stats: AugmentStats
    alpha: int
    seed: int
    unchanged_non_english: int = 0

    def counts(self) -> dict[str, Any]:
        """Kept/dropped copies, reasons and unchanged copies."""
        return {
            "method": self.method,
            "kept": self.stats.documents_out,
            "dropped": self.stats.skipped,
            "documents_in": self.stats.documents_in,
            "reasons": dict(sorted(self.stats.reasons.items())),
            "documents_out": len(self.documents),
            "unchanged_non_english": self.unchanged_non_english,
        }

    def notes(self) -> list[str]:
        """The copies context augmentation left unchanged."""
        if not self.unchanged_non_english:
            return []
        return [f"context augmentation left {self.unchanged_non_english} non-English copies unchanged"]

    # the text of warnings() and summary() (see ResultLines)
    DROPPED = ("skipped {n} copies", "stats.reasons")
    SUMMARY = (
        "augment {r.method}: {r.stats.documents_in} documents in, {r.stats.documents_out} augmented copies "
        "out (alpha {r.alpha}, seed {r.seed}), {r.stats.skipped} skipped; wrote {written} documents to "
        "{destination}"
    )


class CopyAugmenter:
    """A :class:`CorpusAugmenter` that makes ``alpha`` copies of every document with a
    :class:`DocumentAugmenter` (see :func:`augment_corpus`).

    Args:
        inner: the per-document method.
    """

    def __init__(self, inner: DocumentAugmenter) -> None:
        self.inner = inner
        self.name = inner.name

    def fit(self, docs: Sequence[Document], *, seed: int = 0, progress: bool = False) -> CopyAugmenter:
        """Fit the per-document method on the corpus (mention replacement collects its mentions)."""
        self.inner.fit(list(docs))
        return self

    def augment(
        self, docs: Sequence[Document], alpha: int, seed: int = 0, *, progress: bool = False
    ) -> CopiesResult:
        """``alpha`` re-validated copies of every document; a tqdm bar on stderr with ``progress``.

        Raises:
            ConfigError: ``alpha`` < 1.
        """
        from tqdm import tqdm

        stats = AugmentStats()
        unchanged_before = self.inner.unchanged
        copies = augment_corpus(docs, self.inner, alpha, seed, stats)
        bar = tqdm(
            copies, total=len(docs) * alpha, desc=f"augment {self.name}", unit="doc", file=sys.stderr,
            delay=1.0, disable=not progress,
        )  # fmt: skip
        out = list(bar)
        unchanged = self.inner.unchanged - unchanged_before
        return CopiesResult(self.name, out, stats, alpha, seed, unchanged)


class PretrainedAugmenter:
    """Base of the corpus augmenters whose model is already trained (the LLM, the masked-LM refill):
    :meth:`fit` learns nothing from the corpus."""

    def fit(self, docs: Sequence[Document], *, seed: int = 0, progress: bool = False) -> Self:
        """Nothing to learn; return self."""
        return self
