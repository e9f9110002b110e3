"""The surrogate engine's randomness layer: keyed and seeded sources behind one protocol."""

from __future__ import annotations

import random
import re

import pytest

from phiscrub.transform.surrogate.source import (
    KeyedSource,
    keyed_streams,
    pattern_of,
    shape,
    shape_digit_runs,
    shape_like,
)


def test_keyed_source_is_a_function_of_key_and_parts() -> None:
    draws = [KeyedSource(b"k", ("patient", "p1", "name", "john")).randrange(1000) for _ in range(3)]
    assert len(set(draws)) == 1
    one = KeyedSource(b"k", ("a",))
    assert [one.randrange(10**9) for _ in range(5)] != [
        KeyedSource(b"k2", ("a",)).randrange(10**9) for _ in range(5)
    ]
    many = KeyedSource(b"k", ("spread",))
    values = [many.randrange(7) for _ in range(700)]
    assert set(values) == set(range(7))  # every value of the range comes out
    with pytest.raises(ValueError):
        many.randrange(0)


def test_streams_scope_their_sources() -> None:
    p1, p2 = keyed_streams(b"k", ("patient", "p1")), keyed_streams(b"k", ("patient", "p2"))
    assert p1("name", "john").randrange(10**9) == p1("name", "john").randrange(10**9)
    assert p1("name", "john").randrange(10**9) != p2("name", "john").randrange(10**9)


@pytest.mark.parametrize("src", [KeyedSource(b"k", ("shape",)), random.Random(4)], ids=["keyed", "seeded"])
def test_shape_drawing_works_on_either_source(src: KeyedSource | random.Random) -> None:
    assert re.fullmatch(r"MR[3-9]-\d{3}[A-Z][a-z][0-9A-Z]", shape(src, "\\MR~-###%^&"))
    like = shape_like("AB-12 x9", src)
    assert re.fullmatch(r"[A-Z]{2}-\d\d [a-z]\d", like)
    assert re.fullmatch(r"[1-9]\d* and [1-9]\d*", shape_digit_runs("042 and 7", src))


def test_a_keyed_shape_is_the_pattern_shape_of_the_original() -> None:
    assert pattern_of("AB-12 x9#") == "%%-## ^#\\#"
    assert pattern_of("0042", nonzero_first=True) == "!###"
    assert pattern_of("Ab", keep_case=False) == "^^"
    one, two = KeyedSource(b"k", ("same",)), KeyedSource(b"k", ("same",))
    assert shape_like("MRN-0042a", one) == shape(two, pattern_of("MRN-0042a"))
