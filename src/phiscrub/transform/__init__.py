"""Transform: replace PHI spans with placeholders, masks or consistent surrogates.

* :mod:`~phiscrub.transform.rewrite`: apply replacements, get a new document with spans on them.
* :mod:`~phiscrub.transform.operators`: per-label operators and the :class:`Transformer`.
* :mod:`~phiscrub.transform.surrogate`: the surrogate engine, per-label generators over a keyed or a
  seeded randomness source.
* :mod:`~phiscrub.transform.surrogates`: keyed, consistent surrogate values (redaction).
* :mod:`~phiscrub.transform.fill`: fill placeholder notes with seeded surrogates (imported on use;
  the reader of placeholder notes is :mod:`phiscrub.io.placeholders`).
* :mod:`~phiscrub.transform.dates`: format-preserving date parsing and shifting
  (:mod:`~phiscrub.transform.date_parse`, :mod:`~phiscrub.transform.date_format`).
"""

from __future__ import annotations

from phiscrub.transform.dates import DateValue, ParsedDate, format_date, parse_date, shift_date
from phiscrub.transform.operators import (
    KeepOperator,
    MaskOperator,
    Operator,
    OperatorContext,
    PlaceholderOperator,
    SurrogateOperator,
    Transformer,
    build_transformer,
)
from phiscrub.transform.rewrite import rewrite
from phiscrub.transform.surrogates import SurrogateGenerator

__all__ = [
    "DateValue",
    "KeepOperator",
    "MaskOperator",
    "Operator",
    "OperatorContext",
    "ParsedDate",
    "PlaceholderOperator",
    "SurrogateGenerator",
    "SurrogateOperator",
    "Transformer",
    "build_transformer",
    "format_date",
    "parse_date",
    "rewrite",
    "shift_date",
]
