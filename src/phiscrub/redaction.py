"""The one result type of a redaction: :class:`Redaction` (the input, its PHI spans, the output)."""

from __future__ import annotations

from dataclasses import dataclass

from phiscrub.document import Document, Span

__all__ = ["Redaction"]


@dataclass(frozen=True)
class Redaction:
    """One redacted note: the input, the PHI spans found in it, and the rewritten output.

    ``spans`` index ``original.text`` and carry labels at the call's granularity; spans whose
    label folds to nothing at that granularity (e.g. OTHER) are not listed and not replaced.
    ``result.spans`` are the same spans, in the same order, pointing at the replacements.
    """

    original: Document
    spans: tuple[Span, ...]
    result: Document
    #: The note's language as decided once for it (:func:`phiscrub.language.decide_language`).
    lang: str | None = None
    #: Under ``lang="auto"``/``"default"`` the gated model was left out although the note reads as
    #: English outside a quoted passage (:func:`phiscrub.detect.mixed_language.english_plausible`).
    model_skipped: bool = False
    #: The PHI policy applied to the note (:meth:`phiscrub.deid.Deidentifier.policy_for`).
    policy: str | None = None

    @property
    def text(self) -> str:
        """The redacted text (``result.text``)."""
        return self.result.text
