from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from phiscrub.cli.augment import augment
from phiscrub.document import Document, Span
from phiscrub.io import JsonlWriter, read_corpus

REPO = Path(__file__).resolve().parents[2]
MEDDOCAN_DEV = REPO.parent / "shared" / "data" / "meddocan" / "dev"

NOTES = [
    ("n1", "Mrs. Wilhelmina Dorrance was admitted to Fernhill General Hospital on 04/05/2022 with chest pain.",
     [("Wilhelmina Dorrance", "PATIENT"), ("Fernhill General Hospital", "HOSPITAL"), ("04/05/2022", "DATE")]),
    ("n2", "Dr. Caspian Roole reviewed the scan; the patient reports mild nausea. Call 555-303-9120.",
     [("Caspian Roole", "DOCTOR"), ("555-303-9120", "PHONE")]),
    ("n3", "Seen in Marlow Heights on 12/30/2021 by Dr. Roole, who noted a stable course.",
     [("Marlow Heights", "CITY"), ("12/30/2021", "DATE"), ("Roole", "DOCTOR")]),
]  # fmt: skip
PHI = [surface for _, _, phi in NOTES for surface, _ in phi]


def _corpus(tmp_path: Path) -> Path:
    docs = []
    for doc_id, text, phi in NOTES:
        spans = []
        for surface, label in phi:
            start = text.index(surface)
            spans.append(Span(start, start + len(surface), label))
        docs.append(Document(doc_id, text, tuple(spans)))
    path = tmp_path / "gold.jsonl"
    JsonlWriter().write(docs, path)
    return path


def _run(args: list[str]) -> Result:
    result = CliRunner().invoke(augment, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def _check(docs: list[Document]) -> None:
    for doc in docs:
        for span in doc.spans:
            assert doc.text[span.start : span.end].strip()


@pytest.mark.parametrize("method", ["phi", "context", "phicon", "mr"])
def test_augment_writes_alpha_copies_with_valid_spans(tmp_path: Path, method: str) -> None:
    src = _corpus(tmp_path)
    out = tmp_path / f"{method}.jsonl"
    result = _run([str(src), "-o", str(out), "--method", method, "--alpha", "3", "--seed", "4"])
    docs, problems = read_corpus(out)
    gold, _ = read_corpus(src)
    assert not problems
    assert [d.id for d in docs] == [f"{i}#aug{k}" for i, _, _ in NOTES for k in range(3)]
    labels = {d.id: [s.label for s in d.spans] for d in gold}
    for doc in docs:
        assert [s.label for s in doc.spans] == labels[doc.metadata["augmented_from"]]
    _check(docs)
    assert "3 documents in, 9 augmented copies out" in result.stderr
    # The summary names counts and paths only, never note text or PHI.
    assert not any(surface in result.output for surface in PHI)
    assert "chest pain" not in result.output


def test_augment_is_reproducible_by_seed(tmp_path: Path) -> None:
    src = _corpus(tmp_path)
    for name, seed in (("a", "1"), ("b", "1"), ("c", "2")):
        _run([str(src), "-o", str(tmp_path / f"{name}.jsonl"), "--method", "phicon", "--seed", seed])
    text = {name: (tmp_path / f"{name}.jsonl").read_text(encoding="utf-8") for name in "abc"}
    assert text["a"] == text["b"] != text["c"]


def test_augment_to_brat_with_originals(tmp_path: Path) -> None:
    src = _corpus(tmp_path)
    out = tmp_path / "brat"
    _run([str(src), "-o", str(out), "--method", "phi", "--alpha", "2", "--to", "brat", "--include-original"])
    docs, problems = read_corpus(out, fmt="brat")
    assert not problems
    assert sorted(d.id for d in docs) == sorted(
        [i for i, _, _ in NOTES] + [f"{i}#aug{k}" for i, _, _ in NOTES for k in range(2)]
    )
    _check(docs)


def test_augment_rejects_bad_options(tmp_path: Path) -> None:
    src = _corpus(tmp_path)
    for args in (["--alpha", "0"], ["--method", "nope"], ["--sr", "2"]):
        result = CliRunner().invoke(augment, [str(src), "-o", str(tmp_path / "x.jsonl"), *args])
        assert result.exit_code == 2
        assert not any(surface in result.output for surface in PHI)


def test_augment_meddocan_subset_with_corpus_mapping(tmp_path: Path) -> None:
    subset = tmp_path / "meddocan"
    subset.mkdir()
    for txt in sorted(MEDDOCAN_DEV.glob("*.txt"))[:3]:
        shutil.copy(txt, subset / txt.name)
        shutil.copy(txt.with_suffix(".ann"), subset / txt.with_suffix(".ann").name)
    out = tmp_path / "aug.jsonl"
    result = _run([str(subset), "-o", str(out), "--method", "phicon", "--alpha", "2", "--corpus", "meddocan"])
    docs, problems = read_corpus(out)
    gold, _ = read_corpus(subset, fmt="brat", corpus="meddocan")
    assert not problems and len(docs) == 6
    by_id = {d.id: d for d in gold}
    for doc in docs:
        source = by_id[doc.metadata["augmented_from"]]
        assert [s.label for s in doc.spans] == [s.label for s in source.spans]
    _check(docs)
    assert "6 non-English copies unchanged" in result.stderr  # context edits English only
