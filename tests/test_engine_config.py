"""DeidConfig (issue 26, items 1 and 2): every engine option once, loaded from TOML/JSON, and the
per-call choices of Deidentifier.redact."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from phiscrub import Deidentifier, Document
from phiscrub.config import load_config
from phiscrub.engine_config import DeidConfig, from_options
from phiscrub.errors import ConfigError
from phiscrub.keys import read_key_file

#: One non-default value per field (TOML and JSON can hold every one of them).
VALUES: dict[str, Any] = {
    "mode": "surrogate",
    "labels": "native:meddocan",
    "model": None,
    "lexicon": True,
    "propagate": False,
    "resolve": "longest",
    "age_over_89": "keep",
    "lang": "es",
    "policy": "i2b2",
    "threshold": 0.35,
    "guard": False,
    "site_lists": "/srv/site/lists",
    "registry": "/srv/site/registry.csv",
    "allow_list": "/srv/site/allow.txt",
    "locale": "es_ES",
    "fictional_contacts": True,
    "plugins": False,
}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def test_the_table_covers_every_field_with_a_value_other_than_its_default() -> None:
    assert set(VALUES) == {f.name for f in fields(DeidConfig)}
    for f in fields(DeidConfig):
        assert VALUES[f.name] != f.default, f.name


@pytest.mark.parametrize("name", list(VALUES))
@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_every_field_round_trips_through_load_config(name: str, suffix: str, tmp_path: Path) -> None:
    value = VALUES[name]
    path = tmp_path / f"engine{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps({name: value}), encoding="utf-8")
    elif value is None:  # TOML has no null: "none" (the one None of a field whose default is not None)
        path.write_text(f'{name} = "none"\n', encoding="utf-8")
    else:
        path.write_text(f"{name} = {_toml(value)}\n", encoding="utf-8")
    loaded = load_config(path, DeidConfig)
    assert getattr(loaded, name) == value
    assert loaded == DeidConfig(**{name: value})


def test_the_whole_table_loads_from_one_file(tmp_path: Path) -> None:
    path = tmp_path / "engine.json"
    path.write_text(json.dumps(VALUES), encoding="utf-8")
    assert load_config(path, DeidConfig) == DeidConfig(**VALUES)


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"mode": "blur"}, "mode"),
        ({"labels": "tiny"}, "labels"),
        ({"threshold": 1.5}, "threshold"),
        ({"threshold": True}, "threshold"),
        ({"policy": "lenient"}, "policy"),
        ({"guard": "yes"}, "guard"),
        ({"keep_ages": True}, "keep_ages"),
    ],
)
def test_bad_values_are_config_errors_naming_the_key(data: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError, match=key.split("_")[0]):
        load_config(data, DeidConfig)


def test_older_spellings_are_mapped_in_one_place() -> None:
    assert from_options({"keep_ages": True}) == DeidConfig(age_over_89="keep")
    assert from_options({"rules_only": True, "lexicon": True}) == DeidConfig(model=None, lexicon=False)
    with pytest.raises(ConfigError, match="resolve_strategy"):
        from_options({"resolve_strategy": "longest"})


def test_deidentifier_config_round_trips() -> None:
    config = DeidConfig(model=None, lang="es", threshold=0.4, policy="strict")
    deid = Deidentifier.from_config(config)
    assert deid.config == config
    assert Deidentifier(model=None, lang="es", threshold=0.4, policy="strict").config == config
    assert deid.threshold == 0.4 and deid.lang == "es"  # read back by name
    with pytest.raises(AttributeError):
        deid.guard = False  # type: ignore[misc]
    assert "key" not in repr(Deidentifier(mode="surrogate", key="s3cret", model=None)).replace(
        "DeidConfig", ""
    )
    assert "s3cret" not in repr(Deidentifier(mode="surrogate", key="s3cret", model=None))


NOTES = [
    Document("a", "Seen by Dr. Alan Grant on 03/12/2019, MRN 0048-2231.", (), {"patient_id": "p1"}),
    Document("b", "Mr. John Smith, 93 yo, seen 03/12/2019 at Mercy Hospital; call 617-555-0134."),
    Document("c", "Paciente Juan García, visto el 3 de marzo de 2019 en Barcelona.", (), {"lang": "es"}),
]

CHOICES: list[dict[str, Any]] = [
    {},
    {"mode": "mask"},
    {"mode": "surrogate"},
    {"labels": "fine"},
    {"labels": "phicon5", "mode": "placeholder"},
    {"policy": "strict"},
    {"policy": "i2b2", "labels": "fine"},
    {"threshold": 0.9},
    {"mode": "surrogate", "labels": "fine", "policy": "strict", "threshold": 0.5},
]


@pytest.mark.parametrize(
    "choices", CHOICES, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "none"
)
def test_per_call_choices_give_the_output_of_a_deidentifier_built_with_them(choices: dict[str, Any]) -> None:
    shared = Deidentifier(model=None, key="k")
    built = Deidentifier(model=None, key="k", **choices)
    for doc in NOTES:
        got, want = shared.redact(doc, **choices), built.redact(doc)
        assert (got.text, got.spans, got.result.spans, got.policy) == (
            want.text,
            want.spans,
            want.result.spans,
            want.policy,
        )
    assert [r.text for r in shared.redact_many(NOTES, **choices)] == [
        r.text for r in built.redact_many(NOTES)
    ]
    assert shared.redact_text(NOTES[0].text, **choices) == built.redact(NOTES[0].text).text
    assert shared.config == DeidConfig(model=None)  # the call changed nothing


def test_per_call_choices_are_checked_and_the_key_rules_hold() -> None:
    deid = Deidentifier(model=None)
    with pytest.raises(ConfigError, match="unknown mode"):
        deid.redact("x", mode="blur")
    with pytest.raises(ConfigError, match="threshold"):
        deid.redact("x", threshold=2.0)
    with pytest.raises(ConfigError, match="needs a secret"):
        deid.redact("x", mode="surrogate")
    with pytest.raises(ConfigError, match="empty or blank"):
        deid.redact("x", mode="surrogate", key="  ")
    assert deid.redact("Seen by Dr. Alan Grant.", mode="surrogate", key="k").text != "Seen by Dr. [NAME]."


@pytest.mark.parametrize(
    ("content", "secret"),
    [
        ("s3cret\n", "s3cret"),
        ("s3cret\r\n", "s3cret"),
        (" s3cret \n", " s3cret "),
        ("a\nb\n", "a\nb"),
        ("k", "k"),
    ],
)
def test_one_key_file_rule_a_trailing_line_break_only(tmp_path: Path, content: str, secret: str) -> None:
    path = tmp_path / "key"
    path.write_bytes(content.encode("utf-8"))
    assert read_key_file(path) == secret


@pytest.mark.parametrize("content", ["", "\n", "  \n"])
def test_a_blank_key_file_is_refused_without_its_content(tmp_path: Path, content: str) -> None:
    path = tmp_path / "key"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match="empty or blank"):
        read_key_file(path)


def test_the_python_api_example_of_the_readme_runs() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("Python API:\n\n```python\n", 1)[1].split("```", 1)[0]
    run = subprocess.run(
        [sys.executable, "-c", block], capture_output=True, text=True, timeout=300, check=True
    )
    lines = run.stdout.splitlines()
    assert lines[1:] == ["Seen by Dr. [NAME] on [DATE].", "Seen by Dr. *** on ***."]
    assert "Alan Grant" not in lines[0] and "0048-2231" not in lines[0]
