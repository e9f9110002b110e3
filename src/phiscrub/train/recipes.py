"""Few-shot transfer recipes of Amin et al. (2022): source corpus M, few-shot target corpus F.

=========================  ========================================================  ===========
recipe                     stages                                                    paper name
=========================  ========================================================  ===========
``finetune``               train on F                                                FINE-TUNE (F)
``source-then-target``     train on M, then continue training that model on F        FINE-TUNE (M) -> FINE-TUNE (F)
``multitask``              train on M + F together                                   MULTI-TASK (M + F)
``multitask-then-target``  train on M + F, then continue on F                        MULTI-TASK (M + F) -> FINE-TUNE (F)
=========================  ========================================================  ===========

Every stage is one :func:`phiscrub.train.train` run (same early stopping on the dev documents,
which should be target documents (Keung et al. 2020), same budgets and outputs); a second stage
starts from the first stage's best model (``init_from``). With ``config.init_from`` set, the first
stage starts from that saved model, so ``finetune`` with ``init_from`` = a model trained on M is
FINE-TUNE (M) -> FINE-TUNE (F) reusing an existing source model.

Paper defaults (section 5, mBERT): 3 epochs with learning rate 3e-5 and 10% linear warm-up; the
few-shot-only fine-tuning is trained for 25 epochs. Here stages that see M (``source``,
``multitask``) default to :data:`PAPER_SOURCE_EPOCHS` and stages on F alone to
:data:`PAPER_TARGET_EPOCHS`; :func:`paper_config` gives the learning rate and warm-up. The learning
rate applies to a pretrained encoder; a ``bilstm-crf`` model trains at ``bilstm_lr`` in every stage.

"Multi-task" follows the paper's setting of one label set shared by both corpora: the documents
of M and F are pooled (F optionally repeated ``target_repeat`` times so that the few-shot corpus
is not drowned by the source corpus) and one tagger is trained on them.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import ConfigError
from phiscrub.labels import is_native
from phiscrub.tagger.config import RECIPES, TrainConfig
from phiscrub.train.trainer import TrainResult, train

__all__ = [
    "PAPER_LR",
    "PAPER_SOURCE_EPOCHS",
    "PAPER_TARGET_EPOCHS",
    "PAPER_WARMUP_RATIO",
    "RECIPES",
    "RecipeResult",
    "StageResult",
    "paper_config",
    "plan_stages",
    "run_recipe",
]

log = logging.getLogger(__name__)

#: Learning rate of all the paper's runs.
PAPER_LR = 3e-5
#: Fraction of the steps with linear warm-up.
PAPER_WARMUP_RATIO = 0.1
#: Epochs of the paper's runs on the source corpus (alone or pooled with the target).
PAPER_SOURCE_EPOCHS = 3
#: Epochs of the paper's few-shot-only fine-tuning on the target corpus.
PAPER_TARGET_EPOCHS = 25


def paper_config(**changes: Any) -> TrainConfig:
    """A :class:`TrainConfig` with the paper's learning rate and warm-up, then ``changes``.

    Raises:
        ConfigError: unknown key or invalid value.
    """
    return TrainConfig(lr=PAPER_LR, warmup_ratio=PAPER_WARMUP_RATIO).replace(**changes)


def plan_stages(
    recipe: str,
    source_docs: Sequence[Document],
    target_docs: Sequence[Document],
    source_epochs: int = PAPER_SOURCE_EPOCHS,
    target_epochs: int = PAPER_TARGET_EPOCHS,
    target_repeat: int = 1,
) -> list[tuple[str, list[Document], int]]:
    """The training stages of a recipe: ``(name, documents, epochs)`` in order.

    Args:
        recipe: one of :data:`RECIPES`.
        source_docs: the source corpus M (must be empty for ``finetune``).
        target_docs: the few-shot target corpus F.
        source_epochs: epochs of a stage that sees M.
        target_epochs: epochs of a stage on F alone.
        target_repeat: copies of F pooled with M in a multi-task stage.

    Raises:
        ConfigError: unknown recipe, a missing or unexpected corpus, or a count below 1.
    """
    if recipe not in RECIPES:
        raise ConfigError(f"unknown recipe {recipe!r}; use one of {RECIPES}")
    for name, value in (
        ("source_epochs", source_epochs),
        ("target_epochs", target_epochs),
        ("target_repeat", target_repeat),
    ):
        if value < 1:
            raise ConfigError(f"{name} must be >= 1")
    if not target_docs:
        raise ConfigError(f"recipe {recipe} needs target documents")
    if recipe == "finetune":
        if source_docs:
            raise ConfigError("recipe finetune trains on the target corpus only; pass no source documents")
        return [("target", list(target_docs), target_epochs)]
    if not source_docs:
        raise ConfigError(f"recipe {recipe} needs source documents")
    first = (
        ("source", list(source_docs), source_epochs)
        if recipe == "source-then-target"
        else ("multitask", list(source_docs) + list(target_docs) * target_repeat, source_epochs)
    )
    if recipe == "multitask":
        return [first]
    return [first, ("target", list(target_docs), target_epochs)]


#: The :class:`~phiscrub.train.trainer.TrainResult` fields a stage's summary copies, in JSON order.
_STAGE_RESULT_KEYS = (
    "best_dev_f1",
    "saved_model_dev",
    "best_epoch",
    "epochs_run",
    "steps",
    "stop_reason",
    "seconds",
)


@dataclass(frozen=True)
class StageResult:
    """One stage of a recipe.

    Args:
        name: ``source``, ``multitask`` or ``target``.
        n_docs: training documents of the stage (repeated target documents counted).
        result: the stage's :class:`~phiscrub.train.trainer.TrainResult`.
    """

    name: str
    n_docs: int
    result: TrainResult

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (no document content)."""
        r = self.result
        head = {"name": self.name, "n_docs": self.n_docs, "model_dir": str(r.model_dir)}
        config = {"epochs": r.config.epochs, "init_from": r.config.init_from}
        return {**head, **config, **{key: getattr(r, key) for key in _STAGE_RESULT_KEYS}}


@dataclass(frozen=True)
class RecipeResult:
    """Outcome of :func:`run_recipe`.

    Args:
        recipe: the recipe name.
        model_dir: folder of the final model.
        stages: one :class:`StageResult` per stage, in order.
        seconds: total wall time.
    """

    recipe: str
    model_dir: Path
    stages: tuple[StageResult, ...]
    seconds: float
    fusion: Any = None  # phiscrub.crosslingual.fusion.FusionReport, when the target dev was compared

    @property
    def final(self) -> TrainResult:
        """The last stage's training result (the final model's)."""
        return self.stages[-1].result

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (``recipe.json``)."""
        return {
            "recipe": self.recipe,
            "model_dir": str(self.model_dir),
            "stages": [s.to_dict() for s in self.stages],
            "seconds": self.seconds,
            **({"fusion": self.fusion.to_dict()} if self.fusion is not None else {}),
        }


def run_recipe(
    recipe: str,
    target_docs: Sequence[Document],
    dev_docs: Sequence[Document],
    config: TrainConfig,
    out_dir: str | Path,
    source_docs: Sequence[Document] = (),
    source_epochs: int = PAPER_SOURCE_EPOCHS,
    target_epochs: int = PAPER_TARGET_EPOCHS,
    target_repeat: int = 1,
    progress: bool = True,
    fusion_lang: str | None = "auto",
) -> RecipeResult:
    """Train a tagger with a transfer recipe (see the module docstring).

    Args:
        recipe: one of :data:`RECIPES`.
        target_docs: the few-shot target corpus F (gold documents).
        dev_docs: dev documents for early stopping in every stage (target-side; may be empty).
        config: the training config of every stage (backbone, learning rates, per-stage budgets ...);
            ``epochs`` is replaced by the stage's epochs; ``init_from`` (optional) seeds the first
            stage. :func:`paper_config` gives the paper's learning rate and warm-up.
        out_dir: folder of the final model, plus ``recipe.json``; a first stage of a two-stage
            recipe is saved in ``out_dir/stage1-source`` or ``out_dir/stage1-multitask``.
        source_docs: the source corpus M (empty for ``finetune``).
        source_epochs: epochs of a stage that sees M (paper: 3).
        target_epochs: epochs of a stage on F alone (paper: 25).
        target_repeat: copies of F pooled with M in a multi-task stage (default 1: plain pooling).
        progress: tqdm progress bars (counts and scores only).
        fusion_lang: rule language for the rules-versus-model comparison on ``dev_docs``
            (:func:`phiscrub.crosslingual.fusion.compare_on_dev`; ``auto``: per document); None skips
            it. When the rules alone beat rules + model for a label, ``fusion.json`` tells predict to
            prefer the rules for it, and a model worse than the rules alone is reported (log and
            ``recipe.json``). Skipped without dev documents and for corpus-native labels.

    Returns:
        A :class:`RecipeResult`.

    Raises:
        ConfigError: unknown recipe, missing or unexpected corpus, invalid counts or config.
        ModelError: an encoder or saved model cannot be loaded.
    """
    started = time.monotonic()
    stages = plan_stages(recipe, source_docs, target_docs, source_epochs, target_epochs, target_repeat)
    out = Path(out_dir)
    init_from = config.init_from
    results: list[StageResult] = []
    for i, (name, docs, epochs) in enumerate(stages, start=1):
        last = i == len(stages)
        stage_dir = out if last else out / f"stage{i}-{name}"
        stage_config = config.replace(epochs=epochs, init_from=init_from)
        result = train(docs, dev_docs, stage_config, stage_dir, progress=progress)
        results.append(StageResult(name=name, n_docs=len(docs), result=result))
        init_from = str(stage_dir.resolve())
    fusion = None
    if fusion_lang is not None and dev_docs and not is_native(config.granularity):
        from phiscrub.crosslingual.fusion import compare_on_dev, write_fusion
        from phiscrub.detect.tagger import load_model_detector

        fusion = compare_on_dev(dev_docs, load_model_detector(out), lang=fusion_lang)
        write_fusion(fusion, out)
        (log.warning if fusion.model_below_rules else log.info)("%s", fusion.summary())
    summary = RecipeResult(
        recipe=recipe, model_dir=out, stages=tuple(results), seconds=time.monotonic() - started, fusion=fusion
    )
    (out / "recipe.json").write_text(json.dumps(summary.to_dict(), indent=2) + "\n", encoding="utf-8")
    return summary
