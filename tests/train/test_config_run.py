"""phiscrub.train.run and distill_configs: how command-line options become a checked run and configs."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiscrub.errors import ConfigError
from phiscrub.tagger.config import TrainConfig
from phiscrub.train.config import DistillConfig, distill_configs
from phiscrub.train.recipes import PAPER_LR
from phiscrub.train.run import TrainRun, check_run, resolve_config

OUT = Path("model")


@pytest.mark.parametrize(
    ("run", "message"),
    [
        (TrainRun(OUT), "give --train corpora"),
        (TrainRun(OUT, train=(Path("a"),), target=(Path("b"),)), "--target only work with --recipe"),
        (TrainRun(OUT, train=(Path("a"),), target_repeat=2), "--target-repeat only work with --recipe"),
        (TrainRun(OUT, train=(Path("a"),), recipe="multitask"), "do not pass --train"),
        (TrainRun(OUT, recipe="multitask", source=(Path("a"),)), "needs --target"),
        (TrainRun(OUT, recipe="multitask", target=(Path("a"),)), "needs --source"),
        (TrainRun(OUT, recipe="finetune", source=(Path("a"),), target=(Path("b"),)), "--target only"),
    ],
)
def test_corpora_that_do_not_fit_the_recipe_are_refused(run: TrainRun, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        check_run(run)


def test_good_runs_pass() -> None:
    check_run(TrainRun(OUT, train=(Path("a"),)))
    check_run(TrainRun(OUT, recipe="finetune", target=(Path("b"),), target_epochs=3))


def test_lr_and_max_length_go_to_the_backbones_keys() -> None:
    options = {"lr": 0.01, "max_length": 96, "epochs": None, "patience": 7}
    bilstm = resolve_config(None, None, "bilstm-crf", options)
    assert (bilstm.bilstm.lr, bilstm.bilstm.window, bilstm.patience) == (0.01, 96, 7)
    assert (bilstm.lr, bilstm.max_length, bilstm.epochs) == (TrainConfig().lr, 192, TrainConfig().epochs)
    transformer = resolve_config(None, None, None, options)
    assert (transformer.lr, transformer.max_length) == (0.01, 96)
    assert transformer.bilstm == TrainConfig().bilstm


def test_config_file_then_recipe_defaults_then_options(tmp_path: Path) -> None:
    assert resolve_config(None, "finetune", None, {}).lr == PAPER_LR
    path = tmp_path / "c.toml"
    path.write_text('encoder = "bilstm-crf"\nepochs = 4\n[bilstm]\nhidden = 12\n', encoding="utf-8")
    config = resolve_config(path, "finetune", None, {"epochs": 2, "seed": None})
    assert (config.backbone, config.epochs, config.bilstm.hidden, config.seed) == ("bilstm-crf", 2, 12, 1)
    with pytest.raises(ConfigError, match="epochs"):
        resolve_config(None, None, None, {"epochs": "two"})


def test_distill_options_split_between_the_two_configs() -> None:
    dconfig, config = distill_configs(
        {"layers": 2, "alpha": 0.3, "init": "teacher", "lr": 1e-4, "seed": 7, "max_steps": None}
    )
    assert dconfig == DistillConfig(layers=2, alpha=0.3)
    assert (config.lr, config.seed, config.max_steps) == (1e-4, 7, None)
    with pytest.raises(ConfigError, match="'init'"):
        distill_configs({"init": "scratch"})
    with pytest.raises(ConfigError, match="unknown"):
        distill_configs({"layres": 2})
