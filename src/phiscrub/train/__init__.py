"""Training PHI taggers: gold Documents -> labelled windows -> trained model folder.

Since issue 26 the model kinds, loaders, encoding, windows and decoding live in
:mod:`phiscrub.tagger` (used by both :mod:`phiscrub.detect` and this package); what is left here only
trains: :mod:`~phiscrub.train.config` (:class:`~phiscrub.train.config.DistillConfig`; re-exports
:class:`~phiscrub.tagger.config.TrainConfig`), :mod:`~phiscrub.train.dataset` (gold spans to BIO
tags and labelled windows), :mod:`~phiscrub.train.trainer`, :mod:`~phiscrub.train.head` (refit a
head for other labels), :mod:`~phiscrub.train.distill`, :mod:`~phiscrub.train.recipes` (few-shot
transfer recipes), :mod:`~phiscrub.train.run` (the ``train`` command as functions),
:mod:`~phiscrub.train.onnx_export` and :mod:`~phiscrub.train.tiny` (tiny random encoders for tests).

Needs the ``model`` extra (torch, transformers): ``pip install phiscrub[model]``. The names below
are imported lazily (some from :mod:`phiscrub.tagger`), so ``phiscrub.train.config`` works without
torch installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from phiscrub.tagger.bilstm import BiLstmTagger
    from phiscrub.tagger.config import TrainConfig
    from phiscrub.tagger.inference import WordPrediction, predict_words
    from phiscrub.tagger.loaders import load_tagger
    from phiscrub.tagger.model import PhiTagger, default_encoder_path
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
    "RECIPES": "phiscrub.train.recipes",
    "BiLstmTagger": "phiscrub.tagger.bilstm",
    "PhiTagger": "phiscrub.tagger.model",
    "RecipeResult": "phiscrub.train.recipes",
    "TrainConfig": "phiscrub.tagger.config",
    "TrainResult": "phiscrub.train.trainer",
    "WordPrediction": "phiscrub.tagger.inference",
    "default_encoder_path": "phiscrub.tagger.model",
    "load_tagger": "phiscrub.tagger.loaders",
    "paper_config": "phiscrub.train.recipes",
    "predict_words": "phiscrub.tagger.inference",
    "run_recipe": "phiscrub.train.recipes",
    "train": "phiscrub.train.trainer",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'phiscrub.train' has no attribute {name!r}")
