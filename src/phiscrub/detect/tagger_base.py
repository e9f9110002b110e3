"""What every tagger-backed detector shares: long notes in segments, calibration, the Detector role.

A subclass loads a model and implements :meth:`BaseTaggerDetector.predict` (word tags and
probabilities of many documents): :class:`phiscrub.detect.tagger.TaggerDetector` on torch,
:class:`phiscrub.detect.onnx_tagger.OnnxTaggerDetector` on ONNX Runtime. Word tags become
character spans from the first word's start to the last word's end, with ``source="model"`` and
``score`` = mean word probability of the chosen tags, mapped through the folder's calibration when
it has one (:mod:`phiscrub.detect.calibration`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError

if TYPE_CHECKING:
    from phiscrub.detect.calibration import SpanCalibration
    from phiscrub.tagger.decode import WordPrediction

__all__ = ["SEGMENT_CHARS", "SEGMENT_OVERLAP", "BaseTaggerDetector", "TaggerModel", "segments"]


class TaggerModel(Protocol):
    """What a detector reads of its loaded model: the labels it predicts."""

    @property
    def labels(self) -> tuple[str, ...]:
        """The PHI labels of the model."""
        ...


#: Notes longer than this (characters) are tagged in overlapping segments of about this size.
SEGMENT_CHARS = 200_000
#: Characters shared by consecutive segments (an entity crossing a cut is seen whole by one of them).
SEGMENT_OVERLAP = 2_000


def segments(
    text: str, size: int | None = None, overlap: int | None = None
) -> list[tuple[int, int, int, int]]:
    """Cut ``text`` into ``(lo, hi, own_lo, own_hi)`` segments for tagging long notes.

    The owned stretches ``[own_lo, own_hi)`` tile the text; each ends at a line break (else a space)
    in the last fifth of its budget when there is one. A segment ``[lo, hi)`` is its owned stretch
    plus ``overlap`` characters on both sides. A text of at most ``size`` characters is one segment.
    """
    size = SEGMENT_CHARS if size is None else size
    overlap = SEGMENT_OVERLAP if overlap is None else overlap
    n = len(text)
    out: list[tuple[int, int, int, int]] = []
    start = 0
    while start < n:
        end = min(n, start + size)
        if end < n:
            floor = start + (4 * size) // 5
            cut = text.rfind("\n", floor, end)
            if cut < 0:
                cut = text.rfind(" ", floor, end)
            end = cut + 1 if cut >= 0 else end
        out.append((max(0, start - overlap), min(n, end + overlap), start, end))
        start = end
    return out


class BaseTaggerDetector:
    """Detect PHI with a trained tagger; a subclass loads the model and implements :meth:`predict`.

    Args:
        model: the loaded model.
        batch_size: windows per forward pass.
        calibration: maps raw span scores to calibrated ones (None: raw scores).
    """

    name = "model"

    def __init__(
        self, model: TaggerModel, batch_size: int = 16, calibration: SpanCalibration | None = None
    ) -> None:
        if batch_size < 1:
            raise ConfigError("batch_size must be >= 1")
        self.model = model
        self.batch_size = batch_size
        self.calibration = calibration

    @property
    def labels(self) -> tuple[str, ...]:
        """Labels this detector can emit."""
        return self.model.labels

    def detect(self, doc: Document) -> list[Span]:
        """Predicted PHI spans of one document."""
        return self.detect_many([doc])[0]

    def detect_many(self, docs: Sequence[Document], batch_size: int | None = None) -> list[list[Span]]:
        """Predicted PHI spans of many documents (windows of all of them are batched together).

        Args:
            docs: the documents.
            batch_size: windows per forward pass (default: the detector's).
        """
        if all(len(d.text) <= SEGMENT_CHARS for d in docs):
            found = [p.spans(source=self.name) for p in self.predict(docs, batch_size)]
        else:
            found = self._detect_segmented(docs, batch_size)
        if self.calibration is None:
            return found
        return [self.calibration.apply(spans) for spans in found]

    def _detect_segmented(self, docs: Sequence[Document], batch_size: int | None) -> list[list[Span]]:
        """Spans of documents some of which are longer than :data:`SEGMENT_CHARS`, segment by segment.

        A long note is cut into overlapping segments (:func:`segments`), a few predicted at a time,
        so memory stays bounded by the segment size rather than the note's (per-word score tables
        grow with the note), and long notes report progress (counts only). Each segment keeps the
        spans that start in the stretch it owns; an entity crossing into the next stretch is seen
        whole thanks to the overlap.
        """
        from phiscrub.progress import report, wants_progress

        pieces = [
            (i, lo, hi, own_lo, own_hi)
            for i, d in enumerate(docs)
            for lo, hi, own_lo, own_hi in segments(d.text)
        ]
        loud = wants_progress(max(len(d.text) for d in docs))
        found: list[list[Span]] = [[] for _ in docs]
        step = 8
        for k in range(0, len(pieces), step):
            chunk = pieces[k : k + step]
            part_docs = [Document(docs[i].id, docs[i].text[lo:hi]) for i, lo, hi, _, _ in chunk]
            for (i, lo, _, own_lo, own_hi), pred in zip(chunk, self.predict(part_docs, batch_size)):
                for s in pred.spans(source=self.name):
                    if own_lo <= s.start + lo < own_hi:
                        found[i].append(Span(s.start + lo, s.end + lo, s.label, s.score, s.source))
            if loud:
                report("model segments", min(k + step, len(pieces)), len(pieces))
        return found

    def predict(self, docs: Sequence[Document], batch_size: int | None = None) -> list[WordPrediction]:
        """Word-level predictions (tokens, BIO tags, probabilities) of many documents."""
        raise NotImplementedError
