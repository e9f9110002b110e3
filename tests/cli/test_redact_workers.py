"""``redact --workers N``: the same output, byte for byte, as one worker, in input order."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from corpora import Part, make_doc, tiny_transformer_config
from phiscrub.cli.app import cli

pytestmark = pytest.mark.usefixtures("one_torch_thread")

# Made-up people only.
NAMES = ("Alma Quill", "Boris Sovik", "Celia Tamber", "Dario Wexley")


def _text(i: int) -> str:
    rng = random.Random(i)
    lines = [
        f"Patient {rng.choice(NAMES)} was seen on {rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/2019. "
        f"MRN {rng.randint(100000, 999999)}. Call 555-{rng.randint(1000, 9999)}."
        for _ in range(1 + i % 5)
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def onnx_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from phiscrub.tagger.model import default_encoder_path
    from phiscrub.train.onnx_export import export_onnx
    from phiscrub.train.tiny import make_tiny_encoder
    from phiscrub.train.trainer import train

    root = tmp_path_factory.mktemp("workers")
    parts: list[list[Part]] = [
        [("Patient ", None), (name, "PATIENT"), (" was seen on ", None), ("03/04/2019", "DATE"), (".", None)]
        for name in NAMES
    ]
    docs = [make_doc(f"d{i}", p) for i, p in enumerate(parts)]
    encoder = make_tiny_encoder(root / "encoder", tokenizer_dir=default_encoder_path())
    train(docs, docs, tiny_transformer_config(encoder, epochs=3), root / "model", progress=False)
    return export_onnx(root / "model", root / "onnx", quantize="none")


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("kind", ["folder", "jsonl"])
@pytest.mark.parametrize("model", ["rules", "onnx"])
def test_workers_write_the_same_output_as_one_worker(
    tmp_path: Path, onnx_model: Path, kind: str, model: str
) -> None:
    if kind == "folder":
        source = tmp_path / "notes"
        source.mkdir()
        for i in range(23):
            (source / f"n{i:02d}.txt").write_text(_text(i))
    else:
        source = tmp_path / "notes.jsonl"
        source.write_text("".join(json.dumps({"id": f"r{i}", "text": _text(i)}) + "\n" for i in range(23)))
    model_args = ["--rules-only"] if model == "rules" else ["--model", str(onnx_model)]
    outputs = []
    for workers in (1, 2):
        out = tmp_path / f"out{workers}"
        args = ["redact", str(source), "-o", str(out), "--batch-size", "3", "--workers", str(workers)]
        result = CliRunner().invoke(cli, args + model_args)
        assert result.exit_code == 0, result.output
        outputs.append(_files(out))
    assert outputs[0] == outputs[1]
    assert any(b"[NAME]" in v for v in outputs[0].values())


def test_workers_below_one_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Seen on 03/04/2019.\n")
    result = CliRunner().invoke(
        cli, ["redact", str(tmp_path / "a.txt"), "-o", str(tmp_path / "o"), "--workers", "0"]
    )
    assert result.exit_code == 2
    assert not (tmp_path / "o").exists()


def _torch_imported(deid: object, batch: list[object]) -> bool:
    import sys

    return "torch" in sys.modules


def test_onnx_workers_do_not_import_torch(onnx_model: Path) -> None:
    # the lean path: a worker loads the ONNX model without torch (start-up, memory per worker)
    from phiscrub.deid import Deidentifier
    from phiscrub.document import Document
    from phiscrub.runs.parallel import map_batches

    deid = Deidentifier(model=str(onnx_model))
    batches = [(i, [Document(f"d{i}", "Seen on 03/04/2019.")]) for i in range(4)]
    results = list(map_batches(deid, _torch_imported, batches, 2))
    assert [key for key, _ in results] == [0, 1, 2, 3]
    assert [loaded for _, loaded in results] == [False] * 4
