"""Operators and the Transformer: placeholder, mask and surrogate modes over whole documents."""

from __future__ import annotations

import pytest

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.transform.operators import (
    KeepOperator,
    MaskOperator,
    Operator,
    OperatorContext,
    PlaceholderOperator,
    SurrogateOperator,
    Transformer,
    build_transformer,
)

TEXT = "Ode Varnum, 45, seen 03/12/2019 by Dr. Quist at Lakeview Clinic. Call 617-555-0199. Male."
SPANS = (
    Span(0, 10, "PATIENT"),
    Span(12, 14, "AGE"),
    Span(21, 31, "DATE"),
    Span(39, 44, "DOCTOR"),
    Span(48, 63, "HOSPITAL"),
    Span(70, 82, "PHONE"),
    Span(84, 88, "OTHER"),
)
DOC = Document("note-1", TEXT, SPANS)
CTX = OperatorContext("note-1", TEXT)


def _surfaces(doc: Document) -> list[str]:
    return [doc.text[s.start : s.end] for s in doc.spans]


@pytest.mark.parametrize(
    ("label", "granularity", "expected"),
    [
        ("PATIENT", "fine", "[PATIENT]"),
        ("PATIENT", "coarse", "[NAME]"),
        ("PATIENT", "phicon5", "[NAME]"),
        ("MEDICALRECORD", "coarse", "[ID]"),
        ("PHONE", "phicon5", "[CONTACT]"),
        ("AGE", "coarse", "[AGE]"),
        ("HOSPITAL", "coarse", "[LOCATION]"),
        ("NOMBRE_SUJETO_ASISTENCIA", "fine", "[PATIENT]"),
    ],
)
def test_placeholder_operator_names_the_label_at_its_granularity(
    label: str, granularity: str, expected: str
) -> None:
    op = PlaceholderOperator(granularity)  # type: ignore[arg-type]
    assert op.apply("x", Span(0, 1, label), CTX) == expected


@pytest.mark.parametrize(
    ("op", "surface", "expected"),
    [
        (MaskOperator(), "Ode Varnum", "***"),
        (MaskOperator(preserve_length=True), "Ode Varnum", "*** ******"),
        (MaskOperator("#", preserve_length=True), "03/12", "#####"),
        (MaskOperator("X", length=5), "a", "XXXXX"),
        (KeepOperator(), "Ode", "Ode"),
    ],
)
def test_mask_and_keep_operators(op: Operator, surface: str, expected: str) -> None:
    assert op.apply(surface, Span(0, len(surface), "PATIENT"), CTX) == expected


def test_operators_satisfy_the_protocol() -> None:
    for op in (PlaceholderOperator(), MaskOperator(), SurrogateOperator(), KeepOperator()):
        assert isinstance(op, Operator)


@pytest.mark.parametrize(
    ("granularity", "expected_text", "labels"),
    [
        (
            "coarse",
            "[NAME], [AGE], seen [DATE] by Dr. [NAME] at [LOCATION]. Call [CONTACT]. Male.",
            ["NAME", "AGE", "DATE", "NAME", "LOCATION", "CONTACT"],
        ),
        (
            "fine",
            "[PATIENT], [AGE], seen [DATE] by Dr. [DOCTOR] at [HOSPITAL]. Call [PHONE]. Male.",
            ["PATIENT", "AGE", "DATE", "DOCTOR", "HOSPITAL", "PHONE"],
        ),
        # AGE is not PHI in PHICON's 5 categories: left as it is, and not reported.
        (
            "phicon5",
            "[NAME], 45, seen [DATE] by Dr. [NAME] at [LOCATION]. Call [CONTACT]. Male.",
            ["NAME", "DATE", "NAME", "LOCATION", "CONTACT"],
        ),
    ],
)
def test_placeholder_transformer_rewrites_a_document(
    granularity: str, expected_text: str, labels: list[str]
) -> None:
    new = build_transformer("placeholder", granularity).apply(DOC, DOC.spans)  # type: ignore[arg-type]
    assert new.text == expected_text
    assert [s.label for s in new.spans] == labels
    assert all(new.text[s.start : s.end] == f"[{s.label}]" for s in new.spans)
    assert new.id == DOC.id


def test_mask_transformer_masks_every_phi_span_and_skips_other() -> None:
    new = build_transformer("mask", mask_preserve_length=True).apply(DOC, DOC.spans)
    assert (
        new.text
        == "*** ******, **, seen ********** by Dr. ***** at ******** ******. Call ************. Male."
    )
    assert [s.label for s in new.spans] == ["NAME", "AGE", "DATE", "NAME", "LOCATION", "CONTACT"]


def test_transformer_uses_per_label_operators_fine_before_coarse() -> None:
    transformer = build_transformer(
        "placeholder",
        "coarse",
        operators={"DATE": MaskOperator(), "NAME": KeepOperator(), "DOCTOR": MaskOperator("#", length=2)},
    )
    new = transformer.apply(DOC, DOC.spans)
    assert _surfaces(new) == ["Ode Varnum", "[AGE]", "***", "##", "[LOCATION]", "[CONTACT]"]


def test_transformer_rejects_unknown_operator_labels_and_granularity() -> None:
    with pytest.raises(ConfigError):
        build_transformer("placeholder", operators={"NOT_A_LABEL": MaskOperator()})
    with pytest.raises(ConfigError):
        build_transformer("placeholder", "medium")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        build_transformer("shred")  # type: ignore[arg-type]


@pytest.mark.parametrize("key", [None, "", b""])
def test_surrogate_mode_requires_a_key(key: bytes | str | None) -> None:
    with pytest.raises(ConfigError) as info:
        build_transformer("surrogate", key=key)
    assert "--key" in str(info.value) and "PHISCRUB_KEY" in str(info.value)


def test_surrogate_operator_without_generator_is_a_config_error() -> None:
    transformer = Transformer(SurrogateOperator())
    with pytest.raises(ConfigError):
        transformer.apply(DOC, DOC.spans)


def test_surrogate_transformer_is_consistent_per_key() -> None:
    first = build_transformer("surrogate", key="k-one").apply(DOC, DOC.spans, patient_id="p1")
    again = build_transformer("surrogate", key=b"k-one").apply(DOC, DOC.spans, patient_id="p1")
    other = build_transformer("surrogate", key="k-two").apply(DOC, DOC.spans, patient_id="p1")
    assert first.text == again.text
    assert first.text != other.text
    for new in (first, other):
        new.validate()
        assert [s.label for s in new.spans] == ["NAME", "AGE", "DATE", "NAME", "LOCATION", "CONTACT"]
        assert new.text.endswith("Male.")
    surfaces = _surfaces(first)
    originals = _surfaces(DOC)[:6]
    # every surrogate differs from its original, except the age (45 is not identifying)
    assert surfaces[1] == "45"
    assert all(new != old for i, (new, old) in enumerate(zip(surfaces, originals)) if i != 1)


def test_transformer_takes_the_patient_from_metadata() -> None:
    transformer = build_transformer("surrogate", key="k")
    with_meta = Document("note-1", TEXT, SPANS, {"patient_id": "p9"})
    assert transformer.apply(with_meta, SPANS).text == transformer.apply(DOC, SPANS, patient_id="p9").text


def test_transformer_records_offsets_when_asked() -> None:
    new = build_transformer("placeholder", record_offsets=True).apply(DOC, DOC.spans[:1])
    assert new.metadata["source_offsets"] == [[0, 6, 0, 10]]


def test_transformer_rejects_overlapping_spans() -> None:
    with pytest.raises(ValueError):
        build_transformer("placeholder").apply(DOC, [Span(0, 10, "PATIENT"), Span(4, 14, "DOCTOR")])


# -- issue 18, case 4: one surrogate person per note, whatever the case or form ------------------


def _surrogates_of(text: str, surfaces: list[str]) -> list[str]:
    from phiscrub.document import Document

    spans, pos = [], 0
    for surface in surfaces:
        i = text.index(surface, pos)
        spans.append(Span(i, i + len(surface), "PATIENT"))
        pos = i + len(surface)
    out = build_transformer("surrogate", "fine", key="k").apply(Document("d", text), spans)
    return [out.text[s.start : s.end] for s in out.spans]


def test_case4_lowercase_surname_gets_same_surrogate() -> None:
    text = "John SMITH. Mr. Smith seen. Plan discussed with smith."
    full, title_case, lower = _surrogates_of(text, ["John SMITH", "Smith", "smith"])
    last = full.split(" ")[1]
    assert last == title_case.upper()  # "SMITH" and "Smith": one surrogate, in each one's case
    assert lower == title_case.lower()  # "smith" too
    assert "smith" not in (full + title_case + lower).lower()


def test_case4_lone_first_name_maps_like_the_first_name_of_the_full_name() -> None:
    text = "Patient: John Smith.\nMR. SMITH returned.\nSigned: SMITH, JOHN\n"
    full, smith, comma, john = _surrogates_of(text, ["John Smith", "SMITH", "SMITH,", "JOHN"])
    first, last = full.split(" ")
    assert smith == last.upper()
    assert comma.rstrip(",") == last.upper()
    assert john == first.upper()


def test_surrogate_transformer_computes_each_repeated_surface_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from phiscrub.document import Document
    from phiscrub.transform.surrogates import SurrogateGenerator

    calls: list[str] = []
    original = SurrogateGenerator.surrogate

    def counting(self: SurrogateGenerator, label: str, surface: str, **kw: object) -> str:
        calls.append(label)
        return original(self, label, surface, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(SurrogateGenerator, "surrogate", counting)
    text = "Smith seen. " * 50
    spans = [Span(12 * k, 12 * k + 5, "PATIENT") for k in range(50)]
    out = build_transformer("surrogate", "fine", key="k").apply(Document("d", text), spans)
    assert len(calls) == 1
    assert len({out.text[s.start : s.end] for s in out.spans}) == 1
