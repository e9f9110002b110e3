"""The dev F1 a training run records agrees with ``phiscrub predict`` + ``phiscrub evaluate``.

``best_dev_f1`` scores the in-memory float32 weights (what early stopping compares). ``phiscrub
predict`` runs the saved folder: weights as stored (``save_dtype``) and, on a CPU with native bf16
instructions, under bfloat16 autocast. The two can differ (0.7336 against 0.7227 for a MiniLM
tagger), so the run also records ``saved_model_dev``: the scores of the saved folder run the way
``predict`` runs it, which must be exactly what ``predict`` + ``evaluate`` report.

The transformer case uses a hand-set model whose head always prefers ``B-DATE`` over ``O`` by
4e-4: float32 keeps the margin, float16 (and bfloat16) round both scores to 1.0, a tie decoded as
``O``. So the two figures differ on every machine once the weights are saved as float16.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch
from click.testing import CliRunner

from corpora import tiny_bilstm_config
from phiscrub.cli.app import cli
from phiscrub.document import Document
from phiscrub.io import get_writer
from phiscrub.tagger.model import PhiTagger
from phiscrub.train.trainer import dev_scores, train

from ._docs import synthetic_docs

pytestmark = pytest.mark.usefixtures("one_torch_thread")

#: float32 tells 1.0004 from 1.0; float16 (spacing 2**-10 at 1.0) and bfloat16 (2**-7) do not.
DATE_MARGIN = 4e-4


def _edge_model(encoder: Path) -> PhiTagger:
    """A tagger whose emissions are its head biases: ``O`` 1.0, ``B-DATE`` 1.0 + DATE_MARGIN, others 0."""
    from phiscrub.tagger.config import TrainConfig

    config = TrainConfig(encoder=str(encoder), max_length=32, overlap=4, use_crf=False, num_threads=1)
    model = PhiTagger.from_encoder(config)
    with torch.no_grad():
        model.head.weight.zero_()
        model.head.bias.zero_()
        model.head.bias[model.tags.index("O")] = 1.0
        model.head.bias[model.tags.index("B-DATE")] = 1.0 + DATE_MARGIN
    return model.eval()


def _cli(*args: str) -> None:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output


def _write(docs: list[Document], path: Path) -> Path:
    get_writer("jsonl").write(docs, path)
    return path


@pytest.mark.parametrize("save_dtype", ["float32", "float16"])
def test_saved_model_dev_scores_are_what_predict_then_evaluate_report(
    save_dtype: str, tiny_minilm_dir: Path, tmp_path: Path
) -> None:
    docs = synthetic_docs(4, seed=7)
    corpus = _write(docs, tmp_path / "dev.jsonl")
    start = _edge_model(tiny_minilm_dir)
    start.save(tmp_path / "start", dtype="float32")
    float32_token_f1 = dev_scores(start, docs)["token"]
    assert float32_token_f1 > 0.0  # every word is tagged DATE, the dates among them
    config: dict[str, Any] = {
        "lr": 1e-12,  # the weights do not move: the saved model is the hand-set one
        "head_lr": 1e-12,
        "epochs": 1,
        "batch_size": 4,
        "warmup_ratio": 0.0,
        "save_dtype": save_dtype,
        "num_threads": 1,
    }
    (tmp_path / "config.json").write_text(json.dumps(config), encoding="utf-8")
    out, pred, report = tmp_path / "model", tmp_path / "pred.jsonl", tmp_path / "eval"
    _cli("train", "--train", str(corpus), "--dev", str(corpus), "--init-from", str(tmp_path / "start"),
         "--config", str(tmp_path / "config.json"), "--labels", "coarse", "-o", str(out))  # fmt: skip
    _cli("predict", str(corpus), "--model", str(out), "--no-rules", "--no-propagate", "-o", str(pred))
    _cli("evaluate", "--gold", str(corpus), "--pred", str(pred), "--labels", "coarse", "-o", str(report))

    training = json.loads((out / "training.json").read_text(encoding="utf-8"))
    evaluated = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))["result"]
    saved = training["saved_model_dev"]
    for level in ("binary", "token", "entity"):
        assert saved[level] == evaluated[level]["f1"], level
    assert saved["weights_dtype"] == save_dtype
    assert json.loads((out / "meta.json").read_text(encoding="utf-8"))["saved_model_dev"] == saved
    # best_dev_f1 stays the float32 figure of the in-memory weights ...
    assert training["best_dev_f1"] == float32_token_f1
    # ... and the saved model's figure differs exactly where rounding erases the margin.
    rounded = save_dtype == "float16" or saved["precision"] == "bfloat16"
    assert saved["token"] == (0.0 if rounded else float32_token_f1)


def test_a_bilstm_crf_runs_in_float32_so_both_figures_agree(tmp_path: Path) -> None:
    docs = synthetic_docs(6, seed=3)
    result = train(docs, docs, tiny_bilstm_config(epochs=2), tmp_path / "dev", progress=False)
    assert result.saved_model_dev is not None
    assert result.saved_model_dev["precision"] == "float32"
    assert result.saved_model_dev["token"] == result.best_dev_f1
    no_dev = train(docs, [], tiny_bilstm_config(epochs=1), tmp_path / "no_dev", progress=False)
    assert no_dev.saved_model_dev is None
    assert json.loads((tmp_path / "no_dev" / "training.json").read_text())["saved_model_dev"] is None
