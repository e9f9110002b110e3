"""TaggerDetector: the trained tagger behind the Detector protocol, on short and very long notes."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from corpora import Part, make_doc, tiny_transformer_config
from phiscrub.detect import tagger as tagger_module
from phiscrub.detect import tagger_base
from phiscrub.detect.base import Detector
from phiscrub.detect.tagger import TaggerDetector, load_model_detector
from phiscrub.document import Document
from phiscrub.errors import ConfigError, ModelError
from phiscrub.tagger.encoding import is_valid_bio
from phiscrub.tagger.model import default_encoder_path
from phiscrub.text import tokenize
from phiscrub.train.tiny import make_tiny_encoder
from phiscrub.train.trainer import train

# Made-up names only.
NAMES = ("Alma Quill", "Boris Sovik", "Celia Tamber", "Dario Wexley", "Edna Zabel", "Fabio Pryce")


def _sentence(rng: random.Random) -> list[Part]:
    name = rng.choice(NAMES)
    date = f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/20{rng.randint(10, 24)}"
    filler = rng.choice(["", "Stable. ", "Vitals normal. ", "No fever. "])
    return [
        (f"{filler}Patient ", None),
        (name, "PATIENT"),
        (" was seen on ", None),
        (date, "DATE"),
        (". Plan: rest.", None),
    ]


def _note(i: int, rng: random.Random, n_sentences: int) -> Document:
    """Sentences joined by newlines, so that names occur at many window positions."""
    parts: list[Part] = []
    for k in range(n_sentences):
        parts += ([("\n", None)] if k else []) + _sentence(rng)
    return make_doc(f"note-{i}", parts)


@pytest.fixture(scope="module")
def docs() -> list[Document]:
    rng = random.Random(0)
    return [_note(i, rng, n_sentences=1 + i % 4) for i in range(8)]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory, docs: list[Document]) -> Path:
    root = tmp_path_factory.mktemp("tagger")
    encoder = make_tiny_encoder(root / "encoder", tokenizer_dir=default_encoder_path())
    config = tiny_transformer_config(encoder, epochs=30, patience=5)
    result = train(docs, docs, config, root / "model", progress=False)
    assert result.best_dev_f1 == 1.0
    return root / "model"


@pytest.fixture(scope="module")
def detector(model_dir: Path) -> TaggerDetector:
    return TaggerDetector.load(model_dir)


def test_it_is_a_detector(detector: TaggerDetector) -> None:
    assert isinstance(detector, Detector)
    assert detector.name == "model"
    assert detector.labels == ("AGE", "CONTACT", "DATE", "ID", "LOCATION", "NAME", "PROFESSION")


def test_detect_finds_the_trained_spans(detector: TaggerDetector, docs: list[Document]) -> None:
    for doc in docs:
        spans = detector.detect(doc)
        assert [(s.start, s.end, s.label) for s in spans] == [
            (s.start, s.end, "NAME" if s.label == "PATIENT" else s.label) for s in doc.spans
        ]
        for span in spans:
            assert span.source == "model" and 0.0 < span.score <= 1.0
            assert doc.text[span.start : span.end] == doc.surface(span)


@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_detect_many_matches_detect(detector: TaggerDetector, docs: list[Document], batch_size: int) -> None:
    many = detector.detect_many(docs, batch_size=batch_size)
    assert [[(s.start, s.end, s.label) for s in spans] for spans in many] == [
        [(s.start, s.end, s.label) for s in detector.detect(d)] for d in docs
    ]


@pytest.mark.parametrize("text", ["", "   ", "\r\n\t", "\u3000"])
def test_documents_without_words_give_no_spans(detector: TaggerDetector, text: str) -> None:
    assert detector.detect(Document("empty", text)) == []


def test_a_20000_word_note_is_tagged_whole(detector: TaggerDetector) -> None:
    rng = random.Random(1)
    doc = _note(0, rng, n_sentences=1700)
    text = doc.text
    n_words = len(tokenize(text))
    assert n_words >= 20_000
    (pred,) = detector.predict([doc])
    spans = pred.spans()
    assert len(pred.tags) == n_words and is_valid_bio(pred.tags)
    assert all(doc.text[s.start : s.end].strip() == doc.text[s.start : s.end] for s in spans)
    # the tiny model was trained on notes like these: the gold spans are found all along the note,
    # whole (an entity cut by a window edge would not match exactly)
    found = {(s.start, s.end) for s in spans}
    gold = {(s.start, s.end) for s in doc.spans}
    assert len(found & gold) >= 0.99 * len(gold)
    assert max(found & gold)[0] > 0.99 * len(text)


def test_quantized_detector_gives_valid_spans(model_dir: Path, docs: list[Document]) -> None:
    quantized = TaggerDetector.load(model_dir, quantize=True, num_threads=None)
    for doc in docs[:3]:
        for span in quantized.detect(doc):
            assert 0 <= span.start < span.end <= len(doc.text)


def test_batch_size_must_be_positive(detector: TaggerDetector) -> None:
    with pytest.raises(ConfigError):
        TaggerDetector(detector.model, batch_size=0)


def test_importing_the_detector_module_does_not_import_torch() -> None:
    # the detector modules, the torch-free half of phiscrub.tagger, and train.config (re-exports TrainConfig)
    modules = "detect.tagger detect.onnx_tagger tagger tagger.config tagger.encoding tagger.windows tagger.decode"
    imports = ", ".join(f"phiscrub.{m}" for m in [*modules.split(), "tagger.ort", "train.config"])
    code = f"import sys, {imports}; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_bundled_model_is_found_only_when_complete(
    model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, docs: list[Document]
) -> None:
    monkeypatch.setattr(tagger_module.resources, "files", lambda _: tmp_path)
    assert tagger_module.bundled_model_path() is None
    with pytest.raises(ModelError, match="bundled"):
        load_model_detector("default")
    shutil.copytree(model_dir, tmp_path / "model")
    assert tagger_module.bundled_model_path() == tmp_path / "model"
    detector = load_model_detector("default")
    assert detector.detect(docs[0]) == load_model_detector(model_dir).detect(docs[0])


# -- issue 18, case 3: long notes are tagged in overlapping segments (bounded memory, progress) ----


@pytest.mark.parametrize(
    ("text", "size", "overlap"),
    [
        ("line one\nline two\nline three\n" * 40, 100, 20),
        ("word " * 500, 120, 30),  # one line: cut at spaces
        ("x" * 1000, 256, 16),  # nowhere to cut: cut anyway
        ("short note", 100, 20),
    ],
)
def test_segments_tile_the_text_and_overlap(text: str, size: int, overlap: int) -> None:
    segs = tagger_base.segments(text, size, overlap)
    assert segs[0][2] == 0 and segs[-1][3] == len(text)
    for (lo, hi, own_lo, own_hi), nxt in zip(segs, [*segs[1:], None]):
        assert own_lo < own_hi <= own_lo + size
        assert lo == max(0, own_lo - overlap) and hi == min(len(text), own_hi + overlap)
        if nxt is not None:
            assert nxt[2] == own_hi  # owned stretches tile the text
            if "\n" in text[own_lo:own_hi]:
                assert text[own_hi - 1] == "\n"


def test_case3_long_note_segments_give_the_spans_of_the_whole_note(
    detector: TaggerDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _note(0, random.Random(2), n_sentences=60)
    whole = detector.detect_many([doc])[0]
    monkeypatch.setattr(tagger_base, "SEGMENT_CHARS", 600)
    monkeypatch.setattr(tagger_base, "SEGMENT_OVERLAP", 120)
    assert len(tagger_base.segments(doc.text)) > 5
    assert detector.detect_many([doc])[0] == whole


def test_case3_long_note_segments_report_progress(
    detector: TaggerDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    from phiscrub import progress

    doc = _note(0, random.Random(3), n_sentences=40)
    monkeypatch.setattr(tagger_base, "SEGMENT_CHARS", 500)
    monkeypatch.setattr(progress, "LONG_NOTE_CHARS", 1000)
    calls: list[tuple[str, int, int]] = []
    with progress.reporting(lambda *a: calls.append(a)):
        detector.detect_many([doc])
    n = len(tagger_base.segments(doc.text))
    assert calls[-1] == ("model segments", n, n)
