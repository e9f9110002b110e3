"""Integration: fine-tune the real bundled MiniLM briefly on synthetic notes (marked slow)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from corpora import FIRST, LAST, Part, generate_docs
from phiscrub.detect.tagger import TaggerDetector
from phiscrub.document import Document
from phiscrub.evaluate.metrics import evaluate
from phiscrub.tagger.config import TrainConfig
from phiscrub.tagger.model import default_encoder_path
from phiscrub.train.trainer import train

DEV_FIRST = ("Mirela", "Nestor", "Odile", "Piet", "Rosalind", "Soren")
DEV_LAST = ("Brackett", "Dunmore", "Ellwood", "Fairholm", "Gorst", "Hollis")
MONTHS = ("January", "March", "June", "September", "November")

TEMPLATES = (
    ("Patient ", "{name}", " was admitted on ", "{date}", "."),
    ("Seen today by Dr. ", "{name}", ", follow-up on ", "{date}", "."),
    ("", "{name}", " reports chest pain since ", "{date}", "."),
    ("Discharged on ", "{date}", " to the care of ", "{name}", "."),
    ("Mrs. ", "{name}", " was born on ", "{date}", " and lives alone."),
)


def _notes(n: int, first: tuple[str, ...], last: tuple[str, ...], seed: int) -> list[Document]:
    def parts(rng: random.Random) -> list[Part]:
        template = rng.choice(TEMPLATES)
        name = f"{rng.choice(first)} {rng.choice(last)}"
        if rng.random() < 0.5:
            date = f"{rng.randint(1, 12)}/{rng.randint(1, 28)}/{rng.randint(1990, 2023)}"
        else:
            date = f"{rng.choice(MONTHS)} {rng.randint(1, 28)}, {rng.randint(1990, 2023)}"
        filled: dict[str, Part] = {"{name}": (name, "PATIENT"), "{date}": (date, "DATE")}
        return [filled.get(piece, (piece, None)) for piece in template if piece]

    return generate_docs([f"n{seed}-{i}" for i in range(n)], seed, parts)


@pytest.mark.slow
def test_minilm_learns_names_and_dates_on_unseen_people(tmp_path: Path) -> None:
    train_docs = _notes(48, FIRST, LAST, seed=1)
    dev_docs = _notes(16, DEV_FIRST, DEV_LAST, seed=2)
    config = TrainConfig(
        encoder=str(default_encoder_path()),
        epochs=8,
        batch_size=8,
        lr=1e-4,
        head_lr=3e-3,
        max_length=64,
        overlap=8,
        num_threads=2,
        time_budget_s=100.0,
    )
    result = train(train_docs, dev_docs, config, tmp_path, progress=False)
    assert result.best_dev_f1 is not None and result.best_dev_f1 > 0.7
    # float32 inference reproduces the figure early stopping compared ...
    detector = TaggerDetector.load(tmp_path, precision="float32")
    pred = [d.with_spans(s) for d, s in zip(dev_docs, detector.detect_many(dev_docs))]
    assert evaluate(dev_docs, pred, "coarse").token.f1 == pytest.approx(result.best_dev_f1)
    # ... and the default load (bfloat16 autocast on CPUs with native bf16) the recorded saved-model score
    assert result.saved_model_dev is not None
    detector = TaggerDetector.load(tmp_path)
    pred = [d.with_spans(s) for d, s in zip(dev_docs, detector.detect_many(dev_docs))]
    assert evaluate(dev_docs, pred, "coarse").token.f1 == pytest.approx(result.saved_model_dev["token"])
