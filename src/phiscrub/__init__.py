"""phiscrub: offline clinical text de-identification.

The curated public API; everything else is reachable through the subpackages
(``phiscrub.io``, ``phiscrub.detect``, ``phiscrub.transform``, ``phiscrub.evaluate``, ``phiscrub.train``).
"""

from __future__ import annotations

import inspect

# First: sets ORT_DISABLE_TELEMETRY before anything can import onnxruntime (issue 28, item 1).
import phiscrub.tagger.ort  # noqa: F401  # isort: skip
import phiscrub.io as _io
from phiscrub.deid import Deidentifier, Redaction
from phiscrub.document import Document, Span
from phiscrub.engine_config import DeidConfig
from phiscrub.errors import (
    ConfigError,
    InputFormatError,
    LabelError,
    LeakGuardError,
    ModelError,
    PhiscrubError,
    SpanOffsetError,
)
from phiscrub.evaluate import evaluate
from phiscrub.io import read_corpus
from phiscrub.text import tokenize

__all__ = [
    "ConfigError",
    "DeidConfig",
    "Deidentifier",
    "Document",
    "InputFormatError",
    "LabelError",
    "LeakGuardError",
    "ModelError",
    "PhiscrubError",
    "Redaction",
    "Span",
    "SpanOffsetError",
    "evaluate",
    "read_corpus",
    "tokenize",
]
__version__ = "0.1.0"


def _placeholder_reader(**opts: object) -> _io.Reader:
    # The placeholder format reads through the fill engine (transform), above io: imported on use.
    # It takes every common reader option and drops those PlaceholderReader does not take.
    from phiscrub.transform.placeholders import PlaceholderReader

    params = inspect.signature(PlaceholderReader).parameters
    kwargs = {k: v for k, v in opts.items() if k not in _io.COMMON_READER_OPTIONS or k in params}
    return PlaceholderReader(**kwargs)  # type: ignore[arg-type]


_io.READERS.setdefault("placeholder", _placeholder_reader)
_io.FILTERS_OWN_OPTIONS.add("placeholder")
