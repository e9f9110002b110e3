"""Word-shape features: what an uncased subword encoder cannot see.

MiniLM (the default encoder) lowercases and strips accents, so "Rose" (a name) and "rose" look the
same to it. Each project token (:func:`phiscrub.text.tokenize`) therefore gets two categorical
features, embedded and concatenated to the encoder's word vector:

Shape class (:data:`SHAPE_CLASSES`):

=============  ==============================================================
``title``      ``Xxxx``: first letter upper case, the rest lower case
``upper``      ``XXXX``: two or more letters, all upper case
``lower``      ``xxxx``: all lower case
``initial``    ``X.``: one upper-case letter directly followed by a period
``upper1``     ``X``: one upper-case letter not followed by a period
``mixed``      mixed case letters (``McDonald``, ``iPhone``)
``nocase``     letters of a caseless script (Arabic, Hebrew, Thai, ...)
``cjk``        a CJK ideograph, kana or hangul character
``d``          ``d`` or ``dd``: one or two digits (days, months, ages)
``ddd``        three digits (area codes, ages over 99)
``dddd``       four digits (years, phone blocks)
``d5+``        five or more digits (ZIP, MRN, phone numbers)
``alnum``      letters and digits mixed (``MRN12345``, ``2nd``), or underscores
``sep``        one of ``/ - . : ( ) + #`` (separators of dates, phones and IDs)
``punct``      any other punctuation character
``symbol``     symbols and everything else (emoji, currency, math)
=============  ==============================================================

Length bucket (:data:`LENGTH_BUCKETS`): characters in the token, bucketed as 1, 2, 3, 4, 5-6,
7-10, 11+.

Index 0 of both tables is reserved for padding.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from phiscrub.text import Token

__all__ = [
    "LENGTH_BUCKETS",
    "N_LENGTH_IDS",
    "N_SHAPE_IDS",
    "SHAPE_CLASSES",
    "length_bucket",
    "word_features",
    "word_shape",
]

SHAPE_CLASSES: tuple[str, ...] = (
    "<pad>",
    "title",
    "upper",
    "lower",
    "initial",
    "upper1",
    "mixed",
    "nocase",
    "cjk",
    "d",
    "ddd",
    "dddd",
    "d5+",
    "alnum",
    "sep",
    "punct",
    "symbol",
)
#: Inclusive upper bounds of the length buckets (the last bucket is open).
LENGTH_BUCKETS: tuple[int, ...] = (1, 2, 3, 4, 6, 10)
N_SHAPE_IDS = len(SHAPE_CLASSES)
N_LENGTH_IDS = len(LENGTH_BUCKETS) + 2  # padding + buckets + the open last bucket

_SHAPE_ID = {name: i for i, name in enumerate(SHAPE_CLASSES)}
_SEPARATORS = frozenset("/-.:()+#")
_CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xAC00, 0xD7AF))


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in _CJK_RANGES)


@lru_cache(maxsize=1 << 16)  # words repeat: a note's 250 words take about 100 distinct shapes calls
def _shape_name(word: str, next_char: str) -> str:
    if word.isdigit():
        n = len(word)
        return "d" if n <= 2 else "ddd" if n == 3 else "dddd" if n == 4 else "d5+"
    if len(word) == 1 and _is_cjk(word):
        return "cjk"
    if word.isalpha():
        if word.lower() == word.upper():
            return "nocase"
        if len(word) == 1:
            if word.isupper():
                return "initial" if next_char == "." else "upper1"
            return "lower"
        if word.isupper():
            return "upper"
        if word.islower():
            return "lower"
        if word[0].isupper() and word[1:].islower():
            return "title"
        return "mixed"
    if len(word) == 1 and not word.isalnum() and word != "_":
        if word in _SEPARATORS:
            return "sep"
        return "punct" if unicodedata.category(word).startswith("P") else "symbol"
    return "alnum"


def word_shape(token: Token, text: str) -> int:
    """Shape-class id of ``token`` (an index into :data:`SHAPE_CLASSES`, never 0).

    Args:
        token: a token of ``text`` from :func:`phiscrub.text.tokenize`.
        text: the document text (needed to see a period right after an initial).
    """
    next_char = text[token.end] if token.end < len(text) else ""
    return _SHAPE_ID[_shape_name(token.text, next_char)]


def length_bucket(token: Token) -> int:
    """Length-bucket id of ``token`` (1 .. ``N_LENGTH_IDS - 1``; 0 is padding)."""
    n = token.end - token.start
    for i, bound in enumerate(LENGTH_BUCKETS):
        if n <= bound:
            return i + 1
    return len(LENGTH_BUCKETS) + 1


def word_features(tokens: list[Token], text: str) -> tuple[list[int], list[int]]:
    """Shape ids and length-bucket ids of every token of a document."""
    return [word_shape(t, text) for t in tokens], [length_bucket(t) for t in tokens]
