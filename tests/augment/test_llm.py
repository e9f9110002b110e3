from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from phiscrub.augment.llm import (
    GUIDELINES,
    KIM_PLACEHOLDERS,
    PLACEHOLDERS,
    TASK_DESCRIPTION,
    LeakGuard,
    build_prompt,
    fill_reply,
    guidelines,
    parse_reply,
    scrub,
    task_description,
    to_sentence_documents,
)
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, LabelError, LeakGuardError

NOTE = (
    "Patient Zebulon Quimby, 58, was admitted to Larkspur Valley Hospital on 03/14/2021.\n"
    "Seen by Dr. Orla Fennimore. Sex: male. MRN 4471220.\n"
)


def _sp(surface: str, label: str) -> Span:
    start = NOTE.index(surface)
    return Span(start, start + len(surface), label)


def _doc() -> Document:
    spans = [
        _sp("Zebulon Quimby", "PATIENT"),
        _sp("58", "AGE"),
        _sp("Larkspur Valley Hospital", "HOSPITAL"),
        _sp("03/14/2021", "DATE"),
        _sp("Orla Fennimore", "DOCTOR"),
        _sp("male", "OTHER"),
        _sp("4471220", "MEDICALRECORD"),
    ]
    return Document("n1", NOTE, tuple(spans)).validate()


# -- scrub -----------------------------------------------------------------------------------------


def test_scrub_puts_placeholders_in_place_and_keeps_other_text() -> None:
    assert scrub(_doc()) == (
        "Patient [PATIENT], [AGE], was admitted to [HOSPITAL] on [DATE].\n"
        "Seen by Dr. [DOCTOR]. Sex: male. MRN [MEDICALRECORD].\n"
    )


@pytest.mark.parametrize(
    ("granularity", "expected_first_line"),
    [
        ("coarse", "Patient [NAME], [AGE], was admitted to [LOCATION] on [DATE]."),
        ("phicon5", "Patient [NAME], 58, was admitted to [LOCATION] on [DATE]."),
    ],
)
def test_scrub_folds_labels_to_the_granularity(granularity: str, expected_first_line: str) -> None:
    assert scrub(_doc(), granularity).splitlines()[0] == expected_first_line  # type: ignore[arg-type]


def test_scrub_merges_overlapping_spans_so_no_phi_character_remains() -> None:
    doc = Document("n2", "Zebulon Quimby here", (Span(0, 7, "PATIENT"), Span(3, 14, "DOCTOR")))
    assert scrub(doc) == "[DOCTOR] here"


# -- prompts ---------------------------------------------------------------------------------------


def test_guidelines_keep_kim_structure_and_list_every_placeholder() -> None:
    assert GUIDELINES.startswith("1. PHI (Personal Health Information) should be removed")
    assert "3. Only use PHI labels as described in section 2" in GUIDELINES
    assert GUIDELINES.rstrip().endswith("4. Use all of PHI labels in section 2.")
    assert len(PLACEHOLDERS) == 31
    for lab in PLACEHOLDERS:
        assert f'"[{lab}]": "' in GUIDELINES
        assert f"[{lab}]" in TASK_DESCRIPTION
    assert "You must evenly use the labels from the following list." in TASK_DESCRIPTION


def test_kim_label_set_builds_kims_list() -> None:
    assert "{[AGE], [DATE], [DOCTOR], [HOSPITAL], [ID], [LOCATION]" in task_description(KIM_PLACEHOLDERS)
    assert '"[ID]": "Placeholder for any identity' in guidelines(KIM_PLACEHOLDERS)


def test_zero_shot_prompt_has_system_and_user_without_sample() -> None:
    msgs = build_prompt("zero-shot")
    assert [m["role"] for m in msgs] == ["system", "user"]
    assert GUIDELINES in msgs[1]["content"]
    assert TASK_DESCRIPTION in msgs[1]["content"]
    assert "Sample" not in msgs[1]["content"]


def test_one_shot_prompt_puts_the_scrubbed_sample_before_guidelines() -> None:
    sample = scrub(_doc())
    user = build_prompt("one-shot", sample)[1]["content"]
    assert sample.rstrip() + "\n[report end]" in user
    assert user.index(sample.rstrip()) < user.index(GUIDELINES) < user.index(TASK_DESCRIPTION)


def test_prompt_lists_only_the_requested_labels() -> None:
    user = build_prompt("zero-shot", None, ["PATIENT", "DATE"])[1]["content"]
    assert "{[PATIENT], [DATE]}." in user
    assert "[HOSPITAL]" not in user


@pytest.mark.parametrize(
    ("kind", "note", "labels", "error"),
    [
        ("zero-shot", "a sample", PLACEHOLDERS, ConfigError),
        ("one-shot", None, PLACEHOLDERS, ConfigError),
        ("one-shot", "   ", PLACEHOLDERS, ConfigError),
        ("few-shot", None, PLACEHOLDERS, ConfigError),
        ("zero-shot", None, ["PATIENT", "SPOUSE"], LabelError),
        ("zero-shot", None, [], ConfigError),
    ],
)
def test_build_prompt_rejects_bad_arguments(
    kind: str, note: str | None, labels: list[str], error: type[Exception]
) -> None:
    with pytest.raises(error):
        build_prompt(kind, note, labels)  # type: ignore[arg-type]


# -- leak guard ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def guard() -> LeakGuard:
    return LeakGuard()


@pytest.mark.parametrize(
    ("leak", "label"),
    [
        ("Mr. Jonathan Whitfield", "PATIENT"),
        ("03/12/2019", "DATE"),
        ("MRN: 00482231", "MEDICALRECORD"),
    ],
)
def test_guard_refuses_unscrubbed_phi_without_echoing_it(guard: LeakGuard, leak: str, label: str) -> None:
    sample = f"Discharge summary for [PATIENT].\nSeen in clinic, {leak}, by Dr. [DOCTOR].\n"
    msgs = build_prompt("one-shot", sample)
    with pytest.raises(LeakGuardError) as info:
        guard.check("doc-17", msgs)
    message = str(info.value)
    assert "doc-17" in message
    assert label in info.value.labels
    assert label in message
    for part in re.split(r"[\s:]+", leak):
        if len(part) > 3:
            assert part not in message
    payload = "\n\n".join(m["content"] for m in msgs)
    assert any(leak.split()[-1] in payload[s:e] for s, e in info.value.offsets)


def test_guard_accepts_a_scrubbed_prompt_and_the_bare_guidelines(guard: LeakGuard) -> None:
    guard.check("doc-1", build_prompt("one-shot", scrub(_doc())))
    guard.check("doc-2", build_prompt("zero-shot"))
    guard.check("doc-3", build_prompt("zero-shot", None, KIM_PLACEHOLDERS))
    guard.check("doc-4", [{"role": "user", "content": GUIDELINES + "\n\n" + TASK_DESCRIPTION}])


def test_guard_masks_placeholders_but_not_their_neighbours(guard: LeakGuard) -> None:
    assert guard.find("Dr. [DOCTOR] saw [PATIENT] on [DATE]; MRN [MEDICALRECORD].") == []
    assert guard.find("Dr. [DOCTOR] saw Jonathan Whitfield on [DATE].") != []


def test_guard_uses_the_detectors_it_is_given() -> None:
    class Everything:
        name = "all"

        def detect(self, doc: Document) -> list[Span]:
            return [Span(0, 1, "PATIENT")] if doc.text.strip() else []

    with pytest.raises(LeakGuardError):
        LeakGuard([Everything()]).check("d", [{"role": "user", "content": "harmless"}])
    LeakGuard([]).check("d", [{"role": "user", "content": "Jonathan Whitfield 03/12/2019"}])


# -- reply parsing ---------------------------------------------------------------------------------

BODY = (
    "Admission note. The patient is a [AGE]-year-old retired [PROFESSION] admitted on [DATE] "
    "with community-acquired pneumonia and acute hypoxemic respiratory failure."
)


@pytest.mark.parametrize(
    ("token", "label"),
    [
        ("[patient]", "PATIENT"),
        ("[ PATIENT ]", "PATIENT"),
        ("[PATIENT NAME]", "PATIENT"),
        ("[Patient Name]", "PATIENT"),
        ("[DOCTOR'S NAME]", "DOCTOR"),
        ("[DOCTOR NAME]", "DOCTOR"),
        ("[MRN]", "MEDICALRECORD"),
        ("[MEDICAL RECORD NUMBER]", "MEDICALRECORD"),
        ("[PHONE NUMBER]", "PHONE"),
        ("[ADDRESS]", "STREET"),
        ("[ID]", "IDNUM"),
        ("[NAME]", "PATIENT"),
        ("<PATIENT>", "PATIENT"),
        ("{PATIENT}", "PATIENT"),
        ("[PATEINT]", "PATIENT"),
        ("[HOSPTIAL]", "HOSPITAL"),
        ("[DATES]", "DATE"),
        ("[ZIP CODE]", "ZIP"),
        ("[MEDICAL_RECORD]", "MEDICALRECORD"),
    ],
)
def test_parse_reply_maps_near_miss_placeholders(token: str, label: str) -> None:
    parsed = parse_reply(f"{BODY} Seen with {token} today.")
    assert not parsed.dropped
    assert parsed.text is not None
    assert f"Seen with [{label}] today." in parsed.text
    assert parsed.mapped == Counter({token: 1})
    assert parsed.placeholders[label] == 1 + (label == "DATE")


def test_parse_reply_counts_exact_placeholders_without_mapping() -> None:
    parsed = parse_reply(BODY)
    assert parsed.text == BODY
    assert parsed.placeholders == Counter({"AGE": 1, "PROFESSION": 1, "DATE": 1})
    assert parsed.mapped == Counter()


@pytest.mark.parametrize("token", ["[TIME]", "[SEX]", "[GENDER]", "[INSURANCE COMPANY]", "[RACE]"])
def test_parse_reply_drops_replies_with_unknown_placeholders(token: str) -> None:
    parsed = parse_reply(f"{BODY} Noted {token}.")
    assert parsed.dropped
    assert parsed.text is None
    assert parsed.unknown == Counter({token: 1})


def test_parse_reply_leaves_ordinary_bracketed_text_alone() -> None:
    reply = f"{BODY} Dose [sic] was <5 mg> and {{see chart}} [1]."
    parsed = parse_reply(reply)
    assert not parsed.dropped
    assert parsed.text == reply


def test_parse_reply_respects_the_known_set() -> None:
    parsed = parse_reply(f"{BODY} Seen by [DOCTOR].", known=["AGE", "PROFESSION", "DATE"])
    assert parsed.dropped
    assert parsed.unknown == Counter({"[DOCTOR]": 1})


@pytest.mark.parametrize(
    "reply",
    [
        f"```\n{BODY}\n```",
        f"```text\n{BODY}\n```\nLet me know if you need changes.",
        f"Here is a synthetic patient report:\n\n{BODY}",
        f"Sure! Here's the report:\n```\n{BODY}\n```",
        f"{BODY}\n[report end]",
    ],
)
def test_parse_reply_strips_code_fences_and_chatter(reply: str) -> None:
    assert parse_reply(reply).text == BODY


def test_parse_reply_keeps_a_first_note_line_that_only_looks_chatty() -> None:
    reply = f"OK to discharge home with [RELATIVE].\n{BODY}"
    assert parse_reply(reply).text == reply


@pytest.mark.parametrize(
    "reply", ["", "   ", "[PATIENT] is fine.", "A long note without any PHI at all. " * 5]
)
def test_parse_reply_drops_empty_short_or_placeholder_free_replies(reply: str) -> None:
    parsed = parse_reply(reply)
    assert parsed.dropped
    assert parsed.text is None


# -- fill and sentences ----------------------------------------------------------------------------


def _filled(seed: int) -> Document:
    text = parse_reply(
        f"Patient [PATIENT] seen by Dr. [DOCTOR] at [HOSPITAL].\n{BODY} Call [PHONE NAME] or [PHONE]."
    ).text
    assert text is not None
    return fill_reply(text, random.Random(seed), "en", doc_id="gen-1")


@pytest.mark.parametrize("seed", range(5))
def test_fill_reply_gives_valid_gold_spans(seed: int) -> None:
    doc = _filled(seed)
    assert doc.id == "gen-1"
    assert "[" not in doc.text
    assert [s.label for s in doc.spans] == [
        "PATIENT",
        "DOCTOR",
        "HOSPITAL",
        "AGE",
        "PROFESSION",
        "DATE",
        "PHONE",
        "PHONE",
    ]
    for s in doc.spans:
        assert doc.text[s.start : s.end].strip() == doc.text[s.start : s.end] != ""


def test_fill_reply_is_reproducible_for_a_seed() -> None:
    assert _filled(3) == _filled(3)


def test_to_sentence_documents_keeps_spans_with_their_surfaces() -> None:
    doc = _filled(1)
    parts = to_sentence_documents(doc)
    assert len(parts) >= 3
    assert sum(len(p.spans) for p in parts) == len(doc.spans)
    surfaces = [doc.text[s.start : s.end] for s in doc.spans]
    assert [p.text[s.start : s.end] for p in parts for s in p.spans] == surfaces
    for p in parts:
        assert p.metadata["parent_id"] == "gen-1"
        assert doc.text[p.metadata["offset"] : p.metadata["offset"] + len(p.text)] == p.text


def test_to_sentence_documents_never_cuts_a_span() -> None:
    text = "Seen at St. Mary. Hospital today. All well."
    doc = Document("d", text, (Span(8, 32, "HOSPITAL"),))
    parts = to_sentence_documents(doc)
    assert [p.text[s.start : s.end] for p in parts for s in p.spans] == ["St. Mary. Hospital today"]


def test_to_sentence_documents_can_keep_only_phi_sentences() -> None:
    doc = Document("d", "Nothing here.\nSeen on 2020.\nNothing again.", (Span(22, 26, "DATE"),))
    parts = to_sentence_documents(doc, only_with_phi=True)
    assert [p.text for p in parts] == ["Seen on 2020."]
    assert parts[0].id == "d:s1"
