"""Post-processing of synthetic letters (Ren et al. 2025, section 3.6) and of single fills.

* Filling the blanks (3.6.1): de-identification blanks (``___``, ``[**...**]``) are slots like masked
  words; the synthesizer asks the refiller for them (see :mod:`phiscrub.synth.pipeline`).
* Spelling correction (3.6.2): :class:`SpellChecker`, a conservative Norvig-style corrector over the
  bundled WordNet lexicon. It only touches words that a masking strategy could also have touched
  (never PHI, structure, clinical terms or patterns); it changes a word only when the word is unknown
  (to WordNet with its inflections, the stopwords and the medical lexicon), is not repeated in the
  letter, and exactly one most frequent known English word is one edit away ("healhty" -> "healthy").
  Corrections that would land on a medical term are refused, since they are likely clinical words the
  lexicon lacks ("tachycardic" is not turned into "tachycardia").
* Fitting a fill into its place: :func:`match_case` and :func:`article_for`.
"""

from __future__ import annotations

import string
from functools import lru_cache

from phiscrub.augment.context import load_wordnet, pos_tag
from phiscrub.synth.features import MedicalLexicon, load_medical_lexicon

__all__ = ["SpellChecker", "article_for", "match_case"]

_VOWEL_SOUND = "aeio"


def match_case(model: str, word: str, *, sentence_start: bool = False) -> str:
    """``word`` in the case pattern of ``model`` (UPPER, Title, lower).

    Args:
        model: the word whose place ``word`` takes (the masked word, or a blank's neighbourhood).
        word: the fill.
        sentence_start: the slot starts a sentence or a line: capitalise the first letter.
    """
    if len(model) > 1 and model.isupper():
        return word.upper()
    if word == "I" or word.startswith("I'"):
        return word
    if model[:1].isupper() or sentence_start:
        return word[:1].upper() + word[1:].lower() if word.islower() or word.isupper() else word
    if word.isupper() and len(word) > 1:
        return word  # an abbreviation predicted by the model keeps its capitals
    return word.lower() if word[:1].isupper() and word[1:].islower() else word


def article_for(word: str, article: str) -> str:
    """``a`` or ``an`` (in ``article``'s case) agreeing with ``word`` by its first letter."""
    want = "an" if word[:1].lower() in _VOWEL_SOUND else "a"
    if article.isupper() and len(article) > 1:
        return want.upper()
    return want.capitalize() if article[:1].isupper() else want


class SpellChecker:
    """Conservative single-edit spelling correction over the bundled WordNet lexicon.

    Args:
        lexicon: the medical lexicon (terms count as known and are never produced); bundled if None.
        min_length: shortest word considered.
    """

    def __init__(self, lexicon: MedicalLexicon | None = None, min_length: int = 5) -> None:
        self.lexicon = lexicon if lexicon is not None else load_medical_lexicon()
        self.min_length = min_length
        self._wn = load_wordnet()

    @lru_cache(maxsize=65536)  # noqa: B019 - one checker per run; the cache is its point
    def _known(self, low: str) -> bool:
        if low in self._wn.lexicon or low in self._wn.stopwords or low in self.lexicon.terms:
            return True
        tagged = pos_tag(low)
        return len(tagged) == 1 and tagged[0].pos in ("n", "v", "a", "r", "x") and tagged[0].form != "?"

    def _frequency(self, low: str) -> int:
        tagged = pos_tag(low)
        lemma = tagged[0].lemma if len(tagged) == 1 else low
        return sum(self._wn.lexicon.get(lemma, {}).values()) + sum(self._wn.lexicon.get(low, {}).values())

    @staticmethod
    def _edits1(word: str) -> set[str]:
        letters = string.ascii_lowercase
        splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
        deletes = [a + b[1:] for a, b in splits if b]
        transposes = [a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1]
        replaces = [a + c + b[1:] for a, b in splits if b for c in letters]
        inserts = [a + c + b for a, b in splits for c in letters]
        return set(deletes + transposes + replaces + inserts) - {word}

    def correct(self, word: str, repeated: frozenset[str] = frozenset()) -> str | None:
        """The correction of ``word``, or None to leave it.

        Args:
            word: a plain word (letters only).
            repeated: lower-cased words that occur more than once in the letter (left alone).
        """
        low = word.lower()
        if len(low) < self.min_length or not low.isascii() or not low.isalpha() or low in repeated:
            return None
        if word[1:] != word[1:].lower():
            return None  # capitals inside: an abbreviation or a name
        if self._known(low):
            return None
        known = [c for c in self._edits1(low) if self._known(c)]
        if not known or any(c in self.lexicon.terms for c in known):
            return None
        ranked = sorted(((self._frequency(c), c) for c in known), reverse=True)
        if ranked[0][0] < 1 or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
            return None
        return match_case(word, ranked[0][1])
