"""Word-shape features: one class per word, case and digits made explicit."""

from __future__ import annotations

import pytest

from phiscrub.tagger.features import (
    LENGTH_BUCKETS,
    N_LENGTH_IDS,
    SHAPE_CLASSES,
    length_bucket,
    word_features,
    word_shape,
)
from phiscrub.text import tokenize


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Smith", "title"),
        ("Müller", "title"),
        ("SMITH", "upper"),
        ("ÉLISE", "upper"),
        ("smith", "lower"),
        ("x", "lower"),
        ("J. Doe", "initial"),
        ("J Doe", "upper1"),
        ("McDonald", "mixed"),
        ("7", "d"),
        ("12", "d"),
        ("123", "ddd"),
        ("2019", "dddd"),
        ("02139", "d5+"),
        ("MRN12345", "alnum"),
        ("2nd", "alnum"),
        ("/", "sep"),
        ("-", "sep"),
        (",", "punct"),
        ("\u00a7", "punct"),
        ("😀", "symbol"),
        ("$", "symbol"),
        ("张", "cjk"),
        ("محمد", "nocase"),
    ],
)
def test_word_shape_classes(text: str, expected: str) -> None:
    token = tokenize(text)[0]
    assert SHAPE_CLASSES[word_shape(token, text)] == expected


@pytest.mark.parametrize(
    ("word", "bucket"),
    [
        ("a", 1),
        ("ab", 2),
        ("abc", 3),
        ("abcd", 4),
        ("abcde", 5),
        ("abcdef", 5),
        ("abcdefg", 6),
        ("a" * 10, 6),
        ("a" * 11, 7),
        ("a" * 40, 7),
    ],
)
def test_length_buckets(word: str, bucket: int) -> None:
    assert length_bucket(tokenize(word)[0]) == bucket
    assert len(LENGTH_BUCKETS) + 1 == N_LENGTH_IDS - 1


def test_every_word_gets_non_padding_ids() -> None:
    text = "Pt. José O'Neil, DOB 03/12/1950, tel +1 (555) 010-4477 患者张伟 😀 ok"
    shapes, lengths = word_features(tokenize(text), text)
    assert len(shapes) == len(lengths) == len(tokenize(text))
    assert all(s > 0 for s in shapes) and all(n > 0 for n in lengths)
