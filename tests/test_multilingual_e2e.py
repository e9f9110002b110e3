"""Catalan/Spanish and Chinese end to end: fill the zero-shot notes, redact them, keep exact offsets.

The notes are /work/shared/data/zeroshot-notes/k (Catalan and Spanish) and l (Simplified Chinese),
read with the ``placeholder`` reader and filled with surrogates of their language.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub import Deidentifier
from phiscrub.cli.app import cli
from phiscrub.deid import Redaction
from phiscrub.detect.rules.checksums import cn_resident_id_ok, dni_ok, nie_ok
from phiscrub.document import Document
from phiscrub.evaluate.metrics import evaluate
from phiscrub.io import get_reader
from phiscrub.labels import COARSE_LABELS, fold
from phiscrub.resources import load_lexicon
from phiscrub.text import tokenize
from phiscrub.transform.fill import PLACEHOLDER_RE
from phiscrub.transform.placeholders import PlaceholderReader

NOTES = Path("/work/shared/data/zeroshot-notes")
CA_MONTHS = "gener|febrer|març|abril|maig|juny|juliol|agost|setembre|octubre|novembre|desembre"
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def k_docs() -> list[Document]:
    reader = get_reader("placeholder", seed=11, draws=2)
    docs = list(reader.read(NOTES / "k"))
    assert not reader.problems
    return docs


@pytest.fixture(scope="module")
def l_docs() -> list[Document]:
    reader = PlaceholderReader(seed=11, draws=2, lang="auto")
    docs = list(reader.read(NOTES / "l"))
    assert not reader.problems
    return docs


def _check_filled(docs: list[Document]) -> Counter[str]:
    labels: Counter[str] = Counter()
    for doc in docs:
        doc.validate()
        assert PLACEHOLDER_RE.search(doc.text) is None, doc.id
        for span in doc.spans:
            surface = doc.surface(span)
            assert surface and surface == surface.strip(), (doc.id, span.start, span.label)
            assert fold(span.label, "coarse") in COARSE_LABELS
            labels[span.label] += 1
        # spans never overlap
        assert all(a.end <= b.start for a, b in zip(doc.spans, doc.spans[1:]))
    return labels


def test_catalan_and_spanish_notes_fill_with_spans_that_match_the_text(k_docs: list[Document]) -> None:
    assert len(k_docs) == 70 and {d.id.split("#")[0] for d in k_docs} == {f"k-{i:03d}" for i in range(1, 36)}
    labels = _check_filled(k_docs)
    assert sum(labels.values()) > 900 and {"PATIENT", "DATE", "HOSPITAL", "CITY", "MEDICALRECORD"} <= set(
        labels
    )
    langs = Counter(d.metadata["lang"] for d in k_docs)
    assert set(langs) == {"ca", "es"} and langs["ca"] >= 30


def test_catalan_notes_get_catalan_surrogates(k_docs: list[Document]) -> None:
    ca = [d for d in k_docs if d.metadata["lang"] == "ca"]
    surfaces: dict[str, list[str]] = {}
    for d in ca:
        for s in d.spans:
            surfaces.setdefault(s.label, []).append(d.surface(s))
    # Dates in Catalan ("3 de març de 2019", "12 d'abril"), never Spanish month names.
    assert any(re.search(rf"(?:de |d'|d’)(?:{CA_MONTHS})", s) for s in surfaces["DATE"])
    assert not any(re.search(r"\b(?:marzo|enero|diciembre|septiembre)\b", s) for s in surfaces["DATE"])
    # Catalan towns, names, departments and professions from the Catalan lists.
    towns = set(load_lexicon("cities_ca", "ca"))
    assert sum(s in towns for s in surfaces["CITY"]) >= len(surfaces["CITY"]) // 2
    firsts = set(load_lexicon("first_names_female_ca", "ca")) | set(load_lexicon("first_names_male_ca", "ca"))
    names = surfaces["PATIENT"] + surfaces["RELATIVE"] + surfaces["DOCTOR"]
    assert any(n.split()[0] in firsts for n in names)
    depts = set(load_lexicon("departments_ca", "ca"))
    assert all(s in depts for s in surfaces["DEPARTMENT"])
    assert not any(s in ("Oncología Médica", "Cirugía General") for s in surfaces["DEPARTMENT"])
    # Spanish identity numbers carry a valid check letter.
    for ssn in surfaces.get("SSN", []):
        assert dni_ok(ssn) or nie_ok(ssn)


def _fill_one(folder: Path, text: str, seed: int, lang: str) -> Document:
    """Fill one note written to ``folder`` with the placeholder reader."""
    (folder / "note.txt").write_text(text, encoding="utf-8")
    (doc,) = PlaceholderReader(seed=seed, lang=lang).read(folder / "note.txt")
    return doc


def test_catalan_elision_and_province_follow_the_text(k_docs: list[Document], tmp_path: Path) -> None:
    after_l = 0
    for d in k_docs:
        if d.metadata["lang"] != "ca":
            continue
        for s in d.spans:
            before = d.text[max(0, s.start - 2) : s.start]
            if before in ("l'", "d'") and s.label in ("HOSPITAL", "DEPARTMENT", "CITY"):
                after_l += 1
                assert d.surface(s)[0].lower() in "aeiouàèéíòóúh", (d.id, s.start)
    assert after_l >= 5
    towns_by_province = {"Girona": "Figueres", "Lleida": "Tàrrega", "Tarragona": "Reus"}
    text = "Domicili: [CITY] ([STATE]). Ingrés a l'[HOSPITAL] per ictus. Viu a [CITY] amb la seva parella."
    for seed in range(40):
        filled = _fill_one(tmp_path, text, seed, "ca")
        city, state = (filled.surface(s) for s in filled.spans[:2])
        if city in towns_by_province.values():
            assert towns_by_province[state] == city
        hospital = filled.surface(filled.spans[2])
        assert hospital[0].lower() in "aeiouh"


def test_chinese_notes_fill_with_chinese_surrogates(l_docs: list[Document]) -> None:
    assert len(l_docs) == 70 and all(d.metadata["lang"] == "zh" for d in l_docs)
    labels = _check_filled(l_docs)
    assert {"PATIENT", "DATE", "HOSPITAL", "CITY", "STATE", "PHONE", "MEDICALRECORD"} <= set(labels)
    date_re = re.compile(
        r"\d{4}(?:年\d{1,2}月(?:\d{1,2}日)?|年|[-/.]\d{1,2}(?:[-/.]\d{1,2})?)|\d{1,2}月\d{1,2}日"
    )
    for d in l_docs:
        for s in d.spans:
            value = d.surface(s)
            if s.label in ("PATIENT", "DOCTOR", "RELATIVE"):
                assert re.fullmatch(r"[\u4e00-\u9fff]{2,4}", value), (d.id, s.start)
            elif s.label == "DATE":
                assert date_re.fullmatch(value), (d.id, s.start)
            elif s.label in ("CITY", "STATE", "HOSPITAL"):
                assert HAN.search(value), (d.id, s.start)
            elif s.label == "SSN":
                assert cn_resident_id_ok(value)
            elif s.label == "PHONE" and re.fullmatch(r"1\d{10}", value.replace(" ", "").replace("-", "")):
                assert value[1] in "3456789"


def test_chinese_addresses_keep_city_in_its_province(l_docs: list[Document], tmp_path: Path) -> None:
    pairs = 0
    for d in l_docs:
        for a, b in zip(d.spans, d.spans[1:]):
            if a.label == "STATE" and b.label == "CITY" and a.end == b.start:
                pairs += 1
                state, city = d.surface(a), d.surface(b)
                assert city != state and (
                    city.endswith(("市", "区")) or city in ("九龙", "新界", "港岛", "氹仔", "路环")
                )
    assert pairs >= 6
    father_mother = "父亲：[RELATIVE]，职业：[PROFESSION]\n母亲：[RELATIVE]，职业：[PROFESSION]\n"
    for seed in range(20):
        doc = _fill_one(tmp_path, father_mother, seed, "zh")
        rel = [doc.surface(s) for s in doc.spans if s.label == "RELATIVE"]
        assert rel[0] != rel[1]


def _assert_offsets_kept(red: Redaction) -> None:
    """Text outside the spans is identical, in order, in the input and the output."""
    original, result = red.original.text, red.result.text
    assert len(red.spans) == len(red.result.spans)
    pos_in = pos_out = 0
    for s_in, s_out in zip(red.spans, red.result.spans):
        assert original[pos_in : s_in.start] == result[pos_out : s_out.start]
        assert s_in.label == s_out.label
        pos_in, pos_out = s_in.end, s_out.end
    assert original[pos_in:] == result[pos_out:]


@pytest.mark.parametrize("mode", ["placeholder", "surrogate"])
def test_redaction_of_filled_catalan_and_chinese_notes_keeps_exact_offsets(
    k_docs: list[Document], l_docs: list[Document], mode: str
) -> None:
    deid = Deidentifier(mode=mode, model=None, lang="auto", key="test-secret")  # type: ignore[arg-type]
    docs = [d.with_spans(()) for d in k_docs[:20:2] + l_docs[:20:2]]
    reds = list(deid.redact_many(docs))
    assert [r.original.id for r in reds] == [d.id for d in docs]
    found = Counter()
    for red in reds:
        _assert_offsets_kept(red)
        found.update(s.label for s in red.spans)
        if mode == "placeholder":
            assert all(red.result.surface(s) == f"[{s.label}]" for s in red.result.spans)
    assert found["DATE"] > 50 and found["ID"] > 20 and found["CONTACT"] > 5


def test_accented_and_decomposed_catalan_text_keeps_offsets() -> None:
    text = (
        "Torna d'Oftalmologia de l'Hospital de Sant Pau el 3 de març de 2019. "
        "Ingrés a l’Hospital el 12 d'abril; telèfon 628 365 171; NHC: 2748903."
    )
    deid = Deidentifier(mode="placeholder", model=None, lang="ca")
    for variant in (text, unicodedata.normalize("NFD", text)):
        red = deid.redact_one(Document("ca", variant))
        _assert_offsets_kept(red)
        form = "NFC" if variant == text else "NFD"
        got = {(variant[s.start : s.end], s.label) for s in red.spans}
        march = unicodedata.normalize(form, "3 de març de 2019")
        assert {(march, "DATE"), ("12 d'abril", "DATE"), ("628 365 171", "CONTACT"), ("2748903", "ID")} <= got
        assert red.result.text.startswith(
            # The Catalan pack names the hospital (issue 16): "l'Hospital de Sant Pau" -> "l'[LOCATION]".
            unicodedata.normalize(form, "Torna d'Oftalmologia de l'[LOCATION] el [DATE].")
        )
        assert "a l’Hospital el [DATE]" in red.result.text


def test_cjk_tokens_are_one_per_character_and_score_exactly() -> None:
    text = "患者于2019年3月12日入院，住院号：3853795"
    tokens = tokenize(text)
    han = [t for t in tokens if HAN.fullmatch(t.text)]
    assert all(len(t.text) == 1 and t.end - t.start == 1 for t in han)
    assert [t.text for t in tokens][3:9] == ["2019", "年", "3", "月", "12", "日"]
    assert all(text[t.start : t.end] == t.text for t in tokens)
    deid = Deidentifier(mode="placeholder", model=None, lang="zh")
    spans = deid.detect(text)
    assert [(text[s.start : s.end], s.label) for s in spans] == [
        ("2019年3月12日", "DATE"),
        ("3853795", "MEDICALRECORD"),
    ]
    gold = Document("z", text, tuple(spans))
    result = evaluate([gold], [gold], granularity="coarse")
    assert result.token.f1 == 1.0 and result.entity.f1 == 1.0
    # Each Han character of the date is its own token: 2019/年/3/月/12/日 = 6 gold tokens.
    assert result.per_label["DATE"].gold_tokens == 6


def test_redact_cli_on_filled_chinese_notes_writes_offsets_into_the_originals(
    l_docs: list[Document], tmp_path: Path
) -> None:
    src = tmp_path / "zh"
    src.mkdir()
    for d in l_docs[:6:2]:
        (src / f"{d.id.replace('#', '_')}.txt").write_text(d.text, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(src), "-o", str(out), "--rules-only", "--lang", "auto"])
    assert result.exit_code == 0, result.output
    import json

    rows = [json.loads(x) for x in (out / "phi_spans.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows
    for row in rows:
        original = (src / f"{row['doc_id']}.txt").read_text(encoding="utf-8")
        redacted = (out / f"{row['doc_id']}.txt").read_text(encoding="utf-8")
        assert 0 <= row["start"] < row["end"] <= len(original)
        assert redacted[row["out_start"] : row["out_end"]] == f"[{row['label']}]"


@pytest.mark.parametrize(
    ("surface", "lang", "shifted"),
    [
        ("12. März 2019", "de", "11. April 2019"),
        ("Montag, den 12. März 2019", "de", "Donnerstag, den 11. April 2019"),
        ("1er février 2019", "fr", "3 mars 2019"),
        ("28 février 2019", "fr", "30 mars 2019"),
        ("5 jan. 2019", "nl", "4 feb. 2019"),
        ("3 d'abril del 2019", "ca", "3 de maig del 2019"),
        ("2019年3月12日", "zh", "2019年4月11日"),
    ],
)
def test_dates_of_the_pack_languages_shift_in_their_own_format(surface: str, lang: str, shifted: str) -> None:
    from phiscrub.transform.dates import shift_date

    assert shift_date(surface, 30, lang=lang) == shifted


def test_surrogate_redaction_of_german_and_french_notes_keeps_offsets_and_formats() -> None:
    deid = Deidentifier(mode="surrogate", model=None, lang="auto", key="test-secret")
    notes = [
        Document("de", "Aufnahme am 12. März 2019 auf Station, Fallnummer 1234567, Tel. 030 1234567."),
        Document(
            "fr",
            "Admise le 3 janvier 2019 pour une douleur, tél. : 01 23 45 67 89, sortie le 9 janvier 2019.",
        ),
    ]
    for red in deid.redact_many(notes):
        _assert_offsets_kept(red)
        dates = [red.result.surface(s) for s in red.result.spans if s.label == "DATE"]
        assert dates and all(
            re.fullmatch(r"\d{1,2}\. (?:Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|"
                         r"November|Dezember) \d{4}|\d{1,2}(?:er)? \w+ \d{4}", d)
            for d in dates
        )  # fmt: skip
