"""The bundled surrogate lexicons and their loader."""

from __future__ import annotations

from importlib import resources

import pytest

from phiscrub.errors import ConfigError
from phiscrub.resources import available_lexicons, load_lexicon

# name -> minimum size (roughly PHICON Table 1, kept small enough to ship)
MINIMUMS = {
    "first_names_female": 2500,
    "first_names_male": 2500,
    "last_names": 10000,
    "cities": 5000,
    "hospitals": 3000,
    "companies": 1000,
    "professions": 500,
    "departments": 60,
    "department_abbreviations": 10,
    "states": 50,
    "states_abbr": 50,
    "countries": 200,
    "street_names": 500,
    "street_suffixes": 50,
}


@pytest.mark.parametrize(("name", "minimum"), sorted(MINIMUMS.items()))
def test_lexicons_are_big_enough_sorted_and_deduplicated(name: str, minimum: int) -> None:
    entries = load_lexicon(name)
    assert len(entries) >= minimum
    assert list(entries) == sorted(set(entries))
    assert all(e == e.strip() and e for e in entries)


def test_first_names_together_exceed_5000() -> None:
    assert len(set(load_lexicon("first_names_female")) | set(load_lexicon("first_names_male"))) >= 5000


@pytest.mark.parametrize("lang", ["es", "zh"])
@pytest.mark.parametrize(
    "name",
    [
        "first_names_female",
        "first_names_male",
        "last_names",
        "cities",
        "hospitals",
        "departments",
        "professions",
    ],
)
def test_language_lists_exist_and_differ_from_the_default(lang: str, name: str) -> None:
    assert name in available_lexicons(lang)
    assert load_lexicon(name, lang) != load_lexicon(name)


def test_catalan_shares_the_spanish_lists_and_unknown_languages_fall_back() -> None:
    assert load_lexicon("cities", "ca") == load_lexicon("cities", "es")
    assert load_lexicon("cities", "de") == load_lexicon("cities")
    assert load_lexicon("states_abbr", "es") == load_lexicon("states_abbr")


def test_loader_is_cached_and_rejects_unknown_names() -> None:
    assert load_lexicon("cities") is load_lexicon("cities")
    with pytest.raises(ConfigError):
        load_lexicon("no_such_list")
    with pytest.raises(ConfigError):
        load_lexicon("../NOTICE")


def test_bundle_is_small_and_carries_the_faker_notice() -> None:
    root = resources.files("phiscrub.resources").joinpath("lexicons")
    total = 0
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.iterdir():
            if child.is_dir():
                stack.append(child)
            else:
                total += len(child.read_bytes())
    assert total < 3_000_000
    notice = root.joinpath("NOTICE").read_text(encoding="utf-8")
    assert "Faker" in notice and "MIT" in notice and "Permission is hereby granted" in notice
