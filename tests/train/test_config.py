"""TrainConfig: defaults, strict keys, types and ranges, JSON round trip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from phiscrub.errors import ConfigError
from phiscrub.train.config import TrainConfig


def test_defaults_follow_kim_et_al() -> None:
    config = TrainConfig()
    assert (config.max_length, config.patience, config.lr, config.seed) == (192, 3, 5e-5, 1)
    assert config.use_crf and config.subword_strategy == "first"


@pytest.mark.parametrize("bad", [{"epoch": 3}, {"learning_rate": 1e-5}, {"max_len": 128}])
def test_from_dict_rejects_unknown_keys(bad: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="unknown"):
        TrainConfig.from_dict(bad)


def test_replace_rejects_unknown_keys() -> None:
    with pytest.raises(ConfigError, match="unknown"):
        TrainConfig().replace(nonsense=1)


@pytest.mark.parametrize(
    "bad",
    [
        {"epochs": "3"},
        {"epochs": True},
        {"epochs": 2.5},
        {"use_crf": 1},
        {"lr": "fast"},
        {"encoder": 3},
        {"granularity": None},
    ],
)
def test_wrong_types_are_config_errors(bad: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        TrainConfig.from_dict(bad)


@pytest.mark.parametrize(
    "bad",
    [
        {"granularity": "medium"},
        {"subword_strategy": "last"},
        {"max_length": 4},
        {"overlap": 100},
        {"overlap": -1},
        {"dropout": 1.0},
        {"save_dtype": "bfloat16"},
        {"max_steps": 0},
        {"time_budget_s": 0},
        {"patience": 0},
        {"lr": 0},
    ],
)
def test_out_of_range_values_are_config_errors(bad: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        TrainConfig.from_dict(bad)


def test_int_is_accepted_for_float_keys_and_stored_as_float() -> None:
    config = TrainConfig(lr=1, time_budget_s=60)
    assert isinstance(config.lr, float) and isinstance(config.time_budget_s, float)


def test_json_round_trip_keeps_every_value(tmp_path: Path) -> None:
    config = TrainConfig(
        encoder="/models/enc", granularity="phicon5", use_crf=False, max_steps=7, num_threads=2
    )
    config.to_json(tmp_path / "config.json")
    assert TrainConfig.from_json(tmp_path / "config.json") == config


def test_unreadable_json_is_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError):
        TrainConfig.from_json(path)
