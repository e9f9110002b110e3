"""Placeholder filling: spans on every fill, variety, determinism, languages, and the reader contract."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import Problem, Reader
from phiscrub.labels import FINE_LABELS, PLACEHOLDER_LABELS
from phiscrub.transform.dates import parse_date
from phiscrub.transform.fill import PLACEHOLDER_RE, detect_lang, fill_text
from phiscrub.transform.placeholders import PlaceholderReader

NOTE = (
    "Patient: [PATIENT]   MRN: [MEDICALRECORD]   DOB: [DATE]   Age: [AGE]\n"
    "Mrs. [PATIENT] is a [AGE]-year-old retired [PROFESSION] who lives with her son [RELATIVE] in [CITY], "
    "[STATE] [ZIP]. She quit smoking in [DATE]. Seen at [HOSPITAL] ([DEPARTMENT], room [ROOM]) on [DATE] 14:30 "
    "by Dr. [DOCTOR]. Call [PHONE], fax [FAX], e-mail [EMAIL], portal [URL], device [DEVICE], IP [IPADDRESS].\n"
    "Insurance [ORGANIZATION] member [HEALTHPLAN], acct [ACCOUNT], SSN [SSN], license [LICENSE], "
    "plate [VEHICLE], print [BIOID], id [IDNUM], [ID]. Lives at [STREET], [COUNTRY]; accident on [LOCATION].\n"
    "[DOCTOR], MD   [USERNAME]\n"
)
ZH_NOTE = "姓名：[PATIENT]\n性别：女\n年龄：[AGE]岁\n入院时间：[DATE] 03:42\n现住址：[CITY][STREET]，邮编[ZIP]\n电话：[PHONE]\n"
CA_NOTE = (
    "Pacient: Sra. [PATIENT]   Edat: [AGE] anys\nData d'ingrés: [DATE]. Viu amb la seva filla, [RELATIVE], "
    "a [CITY]. És una pacient amb HTA des de [DATE] i els fills l'acompanyen.\n"
)
ES_NOTE = (
    "Paciente: [PATIENT], [AGE] años. Ingreso el [DATE] en [HOSPITAL]. La paciente presenta dolor y se "
    "pauta tratamiento con los controles por [DOCTOR].\n"
)


def _check(text: str, spans: list[Span]) -> None:
    ends = [0]
    for span in spans:
        assert span.label in FINE_LABELS
        assert text[span.start : span.end].strip() == text[span.start : span.end] != ""
        assert span.start >= ends[-1]
        ends.append(span.end)


@pytest.mark.parametrize("lang", ["en", "es", "ca", "zh", "auto"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fill_consumes_every_placeholder_and_spans_cover_the_fills(lang: str, seed: int) -> None:
    text, spans = fill_text(NOTE, random.Random(seed), lang)
    assert PLACEHOLDER_RE.search(text) is None
    assert len(spans) == len(PLACEHOLDER_RE.findall(NOTE))
    _check(text, spans)
    labels = [m.group(1) for m in PLACEHOLDER_RE.finditer(NOTE)]
    assert [s.label for s in spans] == [("IDNUM" if lab == "ID" else lab) for lab in labels]


@pytest.mark.parametrize("label", sorted(set(PLACEHOLDER_LABELS)))
@pytest.mark.parametrize("lang", ["en", "es", "ca", "zh"])
def test_every_label_gets_a_non_empty_fill_in_every_language(label: str, lang: str) -> None:
    text, spans = fill_text(f"x [{label}] y", random.Random(7), lang)
    assert len(spans) == 1 and text.startswith("x ") and text.endswith(" y")
    assert spans[0].label == ("IDNUM" if label == "ID" else label)
    assert text[spans[0].start : spans[0].end].strip()


def test_text_between_placeholders_is_kept_verbatim() -> None:
    text, spans = fill_text(NOTE, random.Random(3), "en")
    pieces = re.split(r"\[[A-Z_]+\]", NOTE)
    bounds = [0] + [p for s in spans for p in (s.start, s.end)] + [len(text)]
    between = [text[bounds[i] : bounds[i + 1]] for i in range(0, len(bounds), 2)]
    assert between == pieces


def test_fill_is_deterministic_by_seed() -> None:
    assert fill_text(NOTE, random.Random(5)) == fill_text(NOTE, random.Random(5))
    assert fill_text(NOTE, random.Random(5))[0] != fill_text(NOTE, random.Random(6))[0]


def test_dates_come_in_many_formats() -> None:
    rng = random.Random(11)
    templates = set()
    for _ in range(200):
        text, spans = fill_text("Seen on [DATE].", rng)
        parsed = parse_date(text[spans[0].start : spans[0].end])
        assert parsed is not None
        templates.add(parsed.template)
    assert len(templates) >= 5


def test_year_contexts_often_get_a_bare_year() -> None:
    rng = random.Random(2)
    surfaces = [
        fill_text("Former smoker, quit [DATE].", rng)[0][len("Former smoker, quit ") : -1] for _ in range(100)
    ]
    assert sum(bool(re.fullmatch(r"(19|20)\d\d", s)) for s in surfaces) >= 25
    timed = [fill_text("Admitted [DATE] 14:30.", rng)[0] for _ in range(50)]
    assert not any(re.fullmatch(r"Admitted (19|20)\d\d 14:30\.", t) for t in timed)


def test_ages_are_numbers_sometimes_over_89_and_months_stay_small() -> None:
    rng = random.Random(4)
    ages = [int(fill_text("A [AGE]-year-old man", rng)[0].split(" ")[1].split("-")[0]) for _ in range(300)]
    assert any(a > 89 for a in ages) and all(0 < a < 110 for a in ages)
    months = [int(fill_text("Infant, [AGE] months old", rng)[0].split(" ")[1]) for _ in range(50)]
    assert all(1 <= m <= 23 for m in months)


def test_names_come_in_several_forms() -> None:
    rng = random.Random(8)
    titled = []
    for _ in range(60):
        text, (span,) = fill_text("Mr. [PATIENT] was seen.", rng)
        titled.append(text[span.start : span.end])
    assert sum(" " not in t for t in titled) > 30  # mostly the surname alone after a title
    forms = set()
    for _ in range(200):
        text, spans = fill_text("Patient [PATIENT] seen.", rng)
        name = text[spans[0].start : spans[0].end]
        forms.add(
            "comma" if "," in name else "initials" if re.fullmatch(r"[A-Z]{2}|[A-Z]\.[A-Z]\.", name) else
            "initial" if re.match(r"[A-Z]\. ", name) else "middle" if re.search(r" [A-Z]\. ", name) else
            str(len(name.split()))
        )  # fmt: skip
    assert len(forms) >= 5


def test_the_patient_is_one_person_within_a_note() -> None:
    text, spans = fill_text("[PATIENT] ... Mrs. [PATIENT] ... [PATIENT]", random.Random(1))
    surnames = [text[s.start : s.end] for s in spans]
    last = [n for n in surnames if " " not in n and "," not in n]
    assert all(any(x in full for full in surnames) for x in last)


def test_upper_case_lines_get_upper_case_fills() -> None:
    text, spans = fill_text("PT [PATIENT] ADMITTED TO [HOSPITAL] ON [DATE]\n", random.Random(1))
    for span in spans:
        surface = text[span.start : span.end]
        assert surface == surface.upper()


def test_chinese_and_catalan_fills_use_their_language() -> None:
    text, spans = fill_text(ZH_NOTE, random.Random(1), "auto")
    name = text[spans[0].start : spans[0].end]
    assert re.fullmatch(r"[\u4e00-\u9fff]{2,4}", name)
    date = text[spans[2].start : spans[2].end]
    assert re.fullmatch(r"\d{4}(年\d{1,2}月\d{1,2}日|[-/.]\d{1,2}[-/.]\d{1,2}|年\d{2}月\d{2}日)", date)
    rng = random.Random(3)
    surfaces = [fill_text("Data: [DATE].", rng, "ca")[0][6:-1] for _ in range(100)]
    assert any(
        re.search(
            r" (de |d')(gener|febrer|març|abril|maig|juny|juliol|agost|setembre|octubre|novembre|desembre)", s
        )
        for s in surfaces
    )
    assert any(re.fullmatch(r"\d{2}/\d{2}/\d{4}", s) for s in surfaces)


@pytest.mark.parametrize(
    ("text", "lang"),
    [(NOTE, "en"), (ZH_NOTE, "zh"), (CA_NOTE, "ca"), (ES_NOTE, "es"), ("", "en")],
)
def test_detect_lang(text: str, lang: str) -> None:
    assert detect_lang(text) == lang


def test_unknown_language_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        fill_text("[DATE]", random.Random(0), "klingon")
    with pytest.raises(ConfigError):
        PlaceholderReader(lang="klingon")
    with pytest.raises(ConfigError):
        PlaceholderReader(draws=0)


@pytest.mark.parametrize(("text", "lang"), [(NOTE, "en"), (ZH_NOTE, "zh"), (CA_NOTE, "ca"), (ES_NOTE, "es")])
def test_filled_notes_survive_a_surrogate_transform(text: str, lang: str) -> None:
    from phiscrub.transform import build_transformer
    from phiscrub.transform.surrogates import normalize_component

    transformer = build_transformer("surrogate", "fine", key="fill-test")
    for seed in range(5):
        filled, spans = fill_text(text, random.Random(seed), lang)
        doc = Document(f"n{seed}", filled, tuple(spans), {"lang": lang})
        new = transformer.apply(doc, doc.spans)
        new.validate()
        assert [s.label for s in new.spans] == [s.label for s in doc.spans]
        for old, out in zip(doc.spans, new.spans):
            before, after = doc.surface(old), new.surface(out)
            if old.label == "AGE" and int(before) <= 89:
                assert after == before
            elif old.label == "DATE" and re.fullmatch(r"(19|20)\d\d年?|'\d\d|\w+ (19|20)\d\d", before):
                continue  # years and seasons may keep their value
            else:
                assert normalize_component(after) != normalize_component(before), old.label


# -- reader ------------------------------------------------------------------------------------------


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "a-001.txt").write_text(NOTE, encoding="utf-8")
    (tmp_path / "l").mkdir()
    (tmp_path / "l" / "l-001.txt").write_text(ZH_NOTE, encoding="utf-8")
    (tmp_path / "odd.txt").write_text("Seen by [DOCTOR] re [SOMETHING] on [DATE].", encoding="utf-8")
    (tmp_path / "skip.md").write_text("[PATIENT]", encoding="utf-8")
    return tmp_path


def test_reader_reads_a_folder_recursively_with_relative_ids(notes: Path) -> None:
    reader = PlaceholderReader(seed=3, lang="auto")
    docs = list(reader.read(notes))
    assert [d.id for d in docs] == ["a/a-001", "l/l-001", "odd"]
    assert isinstance(reader, Reader)
    for doc in docs:
        assert isinstance(doc, Document)
        doc.validate()
        assert all(doc.text[s.start : s.end] for s in doc.spans)
    assert docs[1].metadata["lang"] == "zh" and docs[0].metadata["lang"] == "en"


def test_reader_reports_unknown_placeholders_and_leaves_them(notes: Path) -> None:
    reader = PlaceholderReader(seed=0)
    (doc,) = list(reader.read(notes / "odd.txt"))
    assert doc.id == "odd"
    assert [s.label for s in doc.spans] == ["DOCTOR", "DATE"]
    (problem,) = reader.problems
    assert isinstance(problem, Problem)
    assert problem.doc_id == "odd" and problem.kind == "unknown_label"
    assert problem.start is not None and problem.end is not None
    assert doc.text[problem.start : problem.end] == "[SOMETHING]"
    assert "SOMETHING" not in problem.message


def test_reader_draws_several_fills_per_note(notes: Path) -> None:
    docs = list(PlaceholderReader(seed=1, draws=3).read(notes / "a" / "a-001.txt"))
    assert [d.id for d in docs] == ["a-001#0", "a-001#1", "a-001#2"]
    assert len({d.text for d in docs}) == 3
    assert [d.metadata["draw"] for d in docs] == [0, 1, 2]


def test_reader_is_deterministic_by_seed(notes: Path) -> None:
    first = [d.text for d in PlaceholderReader(seed=9).read(notes)]
    again = [d.text for d in PlaceholderReader(seed=9).read(notes)]
    other = [d.text for d in PlaceholderReader(seed=10).read(notes)]
    assert first == again and first != other


def test_reader_reports_undecodable_files_and_missing_paths(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe[DATE]\x80")
    reader = PlaceholderReader()
    assert list(reader.read(tmp_path)) == []
    assert [p.kind for p in reader.problems] == ["decode_error"]
    with pytest.raises(InputFormatError):
        list(reader.read(tmp_path / "missing"))


def test_reader_is_available_from_the_io_registry(notes: Path) -> None:
    from phiscrub.io import get_reader

    reader = get_reader("placeholder", seed=4, corpus="i2b2-2014")
    assert isinstance(reader, PlaceholderReader) and reader.seed == 4
    assert len(list(reader.read(notes / "a"))) == 1


# -- real-note forms (issue 11): what real US notes write and our fills used to miss -------------------

REAL_NOTE = (
    "NURSING NOTE 0700-1900\n"
    "Neuro: a&ox3. plan per [DOCTOR] in am, d/w [DOCTOR] re: abx.\n"
    "Social: daughter [RELATIVE] at bedside, son [RELATIVE] called. Pt resides at [HOSPITAL] LTC.\n"
    "ID: BCx from [DATE] NGTD, ucx sent on [DATE]; on vanc since [DATE].\n"
    "PMH:\n- CABG [DATE]\n- CVA [DATE]\n- breast ca dx [DATE]\n"
    "Dispo: transfer to [ROOM] vs [HOSPITAL] once bed available; f/u at [HOSPITAL] Cancer Center.\n"
    "pt seen by dr [DOCTOR] today, wife [RELATIVE] aware, to [DEPARTMENT] after cath\n"
)


def _surfaces(template: str, n: int, seed: int = 0, lang: str = "en") -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        text, spans = fill_text(template, rng, lang)
        out.extend(text[s.start : s.end] for s in spans)
    return out


@pytest.mark.parametrize("seed", range(60))
def test_real_note_fills_keep_spans_valid(seed: int) -> None:
    text, spans = fill_text(REAL_NOTE, random.Random(seed), "en")
    assert PLACEHOLDER_RE.search(text) is None
    assert len(spans) == len(PLACEHOLDER_RE.findall(REAL_NOTE))
    _check(text, spans)
    doc = Document("r", text, tuple(spans))
    doc.validate()
    assert all(doc.text[s.start : s.end] == doc.surface(s) for s in doc.spans)


def _share(surfaces: list[str], pattern: str) -> float:
    return sum(bool(re.fullmatch(pattern, s)) for s in surfaces) / len(surfaces)


@pytest.mark.parametrize(
    ("template", "pattern", "low", "high"),
    [
        # initial + surname in capitals after a role cue ("per K. JONES", "d/w J SMITH")
        ("Plan per [DOCTOR] in am.", r"[A-Z]\.? [A-Z][A-Z'-]+", 0.15, 0.5),
        ("Discussed with [DOCTOR] today.", r"[A-Z]\.? [A-Z][A-Z'-]+", 0.15, 0.5),
        # lower-case first names of relatives in mixed-case notes
        ("Pt's daughter [RELATIVE] at bedside.", r"[a-z][a-z'-]+", 0.08, 0.35),
        # month/day dates in running text
        ("BCx from [DATE] pending.", r"\d{1,2}/\d{1,2}", 0.1, 0.4),
        ("Seen on [DATE] in clinic.", r"(?:[a-z]{3}|[A-Z][a-z]{2}) \d{1,2}(?:st|nd|rd|th)?", 0.03, 0.3),
        ("On vanc since [DATE].", r"(?:\d{1,2}/\d{1,2}|[A-Za-z]{3,9}\.? \d{1,2}(?:st|nd|rd|th)?)", 0.03, 0.4),
        # month/two-digit-year and bare years after a diagnosis in a history list
        ("PMH: HTN, CABG [DATE], DM2.", r"\d{1,2}/\d{2}", 0.05, 0.3),
        ("- s/p CVA [DATE]", r"(?:19|20)\d\d", 0.15, 0.6),
        # facility names made of common words and their abbreviations
        ("Seen at [HOSPITAL] last week.", r"(?:St\.?|Saint) [A-Z][a-z]+(?:'s)?(?: [A-Z].*)?", 0.04, 0.3),
        ("Seen at [HOSPITAL] last week.", r"[A-Z]{2,5}", 0.04, 0.4),
        ("Seen at [HOSPITAL] last week.", r".+ Rehab(?:ilitation)?(?: [A-Z][a-z]+)*", 0.01, 0.2),
        ("Seen at [HOSPITAL] last week.", r"University of .+", 0.005, 0.15),
        (
            "Seen at [HOSPITAL] last week.",
            r".+ (?:Nursing Home|Manor|Senior Living|Care Center)",
            0.005,
            0.15,
        ),
        (
            "Seen at [HOSPITAL] last week.",
            r"(?:Good Samaritan|Mercy|Sacred Heart|Holy Cross|Providence).*",
            0.01,
            0.2,
        ),
        # named wards
        (
            "Placed in [ROOM] overnight.",
            r"[A-Z][a-z'A-Z]+[ -]\d{1,2}[A-D]?(?: (?:North|South|East|West))?",
            0.1,
            0.5,
        ),
        (
            "Transferred to [DEPARTMENT] after cath.",
            r"[A-Z][a-z'A-Z]+[ -]\d{1,2}[A-D]?(?: (?:North|South|East|West))?",
            0.1,
            0.5,
        ),
    ],
)
def test_real_note_forms_appear_at_realistic_rates(
    template: str, pattern: str, low: float, high: float
) -> None:
    share = _share(_surfaces(template, 600, seed=5), pattern)
    assert low <= share <= high, share


def test_facility_names_stand_alone_before_a_service_word() -> None:
    suffix = r".+ (?:Hospital|Medical Center|Health|Health Center)"
    before_ed = _share(_surfaces("Presented to [HOSPITAL] ED with CP.", 400, seed=2), suffix)
    plain = _share(_surfaces("Presented to [HOSPITAL] with CP.", 400, seed=2), suffix)
    assert before_ed < plain - 0.15


def test_fills_never_draw_care_units_as_facilities_or_departments() -> None:
    from phiscrub.transform.surrogate.wordlists import NOT_FACILITY_ACRONYMS

    hospitals = _surfaces("Seen at [HOSPITAL] today.", 1500, seed=9)
    departments = _surfaces("Admitted to the [DEPARTMENT] today.", 500, seed=9)
    units = set(NOT_FACILITY_ACRONYMS)
    assert not units & set(hospitals)
    assert not units & set(departments)


def test_all_lower_case_lines_mostly_get_lower_case_fills() -> None:
    surfaces = _surfaces("pt seen at [HOSPITAL] by dr [DOCTOR] today, plan to call back\n", 100, seed=3)
    lower = [s for s in surfaces if s == s.lower()]
    assert 0.6 <= len(lower) / len(surfaces) < 1.0


@pytest.mark.parametrize(("text", "lang"), [(ES_NOTE, "es"), (CA_NOTE, "ca"), (ZH_NOTE, "zh")])
def test_real_note_forms_stay_out_of_other_languages(text: str, lang: str) -> None:
    for seed in range(30):
        filled, spans = fill_text(text.replace("[HOSPITAL]", "[HOSPITAL] [ROOM]"), random.Random(seed), lang)
        for span in spans:
            surface = filled[span.start : span.end]
            assert not re.fullmatch(r"(?:St\.?|Saint) .*|.* Nursing Home|University of .*", surface)
            assert not re.fullmatch(r"[A-Z]\.? [A-Z]{2,}", surface)


def test_real_note_forms_parse_as_dates_or_get_a_surrogate() -> None:
    from phiscrub.transform import build_transformer

    transformer = build_transformer("surrogate", "fine", key="fill-test")
    for seed in range(20):
        filled, spans = fill_text(REAL_NOTE, random.Random(seed), "en")
        doc = Document(f"n{seed}", filled, tuple(spans), {"lang": "en"})
        new = transformer.apply(doc, doc.spans)
        new.validate()
        assert [s.label for s in new.spans] == [s.label for s in doc.spans]


# -- fill vocabularies: a test fill never meets a name of the training fills -------------------------


@pytest.mark.parametrize("vocab", ["train", "test"])
def test_fills_draw_names_and_towns_from_their_vocabulary_part_only(vocab: str) -> None:
    from phiscrub.transform.fill import vocab_part

    rng = random.Random(1)
    checked = 0
    for _ in range(300):
        text, spans = fill_text("Pt [PATIENT] of [CITY] seen.\n", rng, "en", vocab=vocab)
        name, city = (text[s.start : s.end] for s in spans)
        assert vocab_part(city) == vocab
        m = re.fullmatch(r"([A-Z][a-z'-]+) ([A-Z][a-z'-]+)", name)
        if m:
            assert vocab_part(m.group(1)) == vocab and vocab_part(m.group(2)) == vocab
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("lang", ["en", "es", "ca", "zh"])
def test_vocabulary_all_is_the_default_fill(lang: str) -> None:
    text = {"en": NOTE, "es": ES_NOTE, "ca": CA_NOTE, "zh": ZH_NOTE}[lang]
    for seed in range(3):
        assert fill_text(text, random.Random(seed), lang) == fill_text(text, random.Random(seed), lang, "all")
        filled, spans = fill_text(text, random.Random(seed), lang, "test")
        _check(filled, spans)


def test_unknown_vocabulary_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        fill_text("[PATIENT]", random.Random(0), "en", vocab="heldout")
    with pytest.raises(ConfigError):
        PlaceholderReader(vocab="heldout")
