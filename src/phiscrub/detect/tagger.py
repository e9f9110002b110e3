"""A :class:`~phiscrub.detect.base.Detector` backed by a trained :class:`~phiscrub.train.model.PhiTagger`.

Long notes are never truncated: each note is cut into overlapping subword windows, each word takes
the prediction of the window where it is farthest from a cut edge, and the whole note is decoded
at once with BIO constraints (see :mod:`phiscrub.train.inference`). Word tags become character
spans from the first word's start to the last word's end, with ``source="model"`` and
``score`` = mean word probability of the chosen tags.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import torch

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.train.inference import WordPrediction, predict_words
from phiscrub.train.model import PhiTagger

__all__ = ["TaggerDetector"]


class TaggerDetector:
    """Detect PHI with a trained tagger.

    Args:
        model: a loaded :class:`PhiTagger` (see :meth:`load`).
        batch_size: windows per forward pass.
    """

    name = "model"

    def __init__(self, model: PhiTagger, batch_size: int = 16) -> None:
        if batch_size < 1:
            raise ConfigError("batch_size must be >= 1")
        self.model = model
        self.batch_size = batch_size

    @classmethod
    def load(
        cls,
        model_dir: str | Path,
        device: str = "cpu",
        quantize: bool = False,
        batch_size: int = 16,
        num_threads: int | None = None,
    ) -> TaggerDetector:
        """Load a model folder written by :meth:`PhiTagger.save` / :func:`phiscrub.train.train`.

        Args:
            model_dir: the model folder.
            device: ``cpu``, ``cuda`` ...
            quantize: dynamic int8 quantization of the linear layers (CPU only; faster, smaller).
            batch_size: windows per forward pass.
            num_threads: if given, ``torch.set_num_threads`` (process-wide).

        Raises:
            ModelError: the folder is incomplete or inconsistent.
        """
        if num_threads is not None:
            torch.set_num_threads(num_threads)
        return cls(PhiTagger.load(model_dir, device=device, quantize=quantize), batch_size=batch_size)

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
        return [p.spans(source=self.name) for p in self.predict(docs, batch_size)]

    def predict(self, docs: Sequence[Document], batch_size: int | None = None) -> list[WordPrediction]:
        """Word-level predictions (tokens, BIO tags, probabilities) of many documents."""
        return predict_words(self.model, list(docs), batch_size=batch_size or self.batch_size)
