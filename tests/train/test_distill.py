"""Distillation of the bundled tagger into a smaller student (phiscrub.train.distill, phiscrub distill)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.detect.tagger import bundled_model_path
from phiscrub.errors import ConfigError
from phiscrub.io.jsonl import JsonlWriter
from phiscrub.tagger.config import TrainConfig
from phiscrub.tagger.crf import bio_constraints, marginals
from phiscrub.tagger.encoding import tag_set
from phiscrub.tagger.model import PhiTagger
from phiscrub.train.distill import (
    DistillConfig,
    crf_log_marginals,
    default_layer_map,
    distill,
    encoder_layers,
    tag_agreement,
)

from ._docs import synthetic_docs


@pytest.fixture(scope="module")
def teacher_dir() -> Path:
    folder = bundled_model_path()
    assert folder is not None, "the package ships a bundled model"
    return folder


@pytest.fixture(scope="module")
def teacher(teacher_dir: Path) -> PhiTagger:
    return PhiTagger.load(teacher_dir)


def test_default_layer_map_spans_first_to_last() -> None:
    assert default_layer_map(6, 3) == (0, 2, 5)
    assert default_layer_map(6, 2) == (0, 5)
    assert default_layer_map(6, 1) == (5,)
    assert default_layer_map(12, 4) == (0, 4, 7, 11)
    with pytest.raises(ConfigError):
        default_layer_map(6, 6)


def test_distill_config_rejects_bad_values() -> None:
    with pytest.raises(ConfigError):
        DistillConfig(layers=2, layer_map=(0, 1, 2))
    with pytest.raises(ConfigError):
        DistillConfig(temperature=0.0)
    with pytest.raises(ConfigError):
        DistillConfig(alpha=1.5)
    with pytest.raises(ConfigError):
        DistillConfig(init="scratch")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_crf_log_marginals_match_forward_backward(seed: int) -> None:
    """The differentiable marginals equal the decoder's numpy forward-backward on ragged batches."""
    tags = tag_set("coarse")
    allowed, allowed_start = bio_constraints(tags)
    gen = torch.Generator().manual_seed(seed)
    n_tags = len(tags)
    trans = torch.randn(n_tags, n_tags, generator=gen) * 2
    start = torch.randn(n_tags, generator=gen)
    end = torch.randn(n_tags, generator=gen)
    emissions = torch.randn(3, 14, n_tags, generator=gen) * 4
    lengths = [14, 6, 1]
    mask = torch.zeros(3, 14, dtype=torch.bool)
    for b, n in enumerate(lengths):
        mask[b, :n] = True
    got = crf_log_marginals(
        emissions,
        trans.masked_fill(~torch.from_numpy(allowed), -1e4),
        start.masked_fill(~torch.from_numpy(allowed_start), -1e4),
        end,
        mask,
    )
    trans_np = trans.masked_fill(~torch.from_numpy(allowed), float("-inf")).double().numpy()
    start_np = start.masked_fill(~torch.from_numpy(allowed_start), float("-inf")).double().numpy()
    for b, n in enumerate(lengths):
        expected = marginals(emissions[b, :n].double().numpy(), trans_np, start_np, end.double().numpy())
        np.testing.assert_allclose(np.exp(got[b, :n].numpy()), expected, atol=1e-5)


def test_distilled_student_is_smaller_loads_and_agrees_with_the_teacher(
    tmp_path: Path, teacher_dir: Path, teacher: PhiTagger
) -> None:
    train_docs = synthetic_docs(12, seed=3)
    dev_docs = synthetic_docs(4, seed=4)
    config = TrainConfig(epochs=1, batch_size=4, num_threads=1, seed=1, lr=1e-4, head_lr=5e-4)
    result = distill(
        teacher_dir,
        train_docs,
        dev_docs,
        tmp_path / "student",
        DistillConfig(layers=2),
        config,
        progress=False,
    )

    n_teacher = len(encoder_layers(teacher.encoder))
    assert result.student_params < result.teacher_params
    assert result.distill_config.layer_map == (0, n_teacher - 1)
    assert result.steps == 3  # 12 one-window documents, batches of 4, one epoch
    student = PhiTagger.load(tmp_path / "student")
    assert len(encoder_layers(student.encoder)) == 2
    assert n_teacher > 2
    encoder_config = json.loads(
        (tmp_path / "student" / "encoder" / "config.json").read_text(encoding="utf-8")
    )
    assert encoder_config["num_hidden_layers"] == 2
    meta = json.loads((tmp_path / "student" / "meta.json").read_text(encoding="utf-8"))
    assert meta["distilled_from"] == str(teacher_dir)
    assert meta["student_params"] == result.student_params
    assert student.tags == teacher.tags
    summary = json.loads((tmp_path / "student" / "distill.json").read_text(encoding="utf-8"))
    assert summary["n_train_windows"] == 12

    agreement = tag_agreement(teacher, student, train_docs)
    assert agreement["words"] > 100
    # Better than chance: Cohen's kappa is 0 for tags drawn at the two models' own frequencies.
    assert agreement["agreement"] > agreement["chance"]
    assert agreement["kappa"] > 0.5
    assert agreement["phi_agreement"] > 0.9


def test_distill_cli_writes_a_student(tmp_path: Path, teacher_dir: Path, teacher: PhiTagger) -> None:
    last = len(encoder_layers(teacher.encoder)) - 1  # one layer: the teacher's last
    corpus = tmp_path / "train.jsonl"
    JsonlWriter().write(synthetic_docs(2, seed=5), corpus)
    out = tmp_path / "student"
    result = CliRunner().invoke(
        cli,
        [
            "distill",
            "--teacher",
            str(teacher_dir),
            "--train",
            str(corpus),
            "--layers",
            "1",
            "-o",
            str(out),
            "--max-steps",
            "1",
            "--threads",
            "1",
            "--temperature",
            "3",
            "--alpha",
            "0.7",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "student" in result.output
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    assert meta["distill"] == {
        "layers": 1,
        "layer_map": [last],
        "init": "teacher",
        "encoder": None,
        "temperature": 3.0,
        "alpha": 0.7,
        "teacher_batch_size": 32,
        "resume": None,
    }
    assert len(encoder_layers(PhiTagger.load(out).encoder)) == 1

    # --resume: one more step from that student keeps its one layer, map and tags
    again = tmp_path / "again"
    args = ["distill", "--teacher", str(teacher_dir), "--train", str(corpus), "--max-steps", "1"]
    result = CliRunner().invoke(cli, [*args, "--threads", "1", "--resume", str(out), "-o", str(again)])
    assert result.exit_code == 0, result.output
    meta = json.loads((again / "meta.json").read_text(encoding="utf-8"))
    assert meta["distill"]["layer_map"] == [last]
    assert meta["distill"]["resume"] == str(out)
    resumed = PhiTagger.load(again)
    assert len(encoder_layers(resumed.encoder)) == 1
    assert resumed.tags == PhiTagger.load(out).tags
    # a "student" as deep as the teacher is refused
    result = CliRunner().invoke(cli, [*args, "--resume", str(teacher_dir), "-o", str(tmp_path / "x")])
    assert result.exit_code != 0
    assert "fewer layers" in str(result.exception)
