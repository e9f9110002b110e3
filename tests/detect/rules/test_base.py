"""The rule engine: PatternRule checks, RuleDetector output, prefix-tree patterns."""

from __future__ import annotations

import re

import pytest

from phiscrub.detect.base import Detector
from phiscrub.detect.rules.base import PatternRule, RuleDetector, trie_pattern, words_regex
from phiscrub.document import Document
from phiscrub.errors import ConfigError

from ._support import run_detector


def _surfaces(detector: RuleDetector, text: str) -> list[tuple[str, str, float]]:
    return [(text[s.start : s.end], s.label, s.score) for s in run_detector(detector, text)]


def test_pattern_rule_rejects_unknown_label_and_bad_score() -> None:
    with pytest.raises(ConfigError):
        PatternRule("NOT_A_LABEL", re.compile("x"))
    with pytest.raises(ConfigError):
        PatternRule("DATE", re.compile("x"), score=1.5)
    with pytest.raises(ConfigError):
        PatternRule("DATE", re.compile("x"), extra_labels=("NOPE",))


def test_pattern_rule_emits_the_capture_group_only() -> None:
    rule = PatternRule("MEDICALRECORD", re.compile(r"MRN:\s*(?P<v>\d+)"), group="v")
    det = RuleDetector("t", [rule])
    assert _surfaces(det, "MRN: 12345") == [("12345", "MEDICALRECORD", 0.9)]


def test_pattern_rule_emits_each_participating_group_of_a_tuple() -> None:
    rule = PatternRule("DATE", re.compile(r"(?P<a>\d{4})(?:-(?P<b>\d{4}))?"), group=("a", "b"))
    det = RuleDetector("t", [rule])
    assert [s for s, _, _ in _surfaces(det, "2015-2019 and 2020")] == ["2015", "2019", "2020"]


def test_pattern_rule_splits_items_and_validates_each() -> None:
    rule = PatternRule(
        "IDNUM",
        re.compile(r"cases: (?P<v>[\w, ]+)"),
        group="v",
        item=re.compile(r"\w+"),
        item_validator=lambda im: any(ch.isdigit() for ch in im.group()),
    )
    det = RuleDetector("t", [rule])
    assert [s for s, _, _ in _surfaces(det, "cases: A1, B2, none")] == ["A1", "B2"]


def test_pattern_rule_context_words_are_required_before_the_match() -> None:
    rule = PatternRule("FAX", re.compile(r"\d{3}-\d{4}"), context=("fax",), window=10)
    det = RuleDetector("t", [rule])
    assert _surfaces(det, "Fax: 555-0134") == [("555-0134", "FAX", 0.9)]
    assert _surfaces(det, "Tel: 555-0134") == []
    assert _surfaces(det, "fax sent. Later, long after: 555-0134") == []


def test_pattern_rule_exclude_context_blocks_a_match() -> None:
    rule = PatternRule("DATE", re.compile(r"\d{1,2}/\d{1,2}"), exclude_context=("bp", "score"))
    det = RuleDetector("t", [rule])
    assert _surfaces(det, "BP 12/8 today") == []
    assert _surfaces(det, "seen 12/8 today") == [("12/8", "DATE", 0.9)]


def test_pattern_rule_validator_rejection_does_not_hide_later_matches() -> None:
    rule = PatternRule("DATE", re.compile(r"\d\d"), validator=lambda m: m.group() != "12")
    det = RuleDetector("t", [rule])
    # "123": "12" is rejected, then the search resumes at "2" and finds "23".
    assert [s for s, _, _ in _surfaces(det, "123")] == ["23"]


def test_pattern_rule_labeler_picks_or_drops_per_match() -> None:
    rule = PatternRule(
        "PHONE",
        re.compile(r"(?P<kind>tel|fax|pin) (?P<n>\d{4})"),
        group="n",
        labeler=lambda m: {"tel": "PHONE", "fax": "FAX"}.get(m.group("kind")),
        extra_labels=("FAX",),
    )
    det = RuleDetector("t", [rule])
    assert [(s, lab) for s, lab, _ in _surfaces(det, "tel 1234 fax 5678 pin 9999")] == [
        ("1234", "PHONE"),
        ("5678", "FAX"),
    ]
    assert det.labels == ("FAX", "PHONE")


def test_pattern_rule_not_after_rejects_glued_matches() -> None:
    rule = PatternRule("IDNUM", re.compile(r"\d{4}"), not_after=r"[\w-]")
    det = RuleDetector("t", [rule])
    assert [s for s, _, _ in _surfaces(det, "x1234 -5678 9012")] == ["9012"]


@pytest.mark.parametrize(
    "text",
    [
        "mail a@b.org and c@d.net",
        "no address here at all",
        "@ alone, then x@y.com at the end x@y.com",
        "start@e.org" + " filler" * 50 + " end@f.org",
    ],
)
def test_anchor_windows_give_the_same_matches_as_a_full_scan(text: str) -> None:
    pattern = re.compile(r"[a-z]+@[a-z]+\.[a-z]{2,3}")
    plain = RuleDetector("t", [PatternRule("EMAIL", pattern)])
    anchored = RuleDetector("t", [PatternRule("EMAIL", pattern, anchor=re.compile("@"), reach=(20, 20))])
    assert _surfaces(plain, text) == _surfaces(anchored, text)


def test_rule_detector_keeps_one_label_per_offsets_and_drops_nested_spans() -> None:
    weak = PatternRule("IDNUM", re.compile(r"\d{4}-\d{4}"), score=0.4)
    strong = PatternRule("MEDICALRECORD", re.compile(r"\d{4}-\d{4}"), score=0.9)
    inner = PatternRule("IDNUM", re.compile(r"\d{4}"), score=0.95)
    det = RuleDetector("t", [weak, strong, inner])
    assert _surfaces(det, "MRN 1234-5678") == [("1234-5678", "MEDICALRECORD", 0.9)]
    keep_all = RuleDetector("t", [weak, strong, inner], drop_nested=False)
    assert len(run_detector(keep_all, "MRN 1234-5678")) == 3


def test_rule_detector_is_a_detector_and_reads_document_text() -> None:
    det = RuleDetector("demo", [PatternRule("DATE", re.compile(r"\d{4}"))])
    assert isinstance(det, Detector)
    spans = det.detect(Document("d1", "in 2019"))
    assert [(s.start, s.end, s.label, s.source) for s in spans] == [(3, 7, "DATE", "rule:demo")]
    assert "demo" in repr(det)


@pytest.mark.parametrize(
    ("words", "text", "expected"),
    [
        (["MRN", "MR #", "medical record number"], "Medical  Record Number 12", "Medical  Record Number"),
        (["id", "id #"], "ID # 3", "ID #"),
        (["ab", "abc", "abcd"], "xx abcd", "abcd"),
        (["St.", "Street"], "22 Baker St. N", "St."),
    ],
)
def test_trie_pattern_matches_the_longest_word(words: list[str], text: str, expected: str) -> None:
    m = re.search(trie_pattern(words), text)
    assert m is not None and m.group() == expected


def test_trie_pattern_respects_case_when_asked() -> None:
    pattern = re.compile(trie_pattern(["May", "MAY"], ignore_case=False))
    assert pattern.fullmatch("May") and pattern.fullmatch("MAY") and not pattern.fullmatch("may")
    assert re.fullmatch(trie_pattern([]), "") is None


def test_words_regex_matches_whole_words_only() -> None:
    pattern = words_regex(["fax", "tel"])
    assert pattern.search("Fax: 1") and pattern.search("call tel 2")
    assert pattern.search("fax1") is None and pattern.search("telephone") is None


def test_function_anchors_from_digit_runs_give_the_same_matches() -> None:
    from phiscrub.detect.rules._common import any_of, joined_runs, long_runs

    pattern = re.compile(r"\d{1,2}/\d{1,2}/\d{4}|\d{5}")
    text = "seen 3/12/2019, zip 02114, ratio 2/2, code 1234 and 12/1/2020." * 3
    plain = RuleDetector("t", [PatternRule("DATE", pattern)])
    anchored = RuleDetector(
        "t", [PatternRule("DATE", pattern, anchor=any_of(joined_runs("/"), long_runs(5)), reach=(6, 6))]
    )
    assert _surfaces(plain, text) == _surfaces(anchored, text)
    assert len(_surfaces(plain, text)) == 9


def test_joined_runs_may_take_a_character_after_the_separator() -> None:
    from phiscrub.detect.rules._common import joined_runs

    text = "2024. 8. 2. and 2024.8 and 24. 8 and 2024.  8"
    assert joined_runs(".", left_min=4, then=" \t")(text) == [(0, 7)]
    assert joined_runs(".")(text) == [(16, 22)]


def test_pack_rules_builds_for_the_normalized_code_and_nothing_for_others() -> None:
    from phiscrub.detect.rules._common import pack_rules

    rule = PatternRule("DATE", re.compile("x"))
    seen: list[tuple[str, str]] = []

    def build(code: str, words: str) -> tuple[PatternRule, ...]:
        seen.append((code, words))
        return (rule,)

    table = {"de": "german words"}
    assert pack_rules(table, build, "DE-at") == (rule,)
    assert seen == [("de", "german words")]
    assert pack_rules(table, build, "pt") == ()
    assert seen == [("de", "german words")]


def test_nfd_words_matches_composed_and_decomposed_spellings_in_any_case() -> None:
    import unicodedata

    from phiscrub.detect.rules._common import nfd_words

    pattern = re.compile(rf"(?:{nfd_words(['març'])})\Z")
    for surface in ("març", "MARÇ", unicodedata.normalize("NFD", "març")):
        assert pattern.match(surface), ascii(surface)
    assert pattern.match("marc") is None


@pytest.mark.parametrize(
    ("label", "value", "expected"),
    [
        (None, "A7731902", None),
        ("VEHICLE", "86", "VEHICLE"),  # unit and plate numbers may be short
        ("MEDICALRECORD", "86", None),  # other identifiers need four characters
        ("MEDICALRECORD", "03/12/2019", "MEDICALRECORD"),  # a date-shaped MRN is an identifier
        ("IDNUM", "03/12/2019", None),  # after "report" or "study" it is a date
        ("ACCOUNT", "125.75", None),  # a decimal
        ("HEALTHPLAN", "74-year-old", None),  # an age
    ],
)
def test_checked_label_applies_the_value_checks_per_label(
    label: str | None, value: str, expected: str | None
) -> None:
    from phiscrub.detect.rules.id_values import checked_label

    assert checked_label(label, value) == expected
