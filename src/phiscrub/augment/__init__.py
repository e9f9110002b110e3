"""Augment: make new gold documents from labelled ones, spans re-validated.

* :mod:`~phiscrub.augment.base`: the :class:`Augmenter` protocol and :func:`augment_corpus` (``alpha``
  seeded copies per document).
* :mod:`~phiscrub.augment.phi`: PHICON PHI augmentation (surrogates of the same type).
* :mod:`~phiscrub.augment.context`: PHICON context augmentation (WordNet synonyms, random insertion).
* :mod:`~phiscrub.augment.mention`: mention replacement from the corpus itself (Wang et al. 2022).
* :mod:`~phiscrub.augment.daga`: DAGA, new sentences from an LSTM language model over linearized
  sentences (Ding et al. 2020). Corpus-level: ``fit(docs, seed)`` then ``generate(n, seed)``, not
  :func:`augment_corpus`.
* :mod:`~phiscrub.augment.llm` and :mod:`~phiscrub.augment.llm_client`: Kim et al.'s LLM one-/zero-shot
  augmentation: scrub, prompt, leak guard, OpenAI-compatible client (retries, cache, usage log), parse,
  refill (:func:`~phiscrub.augment.llm_client.llm_augment`).
* :mod:`~phiscrub.augment.realism`: make synthetic notes look like real ones.

``phicon`` is PHI augmentation followed by context augmentation, as in the paper.
"""

from __future__ import annotations

from phiscrub.augment.base import (
    Augmenter,
    AugmentStats,
    ChainAugmenter,
    augment_corpus,
    copy_rng,
    validate_augmented,
)
from phiscrub.augment.context import ContextAugmenter, pos_tag
from phiscrub.augment.daga import DagaAugmenter, DagaReport
from phiscrub.augment.mention import MentionReplacementAugmenter
from phiscrub.augment.phi import PhiAugmenter
from phiscrub.errors import ConfigError

__all__ = [
    "AUGMENT_METHODS",
    "AugmentStats",
    "Augmenter",
    "ChainAugmenter",
    "ContextAugmenter",
    "DagaAugmenter",
    "DagaReport",
    "MentionReplacementAugmenter",
    "PhiAugmenter",
    "augment_corpus",
    "copy_rng",
    "make_augmenter",
    "pos_tag",
    "validate_augmented",
]

#: Method names accepted by :func:`make_augmenter` (and ``phiscrub augment --method``).
AUGMENT_METHODS: tuple[str, ...] = ("phi", "context", "phicon", "mr", "daga")


def make_augmenter(
    method: str,
    *,
    lang: str = "en",
    p_sr: float = 0.1,
    p_ri: float = 0.1,
    p_mr: float = 0.5,
) -> Augmenter | DagaAugmenter:
    """Build the augmenter for a method name.

    Args:
        method: ``phi``, ``context``, ``phicon`` (PHI then context), ``mr``, or ``daga`` (corpus-level,
            with its default sizes: fit it, then call ``generate``; build :class:`DagaAugmenter`
            directly to choose them).
        lang: surrogate language for ``phi``/``phicon`` (``en``, ``es``, ``ca``, ``zh``, ``auto``);
            context augmentation edits English notes only and, unless ``lang`` is ``en``, skips notes
            that do not look English.
        p_sr: synonym-replacement share of words (context).
        p_ri: random-insertion share of words (context).
        p_mr: replacement probability per entity (``mr``; fit it on the corpus before use).

    Raises:
        ConfigError: unknown method or bad parameters.
    """
    context_lang = "en" if lang == "en" else "auto"
    if method == "phi":
        return PhiAugmenter(lang)
    if method == "context":
        return ContextAugmenter(p_sr, p_ri, context_lang)
    if method == "phicon":
        return ChainAugmenter([PhiAugmenter(lang), ContextAugmenter(p_sr, p_ri, context_lang)], name="phicon")
    if method == "mr":
        return MentionReplacementAugmenter(p_mr)
    if method == "daga":
        return DagaAugmenter()
    raise ConfigError(f"unknown augmentation method {method!r}; use one of {', '.join(AUGMENT_METHODS)}")
