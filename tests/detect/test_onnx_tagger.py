"""The ONNX inference path: export, same spans as the torch path, no torch import, backend choice."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from corpora import Part, make_doc, tiny_transformer_config
from phiscrub.detect.onnx_tagger import (
    OnnxTaggerDetector,
    RustTokenizer,
    has_onnx_files,
    physical_cores,
)
from phiscrub.detect.tagger import TaggerDetector, load_model_detector
from phiscrub.document import Document
from phiscrub.errors import ConfigError, ModelError
from phiscrub.tagger.encoding import encode_documents, special_affixes
from phiscrub.tagger.model import default_encoder_path, load_tokenizer
from phiscrub.train.onnx_export import export_onnx
from phiscrub.train.tiny import make_tiny_encoder
from phiscrub.train.trainer import train

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_torch_thread")]

# Made-up names only.
NAMES = ("Alma Quill", "Boris Sovik", "Celia Tamber", "Dario Wexley", "Edna Zabel")


def _note(i: int, rng: random.Random, n_sentences: int) -> Document:
    parts: list[Part] = []
    for k in range(n_sentences):
        date = f"{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/20{rng.randint(10, 24)}"
        parts += [("\n" if k else "", None), ("Patient ", None), (rng.choice(NAMES), "PATIENT")]
        parts += [(" was seen on ", None), (date, "DATE"), (". Plan: rest.", None)]
    return make_doc(f"note-{i}", parts)


@pytest.fixture(scope="module")
def docs() -> list[Document]:
    rng = random.Random(3)
    # 1 to 12 sentences: the long ones span several 32-token windows.
    return [_note(i, rng, n_sentences=1 + (i * 5) % 12) for i in range(8)]


@pytest.fixture(scope="module", params=[True, False], ids=["crf", "softmax"])
def model_dir(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, docs: list[Document]
) -> Path:
    root = tmp_path_factory.mktemp("onnx")
    encoder = make_tiny_encoder(root / "encoder", tokenizer_dir=default_encoder_path())
    config = tiny_transformer_config(encoder, epochs=8, patience=8, use_crf=request.param)
    train(docs, docs, config, root / "model", progress=False)
    return root / "model"


@pytest.fixture(scope="module")
def fp32_dir(model_dir: Path) -> Path:
    return export_onnx(model_dir, model_dir.parent / "onnx-fp32", quantize="none")


def _spans(spans: list) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.label) for s in spans]


def test_export_writes_the_onnx_folder(fp32_dir: Path, model_dir: Path) -> None:
    assert has_onnx_files(fp32_dir)
    for name in ("tokenizer.json", "config.json", "labels.json", "meta.json"):
        assert (fp32_dir / name).is_file()
    info = json.loads((fp32_dir / "onnx.json").read_text())
    assert info["tags"] == json.loads((model_dir / "labels.json").read_text())["tags"]
    assert (info["crf"] is not None) == json.loads((model_dir / "config.json").read_text())["use_crf"]


def test_onnx_spans_equal_torch_spans(fp32_dir: Path, model_dir: Path, docs: list[Document]) -> None:
    torch_det = TaggerDetector.load(model_dir, precision="float32")
    onnx_det = OnnxTaggerDetector.load(fp32_dir, num_threads=1)
    torch_spans = torch_det.detect_many(docs)
    onnx_spans = onnx_det.detect_many(docs)
    assert any(torch_spans)
    for a, b in zip(torch_spans, onnx_spans):
        assert _spans(a) == _spans(b)
        assert [s.score for s in a] == pytest.approx([s.score for s in b], abs=1e-4)
        assert all(s.source == "model" for s in b)


@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_onnx_spans_do_not_depend_on_batch_size(
    fp32_dir: Path, docs: list[Document], batch_size: int
) -> None:
    det = OnnxTaggerDetector.load(fp32_dir, num_threads=1)
    assert [_spans(s) for s in det.detect_many(docs, batch_size=batch_size)] == [
        _spans(s) for s in det.detect_many(docs, batch_size=16)
    ]


def test_int8_export_agrees_with_torch_on_most_words(model_dir: Path, docs: list[Document]) -> None:
    out = export_onnx(model_dir, model_dir.parent / "onnx-int8", quantize="int8")
    assert (out / "tagger.onnx").stat().st_size < (model_dir / "tagger.safetensors").stat().st_size
    torch_pred = TaggerDetector.load(model_dir, precision="float32").predict(docs)
    onnx_pred = OnnxTaggerDetector.load(out, num_threads=1).predict(docs)
    same = sum(a == b for p, q in zip(torch_pred, onnx_pred) for a, b in zip(p.tags, q.tags))
    total = sum(len(p.tags) for p in torch_pred)
    assert same / total >= 0.98


def test_redact_on_the_onnx_folder_imports_neither_torch_nor_transformers(
    fp32_dir: Path, tmp_path: Path
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text("Patient Alma Quill was seen on 03/04/2019. Plan: rest.\n")
    code = (
        "import sys\n"
        "from phiscrub.cli.app import cli\n"
        "try:\n"
        f"    cli.main(['redact', {str(notes)!r}, '-o', {str(tmp_path / 'out')!r}, '--model', {str(fp32_dir)!r}],"
        " standalone_mode=False)\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "from phiscrub import Deidentifier\n"
        f"Deidentifier(model={str(fp32_dir)!r}).redact('Seen by Dr. Alan Grant on 03/12/2019.')\n"
        "assert 'torch' not in sys.modules and 'transformers' not in sys.modules, 'torch imported'\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert (tmp_path / "out" / "a.txt").is_file()


@pytest.mark.parametrize(
    "words",
    [
        ["Patient", "Alma", "Quill", ",", "MRN", "0048-2231"],
        ["Zoë", "Ångström", "naïve", "café"],
        ["a", "\u0301", "b", "\u200b", "c"],  # a lone accent and a zero-width space vanish in BERT
        ["x" * 120, "ﬁne", "２０１９"],
    ],
)
def test_rust_tokenizer_gives_the_hugging_face_ids(fp32_dir: Path, words: list[str]) -> None:
    hf = load_tokenizer(default_encoder_path())
    info = json.loads((fp32_dir / "onnx.json").read_text())
    rust = RustTokenizer(fp32_dir / "tokenizer.json", info["unk_token"], info["pad_id"])
    doc = Document("d", " ".join(words))
    assert encode_documents([doc], rust) == encode_documents([doc], hf)
    assert special_affixes(rust) == special_affixes(hf) == (info["prefix_ids"], info["suffix_ids"])


@pytest.mark.parametrize(
    ("backend", "env", "expected"),
    [
        ("auto", None, OnnxTaggerDetector),
        ("onnx", None, OnnxTaggerDetector),
        ("torch", None, TaggerDetector),
        ("auto", "torch", TaggerDetector),
    ],
)
def test_load_model_detector_picks_the_backend(
    fp32_dir: Path, monkeypatch: pytest.MonkeyPatch, backend: str, env: str | None, expected: type
) -> None:
    import shutil

    both = fp32_dir.parent / "both"
    if not both.exists():
        shutil.copytree(fp32_dir.parent / "model", both)
        for name in ("tagger.onnx", "onnx.json", "tokenizer.json"):
            shutil.copyfile(fp32_dir / name, both / name)
    if env is None:
        monkeypatch.delenv("PHISCRUB_BACKEND", raising=False)
    else:
        monkeypatch.setenv("PHISCRUB_BACKEND", env)
    det = load_model_detector(both, backend=backend)
    assert type(det) is expected


def test_a_torch_only_folder_loads_on_torch(model_dir: Path) -> None:
    assert type(load_model_detector(model_dir)) is TaggerDetector


@pytest.mark.parametrize(("backend", "error"), [("onnx", ModelError), ("tensorflow", ConfigError)])
def test_load_model_detector_rejects_what_it_cannot_run(model_dir: Path, backend: str, error: type) -> None:
    with pytest.raises(error):
        load_model_detector(model_dir, backend=backend)


def test_export_onnx_cli_onnx_only_leaves_no_torch_weights(
    model_dir: Path, tmp_path: Path, docs: list[Document]
) -> None:
    from click.testing import CliRunner

    from phiscrub.cli.app import cli

    out = tmp_path / "shipped"
    result = CliRunner().invoke(
        cli, ["export-onnx", str(model_dir), "-o", str(out), "--quantize", "none", "--onnx-only"]
    )
    assert result.exit_code == 0, result.output
    assert has_onnx_files(out)
    assert not (out / "tagger.safetensors").exists() and not (out / "tokenizer.json").exists()
    assert type(load_model_detector(out)) is OnnxTaggerDetector
    # The torch path rebuilds its weights from the graph: same spans as the original folder.
    rebuilt = load_model_detector(out, backend="torch")
    assert type(rebuilt) is TaggerDetector
    original = TaggerDetector.load(model_dir)
    assert [_spans(s) for s in rebuilt.detect_many(docs)] == [_spans(s) for s in original.detect_many(docs)]
    refused = CliRunner().invoke(cli, ["export-onnx", str(model_dir), "--onnx-only"])
    assert refused.exit_code != 0


def test_torch_weights_rebuilt_from_an_int8_graph_are_its_dequantized_weights(
    model_dir: Path, tmp_path: Path
) -> None:
    import torch

    from phiscrub.tagger.base import read_weights
    from phiscrub.tagger.onnx_weights import torch_state_from_onnx
    from phiscrub.train.onnx_export import install_onnx

    out = install_onnx(model_dir, tmp_path / "int8", quantize="int8")
    original = read_weights(model_dir)
    rebuilt = torch_state_from_onnx(out)
    assert set(rebuilt) == set(original)
    for key, value in original.items():
        if value.is_floating_point() and value.numel() > 1:
            # int8: within one quantization step of the largest weight of the row/tensor
            step = value.abs().max() / 100
            assert torch.allclose(rebuilt[key].float(), value, atol=float(step)), key


def test_physical_cores_is_at_least_one() -> None:
    assert physical_cores() >= 1
