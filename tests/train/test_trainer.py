"""The training loop: it learns, stops early, keeps the best model, and prints no text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from phiscrub.document import Document
from phiscrub.errors import ConfigError
from phiscrub.evaluate.metrics import evaluate
from phiscrub.tagger.config import TrainConfig
from phiscrub.tagger.model import PhiTagger
from phiscrub.train.trainer import train

from ._docs import FIRST, LAST, synthetic_docs

FAST = {"max_length": 32, "overlap": 4, "batch_size": 4, "lr": 3e-3, "head_lr": 1e-2, "warmup_ratio": 0.0}


def _config(encoder: Path, **changes: object) -> TrainConfig:
    return TrainConfig(encoder=str(encoder)).replace(**{**FAST, **changes})


@pytest.mark.parametrize("use_crf", [True, False])
def test_a_tiny_model_overfits_a_few_documents(use_crf: bool, tiny_minilm_dir: Path, tmp_path: Path) -> None:
    docs = synthetic_docs(8, seed=2)
    result = train(
        docs, docs, _config(tiny_minilm_dir, epochs=30, patience=5, use_crf=use_crf), tmp_path, progress=False
    )
    assert result.best_dev_f1 == 1.0
    model = PhiTagger.load(tmp_path)
    from phiscrub.tagger.inference import predict_words

    preds = predict_words(model, docs)
    pred_docs = [d.with_spans(p.spans()) for d, p in zip(docs, preds)]
    assert evaluate(docs, pred_docs, "coarse").entity.f1 == 1.0
    for doc in pred_docs:
        assert [doc.surface(s) for s in doc.spans] == [
            d.surface(s) for d in docs if d.id == doc.id for s in d.spans
        ]


def test_early_stopping_after_patience_epochs_without_improvement(
    tiny_minilm_dir: Path, tmp_path: Path
) -> None:
    docs = synthetic_docs(4, seed=3)
    # learning rates so small that the dev score cannot move
    config = _config(tiny_minilm_dir, epochs=10, patience=2, lr=1e-12, head_lr=1e-12)
    result = train(docs, docs, config, tmp_path, progress=False)
    assert (result.stop_reason, result.epochs_run, result.best_epoch) == ("early_stopping", 3, 1)
    assert [h.improved for h in result.history] == [True, False, False]
    assert json.loads((tmp_path / "meta.json").read_text())["epoch"] == 1


@pytest.mark.parametrize(
    ("changes", "reason", "steps"),
    [({"max_steps": 2}, "max_steps", 2), ({"time_budget_s": 1e-9}, "time_budget", 1)],
)
def test_step_and_time_budgets_stop_the_run_and_still_save(
    changes: dict[str, object], reason: str, steps: int, tiny_minilm_dir: Path, tmp_path: Path
) -> None:
    docs = synthetic_docs(12, seed=4)
    result = train(docs, docs[:2], _config(tiny_minilm_dir, epochs=5, **changes), tmp_path, progress=False)
    assert (result.stop_reason, result.steps, result.epochs_run) == (reason, steps, 1)
    assert result.best_dev_f1 is not None and (tmp_path / "tagger.safetensors").is_file()


def test_training_is_deterministic_for_a_seed(tiny_minilm_dir: Path, tmp_path: Path) -> None:
    docs = synthetic_docs(8, seed=6)
    runs = [
        train(docs, [], _config(tiny_minilm_dir, max_steps=3, dropout=0.3), tmp_path / str(i), progress=False)
        for i in range(2)
    ]
    assert runs[0].history[0].train_loss == runs[1].history[0].train_loss
    a, b = (PhiTagger.load(tmp_path / str(i)) for i in range(2))
    assert all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values()))


def test_without_dev_documents_the_last_epoch_is_kept(tiny_minilm_dir: Path, tmp_path: Path) -> None:
    result = train(
        synthetic_docs(4, seed=7), [], _config(tiny_minilm_dir, epochs=2), tmp_path, progress=False
    )
    assert result.best_dev_f1 is None and result.best_epoch == 2 and result.stop_reason == "epochs"


def test_output_folder_and_progress_hold_no_note_text(
    tiny_minilm_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = synthetic_docs(4, seed=8)
    result = train(docs, docs, _config(tiny_minilm_dir, epochs=2), tmp_path, progress=True)
    err = capsys.readouterr().err
    assert "dev_f1" in err
    saved = "".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("*.json"))
    assert json.loads((tmp_path / "config.json").read_text())["encoder"] == str(tiny_minilm_dir.resolve())
    for name in FIRST + LAST:
        assert name not in err and name not in saved
    assert json.loads((tmp_path / "training.json").read_text())["epochs_run"] == result.epochs_run


def test_no_training_words_is_a_config_error(tiny_minilm_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no training windows"):
        train(
            [Document("a", ""), Document("b", "  \n")], [], _config(tiny_minilm_dir), tmp_path, progress=False
        )


def test_thread_count_is_restored(tiny_minilm_dir: Path, tmp_path: Path) -> None:
    before = torch.get_num_threads()
    train(
        synthetic_docs(2, seed=9),
        [],
        _config(tiny_minilm_dir, max_steps=1, num_threads=1),
        tmp_path,
        progress=False,
    )
    assert torch.get_num_threads() == before
