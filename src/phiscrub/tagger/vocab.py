"""Word and character vocabularies of the BiLSTM-CRF taggers (no annotated PHI word is kept).

Words are lower-cased with every digit replaced by ``0`` (:func:`normalize_word`). Only words seen
*outside* gold spans of the training documents enter the word vocabulary, so a saved model holds
no annotated PHI word; the character vocabulary holds every character of the training words.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import ModelError
from phiscrub.text import Token, tokenize

__all__ = ["PAD_ID", "UNK_ID", "Vocab", "normalize_word"]

#: Index of padding in both vocabularies.
PAD_ID = 0
#: Index of the unknown word / character in both vocabularies.
UNK_ID = 1
_SPECIALS = ("<pad>", "<unk>")
_DIGIT = re.compile(r"\d")


def normalize_word(word: str) -> str:
    """The vocabulary key of a word: lower case, every digit replaced by ``0``."""
    return _DIGIT.sub("0", word.lower())


def _tokens_outside_spans(doc: Document, tokens: list[Token]) -> list[bool]:
    """Per token, True when no gold span of ``doc`` overlaps it."""
    outside = [True] * len(tokens)
    starts = [t.start for t in tokens]
    for span in doc.spans:
        i = max(bisect.bisect_right(starts, span.start) - 1, 0)
        while i < len(tokens) and tokens[i].start < span.end:
            if tokens[i].end > span.start:
                outside[i] = False
            i += 1
    return outside


@dataclass(frozen=True)
class Vocab:
    """Word and character vocabularies of a BiLSTM-CRF tagger.

    Args:
        words: normalised words (:func:`normalize_word`); index 0 is padding, 1 the unknown word.
        counts: training count of each word (0 for the two specials).
        chars: characters; index 0 is padding, 1 the unknown character.
    """

    words: tuple[str, ...]
    counts: tuple[int, ...]
    chars: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.words[:2] != _SPECIALS or self.chars[:2] != _SPECIALS:
            raise ModelError("a vocabulary must start with <pad> and <unk>")
        if len(self.counts) != len(self.words):
            raise ModelError("a vocabulary needs one count per word")
        object.__setattr__(self, "_word_index", {w: i for i, w in enumerate(self.words)})
        object.__setattr__(self, "_char_index", {c: i for i, c in enumerate(self.chars)})

    @classmethod
    def build(cls, docs: Sequence[Document], base: Vocab | None = None) -> Vocab:
        """Vocabulary of training documents (words outside gold spans; all characters).

        Args:
            docs: gold training documents.
            base: an existing vocabulary to extend: its entries keep their indices, new words and
                characters are appended (sorted by count, then alphabetically), counts are added.
        """
        # Counts are taken per *origin* document: augmented copies (metadata ``augmented_from``) of one
        # source count a word as often as the copy that has it most, not once per copy. Otherwise
        # copies turn every singleton of the source into a doubleton, singleton word dropout stops,
        # <unk> is only ever seen on PHI (gold-span words never enter the vocabulary) and the model
        # learns "unknown word = PHI": precision collapses on new text.
        per_origin: dict[str, Counter[str]] = {}
        char_set: set[str] = set()
        for doc in docs:
            tokens = tokenize(doc.text)
            doc_counts: Counter[str] = Counter()
            for token, outside in zip(tokens, _tokens_outside_spans(doc, tokens)):
                char_set.update(token.text)
                if outside:
                    doc_counts[normalize_word(token.text)] += 1
            origin = str(doc.metadata.get("augmented_from") or doc.id)
            seen = per_origin.get(origin)
            per_origin[origin] = doc_counts if seen is None else seen | doc_counts
        word_counts: Counter[str] = Counter()
        for counts_of_origin in per_origin.values():
            word_counts.update(counts_of_origin)
        words = list(base.words) if base is not None else list(_SPECIALS)
        counts = list(base.counts) if base is not None else [0, 0]
        chars = list(base.chars) if base is not None else list(_SPECIALS)
        known = {w: i for i, w in enumerate(words)}
        for word, n in word_counts.items():
            if word in known and known[word] >= len(_SPECIALS):
                counts[known[word]] += n
        new_words = sorted((w for w in word_counts if w not in known), key=lambda w: (-word_counts[w], w))
        words += new_words
        counts += [word_counts[w] for w in new_words]
        chars += sorted(char_set - set(chars))
        return cls(tuple(words), tuple(counts), tuple(chars))

    def word_id(self, word: str) -> int:
        """Index of a (raw) word, :data:`UNK_ID` when unknown."""
        index: dict[str, int] = self._word_index  # type: ignore[attr-defined]
        return index.get(normalize_word(word), UNK_ID)

    def char_ids(self, word: str, max_chars: int) -> tuple[int, ...]:
        """Character indices of a word; a longer word keeps its first and last ``max_chars // 2``."""
        if len(word) > max_chars:
            head = (max_chars + 1) // 2
            word = word[:head] + word[len(word) - (max_chars - head) :]
        index: dict[str, int] = self._char_index  # type: ignore[attr-defined]
        return tuple(index.get(c, UNK_ID) for c in word)

    def singletons(self) -> list[bool]:
        """Per word index, True when the word was seen exactly once in training."""
        return [c == 1 for c in self.counts]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``vocab.json``)."""
        return {"words": list(self.words), "counts": list(self.counts), "chars": list(self.chars)}

    @classmethod
    def from_dict(cls, data: Any) -> Vocab:
        """Read :meth:`to_dict` output.

        Raises:
            ModelError: malformed data.
        """
        try:
            return cls(
                tuple(str(w) for w in data["words"]),
                tuple(int(c) for c in data["counts"]),
                tuple(str(c) for c in data["chars"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"malformed vocabulary: {exc.__class__.__name__}") from exc
