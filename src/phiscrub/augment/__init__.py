"""Augment: make new gold documents from labelled ones, spans re-validated.

* :mod:`~phiscrub.augment.base`: the contract: :class:`CorpusAugmenter` (``fit(docs)`` then
  ``augment(docs, alpha, seed)``), :class:`DocumentAugmenter` and :func:`augment_corpus` (``alpha``
  seeded copies per document), :class:`CopyAugmenter` between the two.
* :mod:`~phiscrub.augment.registry`: the one registry, :func:`build_augmenter` by method name; its table of
  method specs (``METHODS``) is imported from there.
* :mod:`~phiscrub.augment.phi`: PHICON PHI augmentation (surrogates of the same type).
* :mod:`~phiscrub.augment.context`: PHICON context augmentation (WordNet synonyms, random insertion).
* :mod:`~phiscrub.augment.mention`: mention replacement from the corpus itself (Wang et al. 2022).
* :mod:`~phiscrub.augment.daga`: DAGA, new sentences from an LSTM language model over linearized
  sentences (Ding et al. 2020), corpus-level.
* :mod:`~phiscrub.augment.llm`, :mod:`~phiscrub.augment.chat` and :mod:`~phiscrub.augment.llm_client`:
  Kim et al.'s LLM one-/zero-shot augmentation: scrub, prompt, leak guard, OpenAI-compatible client
  (HTTP, retries, cache, usage log), parse, refill (:class:`~phiscrub.augment.llm_client.LLMAugmenter`).
* :mod:`~phiscrub.augment.realism`: make synthetic notes look like real ones.

The masked-LM refill of :mod:`phiscrub.synth` is registered as ``mlm``
(:class:`~phiscrub.synth.augmenter.MaskedLMAugmenter`).

``phicon`` is PHI augmentation followed by context augmentation, as in the paper.
"""

from __future__ import annotations

from phiscrub.augment.base import (
    Augmenter,
    AugmentResult,
    AugmentStats,
    ChainAugmenter,
    CopiesResult,
    CopyAugmenter,
    CorpusAugmenter,
    DocumentAugmenter,
    augment_corpus,
    copy_rng,
    validate_augmented,
)
from phiscrub.augment.context import ContextAugmenter, pos_tag
from phiscrub.augment.daga import DagaAugmenter, DagaReport, DagaResult
from phiscrub.augment.mention import MentionReplacementAugmenter
from phiscrub.augment.phi import PhiAugmenter
from phiscrub.augment.registry import (
    ALL_METHODS,
    AUGMENT_METHODS,
    DOCUMENT_METHODS,
    AugmentOptions,
    LLMOptions,
    build_augmenter,
    document_augmenter,
)

__all__ = [
    "ALL_METHODS",
    "AUGMENT_METHODS",
    "DOCUMENT_METHODS",
    "AugmentOptions",
    "AugmentResult",
    "AugmentStats",
    "Augmenter",
    "ChainAugmenter",
    "ContextAugmenter",
    "CopiesResult",
    "CopyAugmenter",
    "CorpusAugmenter",
    "DagaAugmenter",
    "DagaReport",
    "DagaResult",
    "DocumentAugmenter",
    "LLMOptions",
    "MentionReplacementAugmenter",
    "PhiAugmenter",
    "augment_corpus",
    "build_augmenter",
    "copy_rng",
    "document_augmenter",
    "pos_tag",
    "validate_augmented",
]
