"""Transform: replace PHI spans with placeholders, masks or consistent surrogates.

* :mod:`~phiscrub.transform.rewrite`: apply replacements, get a new document with spans on them.
* :mod:`~phiscrub.transform.operators`: per-label operators and the :class:`Transformer`.
* :mod:`~phiscrub.transform.surrogate`: the surrogate engine, per-label generators over a keyed or a
  seeded randomness source.
* :mod:`~phiscrub.transform.surrogates`: keyed, consistent surrogate values (redaction).
* :mod:`~phiscrub.transform.fill`: fill placeholder notes with seeded surrogates (imported on use;
  the reader of placeholder notes is :mod:`phiscrub.transform.placeholders`).
* :mod:`~phiscrub.transform.dates`: format-preserving date parsing and shifting
  (:mod:`~phiscrub.transform.date_parse`, :mod:`~phiscrub.transform.date_format`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from phiscrub.transform.surrogates import SurrogateGenerator

# Bound here, not on access: the submodule of the same name would otherwise shadow the function.
from phiscrub.transform.rewrite import rewrite

# The other names of the package are imported on first access (PEP 562) from the first of these
# modules that defines them: a placeholder run imports operators and rewrite only, not the date
# parser and the surrogate engine.
_HOMES = ("operators", "dates", "surrogates")


def __getattr__(name: str) -> Any:
    if name in __all__:
        for home in _HOMES:
            module = importlib.import_module(f"{__name__}.{home}")
            if name in vars(module):
                return vars(module)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
