"""The detector options shared by ``redact`` and ``serve`` (cli/_common.detector_options)."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from phiscrub.cli._common import detector_options
from phiscrub.cli.app import cli
from phiscrub.runs.settings import DetectorSettings
from phiscrub.service.config import ServiceConfig
from phiscrub.spark import SparkSettings


def _settings(args: list[str]) -> DetectorSettings:
    seen: list[DetectorSettings] = []

    @click.command()
    @detector_options("Rule language.")
    @click.option("--other", default="x")
    def command(detectors: DetectorSettings, other: str) -> None:
        assert other == "x"
        seen.append(detectors)

    result = CliRunner().invoke(command, args)
    assert result.exit_code == 0, result.output
    return seen[0]


def test_defaults_are_the_settings_defaults() -> None:
    assert _settings([]) == DetectorSettings()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--rules-only", "--lexicon"], DetectorSettings(model=None, lexicon=False)),
        (["--model", "m", "--lexicon"], DetectorSettings(model="m", lexicon=True)),
        (
            ["--keep-ages", "--no-propagate", "--no-guard", "--resolve", "longest", "--lang", "es"],
            DetectorSettings(age_over_89="keep", propagate=False, guard=False, resolve="longest", lang="es"),
        ),
        (["--threshold", "0.5"], DetectorSettings(threshold=0.5)),
    ],
)
def test_options_map_to_settings(args: list[str], expected: DetectorSettings) -> None:
    assert _settings(args) == expected


@pytest.mark.parametrize("command", ["redact", "serve"])
def test_redact_and_serve_declare_the_same_detector_options(command: str) -> None:
    found = cli.get_command(click.Context(cli), command)
    assert found is not None
    params = {p.name for p in found.params}
    expected = {"model", "rules_only", "lexicon", "propagate", "resolve_strategy", "keep_ages", "lang"}
    assert expected | {"threshold", "guard", "mode", "policy"} <= params


def test_service_and_spark_settings_build_the_same_deidentifier() -> None:
    detectors = DetectorSettings(model=None, lexicon=True, age_over_89="keep", lang="es", threshold=0.3)
    fields = {k: getattr(detectors, k) for k in detectors.__dataclass_fields__}
    service = ServiceConfig(**fields).deidentifier(mode="mask", labels="fine", policy="strict")
    spark = SparkSettings(**fields, mode="mask", labels="fine", policy="strict").build(None)
    direct = detectors.deidentifier(mode="mask", labels="fine", policy="strict")
    assert service == spark == direct
