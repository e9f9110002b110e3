"""One exception hierarchy for phiscrub.

Messages never contain note text or PHI: only document ids, offsets, labels and file paths.

::

    PhiscrubError
    ├── ConfigError          bad options, unknown config keys, missing secret
    ├── InputFormatError     a file cannot be read in the requested format
    │   └── SpanOffsetError  a span's offsets or surface do not match the document text
    ├── LabelError           a label outside every known label set
    ├── ModelError           a model folder is missing parts or does not load
    ├── LeakGuardError       an outgoing payload still holds PHI
    ├── LLMError             an LLM endpoint failed after its retries
    └── MalformedSampleError a generated (DAGA) sequence is not a well-formed tagged sentence
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "InputFormatError",
    "LLMError",
    "LabelError",
    "LeakGuardError",
    "MalformedSampleError",
    "ModelError",
    "PhiscrubError",
    "SpanOffsetError",
]


class PhiscrubError(Exception):
    """Base class of every error raised on purpose by phiscrub."""


class ConfigError(PhiscrubError):
    """Invalid options or configuration."""


class InputFormatError(PhiscrubError):
    """An input cannot be parsed in the requested format.

    Args:
        message: what went wrong (no note text).
        doc_id: the document concerned, when known.
    """

    def __init__(self, message: str, doc_id: str | None = None) -> None:
        self.doc_id = doc_id
        prefix = f"[doc {doc_id}] " if doc_id is not None else ""
        super().__init__(prefix + message)


class SpanOffsetError(InputFormatError):
    """A span does not fit its document (offsets out of range or surface mismatch)."""

    def __init__(self, doc_id: str | None, span_id: str | None, start: int, end: int, reason: str) -> None:
        self.span_id = span_id
        self.start = start
        self.end = end
        where = f"span {span_id} " if span_id else "span "
        super().__init__(f"{where}[{start}:{end}] {reason}", doc_id=doc_id)


class LabelError(PhiscrubError):
    """A label is unknown to the label set in use."""


class ModelError(PhiscrubError):
    """A model directory is missing files or cannot be loaded."""


class LeakGuardError(PhiscrubError):
    """An outgoing payload (e.g. an LLM prompt) still contains detected PHI."""

    def __init__(self, doc_id: str | None, labels: list[str], offsets: list[tuple[int, int]]) -> None:
        self.doc_id = doc_id
        self.labels = labels
        self.offsets = offsets
        shown = ", ".join(f"{lab}@{s}-{e}" for lab, (s, e) in zip(labels, offsets))
        super().__init__(f"[doc {doc_id}] refusing to send payload: unscrubbed PHI detected ({shown})")


class LLMError(PhiscrubError):
    """An LLM endpoint failed (HTTP status, timeout, malformed answer) after all retries.

    The message names the document id, the endpoint's status and the attempt count; never the
    prompt or the reply.
    """


class MalformedSampleError(PhiscrubError):
    """A generated sequence cannot be read back as a tagged sentence (the message names the rule only)."""
