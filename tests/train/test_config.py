"""TrainConfig: defaults, strict keys, types and ranges, JSON round trip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from phiscrub.errors import ConfigError
from phiscrub.tagger.config import BiLstmConfig, TrainConfig


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


def test_backbone_settings_are_nested_sections() -> None:
    config = TrainConfig.from_dict({"encoder": "bilstm-crf", "bilstm": {"hidden": 50, "window": 32}})
    assert (config.bilstm.hidden, config.bilstm.window, config.bilstm.lr) == (50, 32, 5e-3)
    assert config.to_dict()["bilstm"]["hidden"] == 50 and "bilstm_hidden" not in config.to_dict()
    with pytest.raises(ConfigError, match="bilstm.hiden"):
        TrainConfig.from_dict({"bilstm": {"hiden": 50}})


def test_flat_keys_of_older_files_are_read_into_the_sections() -> None:
    old = TrainConfig.from_dict({"bilstm_hidden": 50, "bilstm_lr": 1e-3, "gguf_layers": 6, "epochs": 2})
    assert (old.bilstm.hidden, old.bilstm.lr, old.gguf.layers, old.epochs) == (50, 1e-3, 6, 2)
    assert old == TrainConfig.from_dict(
        {"bilstm": {"hidden": 50, "lr": 1e-3}, "gguf": {"layers": 6}, "epochs": 2}
    )
    with pytest.raises(ConfigError, match="twice"):
        TrainConfig.from_dict({"bilstm_hidden": 50, "bilstm": {"hidden": 40}})


def test_a_flat_model_folder_config_still_loads() -> None:
    # the config.json of the bundled model until it was replaced: written before the sections existed
    path = Path(__file__).resolve().parents[1] / "data" / "flat-model-config.json"
    flat = json.loads(path.read_text(encoding="utf-8"))
    assert "bilstm_hidden" in flat
    config = TrainConfig.from_json(path)
    assert config.bilstm.hidden == flat["bilstm_hidden"] and config.granularity == flat["granularity"]


def test_replace_takes_field_dotted_flat_and_section_keys() -> None:
    base = TrainConfig()
    assert base.replace(**{"bilstm.window": 24}).bilstm.window == 24
    assert base.replace(bilstm_window=24) == base.replace(bilstm={"window": 24})
    assert base.replace(bilstm=BiLstmConfig(hidden=7)).bilstm.hidden == 7
    assert base.replace(gguf_pooling="first").get("gguf.pooling") == "first"
    with pytest.raises(ConfigError, match="unknown"):
        base.replace(**{"bilstm.hiden": 3})
    with pytest.raises(ConfigError):
        base.replace(bilstm_window=4)


def test_toml_config_file_with_sections(tmp_path: Path) -> None:
    path = tmp_path / "train.toml"
    path.write_text('epochs = 3\n[bilstm]\nhidden = 20\n[gguf]\npooling = "last"\n', encoding="utf-8")
    config = TrainConfig.from_json(path)
    assert (config.epochs, config.bilstm.hidden, config.gguf.pooling) == (3, 20, "last")
    assert TrainConfig.from_dict(config.to_dict()) == config


def test_flat_spelling_round_trips_and_keeps_the_old_key_set() -> None:
    config = TrainConfig(encoder="bilstm-crf").replace(bilstm_hidden=20, gguf_ctx=64)
    flat = config.to_dict(flat=True)
    assert flat["bilstm_hidden"] == 20 and flat["gguf_ctx"] == 64
    assert "bilstm" not in flat and "gguf" not in flat
    assert TrainConfig.from_dict(flat) == config
