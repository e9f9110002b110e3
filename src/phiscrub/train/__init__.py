"""Trainable PHI tagger: gold Documents -> BIO windows -> encoder + CRF -> saved model folder.

Modules: :mod:`~phiscrub.train.config` (TrainConfig), :mod:`~phiscrub.train.dataset` (words, BIO
tags, subword windows), :mod:`~phiscrub.train.features` (word shapes), :mod:`~phiscrub.train.crf`,
:mod:`~phiscrub.train.model` (PhiTagger, save/load), :mod:`~phiscrub.train.inference`,
:mod:`~phiscrub.train.trainer` and :mod:`~phiscrub.train.tiny` (tiny random encoders for tests).

Needs the ``model`` extra (torch, transformers): ``pip install phiscrub[model]``. The names below
are imported lazily, so ``phiscrub.train.config`` works without torch installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from phiscrub.train.config import TrainConfig
    from phiscrub.train.inference import WordPrediction, predict_words
    from phiscrub.train.model import PhiTagger, default_encoder_path
    from phiscrub.train.trainer import TrainResult, train

__all__ = [
    "PhiTagger",
    "TrainConfig",
    "TrainResult",
    "WordPrediction",
    "default_encoder_path",
    "predict_words",
    "train",
]

_WHERE = {
    "PhiTagger": "model",
    "TrainConfig": "config",
    "TrainResult": "trainer",
    "WordPrediction": "inference",
    "default_encoder_path": "model",
    "predict_words": "inference",
    "train": "trainer",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"phiscrub.train.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'phiscrub.train' has no attribute {name!r}")
