"""Language packs of the DATE, CONTACT and ID rules (es, ca, de, fr, nl, zh), and ``lang="auto"``.

Every language has a positive table (the surface must be proposed with that label) and a negative
table (the surface must not be proposed with a label of that kind). All values are made up.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub import Deidentifier
from phiscrub.cli.app import cli
from phiscrub.detect.rules import PACK_LANGUAGES, AutoLanguageRules, default_detectors
from phiscrub.detect.rules.checksums import (
    bsn_ok,
    cn_resident_id_ok,
    dni_ok,
    kvnr_ok,
    nass_ok,
    nie_ok,
    nir_ok,
    rvnr_ok,
)
from phiscrub.detect.rules.dates import DATE_RULES_EN, DATE_RULES_NEUTRAL, date_rules
from phiscrub.document import Document
from phiscrub.labels import fold
from phiscrub.langid import LANGID_LANGUAGES, detect_language, language_scores

KIND = {"DATE": "DATE", "PHONE": "CONTACT", "FAX": "CONTACT"}


def _found(lang: str, text: str) -> set[tuple[str, str]]:
    """(surface, fine label) of every rule proposal for ``text`` in ``lang`` (before resolving)."""
    doc = Document("t", text)
    out: set[tuple[str, str]] = set()
    for det in default_detectors(lang):
        for span in det.detect(doc):
            assert 0 <= span.start < span.end <= len(text)
            out.add((text[span.start : span.end], span.label))
    return out


POSITIVE = [
    # --- Spanish ---
    ("es", "Ingreso el 3 de marzo de 2019 por disnea.", "3 de marzo de 2019", "DATE"),
    ("es", "Control el 3 de marzo del 2019.", "3 de marzo del 2019", "DATE"),
    ("es", "Visto el lunes, 12 de marzo.", "lunes, 12 de marzo", "DATE"),
    ("es", "Fecha: 12-MAR-2019.", "12-MAR-2019", "DATE"),
    ("es", "Fecha: 12-mar-19.", "12-mar-19", "DATE"),
    ("es", "Diabetes desde septiembre de 2015.", "septiembre de 2015", "DATE"),
    ("es", "Cito a control el próximo 25.12.20 y doy pautas.", "25.12.20", "DATE"),
    ("es", "Fumador hasta 2010.", "2010", "DATE"),
    ("es", "Ingresó en ABRIL DE 2018.", "ABRIL DE 2018", "DATE"),
    ("es", "Revisión el 3/12 en consulta.", "3/12", "DATE"),
    ("es", "Desde marzo refiere dolor.", "marzo", "DATE"),
    ("es", "Tel.: 93 416 97 00", "93 416 97 00", "PHONE"),
    ("es", "Tfno: 926232991", "926232991", "PHONE"),
    ("es", "Fax: 933203631", "933203631", "FAX"),
    ("es", "Móvil +34 612 34 56 78", "+34 612 34 56 78", "PHONE"),
    ("es", "NHC: 2748903.", "2748903", "MEDICALRECORD"),
    ("es", "NASS: 26 37482910 04", "26 37482910 04", "HEALTHPLAN"),
    ("es", "NºCol: 28 28 70973", "28 28 70973", "LICENSE"),
    ("es", "Episodio: 3629184", "3629184", "ACCOUNT"),
    ("es", "DNI 12345678Z", "12345678Z", "SSN"),
    ("es", "identificado con 12.345.678-Z en admisión", "12.345.678-Z", "SSN"),
    ("es", "NIE X1234567L", "X1234567L", "SSN"),
    ("es", "afiliado 281234567840 al sistema", "281234567840", "HEALTHPLAN"),
    ("es", "llegó en el vehículo con matrícula 1234 BCD", "1234 BCD", "VEHICLE"),
    # --- Catalan ---
    ("ca", "Ingrés el 3 de març de 2019.", "3 de març de 2019", "DATE"),
    ("ca", "Alta el 3 d'abril del 2019.", "3 d'abril del 2019", "DATE"),
    ("ca", "Control el 3 d’octubre.", "3 d’octubre", "DATE"),
    ("ca", "Visita dilluns, 12 de desembre de 2022.", "dilluns, 12 de desembre de 2022", "DATE"),
    ("ca", "Ictus el 1r de gener de 2020.", "1r de gener de 2020", "DATE"),
    ("ca", "HTA des de l'any 2015.", "2015", "DATE"),
    ("ca", "Operat el febrer de 2017.", "febrer de 2017", "DATE"),
    ("ca", "Empitjora des de març.", "març", "DATE"),
    ("ca", "Data: 13.01", "13.01", "DATE"),
    ("ca", "Telèfon 628 365 171", "628 365 171", "PHONE"),
    ("ca", "Mòbil: 612345678", "612345678", "PHONE"),
    ("ca", "Núm. història clínica: 1234567", "1234567", "MEDICALRECORD"),
    ("ca", "Episodi: 7654321", "7654321", "ACCOUNT"),
    ("ca", "CIP: BBBB1234567890", "BBBB1234567890", "HEALTHPLAN"),
    ("ca", "Núm. col·legiat 08 12345", "08 12345", "LICENSE"),
    ("ca", "DNI 12345678Z", "12345678Z", "SSN"),
    # --- German ---
    ("de", "Aufnahme am 12. März 2019.", "12. März 2019", "DATE"),
    ("de", "am Montag, den 12. März 2019", "Montag, den 12. März 2019", "DATE"),
    ("de", "Entlassung am 20.03.2019.", "20.03.2019", "DATE"),
    ("de", "OP am 3 Dez. 2018.", "3 Dez. 2018", "DATE"),
    ("de", "Erstdiagnose im Mai 2018.", "Mai 2018", "DATE"),
    ("de", "Diabetes seit 2015 bekannt.", "2015", "DATE"),
    # A German day-month keeps its closing period ("am 03.05."): issue 16.
    ("de", "Wiedervorstellung am 3.12. geplant", "3.12.", "DATE"),
    ("de", "Tel. 030 1234567", "030 1234567", "PHONE"),
    ("de", "Fax 030/1234568", "030/1234568", "FAX"),
    ("de", "Praxis (089) 12345678", "(089) 12345678", "PHONE"),
    ("de", "Handy: 0171-1234567", "0171-1234567", "PHONE"),
    ("de", "Tel. +49 30 1234567", "+49 30 1234567", "PHONE"),
    ("de", "Versichertennummer: A123456780", "A123456780", "HEALTHPLAN"),
    ("de", "Karte A123456780 eingelesen", "A123456780", "HEALTHPLAN"),
    ("de", "Fallnummer 1234567", "1234567", "ACCOUNT"),
    ("de", "Pat.-Nr.: 00451234", "00451234", "MEDICALRECORD"),
    # --- French ---
    ("fr", "Admis le 3 janvier 2019.", "3 janvier 2019", "DATE"),
    ("fr", "Sorti le 1er février 2019.", "1er février 2019", "DATE"),
    ("fr", "Vu le vendredi 3 mai 2019.", "vendredi 3 mai 2019", "DATE"),
    ("fr", "Hospitalisé en décembre 2018.", "décembre 2018", "DATE"),
    ("fr", "Opéré le 5 août.", "5 août", "DATE"),
    ("fr", "Consultation du 12 déc. 2019", "12 déc. 2019", "DATE"),
    ("fr", "Diabète depuis 2015.", "2015", "DATE"),
    ("fr", "Tél. : 01 23 45 67 89", "01 23 45 67 89", "PHONE"),
    ("fr", "portable 06.12.34.56.78", "06.12.34.56.78", "PHONE"),
    ("fr", "Télécopie : 01 23 45 67 90", "01 23 45 67 90", "FAX"),
    ("fr", "Tél. +33 (0)1 23 45 67 89", "+33 (0)1 23 45 67 89", "PHONE"),
    ("fr", "NIR 1 84 12 76 451 089 46", "1 84 12 76 451 089 46", "SSN"),
    ("fr", "assurée 255081416802538 ce jour", "255081416802538", "SSN"),
    ("fr", "IPP : 00123456.", "00123456", "MEDICALRECORD"),
    ("fr", "n° de séjour 20190456", "20190456", "ACCOUNT"),
    # --- Dutch ---
    ("nl", "Opname op 3 januari 2019.", "3 januari 2019", "DATE"),
    ("nl", "Ontslag 5 jan. 2019.", "5 jan. 2019", "DATE"),
    ("nl", "Gezien op maandag 4 maart 2019.", "maandag 4 maart 2019", "DATE"),
    ("nl", "Controle op 12 oktober.", "12 oktober", "DATE"),
    ("nl", "Diabetes sinds 2016.", "2016", "DATE"),
    ("nl", "Telefoon 020-1234567", "020-1234567", "PHONE"),
    ("nl", "mobiel 06-12345678", "06-12345678", "PHONE"),
    ("nl", "bereikbaar op 0612345678", "0612345678", "PHONE"),
    ("nl", "BSN 1112.22.333", "1112.22.333", "SSN"),
    ("nl", "geregistreerd onder 111222333 bij de gemeente", "111222333", "SSN"),
    ("nl", "patiëntnummer 7654321", "7654321", "MEDICALRECORD"),
    # --- Chinese ---
    ("zh", "患者于2019年3月12日入院", "2019年3月12日", "DATE"),
    ("zh", "2019年3月12号复查", "2019年3月12号", "DATE"),
    ("zh", "3月15日出院", "3月15日", "DATE"),
    ("zh", "2018年确诊糖尿病", "2018年", "DATE"),
    ("zh", "2020年5月开始服药", "2020年5月", "DATE"),
    ("zh", "签字日期二〇一九年三月十二日", "二〇一九年三月十二日", "DATE"),
    ("zh", "入院时间：2019-03-12 03:42", "2019-03-12", "DATE"),
    ("zh", "联系电话：138-1234-5678", "138-1234-5678", "PHONE"),
    ("zh", "手机13812345678", "13812345678", "PHONE"),
    ("zh", "电话：(010)12345678", "(010)12345678", "PHONE"),
    ("zh", "电话：87654321", "87654321", "PHONE"),
    ("zh", "传真0571-87654321", "0571-87654321", "FAX"),
    ("zh", "身份证号11010519491231002X", "11010519491231002X", "SSN"),
    ("zh", "证件11010519491231002X已核对", "11010519491231002X", "SSN"),
    ("zh", "住院号：3853795", "3853795", "MEDICALRECORD"),
    ("zh", "医保卡号：YB20190312", "YB20190312", "HEALTHPLAN"),
    ("zh", "由急救车（车牌京A·12345）送至我院", "京A·12345", "VEHICLE"),
    # --- Norwegian, nynorsk, Danish, Swedish (issue 27; more in tests/detect/rules/test_langpack_nordic.py) ---
    ("nb", "Innlagt 25. desember 2017 med brystsmerter.", "25. desember 2017", "DATE"),
    ("nb", "Fødselsnummer: 15108695088", "15108695088", "SSN"),
    ("nn", "Ho har hatt diabetes sidan mars 2004.", "mars 2004", "DATE"),
    ("da", "CPR-nr.: 211062-5629", "211062-5629", "SSN"),
    ("da", "Indlagt den 12. marts 2020.", "12. marts 2020", "DATE"),
    ("sv", "Personnummer: 19880320-0016", "19880320-0016", "SSN"),
    ("sv", "Inskriven den 3 augusti 2019.", "3 augusti 2019", "DATE"),
]

NEGATIVE = [
    # (lang, text, surface that must not be proposed with a label of that kind, kind)
    ("es", "El mar estaba en calma.", "mar", "DATE"),
    ("es", "Domingo Pérez acude solo.", "Domingo", "DATE"),
    ("es", "Tomar 1/2 comprimido.", "1/2", "DATE"),
    ("es", "Paracetamol 1000 mg cada 8 horas.", "1000", "DATE"),
    ("es", "Dosis de 2000 mg en 2019 mg/kg", "2000", "DATE"),
    ("es", "Mayo Clinic protocol", "Mayo", "DATE"),
    ("es", "NHC 624042723", "624042723", "CONTACT"),
    ("es", "presenta 12345678A en el informe", "12345678A", "SSN"),
    ("es", "ganancia de 1234 BCD", "1234 BCD", "VEHICLE"),
    ("ca", "des de fa 3 anys", "des", "DATE"),
    ("ca", "El pacient de 45 anys.", "45", "DATE"),
    ("ca", "Des de l'any 2015.", "Des de l'any 2015", "DATE"),
    ("ca", "Dialogant i orientat.", "Dialogant", "DATE"),
    ("de", "Thomas Mai kommt allein.", "Mai", "DATE"),
    ("de", "Blutdruck 130/80 mmHg", "130/80", "DATE"),
    ("de", "Dosis 0,5 mg", "0,5", "CONTACT"),
    ("de", "Karte A123456781 eingelesen", "A123456781", "HEALTHPLAN"),
    ("fr", "des 2015 patients", "des 2015", "DATE"),
    ("fr", "des 2015 patients", "2015", "DATE"),
    ("fr", "La planète mars.", "mars", "DATE"),
    ("fr", "Bilan du 01.02.2019", "01.02.2019", "CONTACT"),
    ("fr", "assurée 255081416802539 ce jour", "255081416802539", "SSN"),
    ("nl", "De maart-actie.", "maart", "DATE"),
    ("nl", "Uitslag 01-01-2019", "01-01-2019", "CONTACT"),
    ("nl", "geregistreerd onder 123456789 bij de gemeente", "123456789", "SSN"),
    ("zh", "病史3月余", "3月", "DATE"),
    ("zh", "吸烟5年", "5年", "DATE"),
    ("zh", "术后12日拆线", "12日", "DATE"),
    ("zh", "证件110105194912310021已核对", "110105194912310021", "SSN"),
    ("zh", "血压130/80mmHg", "130/80", "DATE"),
    ("nb", "Han har røykt i 20 år.", "20", "AGE"),
    ("nn", "Ho har hatt feber i 3 dagar.", "3", "AGE"),
    ("da", "Behandles med Ozempic 1 mg ugentligt.", "Ozempic", "NAME"),
    ("sv", "Fick Alvedon 1 g kl. 20.", "Alvedon", "NAME"),
]


@pytest.mark.parametrize(("lang", "text", "surface", "label"), POSITIVE)
def test_language_pack_finds(lang: str, text: str, surface: str, label: str) -> None:
    assert (surface, label) in _found(lang, text)


def _kind(label: str) -> str:
    return KIND.get(
        label, label if label in ("SSN", "HEALTHPLAN", "VEHICLE") else fold(label, "coarse") or ""
    )


@pytest.mark.parametrize(("lang", "text", "surface", "kind"), NEGATIVE)
def test_language_pack_leaves(lang: str, text: str, surface: str, kind: str) -> None:
    got = {(s, _kind(lab)) for s, lab in _found(lang, text)}
    assert (surface, kind) not in got


def test_every_pack_language_has_positive_and_negative_cases() -> None:
    assert {lang for lang, *_ in POSITIVE} == set(PACK_LANGUAGES) == {lang for lang, *_ in NEGATIVE}
    assert set(PACK_LANGUAGES) == {"es", "ca", "de", "fr", "nl", "zh", "nb", "nn", "da", "sv"}


def test_english_rules_are_untouched_by_the_packs() -> None:
    names = {r.name for det in default_detectors("en") for r in det.rules}  # type: ignore[attr-defined]
    assert not any(n.endswith(tuple(f"_{code}" for code in PACK_LANGUAGES)) for n in names)
    # Pack words do not leak into English: a Spanish date is only its numeric part, or nothing.
    assert ("3 de marzo de 2019", "DATE") not in _found("en", "el 3 de marzo de 2019")
    assert date_rules("en") == DATE_RULES_NEUTRAL + DATE_RULES_EN


@pytest.mark.parametrize(
    ("check", "good", "bad"),
    [
        (dni_ok, "12345678Z", "12345678A"),
        (nie_ok, "X1234567L", "X1234567A"),
        (nass_ok, "28 12345678 40", "28 12345678 41"),
        (nir_ok, "2 55 08 14 168 025 38", "2 55 08 14 168 025 39"),
        (bsn_ok, "111222333", "111222334"),
        (kvnr_ok, "A123456780", "A123456781"),
        (cn_resident_id_ok, "11010519491231002X", "110105194912310021"),
    ],
)
def test_national_id_check_digits(check: object, good: str, bad: str) -> None:
    assert callable(check)
    assert check(good) and not check(bad)
    assert not check("") and not check("not an id")


def test_pension_number_check_digit_and_birth_date() -> None:
    # Build the check digit with the published weights, then corrupt it.
    body = "65170839J00"
    digits = body[:8] + f"{ord(body[8]) - 64:02d}" + body[9:]
    total = sum(
        sum(int(c) for c in str(int(d) * w)) for d, w in zip(digits, (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1))
    )
    good = f"{body}{total % 10}"
    assert rvnr_ok(good) and rvnr_ok(f"{good[:2]} {good[2:8]} {good[8]} {good[9:]}")
    assert not rvnr_ok(f"{body}{(total + 1) % 10}")
    assert not rvnr_ok("65173839J003")  # month 38


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Der Patient wurde am 12. März 2019 mit Brustschmerzen aufgenommen.", "de"),
        ("Le patient a été admis le 3 janvier 2019 pour une douleur thoracique.", "fr"),
        ("De patiënt werd op 3 januari 2019 opgenomen met pijn op de borst.", "nl"),
        ("El paciente ingresa por dolor torácico y fiebre desde hace tres días.", "es"),
        ("El pacient ingressa amb dolor toràcic i febre des de fa tres dies.", "ca"),
        ("The patient was admitted with chest pain.", "en"),
        ("患者因胸痛入院，既往体健。", "zh"),
        ("", "en"),
        ("12/03/2019 10:15", "en"),
    ],
)
def test_language_identifier(text: str, lang: str) -> None:
    assert detect_language(text) == lang
    scores = language_scores(text)
    assert set(scores) == set(LANGID_LANGUAGES) and all(0.0 <= v <= 1.0 for v in scores.values())


def test_language_identifier_respects_candidates_and_default() -> None:
    assert detect_language("El pacient ingressa amb febre.", candidates=("es", "en")) == "es"
    assert detect_language("1234", default="nl") == "nl"


def test_zeroshot_catalan_spanish_and_chinese_notes_are_recognised() -> None:
    root = Path("/work/shared/data/zeroshot-notes")
    k = [detect_language(p.read_text(encoding="utf-8")) for p in sorted((root / "k").glob("*.txt"))]
    zh = [detect_language(p.read_text(encoding="utf-8")) for p in sorted((root / "l").glob("*.txt"))]
    assert set(k) == {"ca", "es"} and k.count("ca") >= 15
    assert set(zh) == {"zh"}


def test_auto_rules_pick_the_language_per_document() -> None:
    (auto,) = default_detectors("auto")
    assert isinstance(auto, AutoLanguageRules) and auto.setting == "auto"
    de = Document("de", "Der Patient wurde am 12. März 2019 aufgenommen, Fallnummer 1234567.")
    fr = Document("fr", "Le patient a été admis le 3 janvier 2019 pour une douleur.")
    tagged = Document("x", "Control el 3 de marzo.", metadata={"lang": "es"})
    assert auto.language_of(de) == "de" and auto.language_of(fr) == "fr" and auto.language_of(tagged) == "es"
    assert ("12. März 2019", "DATE") in {(de.surface(s), s.label) for s in auto.detect(de)}
    assert ("3 de marzo", "DATE") in {(tagged.surface(s), s.label) for s in auto.detect(tagged)}


def test_deidentifier_with_lang_auto_redacts_each_language() -> None:
    deid = Deidentifier(mode="placeholder", model=None, lang="auto")
    notes = {
        "Aufnahme am 12. März 2019. Die Patientin wurde mit Fallnummer 1234567 aufgenommen.": "[DATE]",
        "Admis le 3 janvier 2019 pour une douleur, il est suivi depuis 2015.": "[DATE]",
        "患者于2019年3月12日入院，住院号：3853795": "[ID]",
    }
    for text, tag in notes.items():
        assert tag in deid.redact(text).text
    en = Deidentifier(mode="placeholder", model=None, lang="en")
    assert en.redact("Seen on March 3, 2019.").text == "Seen on [DATE]."


def test_redact_cli_accepts_lang_auto(tmp_path: Path) -> None:
    src = tmp_path / "notes"
    src.mkdir()
    (src / "de.txt").write_text("Aufnahme am 12. März 2019, Tel. 030 1234567.\n", encoding="utf-8")
    (src / "fr.txt").write_text(
        "Admis le 3 janvier 2019 avec son épouse, tél. 01 23 45 67 89.\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(src), "-o", str(out), "--rules-only", "--lang", "auto"])
    assert result.exit_code == 0, result.output
    assert (out / "de.txt").read_text(encoding="utf-8") == "Aufnahme am [DATE], Tel. [CONTACT].\n"
    assert (out / "fr.txt").read_text(
        encoding="utf-8"
    ) == "Admis le [DATE] avec son épouse, tél. [CONTACT].\n"
    rows = [json.loads(line) for line in (out / "phi_spans.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["label"] for r in rows} == {"DATE", "CONTACT"}
