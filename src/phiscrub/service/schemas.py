"""Request and response bodies of the service API (pydantic models, shown in the OpenAPI docs).

Responses never repeat the PHI strings: spans are offsets into the text the client sent, and the
redacted text holds only replacements.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from phiscrub.io.jsonl import replace_lone_surrogates
from phiscrub.modes import Mode

__all__ = [
    "BatchDetectResponse",
    "BatchRedactResponse",
    "DetectRequest",
    "DetectResult",
    "ErrorResponse",
    "Health",
    "Note",
    "RedactRequest",
    "RedactResult",
    "RedactedSpan",
    "SpanOut",
]

PolicyName = Literal["safe-harbor", "i2b2", "strict"]
LabelsName = Literal["coarse", "fine", "phicon5"]


class Note(BaseModel):
    """One note of a batch request."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(None, max_length=200, description="Your id for the note (default: its position).")
    text: str = Field(description="The note text.")
    patient_id: str | None = Field(
        None, max_length=200, description="Groups notes of one patient: same surrogates, same date shift."
    )


class _Options(BaseModel):
    """Options shared by redact and detect, as on the command line."""

    model_config = ConfigDict(extra="forbid")

    policy: PolicyName | None = Field(
        None, description="What counts as PHI (default: the server's, else the language's default)."
    )
    labels: LabelsName | None = Field(None, description="Label granularity of the spans (default coarse).")
    text: str | None = Field(None, description="One note (give either text or notes).")
    id: str | None = Field(None, max_length=200, description="Id of the single note (default 'text').")
    patient_id: str | None = Field(None, max_length=200, description="Patient of the single note.")
    notes: list[Note] | None = Field(
        None, min_length=1, description="A batch of notes (give either text or notes)."
    )

    @model_validator(mode="before")
    @classmethod
    def _text_only(cls, data: Any) -> Any:
        """Replace lone UTF-16 surrogates (JSON ``"\\ud800"``, no character) by U+FFFD in every
        string of the request, as the command line does for JSONL: one code point for one, so span
        offsets still index the text sent, and neither the model, the rules nor the UTF-8 encoding of
        the answer ever see one (issue 28, item 10: it made the whole batch a 500)."""
        return replace_lone_surrogates(data)

    @model_validator(mode="after")
    def _one_shape(self) -> _Options:
        if (self.text is None) == (self.notes is None):
            raise ValueError("give either 'text' (one note) or 'notes' (a batch), not both or neither")
        return self


class RedactRequest(_Options):
    """Redact one note (``text``) or a batch (``notes``)."""

    mode: Mode | None = Field(
        None,
        description="placeholder ([NAME]), mask (***) or surrogate (realistic, keyed by the server's key).",
    )


class DetectRequest(_Options):
    """Find the PHI spans of one note (``text``) or a batch (``notes``)."""


class SpanOut(BaseModel):
    """A PHI span: offsets into the text sent, label, who found it and how sure it is."""

    start: int
    end: int
    label: str
    source: str = Field(description="rule:<name>, model, lexicon, propagate ...")
    score: float


class RedactedSpan(SpanOut):
    """A replaced span: ``start``/``end`` index the text sent, ``out_start``/``out_end`` the redacted text."""

    out_start: int
    out_end: int


class DetectResult(BaseModel):
    """The PHI spans of one note."""

    id: str
    policy: str
    spans: list[SpanOut]


class RedactResult(BaseModel):
    """One redacted note."""

    id: str
    mode: str
    policy: str
    labels: str
    text: str = Field(description="The redacted text.")
    spans: list[RedactedSpan]


class BatchRedactResponse(BaseModel):
    """Redacted notes of a batch request, in request order."""

    results: list[RedactResult]


class BatchDetectResponse(BaseModel):
    """Spans of each note of a batch request, in request order."""

    results: list[DetectResult]


class Health(BaseModel):
    """Liveness and what the server offers (no configuration values, no secrets)."""

    status: Literal["ok"]
    version: str
    model: bool = Field(description="A tagger model is loaded (else rules only).")
    auth: bool = Field(description="/v1/ requests need a bearer token.")
    surrogate: bool = Field(description="Surrogate mode is available (the server has a key).")
    max_body_bytes: int
    max_batch: int
    rate_limit: int = Field(description="Requests per minute per token and worker process (0: no limit).")
    deadline_s: float = Field(description="A request not done in this many seconds is answered 503.")


class ErrorResponse(BaseModel):
    """Every error body: what went wrong, never the text sent."""

    error: str
    detail: list[dict[str, object]] | None = None
