"""Synthetic clinical letters (Ren et al. 2025): mask what is not clinical, refill with a language model.

``Synthesizer`` keeps each letter's structure, clinical terms, numbers and special patterns, replaces
PHI by surrogates (or a refill), masks eligible words by a strategy (random, part of speech,
stopwords, hybrid mixtures; Table 11 profiles) and refills them with a masked LM or a local causal LM.
The CLI is ``phiscrub synth``.

Example:
    >>> from phiscrub.synth import SynthConfig, Synthesizer, MaskingStrategy
    >>> synth = Synthesizer(SynthConfig(strategy=MaskingStrategy.named("stopwords", 0.5)))  # doctest: +SKIP
    >>> out = synth.synthesize(doc)  # doctest: +SKIP
"""

from __future__ import annotations

from phiscrub.synth.chunking import DEFAULT_MAX_LINES, DEFAULT_MAX_TOKENS, Chunk, chunk_text
from phiscrub.synth.features import (
    CUE_WORDS,
    CUE_WORDS_ES,
    ROLES,
    STOPWORDS,
    LetterFeatures,
    MedicalLexicon,
    Word,
    extract_features,
    load_medical_lexicon,
    load_stopwords,
    structure_ranges,
)
from phiscrub.synth.masking import (
    CATEGORIES,
    PROFILES,
    STRATEGIES,
    MaskingStrategy,
    Profile,
    category_members,
    parse_mix,
    select_masks,
)
from phiscrub.synth.pipeline import (
    GENERIC_FILLS,
    MASK_TOKEN,
    SynthConfig,
    Synthesizer,
    SynthStats,
    synthesize,
)
from phiscrub.synth.postprocess import SpellChecker, article_for, match_case
from phiscrub.synth.refill import (
    HFMaskedLMRefiller,
    LlamaCppRefiller,
    Refiller,
    RefillRequest,
    default_gguf_path,
    default_refiller,
    is_valid_word,
    load_refiller,
)

__all__ = [
    "CATEGORIES",
    "CUE_WORDS",
    "CUE_WORDS_ES",
    "DEFAULT_MAX_LINES",
    "DEFAULT_MAX_TOKENS",
    "GENERIC_FILLS",
    "MASK_TOKEN",
    "PROFILES",
    "ROLES",
    "STOPWORDS",
    "STRATEGIES",
    "Chunk",
    "HFMaskedLMRefiller",
    "LetterFeatures",
    "LlamaCppRefiller",
    "MaskingStrategy",
    "MedicalLexicon",
    "Profile",
    "RefillRequest",
    "Refiller",
    "SpellChecker",
    "SynthConfig",
    "SynthStats",
    "Synthesizer",
    "Word",
    "article_for",
    "category_members",
    "chunk_text",
    "default_gguf_path",
    "default_refiller",
    "extract_features",
    "is_valid_word",
    "load_medical_lexicon",
    "load_refiller",
    "load_stopwords",
    "match_case",
    "parse_mix",
    "select_masks",
    "structure_ranges",
    "synthesize",
]
