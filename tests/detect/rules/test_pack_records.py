"""The language-pack vocabulary read from ``resources/langpacks/*.json`` (pack_records)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources

import pytest

from phiscrub.calendar import MONTH_NAMES, WEEKDAY_NAMES
from phiscrub.detect.rules.intl_names_data import NAME_WORDS, NameWords
from phiscrub.detect.rules.intl_places_data import CAP, WORDS, PlaceWords
from phiscrub.detect.rules.langpacks import LANGUAGE_PACKS, PACK_LANGUAGES
from phiscrub.detect.rules.pack_records import build_records
from phiscrub.errors import ConfigError


@dataclass(frozen=True)
class _Record:
    pattern: str
    words: tuple[str, ...] = ()
    table: dict[str, tuple[str, ...]] | None = None


def _bundled(name: str) -> dict[str, object]:
    path = resources.files("phiscrub.resources").joinpath("langpacks", f"{name}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_records_join_patterns_fill_templates_convert_lists_and_skip_notes() -> None:
    data = {
        "_about": "a note",
        "xx": {
            "_pattern": "a note on the pattern",
            "pattern": ["(?:{WORD}|", "b{2})"],
            "words": ["a", "b"],
            "table": {"K": ["c"]},
        },
        "yy": "xx",
    }
    out = build_records(data, _Record, where="test", templates={"WORD": "w+"})
    assert out["xx"] == _Record("(?:w+|b{2})", ("a", "b"), {"K": ("c",)})
    assert out["yy"] is out["xx"]
    assert list(out) == ["xx", "yy"]


@pytest.mark.parametrize(
    "data, message",
    [
        ({"xx": {"pattern": "a", "colour": "red"}}, "unknown field 'colour'"),
        ({"xx": {"words": ["a"]}}, "xx:"),
        ({"yy": "xx"}, "shares unknown language 'xx'"),
    ],
)
def test_records_reject_unknown_missing_and_dangling(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        build_records(data, _Record, where="test")


def test_bundled_packs_cover_every_pack_language_with_calendar_words() -> None:
    assert set(_bundled("packs")) - {"_about"} == set(PACK_LANGUAGES)
    for code, pack in LANGUAGE_PACKS.items():
        # A shared record keeps the code of the language it belongs to ("nn": "nb", issue 27).
        assert pack.code == code or _bundled("packs")[code] == pack.code
        assert pack.months == MONTH_NAMES.get(pack.code, ())
        assert pack.weekdays == WEEKDAY_NAMES.get(pack.code, ())
        assert pack.phone_cues and pack.id_keywords, code
        for words in pack.id_keywords.values():
            assert isinstance(words, tuple) and words, code


def test_bundled_place_and_name_words_build_their_records() -> None:
    assert set(WORDS) == set(NAME_WORDS) == {"de", "fr", "nl", "es", "ca", "nb", "nn", "da", "sv"}
    assert WORDS["ca"] is WORDS["es"] and NAME_WORDS["ca"] is NAME_WORDS["es"]
    for code, place in WORDS.items():
        assert isinstance(place, PlaceWords)
        assert "{" + "CAP}" not in place.street_re, code
        re.compile(place.street_re)
        re.compile(place.facility_re)
    assert CAP in WORDS["de"].street_re
    for code, names in NAME_WORDS.items():
        assert isinstance(names, NameWords)
        assert all(isinstance(w, str) and w for w in names.stopwords), code
        assert names.lexicon and names.doctor_titles, code
