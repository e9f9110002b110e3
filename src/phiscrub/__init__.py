"""phiscrub: offline clinical text de-identification.

The curated public API; everything else is reachable through the subpackages
(``phiscrub.io``, ``phiscrub.detect``, ``phiscrub.transform``, ``phiscrub.evaluate``, ``phiscrub.train``).
"""

from __future__ import annotations

# First: sets ORT_DISABLE_TELEMETRY before anything can import onnxruntime (issue 28, item 1).
import phiscrub.tagger.ort  # noqa: F401  # isort: skip
from phiscrub.deid import Deidentifier, Redaction
from phiscrub.document import Document, Span
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
