"""Trainable PHI tagger: gold Documents -> BIO windows -> encoder + CRF -> saved model folder.

Modules: :mod:`~phiscrub.train.config` (TrainConfig), :mod:`~phiscrub.train.dataset` (words, BIO
tags, subword encoding), :mod:`~phiscrub.train.windows` (the one window planning of every tagger),
:mod:`~phiscrub.train.features` (word shapes), :mod:`~phiscrub.train.crf`,
:mod:`~phiscrub.train.decode` (numpy decoding, shared with ONNX),
:mod:`~phiscrub.train.base` (what every tagger shares, model folder files),
:mod:`~phiscrub.train.model` (PhiTagger), :mod:`~phiscrub.train.loaders` (load_tagger, by backbone),
:mod:`~phiscrub.train.bilstm` (BiLstmTagger: character + word BiLSTM-CRF, no pretrained weights),
:mod:`~phiscrub.train.inference`, :mod:`~phiscrub.train.trainer`, :mod:`~phiscrub.train.recipes` (few-shot transfer recipes) and
:mod:`~phiscrub.train.tiny` (tiny random encoders for tests).

Needs the ``model`` extra (torch, transformers): ``pip install phiscrub[model]``. The names below
are imported lazily, so ``phiscrub.train.config`` works without torch installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from phiscrub.train.bilstm import BiLstmTagger
    from phiscrub.train.config import TrainConfig
    from phiscrub.train.inference import WordPrediction, predict_words
    from phiscrub.train.loaders import load_tagger
    from phiscrub.train.model import PhiTagger, default_encoder_path
    from phiscrub.train.recipes import RECIPES, RecipeResult, paper_config, run_recipe
    from phiscrub.train.trainer import TrainResult, train

__all__ = [
    "RECIPES",
    "BiLstmTagger",
    "PhiTagger",
    "RecipeResult",
    "TrainConfig",
    "TrainResult",
    "WordPrediction",
    "default_encoder_path",
    "load_tagger",
    "paper_config",
    "predict_words",
    "run_recipe",
    "train",
]

_WHERE = {
    "RECIPES": "recipes",
    "BiLstmTagger": "bilstm",
    "PhiTagger": "model",
    "RecipeResult": "recipes",
    "TrainConfig": "config",
    "TrainResult": "trainer",
    "WordPrediction": "inference",
    "default_encoder_path": "model",
    "load_tagger": "loaders",
    "paper_config": "recipes",
    "predict_words": "inference",
    "run_recipe": "recipes",
    "train": "trainer",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"phiscrub.train.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'phiscrub.train' has no attribute {name!r}")
