"""Readability (English formulas): SMOG, Flesch Reading Ease and Flesch-Kincaid Grade Level."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from phiscrub.synth.metrics.tokens import (
    _LETTER,
    DEFAULT_MASK_PATTERN,
    _segments,
)
from phiscrub.text import sentences, tokenize

# -- readability ----------------------------------------------------------------------------------
# Silent endings: "-e" (not "-le"), "-es" (not after s/x/z/c/g: boxes, pages), "-ed" (not after t/d).
_SILENT_END = re.compile(r"(?:[^laeiouysxzcg]es|[^laeiouytd]ed|[^laeiouy]e)$")
# A silent "e" before "-ment" (manage-ment, state-ment; not ce-ment, el-e-ment).
_SILENT_EMENT = re.compile(r"(?<=[aeiouy][^aeiouyl])ement")
_VOWEL_GROUP = re.compile(r"[aeiouy]+")
# Vowel pairs usually spoken as two syllables: "-ia-" (not after c/s/t/g/x: special, Asia, ...),
# "-io-" (not in -tion, -sion, -cion, -gion, -xion), and a vowel before "-ing" (be-ing, go-ing).
_HIATUS = (
    re.compile(r"(?<![cstgx])ia"),
    re.compile(r"(?<![cstgx])io"),
    re.compile(r"[aeiouy](?=ing(?:s)?$)"),
)

__all__ = ["Readability", "count_syllables", "readability", "readability_from_counts"]


def count_syllables(word: str) -> int:
    """Estimated number of syllables of an English word (heuristic; accents are stripped first).

    Vowel groups (``aeiouy``) are counted after dropping a silent final ``-e``/``-es``/``-ed`` (but
    not ``-le``, ``-ted``, ``-ses`` ...) and the silent ``e`` of ``-ement``; a few vowel pairs usually
    spoken apart add one. Words of at most three letters have one syllable. Every word has at least one
    syllable; a string without letters has none.

    Args:
        word: one word.
    """
    folded = unicodedata.normalize("NFKD", word)
    w = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    w = re.sub(r"[^a-z]", "", w)
    if not w:
        return 1 if _LETTER.search(word) else 0
    if len(w) <= 3:
        return 1
    w = _SILENT_EMENT.sub("ment", _SILENT_END.sub("", w))
    w = re.sub(r"^y", "", w)
    n = len(_VOWEL_GROUP.findall(w)) + sum(len(rx.findall(w)) for rx in _HIATUS)
    return max(1, n)


@dataclass(frozen=True)
class Readability:
    """Readability scores of one text and the counts behind them; scores are None without words.

    Args:
        smog: SMOG grade, ``1.0430 * sqrt(polysyllables * 30 / sentences) + 3.1291``.
        flesch_reading_ease: ``206.835 - 1.015 * words/sentences - 84.6 * syllables/words``.
        flesch_kincaid_grade: ``0.39 * words/sentences + 11.8 * syllables/words - 15.59``.
        words: word count.
        sentences: sentences holding at least one word.
        syllables: syllable count.
        polysyllables: words of three syllables or more.
    """

    smog: float | None
    flesch_reading_ease: float | None
    flesch_kincaid_grade: float | None
    words: int
    sentences: int
    syllables: int
    polysyllables: int


def readability_from_counts(words: int, n_sentences: int, syllables: int, polysyllables: int) -> Readability:
    """The three readability formulas from raw counts.

    Args:
        words: number of words.
        n_sentences: number of sentences.
        syllables: number of syllables.
        polysyllables: number of words with three syllables or more.
    """
    if words <= 0 or n_sentences <= 0:
        return Readability(None, None, None, max(words, 0), max(n_sentences, 0), syllables, polysyllables)
    wps = words / n_sentences
    spw = syllables / words
    return Readability(
        smog=1.0430 * math.sqrt(polysyllables * 30 / n_sentences) + 3.1291,
        flesch_reading_ease=206.835 - 1.015 * wps - 84.6 * spw,
        flesch_kincaid_grade=0.39 * wps + 11.8 * spw - 15.59,
        words=words,
        sentences=n_sentences,
        syllables=syllables,
        polysyllables=polysyllables,
    )


def readability(text: str, mask_pattern: str | None = DEFAULT_MASK_PATTERN) -> Readability:
    """SMOG, Flesch Reading Ease and Flesch-Kincaid Grade of ``text`` (English formulas).

    Args:
        text: a letter.
        mask_pattern: mask tokens, each counted as a one-syllable word; None for none.
    """
    words = n_sent = syllables = poly = 0
    for start, end in sentences(text):
        counts = []
        for seg in _segments(text[start:end], mask_pattern):
            if seg is None:
                counts.append(1)
                continue
            counts.extend(count_syllables(t.text) for t in tokenize(seg) if _LETTER.search(t.text))
        if counts:
            n_sent += 1
            words += len(counts)
            syllables += sum(counts)
            poly += sum(1 for c in counts if c >= 3)
    return readability_from_counts(words, n_sent, syllables, poly)
