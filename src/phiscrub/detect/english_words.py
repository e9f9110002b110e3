"""Which lower-case words are English words in use (and so never taken as names or places).

Shared by name propagation (:mod:`phiscrub.detect.propagate`), place propagation
(:mod:`phiscrub.detect.propagate_places`) and the place rules (:mod:`phiscrub.detect.rules.places_en`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from phiscrub.detect.pattern_data import pattern_data

_RX = pattern_data("english_words")


__all__ = ["lowercase_blocked", "lowercase_ok"]


@lru_cache(maxsize=1)
def lowercase_blocked() -> frozenset[str]:
    """Words that are never taken as names when written in lower case.

    WordNet lemmas with a non-zero sense-tagged corpus count (words in actual use: "brown", "field",
    "page"; "smith" has count 0 and stays a possible name), and every word of the bundled clinical
    terms, drugs, abbreviations and units ("walker", "cane").
    """
    root = resources.files("phiscrub.resources")
    lexicon = root.joinpath("wordnet", "lexicon.tsv").read_text(encoding="utf-8")
    # One regex pass over the 77k lines instead of a Python loop over every "pos:count" pair.
    words = {lemma.casefold() for lemma in _RX["USED_LEMMA_RE"].findall(lexicon)}
    for name in ("terms", "drugs", "abbreviations", "units"):
        text = root.joinpath("medical", f"{name}.txt").read_text(encoding="utf-8")
        words.update(w.casefold() for w in re.findall(r"[^\W\d_]+", text))
    return frozenset(words)


def lowercase_ok(key: str) -> bool:
    """A lower-case occurrence of the name token ``key`` may be taken as the name."""
    blocked = lowercase_blocked()
    if key in blocked:
        return False
    # plural or possessive of a word in use: "fields", "banks", "bushes"
    for suffix in ("'s", "es", "s"):
        if key.endswith(suffix) and key[: -len(suffix)] in blocked:
            return False
    return True
