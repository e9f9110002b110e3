"""Fixtures of the tagger tests: tiny random encoders (no download)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from phiscrub.tagger.model import default_encoder_path, load_tokenizer
from phiscrub.train.tiny import make_tiny_encoder


@pytest.fixture(scope="session")
def minilm_tokenizer() -> Any:
    """The real MiniLM tokenizer (uncased WordPiece, 30k vocabulary)."""
    return load_tokenizer(default_encoder_path())


@pytest.fixture(scope="session")
def tiny_minilm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-layer, 32-wide random BERT with the MiniLM tokenizer."""
    return make_tiny_encoder(tmp_path_factory.mktemp("tiny_minilm"), tokenizer_dir=default_encoder_path())


@pytest.fixture(scope="session")
def tiny_bert_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-layer random BERT with a small character-level WordPiece vocabulary (fastest)."""
    return make_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"), kind="bert")


@pytest.fixture(scope="session")
def tiny_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One tiny random encoder per supported architecture."""
    return {
        kind: make_tiny_encoder(tmp_path_factory.mktemp(f"tiny_{kind}"), kind=kind)
        for kind in ("bert", "distilbert", "roberta", "xlm-roberta")
    }
