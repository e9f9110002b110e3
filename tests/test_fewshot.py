"""Few-shot sampling (Amin et al. 2022, Definition 1) and the coarse label normalisation it relies on."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub.cli.app import cli
from phiscrub.crosslingual.fewshot import fewshot_sample, label_counts, sentence_documents
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.io import read_corpus
from phiscrub.labels import COARSE_LABELS, CORPUS_MAPPINGS, fold, to_fine
from phiscrub.train.tiny import make_tiny_encoder

MEDDOCAN = Path("/work/shared/data/meddocan")

# Table A.4 of Amin et al. (2022): MEDDOCAN types per coarse PHI type; OTHER goes to O.
TABLE_A4 = {
    "AGE": ["EDAD_SUJETO_ASISTENCIA"],
    # DIREC_PROT_INTERNET is not in the paper's Table A4, but an IP address is PHI (Safe Harbor
    # identifier 15): phiscrub folds it to CONTACT rather than dropping it.
    "CONTACT": ["NUMERO_TELEFONO", "NUMERO_FAX", "CORREO_ELECTRONICO", "URL_WEB", "DIREC_PROT_INTERNET"],
    "DATE": ["FECHAS"],
    "ID": [
        "ID_ASEGURAMIENTO",
        "ID_CONTACTO_ASISTENCIAL",
        "NUMERO_BENEF_PLAN_SALUD",
        "IDENTIF_VEHICULOS_NRSERIE_PLACAS",
        "IDENTIF_DISPOSITIVOS_NRSERIE",
        "IDENTIF_BIOMETRICOS",
        "ID_SUJETO_ASISTENCIA",
        "ID_TITULACION_PERSONAL_SANITARIO",
        "ID_EMPLEO_PERSONAL_SANITARIO",
        "OTRO_NUMERO_IDENTIF",
    ],
    "LOCATION": ["HOSPITAL", "INSTITUCION", "CALLE", "TERRITORIO", "PAIS", "CENTRO_SALUD"],
    "NAME": ["NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO"],
    "PROFESSION": ["PROFESION"],
    None: [
        "SEXO_SUJETO_ASISTENCIA",
        "FAMILIARES_SUJETO_ASISTENCIA",
        "OTROS_SUJETO_ASISTENCIA",
    ],
}


@pytest.mark.parametrize(("coarse", "native"), [(c, n) for c, ns in TABLE_A4.items() for n in ns])
def test_meddocan_types_normalise_to_the_seven_coarse_types(coarse: str | None, native: str) -> None:
    assert fold(to_fine(native, "meddocan"), "coarse") == coarse
    assert fold(to_fine(native, "meddocan"), "fine") is None if coarse is None else True


def test_table_a4_lists_every_meddocan_type() -> None:
    assert {n for ns in TABLE_A4.values() for n in ns} == set(CORPUS_MAPPINGS["meddocan"])


@pytest.mark.parametrize(
    ("native", "coarse"), [("PER", "NAME"), ("LOC", "LOCATION"), ("ORG", "LOCATION"), ("DAT", "DATE")]
)
def test_wang_chinese_labels_map_to_ours(native: str, coarse: str) -> None:
    assert fold(to_fine(native, "wang2022"), "coarse") == coarse
    assert fold(to_fine(native, "wang2022"), "phicon5") == coarse


# --- a synthetic corpus: made-up notes, one label kind per sentence ------------------------------
_TEMPLATES = {
    "NAME": "Seen by Dr. {v} today.",
    "DATE": "Admitted on {v} for pain.",
    "AGE": "She is {v} years old.",
    "ID": "Record number {v} on file.",
    "CONTACT": "Call {v} after noon.",
    "LOCATION": "Lives in {v} now.",
    "PROFESSION": "Works as a {v} part time.",
}
_VALUES = {
    "NAME": "Ann Lee",
    "DATE": "3/12/2019",
    "AGE": "54",
    "ID": "A7731902",
    "CONTACT": "555-0134",
    "LOCATION": "Springfield",
    "PROFESSION": "baker",
}


def _note(i: int, labels: list[str | None]) -> Document:
    parts: list[str] = []
    spans: list[Span] = []
    pos = 0
    for lab in labels:
        if lab is None:
            sentence = "Nothing to report here."
        else:
            tmpl = _TEMPLATES[lab]
            start = pos + tmpl.index("{v}")
            sentence = tmpl.format(v=_VALUES[lab])
            spans.append(Span(start, start + len(_VALUES[lab]), lab))
        parts.append(sentence)
        pos += len(sentence) + 1
    return Document(f"n{i}", "\n".join(parts), tuple(spans))


@pytest.fixture
def corpus() -> list[Document]:
    rng = random.Random(4)
    common = ["NAME", "DATE", "AGE", "LOCATION", None, None]
    docs = [_note(i, [rng.choice(common) for _ in range(6)]) for i in range(30)]
    # The rare labels occur once each, in one note.
    docs.append(_note(30, [None, "ID", None, "PROFESSION", "CONTACT"]))
    return docs


def test_sample_covers_every_label_and_has_k_sentences(corpus: list[Document]) -> None:
    sample = fewshot_sample(corpus, 12, seed=3)
    assert len(sample.documents) == 12 and sample.pool_size == 6 * 30 + 5
    assert sample.labels == tuple(sorted(_TEMPLATES))
    assert set(label_counts(sample.documents)) == set(_TEMPLATES) == set(sample.counts)
    assert len(sample.cover_ids) <= len(_TEMPLATES)
    assert set(sample.cover_ids) <= {d.id for d in sample.documents}
    # The three rare sentences must be in: n30#s1 (ID), n30#s3 (PROFESSION), n30#s4 (CONTACT).
    assert {"n30#s1", "n30#s3", "n30#s4"} <= {d.id for d in sample.documents}


def test_sample_is_reproducible_by_seed_and_varies_with_it(corpus: list[Document]) -> None:
    ids = [[d.id for d in fewshot_sample(corpus, 20, seed=s).documents] for s in (7, 7, 8)]
    assert ids[0] == ids[1] and ids[0] != ids[2]
    assert ids[0] == sorted(ids[0], key=lambda i: (int(i.split("#")[0][1:]), int(i.split("#s")[1])))


def test_sentences_keep_offsets_and_source(corpus: list[Document]) -> None:
    by_id = {d.id: d for d in corpus}
    for sent in fewshot_sample(corpus, 30, seed=1).documents:
        src = by_id[sent.metadata["source_id"]]
        start, end = sent.metadata["start"], sent.metadata["end"]
        assert sent.id == f"{src.id}#s{sent.metadata['sentence']}"
        assert src.text[start:end] == sent.text and "\n" not in sent.text
        for span in sent.spans:
            assert sent.surface(span) == src.text[start + span.start : start + span.end]
            assert span.label in COARSE_LABELS


def test_k_smaller_than_the_cover_is_a_clear_error(corpus: list[Document]) -> None:
    with pytest.raises(ConfigError, match=r"k=3 is too small: covering all 7 labels .* use k >= (5|6|7)"):
        fewshot_sample(corpus, 3, seed=0)
    with pytest.raises(ConfigError, match="larger than the corpus"):
        fewshot_sample(corpus, 10_000)
    with pytest.raises(ConfigError, match="at least 1"):
        fewshot_sample(corpus, 0)


def test_phi_only_fills_with_phi_sentences(corpus: list[Document]) -> None:
    sample = fewshot_sample(corpus, 40, seed=2, phi_only=True)
    assert all(d.spans for d in sample.documents)
    assert any(not d.spans for d in fewshot_sample(corpus, 120, seed=2).documents)


def test_a_span_across_a_sentence_break_joins_the_sentences() -> None:
    text = "Seen by Dr. Ann\nLee today. Fine."
    doc = Document("x", text, (Span(12, 19, "DOCTOR"),))
    sents = sentence_documents([doc])
    assert [s.text for s in sents] == ["Seen by Dr. Ann\nLee today.", "Fine."]
    assert [(s.surface(sp), sp.label) for s in sents for sp in s.spans] == [("Ann\nLee", "NAME")]
    assert [s.id for s in sents] == ["x#s0", "x#s1"]


def test_meddocan_other_types_become_o_in_the_sample() -> None:
    docs, problems = read_corpus(MEDDOCAN / "dev", corpus="meddocan")
    assert not problems
    assert any(s.label == "OTHER" for d in docs for s in d.spans)  # SEXO_SUJETO_ASISTENCIA ...
    sents = sentence_documents(docs[:60])
    assert {s.label for d in sents for s in d.spans} <= set(COARSE_LABELS)
    sample = fewshot_sample(docs[:60], 50, seed=0)
    assert set(sample.labels) <= set(COARSE_LABELS) and "OTHER" not in sample.counts
    # fine granularity keeps fine types, still without OTHER
    fine = fewshot_sample(docs[:60], 50, seed=0, granularity="fine")
    assert "OTHER" not in fine.counts and {"PATIENT", "DOCTOR"} <= set(fine.counts)


def _meddocan_subset(tmp_path: Path, n: int = 12) -> Path:
    out = tmp_path / "meddocan"
    out.mkdir()
    for ann in sorted((MEDDOCAN / "train").glob("*.ann"))[:n]:
        shutil.copy(ann, out / ann.name)
        shutil.copy(ann.with_suffix(".txt"), out / ann.with_suffix(".txt").name)
    return out


def test_cli_writes_a_reproducible_jsonl_that_train_reads(tmp_path: Path) -> None:
    src = _meddocan_subset(tmp_path)
    runner = CliRunner()
    outs = []
    for name in ("a.jsonl", "b.jsonl"):
        out = tmp_path / name
        result = runner.invoke(
            cli,
            ["fewshot-sample", str(src), "-k", "25", "-o", str(out), "--seed", "5", "--corpus", "meddocan"],
        )
        assert result.exit_code == 0, result.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    docs, problems = read_corpus(tmp_path / "a.jsonl")
    assert not problems and len(docs) == 25
    assert all("#s" in d.id for d in docs)
    present = {fold(s.label, "coarse") for d in read_corpus(src, corpus="meddocan")[0] for s in d.spans} - {
        None
    }
    assert {s.label for d in docs for s in d.spans} == present
    # The summary names labels and counts only.
    assert "entities:" in result.output and "NAME=" in result.output
    records = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(set(r["metadata"]) == {"source_id", "sentence", "start", "end"} for r in records)

    encoder = make_tiny_encoder(tmp_path / "enc", num_layers=1, max_positions=128)
    model = tmp_path / "model"
    args = ["train", "--train", str(tmp_path / "a.jsonl"), "-o", str(model), "--encoder", str(encoder)]
    opts = ["--epochs", "1", "--no-crf", "--labels", "coarse", "--max-length", "96", "--batch-size", "16"]
    result = runner.invoke(cli, [*args, *opts])
    assert result.exit_code == 0, result.output
    assert (model / "labels.json").is_file()


def test_cli_reports_a_too_small_k(tmp_path: Path) -> None:
    src = _meddocan_subset(tmp_path, 4)
    result = CliRunner().invoke(
        cli, ["fewshot-sample", str(src), "-k", "1", "-o", str(tmp_path / "x.jsonl"), "--corpus", "meddocan"]
    )
    assert result.exit_code != 0
    assert isinstance(result.exception, ConfigError) and "too small" in str(result.exception)


def test_cli_reads_wang_style_chinese_jsonl(tmp_path: Path) -> None:
    rows = [
        {"id": "c1", "text": "患者张三于2019年3月12日入院。", "spans": [
            {"start": 2, "end": 4, "label": "PER"}, {"start": 5, "end": 15, "label": "DAT"}]},
        {"id": "c2", "text": "转至北京协和医院。住址北京市。", "spans": [
            {"start": 2, "end": 8, "label": "ORG"}, {"start": 11, "end": 14, "label": "LOC"}]},
    ]  # fmt: skip
    src = tmp_path / "wang.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    out = tmp_path / "fs.jsonl"
    result = CliRunner().invoke(
        cli, ["fewshot-sample", str(src), "-k", "3", "-o", str(out), "--corpus", "wang2022"]
    )
    assert result.exit_code == 0, result.output
    docs, _ = read_corpus(out)
    got = sorted((d.id, d.surface(s), s.label) for d in docs for s in d.spans)
    assert got == [
        ("c1#s0", "2019年3月12日", "DATE"),
        ("c1#s0", "张三", "NAME"),
        ("c2#s0", "北京协和医院", "LOCATION"),
        ("c2#s1", "北京市", "LOCATION"),
    ]
