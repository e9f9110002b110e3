"""The loader registry: any saved tagger folder by its backbone, and the precision prediction runs at."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from phiscrub.errors import ConfigError, ModelError
from phiscrub.tagger.bilstm import BiLstmTagger
from phiscrub.tagger.config import BILSTM_ENCODER, GGUF_BACKBONE, TrainConfig
from phiscrub.tagger.loaders import LOADERS, cpu_has_native_bf16, load_for_inference, load_tagger
from phiscrub.tagger.model import PhiTagger


@pytest.fixture(scope="module")
def transformer_dir(tmp_path_factory: pytest.TempPathFactory, tiny_bert_dir: Path) -> Path:
    config = TrainConfig(encoder=str(tiny_bert_dir), max_length=32, overlap=4)
    return PhiTagger.from_encoder(config).save(tmp_path_factory.mktemp("loaders") / "model")


def test_every_backbone_has_one_loader() -> None:
    assert set(LOADERS) == {"transformer", BILSTM_ENCODER, GGUF_BACKBONE}


def test_load_tagger_reads_the_backbone_of_the_folder(transformer_dir: Path, tmp_path: Path) -> None:
    model = load_tagger(transformer_dir)
    assert type(model) is PhiTagger and not model.training
    with pytest.raises(ModelError, match="load_tagger"):
        BiLstmTagger.load(transformer_dir)
    with pytest.raises(ModelError, match="config.json"):
        load_tagger(tmp_path)


@pytest.mark.parametrize(
    ("precision", "quantize", "expected"),
    [("float32", False, None), ("bfloat16", False, torch.bfloat16), ("auto", True, None)],
)
def test_load_for_inference_sets_the_autocast_precision(
    transformer_dir: Path, precision: str, quantize: bool, expected: torch.dtype | None
) -> None:
    model = load_for_inference(transformer_dir, quantize=quantize, precision=precision)
    assert model.autocast_dtype == expected


def test_auto_precision_follows_the_cpu(transformer_dir: Path) -> None:
    model = load_for_inference(transformer_dir)
    assert model.autocast_dtype == (torch.bfloat16 if cpu_has_native_bf16() else None)


def test_an_unknown_precision_is_refused_before_loading(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="precision"):
        load_for_inference(tmp_path / "missing", precision="float8")
