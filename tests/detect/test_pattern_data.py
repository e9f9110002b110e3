"""The rule patterns kept as data (``resources/patterns/*.json``, :mod:`phiscrub.detect.pattern_data`).

Every bundled file loads with its module (each ``given`` piece present, every pattern compiles), and
a broken file fails at load with a message naming the file and the entry, never later at match time.
"""

from __future__ import annotations

import importlib
import re
from importlib import resources

import pytest

from phiscrub.detect.pattern_data import PatternData
from phiscrub.errors import ConfigError


def _bundled() -> list[str]:
    folder = resources.files("phiscrub.resources").joinpath("patterns")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def _module_of(stem: str) -> str:
    for mod in (f"phiscrub.detect.rules.{stem}", f"phiscrub.detect.{stem}"):
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError:
            continue
        return mod
    raise AssertionError(f"no module reads patterns/{stem}.json")


@pytest.mark.parametrize("stem", _bundled())
def test_every_bundled_pattern_file_is_read_whole_by_its_module(stem: str) -> None:
    module = importlib.import_module(_module_of(stem))
    rx = module._RX
    assert isinstance(rx, PatternData) and rx.name == stem
    assert rx.names(), f"patterns/{stem}.json compiles no pattern"
    for name in rx.names():
        assert isinstance(rx[name], re.Pattern)


def test_pieces_placeholders_and_flags() -> None:
    data = {
        "_about": "a note",
        "given": ["WORDS"],
        "DAY": "(?:0?[1-9]|[12]\\d|3[01])",
        "DATE_RE": {"_note": "day/month", "re": ["{DAY}/", "(?:{MONTHS})"], "flags": "IGNORECASE"},
        "CUE_RE": {"re": "(?:{WORDS})\\s+\\d{1,2}"},
    }
    rx = PatternData("t", {**data}, {"WORDS": "seen|admitted", "MONTHS": "jan|feb"})
    assert rx.names() == ["DATE_RE", "CUE_RE"]
    assert rx.text("DAY") == "(?:0?[1-9]|[12]\\d|3[01])"
    assert rx["DATE_RE"].flags & re.IGNORECASE
    assert rx["DATE_RE"].fullmatch("12/FEB")
    assert rx["CUE_RE"].pattern == "(?:seen|admitted)\\s+\\d{1,2}"  # a quantifier is no placeholder


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"A_RE": {"re": "{NOPE}x"}}, "A_RE uses {NOPE}, which is neither defined above nor given"),
        ({"A_RE": {"re": "(x"}}, "A_RE is not a valid pattern"),
        ({"A_RE": {"re": "x", "flags": "LOUD"}}, "A_RE: unknown flag 'LOUD'"),
        ({"A_RE": {"re": "x", "text": "y"}}, "A_RE needs one of 're' or 'text'"),
        ({"A_RE": {"re": 3}}, "A_RE must be a string or a list of strings"),
        ({"WORDS": "x"}, "WORDS is defined twice"),
    ],
)
def test_a_broken_entry_fails_at_load_naming_file_and_entry(entry: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        PatternData("broken", entry, {"WORDS": "a|b"})
    assert str(err.value).startswith("patterns/broken.json: ")
    assert message in str(err.value)


def test_a_missing_given_piece_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from phiscrub.detect import pattern_data as pd

    data = {"given": ["_MISSING"], "X_RE": {"re": "{_MISSING}"}}
    monkeypatch.setattr(pd, "load_json", lambda folder, name, holds: data)
    with pytest.raises(ConfigError, match="gives no text piece _MISSING"):
        pd.pattern_data("fake", {"OTHER": "x"})
