"""phiscrub.config.load_config: one loader for TOML/JSON files and mappings into typed dataclasses."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

import pytest

from phiscrub.augment.chat.settings import LLMSettings
from phiscrub.config import check_fields, load_config
from phiscrub.errors import ConfigError
from phiscrub.synth.config import SynthConfig
from phiscrub.tagger.config import TrainConfig


@dataclass(frozen=True)
class Inner:
    size: int = 3
    rate: float = 0.5


@dataclass(frozen=True)
class Outer:
    name: str
    mode: Literal["a", "b"] = "a"
    folder: Path | None = None
    sizes: tuple[int, ...] = ()
    inner: Inner = field(default_factory=Inner)
    named: dict[str, Inner] = field(default_factory=dict)
    FLAT_PREFIXES: ClassVar[dict[str, str]] = {"inner_": "inner"}

    def __post_init__(self) -> None:
        check_fields(self)


def test_nested_tables_become_nested_dataclasses_with_values_converted() -> None:
    got = load_config(
        {"name": "x", "mode": "b", "folder": "/tmp/f", "sizes": [1, 2], "inner": {"rate": 1},
         "named": {"k": {"size": 7}}},
        Outer,
    )  # fmt: skip
    assert got == Outer("x", "b", Path("/tmp/f"), (1, 2), Inner(3, 1.0), {"k": Inner(7, 0.5)})
    assert isinstance(got.inner.rate, float) and isinstance(got.sizes, tuple)


def test_flat_prefixed_keys_fold_into_their_section() -> None:
    assert load_config({"name": "x", "inner_size": 9}, Outer).inner == Inner(9, 0.5)
    with pytest.raises(ConfigError, match="inner.size is given twice"):
        load_config({"name": "x", "inner_size": 9, "inner": {"size": 1}}, Outer)
    with pytest.raises(ConfigError, match="inner_sise"):
        load_config({"name": "x", "inner_sise": 9}, Outer)


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"name": "x", "nmae": "y"}, "nmae"),
        ({"name": "x", "inner": {"sise": 1}}, "inner.sise"),
        ({"name": "x", "named": {"k": {"bad": 1}}}, "named.k.bad"),
        ({"name": "x", "inner": {"size": "Jane Doe"}}, "inner.size"),
        ({"name": "x", "inner": {"size": True}}, "inner.size"),
        ({"name": "x", "sizes": [1, "Jane Doe"]}, "sizes[1]"),
        ({"name": "x", "mode": "Jane Doe"}, "mode"),
        ({"name": "x", "inner": "Jane Doe"}, "inner"),
        ({"name": None}, "name"),
        ({}, "name"),
    ],
)
def test_errors_name_the_key_never_the_value(data: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(data, Outer)
    assert key in str(err.value) and "Jane Doe" not in str(err.value)


def test_toml_and_json_files_load_alike_and_errors_name_the_file(tmp_path: Path) -> None:
    toml = tmp_path / "c.toml"
    toml.write_text('name = "x"\nsizes = [4]\n[inner]\nsize = 5\n', encoding="utf-8")
    js = tmp_path / "c.json"
    js.write_text(json.dumps({"name": "x", "sizes": [4], "inner": {"size": 5}}), encoding="utf-8")
    assert load_config(toml, Outer) == load_config(js, Outer) == Outer("x", sizes=(4,), inner=Inner(5))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "x", "extra": "Jane Doe"}), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(bad, Outer)
    assert str(bad) in str(err.value) and "extra" in str(err.value) and "Jane Doe" not in str(err.value)
    for name, text in (("s.toml", "name = "), ("s.json", "{"), ("s.yaml", "name: x")):
        (tmp_path / name).write_text(text, encoding="utf-8")
        with pytest.raises(ConfigError, match=name):
            load_config(tmp_path / name, Outer)


def test_direct_construction_is_type_checked_too() -> None:
    with pytest.raises(ConfigError, match="'mode'"):
        Outer("x", mode="c")  # type: ignore[arg-type]
    assert Outer("x", inner={"size": 2}).inner == Inner(2)  # type: ignore[arg-type]


def test_every_config_class_loads_through_the_loader(tmp_path: Path) -> None:
    path = tmp_path / "llm.toml"
    path.write_text('url = "http://127.0.0.1:8080/v1"\ntemperature = 1\nconcurrency = 3\n', encoding="utf-8")
    settings = load_config(path, LLMSettings)
    assert (settings.temperature, settings.concurrency) == (1.0, 3)
    with pytest.raises(ConfigError, match="temprature"):
        load_config({"url": "http://h/v1", "temprature": 1}, LLMSettings)
    assert load_config({"seed": 3, "phi": "refill"}, SynthConfig).phi == "refill"
    with pytest.raises(ConfigError, match="'phi'"):
        load_config({"phi": "erase"}, SynthConfig)
    assert load_config({"bilstm": {"hidden": 5}}, TrainConfig).bilstm.hidden == 5
