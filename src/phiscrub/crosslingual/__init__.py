"""Cross-lingual helpers: few-shot corpus sampling, rules/model fusion, and (re-exported) language identification.

* :mod:`phiscrub.langid` (a core module since issue 26; its names are re-exported here): a small
  bundled stop-word language identifier (``en``, ``es``, ``ca``, ``de``, ``fr``, ``nl``; ``zh`` by
  script), used by ``lang="auto"``.
* :mod:`phiscrub.crosslingual.fewshot`: Amin et al. (2022) Definition 1 few-shot sampling.
"""

from __future__ import annotations

from phiscrub.crosslingual.fewshot import FewShotSample, fewshot_sample, label_counts, sentence_documents
from phiscrub.langid import LANGID_LANGUAGES, detect_language, language_scores

__all__ = [
    "LANGID_LANGUAGES",
    "FewShotSample",
    "detect_language",
    "fewshot_sample",
    "label_counts",
    "language_scores",
    "sentence_documents",
]
