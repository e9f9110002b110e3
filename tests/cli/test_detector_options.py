"""The engine flags of ``redact`` and ``serve`` (cli/_engine.engine_options), declared from DeidConfig."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import click
import pytest
from click.testing import CliRunner

from phiscrub.cli._engine import engine_options
from phiscrub.cli.app import cli
from phiscrub.deid import Deidentifier
from phiscrub.engine_config import LEGACY_FLAGS, DeidConfig
from phiscrub.service.config import ServiceConfig
from phiscrub.service.engine import Engine
from phiscrub.spark import SparkSettings


def _command(seen: list[DeidConfig] | None = None) -> click.Command:
    @click.command()
    @engine_options(helps={"lang": "Rule language."})
    @click.option("--other", default="x")
    def command(config: DeidConfig, other: str) -> None:
        assert other == "x"
        if seen is not None:
            seen.append(config)

    return command


def _config(args: list[str]) -> DeidConfig:
    seen: list[DeidConfig] = []
    result = CliRunner().invoke(_command(seen), args)
    assert result.exit_code == 0, result.output
    return seen[0]


def test_defaults_are_the_config_defaults() -> None:
    assert _config([]) == DeidConfig()


#: One non-default value per DeidConfig field, as its flag and as the field's value.
FLAG_VALUES: dict[str, tuple[list[str], Any]] = {
    "mode": (["--mode", "mask"], "mask"),
    "labels": (["--labels", "fine"], "fine"),
    "model": (["--model", "m"], "m"),
    "lexicon": (["--lexicon"], True),
    "propagate": (["--no-propagate"], False),
    "resolve": (["--resolve", "longest"], "longest"),
    "age_over_89": (["--age-over-89", "keep"], "keep"),
    "lang": (["--lang", "es"], "es"),
    "policy": (["--policy", "strict"], "strict"),
    "threshold": (["--threshold", "0.5"], 0.5),
    "guard": (["--no-guard"], False),
    "site_lists": (["--site-lists", "{dir}"], "{dir}"),
    "registry": (["--registry", "{file}"], "{file}"),
    "allow_list": (["--allow-list", "{file}"], "{file}"),
    "locale": (["--locale", "es_ES"], "es_ES"),
    "fictional_contacts": (["--fictional-contacts"], True),
    "plugins": (["--no-plugins"], False),
}


def test_the_table_covers_every_field() -> None:
    assert set(FLAG_VALUES) == {f.name for f in fields(DeidConfig)}


@pytest.mark.parametrize("name", list(FLAG_VALUES))
def test_every_field_round_trips_through_its_flag(name: str, tmp_path: Any) -> None:
    (tmp_path / "f.txt").write_text("x\n", encoding="utf-8")
    paths = {"{dir}": str(tmp_path), "{file}": str(tmp_path / "f.txt")}
    args, value = FLAG_VALUES[name]
    args = [paths.get(a, a) for a in args]
    value = paths.get(value, value) if isinstance(value, str) else value
    config = _config(args)
    assert getattr(config, name) == value
    assert config == DeidConfig(**{name: value})  # the one field changed, nothing else


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--rules-only", "--lexicon"], DeidConfig(model=None, lexicon=False)),
        (["--rules-only", "--model", "m"], DeidConfig(model=None)),
        (["--model", "none", "--lexicon"], DeidConfig(model=None, lexicon=True)),
        (["--keep-ages"], DeidConfig(age_over_89="keep")),
        (["--keep-ages", "--age-over-89", "bucket"], DeidConfig(age_over_89="keep")),
    ],
)
def test_the_older_flags_still_work(args: list[str], expected: DeidConfig) -> None:
    assert _config(args) == expected


@pytest.mark.parametrize("command", ["redact", "serve"])
def test_redact_and_serve_declare_the_engine_flags(command: str) -> None:
    found = cli.get_command(click.Context(cli), command)
    assert found is not None
    params = {p.name for p in found.params}
    wanted = {f.name for f in fields(DeidConfig)} | set(LEGACY_FLAGS)
    if command == "serve":
        wanted -= {"labels"}  # each request names its labels
    assert wanted <= params
    assert "detectors" not in params and "resolve_strategy" not in params


def test_service_spark_and_the_api_build_the_same_deidentifier() -> None:
    config = DeidConfig(
        model=None, lexicon=True, age_over_89="keep", lang="es", threshold=0.3, mode="mask", policy="strict"
    )
    direct = Deidentifier.from_config(config)
    spark = SparkSettings(config).build(None)
    service = Engine(ServiceConfig(engine=config, auth=False), None)
    assert direct.config == spark.config == config
    # The service's one de-identifier holds no key: built in placeholder mode, its default mode is
    # applied per request.
    assert service.deid.config == DeidConfig(**{**_as_dict(config), "mode": "placeholder"})
    assert service.options(None, None, None).mode == "mask"


def _as_dict(config: DeidConfig) -> dict[str, Any]:
    return {f.name: getattr(config, f.name) for f in fields(config)}


def test_an_engine_config_file_with_flags_over_it(tmp_path: Any) -> None:
    path = tmp_path / "engine.toml"
    path.write_text('mode = "mask"\nthreshold = 0.4\nlang = "es"\nguard = false\n', encoding="utf-8")
    assert _config(["--engine-config", str(path)]) == DeidConfig(
        mode="mask", threshold=0.4, lang="es", guard=False
    )
    assert _config(["--engine-config", str(path), "--threshold", "0.2", "--rules-only"]) == DeidConfig(
        mode="mask", threshold=0.2, lang="es", guard=False, model=None
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"keep_ages": true}', encoding="utf-8")
    result = CliRunner().invoke(_command(), ["--engine-config", str(bad)])
    assert result.exit_code == 2 and "keep_ages" in result.output
