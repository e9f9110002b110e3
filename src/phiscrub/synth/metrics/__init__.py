"""Quality and privacy metrics for synthetic letters, after Ren et al. (2025, sections 3.5 and 4).

One concept per module: :mod:`.tokens`, :mod:`.rouge`, :mod:`.readability`, :mod:`.entropy`,
:mod:`.privacy`, :mod:`.embedding`, :mod:`.invalid`, :mod:`.matching`, :mod:`.results` and
:mod:`.report`, and :mod:`.run` (the ``synth-eval`` command as a function); every public name is
re-exported here.

Each synthetic letter is compared with the original letter it was generated from; when masked
letters (the generator's input, with mask tokens such as ``[MASK]``) are given, the same scores for
masked-vs-original form the *baseline*: a useful generator scores above the baseline and below 1.

Metrics:

* **ROUGE-1/2/L** F-measure (and P/R) on word tokens: :func:`phiscrub.text.tokenize` tokens,
  lowercased, keeping tokens with at least one letter or digit (punctuation dropped, as in the
  ``rouge-score`` package, which computes ROUGE-N; ROUGE-L is its ``rougeL``, computed bit-parallel,
  see :mod:`.rouge`). A mask token is one token that matches nothing.
* **BERTScore-style embedding similarity** (Zhang et al., 2020): contextual subword embeddings of a
  local Hugging Face encoder (default: the bundled all-MiniLM-L6-v2), each candidate token greedily
  matched to its most similar reference token by cosine similarity (precision), and the other way
  round (recall); F is their harmonic mean. No idf weighting and no baseline rescaling. Long letters
  are embedded in consecutive windows of at most ``window`` subwords. Mask tokens are shown to the
  encoder as its own mask token.
* **Readability** (English formulas): SMOG (McLaughlin, 1969), Flesch Reading Ease and
  Flesch-Kincaid Grade Level, with the heuristic syllable counter :func:`count_syllables` (not
  ``textstat``: it downloads NLTK data on first use, and counts a letter's lines as one sentence).
  Sentences come from :func:`phiscrub.text.sentences` (line breaks end sentences); words are
  tokens with at least one letter; a mask token counts as a one-syllable word.
* **Invalid prediction rate**: invalid predictions / masked words, from counts the generator left
  (``stats.json`` or per-document ``metadata["synth"]``, see :func:`load_synth_stats`); ``None``
  when there are none.
* **Information entropy**: Shannon entropy of the letter's unigram distribution of word tokens,
  in bits per token (every mask token is the same symbol).
* **Privacy check**: the share of the original's distinct PHI strings (gold spans, or detector spans
  when the original has none) that occur verbatim in the synthetic letter (case-sensitive, runs of
  whitespace collapsed, not inside a longer word unless the original has it so), and the share of the original's distinct word
  5-grams that occur in the synthetic letter.

Nothing here logs or returns note text: results hold ids, counts and scores only.
"""

from __future__ import annotations

from phiscrub.synth.metrics.embedding import EmbeddingScorer, greedy_match
from phiscrub.synth.metrics.entropy import text_entropy, unigram_entropy
from phiscrub.synth.metrics.invalid import InvalidCounts, load_synth_stats, stats_path_for
from phiscrub.synth.metrics.matching import Matching, match_documents
from phiscrub.synth.metrics.privacy import PrivacyCheck, phi_strings, privacy_check
from phiscrub.synth.metrics.readability import (
    Readability,
    count_syllables,
    readability,
    readability_from_counts,
)
from phiscrub.synth.metrics.report import to_markdown, write_report
from phiscrub.synth.metrics.results import Comparison, LetterResult, SynthReport, compare, evaluate_synthetic
from phiscrub.synth.metrics.rouge import Score, lcs_length, rouge_l, rouge_n
from phiscrub.synth.metrics.run import CorpusSource, SynthEvalSettings, run_synth_eval
from phiscrub.synth.metrics.tokens import DEFAULT_MASK_PATTERN, MASK_SYMBOL, ngrams, word_tokens

__all__ = [
    "DEFAULT_MASK_PATTERN",
    "MASK_SYMBOL",
    "Comparison",
    "CorpusSource",
    "EmbeddingScorer",
    "InvalidCounts",
    "LetterResult",
    "Matching",
    "PrivacyCheck",
    "Readability",
    "Score",
    "SynthEvalSettings",
    "SynthReport",
    "compare",
    "count_syllables",
    "evaluate_synthetic",
    "greedy_match",
    "lcs_length",
    "load_synth_stats",
    "match_documents",
    "ngrams",
    "phi_strings",
    "privacy_check",
    "readability",
    "readability_from_counts",
    "rouge_l",
    "rouge_n",
    "run_synth_eval",
    "stats_path_for",
    "text_entropy",
    "to_markdown",
    "unigram_entropy",
    "word_tokens",
    "write_report",
]
