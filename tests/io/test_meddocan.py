"""The real MEDDOCAN dev split reads cleanly and survives BRAT -> JSONL -> BRAT."""

from __future__ import annotations

from pathlib import Path

from phiscrub.io import BratReader, BratWriter, JsonlReader, JsonlWriter, read_corpus

REPO_ROOT = Path(__file__).resolve().parents[2]
MEDDOCAN_DEV = REPO_ROOT.parent / "shared" / "data" / "meddocan" / "dev"


def test_meddocan_dev_reads_250_documents_without_problems() -> None:
    docs, problems = read_corpus(MEDDOCAN_DEV, corpus="meddocan")
    assert len(docs) == 250
    assert problems == []
    assert sum(len(d.spans) for d in docs) > 5000
    labels = {s.label for d in docs for s in d.spans}
    assert {"PATIENT", "DOCTOR", "DATE", "AGE", "OTHER"} <= labels
    assert all(lab.isupper() and "_" not in lab for lab in labels)  # fine labels, not native ones
    for doc in docs:
        for span in doc.spans:
            assert 0 <= span.start < span.end <= len(doc.text)


def test_meddocan_surfaces_match_the_ann_files() -> None:
    reader = BratReader()  # no corpus: native labels kept as read
    docs = list(reader.read(MEDDOCAN_DEV))
    assert reader.problems == []
    doc = docs[0]
    ann = (MEDDOCAN_DEV / f"{doc.id}.ann").read_text(encoding="utf-8").splitlines()
    recorded = sorted(
        (int(t.split("\t")[1].split()[1]), t.split("\t")[1].split()[0], t.split("\t")[2]) for t in ann
    )
    assert sorted((s.start, s.label, doc.surface(s)) for s in doc.spans) == recorded


def test_meddocan_brat_to_jsonl_to_brat_keeps_every_span(tmp_path: Path) -> None:
    original = list(BratReader(corpus="meddocan").read(MEDDOCAN_DEV))
    JsonlWriter().write(original, tmp_path / "dev.jsonl")
    jsonl_reader = JsonlReader()
    via_jsonl = list(jsonl_reader.read(tmp_path / "dev.jsonl"))
    BratWriter().write(via_jsonl, tmp_path / "brat")
    brat_reader = BratReader()
    back = list(brat_reader.read(tmp_path / "brat"))
    assert jsonl_reader.problems == [] and brat_reader.problems == []
    assert [d.id for d in back] == [d.id for d in original]
    for a, b in zip(original, back):
        assert a.text == b.text
        assert [(s.start, s.end, s.label) for s in a.spans] == [(s.start, s.end, s.label) for s in b.spans]
