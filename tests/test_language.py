"""One language decision per note (issue 27): the decision table, the guess count, the safe default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub import Deidentifier
from phiscrub import language as language_mod
from phiscrub.cli.app import cli
from phiscrub.document import Document
from phiscrub.language import decide_language, guess_language, normalize_lang, with_language

# Written for these tests; PHI invented.
SHORT_EN = [
    "PT 67 YO M W/ HX OF CHF, DM2, HTN. C/O SOB X3D.",
    "S/P CABG X3 2019. F/U W/ CARDS. NKDA.",
    "pt seen in clinic today, doing well, cont meds, rtc 3 mo",
    "BP 120/80 HR 72 RR 16 SAT 98% RA",
    "Dx: DM2, HTN, HLD. Rx: metformin 500 bid, lisinopril 10 qd.",
    "Pt c/o N/V/D x 2d, denies CP/SOB. Abd soft NT ND.",
    "Patient discharged home.",
    "MR. JONES SEEN IN ED FOR FALL, NO LOC, CT HEAD NEG. D/C HOME W/ PCP F/U.",
    "A&O X3, NAD. RRR, CTAB. ABD S/NT/ND. EXT NO EDEMA.",
    "Hgb 9.2, plt 145, Cr 1.4 (baseline 1.1). K 5.1. INR 2.3 on warfarin.",
    "",
    "12/03/2019",
]
LONG = {
    "en": "The patient is a 67 year old man with a history of heart failure who was admitted with shortness "
    "of breath. He was treated with diuretics and discharged home in stable condition with follow up.",
    "de": "Der Patient wurde am 12.03.2020 mit zunehmender Luftnot stationär aufgenommen. Unter diuretischer "
    "Therapie besserte sich der Zustand, und wir konnten ihn in gutem Allgemeinzustand entlassen.",
    "es": "El paciente ingresó el 12/03/2020 por disnea progresiva. Tras el tratamiento con diuréticos "
    "presentó una mejoría clínica y fue dado de alta a su domicilio en buen estado general.",
    "fr": "Le patient a été hospitalisé le 12/03/2020 pour une dyspnée progressive. Sous traitement "
    "diurétique, son état s'est amélioré et il est sorti à domicile en bon état général.",
    "nb": "Pasienten ble innlagt 12.03.2020 med tiltagende tung pust. Etter behandling med vanndrivende "
    "ble tilstanden bedre, og han ble skrevet ut til hjemmet i god allmenntilstand.",
    "nn": "Pasienten vart innlagd 12.03.2020 med aukande tung pust. Etter behandling med vassdrivande vart "
    "tilstanden betre, og han vart skriven ut til heimen i god allmenntilstand. Han har ikkje feber.",
    "da": "Patienten blev indlagt den 12.03.2020 med tiltagende åndenød. Efter behandling med vanddrivende "
    "blev tilstanden bedre, og han blev udskrevet til hjemmet i god almentilstand.",
    "sv": "Patienten lades in den 12.03.2020 med tilltagande andfåddhet. Efter behandling med vätskedrivande "
    "blev tillståndet bättre och han skrevs ut till hemmet i gott allmäntillstånd.",
    "pl": "Pacjent został przyjęty do szpitala 12.03.2020 z powodu narastającej duszności. Po leczeniu "
    "moczopędnym stan się poprawił i został wypisany do domu w dobrym stanie ogólnym.",
}


@pytest.mark.parametrize("text", SHORT_EN)
@pytest.mark.parametrize("case", [str, str.upper, str.lower])
def test_short_and_abbreviated_english_is_english(text: str, case: object) -> None:
    assert callable(case)
    doc = Document("d", case(text))
    assert decide_language(doc, "default") == "en"
    assert decide_language(doc, "auto") == "en"


@pytest.mark.parametrize(
    "text",
    ["ROS: neg except per HPI", "HEPARIN GTT PER PROTOCOL, ANTI XA 0.31 @ 0200.", "Hi Maria,", "MELD-Na 27",
     "Adm 11/9   D/C 11/21   LOS 3 d", "- Infant blood type: A+, DAT neg", "2350 HR 90s-100s AF, BP 108/66. OK."],
)  # fmt: skip
def test_one_line_english_notes_stay_english_by_default(text: str) -> None:
    """One stop word of another language is no evidence in a short note (these read as Catalan,
    Dutch, Danish to the identifier and the stop words together)."""
    assert decide_language(Document("d", text), "default") == "en"


def test_short_nordic_sentences_are_nordic_by_default() -> None:
    for text in ("Pasienten klager over hodepine og kvalme.", "Det ble tatt CT av thorax som var normal."):
        assert decide_language(Document("d", text), "default") == "nb"


@pytest.mark.parametrize("lang", sorted(LONG))
def test_long_notes_decided_by_their_language(lang: str) -> None:
    for text in (LONG[lang], LONG[lang].upper()):
        doc = Document("d", text)
        assert decide_language(doc, "auto") == lang
        assert decide_language(doc, "default") == lang  # clearly not English (or English)
        assert decide_language(doc, "en") == "en"  # a named language wins over the text


@pytest.mark.parametrize(
    ("metadata", "setting", "expected"),
    [
        ({"lang": "es-ES"}, "default", "es"),
        ({"language": "NO"}, "auto", "nb"),
        ({"lang": "de_AT"}, "auto", "de"),
        ({"lang": "auto"}, "default", "en"),  # a mode in the metadata is no language: guessed
        ({"lang": "sv"}, "da", "da"),  # the run's --lang names the language of every note
        ({}, "ES", "es"),
    ],
)
def test_metadata_first_then_guess(metadata: dict[str, str], setting: str, expected: str) -> None:
    assert decide_language(Document("d", LONG["en"], metadata=metadata), setting) == expected


def test_normalize_lang() -> None:
    assert [normalize_lang(x) for x in ("en-US", " ES ", "nb_NO", "no", "nno", "AUTO")] == [
        "en",
        "es",
        "nb",
        "nb",
        "nn",
        "auto",
    ]


def test_with_language_tags_once() -> None:
    doc = Document("d", LONG["de"], metadata={"patient_id": "p1"})
    tagged = with_language(doc, "default")
    assert tagged.metadata == {"patient_id": "p1", "lang": "de"}
    assert with_language(tagged, "default") is tagged
    assert guess_language("").code == "en" and not guess_language("").clear


def test_one_guess_per_note(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules, model gate, policy, guard and surrogates all read the one decision."""
    calls: list[str] = []
    real = language_mod.guess_language

    def counting(text: str) -> language_mod.LanguageGuess:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(language_mod, "guess_language", counting)
    language_mod._remembered_guess.cache_clear()
    docs = [Document(f"n{i}", LONG[lang]) for i, lang in enumerate(["en", "de", "nb", "es"])]
    for setting in ("default", "auto"):
        calls.clear()
        language_mod._remembered_guess.cache_clear()
        deid = Deidentifier(model=None, lang=setting, mode="surrogate", key="k")
        reds = list(deid.redact_many(docs))
        assert len(calls) == len(docs)
        assert [r.lang for r in reds] == ["en", "de", "nb", "es"]
        assert all("lang" not in r.result.metadata for r in reds)  # the output keeps its metadata
    calls.clear()
    Deidentifier(model=None, lang="de").detect(docs[1])
    assert calls == []  # a named language is never guessed


def test_guard_runs_on_english_notes_under_auto() -> None:
    """The clinical guard follows the decided language (it was off for every note under auto)."""
    text = "Pt seen in the Cardiology Clinic. BP 120/80, pain 3/10. Seen by Dr. Alan Grant on 03/12/2019."
    doc = Document("d", text)
    en = Deidentifier(model=None, lang="en").detect(doc)
    assert Deidentifier(model=None, lang="auto").detect(doc) == en
    assert Deidentifier(model=None).detect(doc) == en


def test_default_gives_german_notes_the_german_rules() -> None:
    doc = Document("d", "Frau Uhlenbrock wurde am 3. Dezember 2019 in Nürnberg aufgenommen. " + LONG["de"])
    assert Deidentifier(model=None).detect(doc) == Deidentifier(model=None, lang="de").detect(doc)
    assert Deidentifier(model=None).policy_for(doc) == "i2b2"


def test_redact_lists_notes_without_a_pack(tmp_path: Path) -> None:
    rows = [
        {"id": "en-1", "text": "Patient John Smith was seen on 03/12/2019. " + LONG["en"]},
        {"id": "pl-1", "text": "Pacjent Jan Kowalski, 12.03.2020. " + LONG["pl"]},
        {"id": "de-1", "text": LONG["de"]},
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    res = CliRunner().invoke(cli, ["redact", str(src), "-o", str(tmp_path / "out"), "--rules-only"])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in (tmp_path / "out" / "warnings.jsonl").read_text().splitlines()]
    assert [(x["id"], x["lang"], x["warning"]) for x in lines] == [("in-1", "pl", "no_language_pack")]
    assert "Kowalski" not in (tmp_path / "out" / "warnings.jsonl").read_text()
    assert "no_language_pack=1" in res.output
