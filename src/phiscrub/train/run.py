"""A training run as ``phiscrub train`` describes it: corpora, a config file, option overrides, and
optionally a few-shot transfer recipe; :func:`run_training` checks, resolves and runs it.

The command line only parses its options into a :class:`TrainRun` and calls :func:`run_training`
(with a reader that reports what it read); this module holds the rules: which corpora a recipe
needs, how options override the config (``lr`` and ``max_length`` go to the backbone's own keys:
``bilstm.lr`` and ``bilstm.window`` for a BiLSTM-CRF or ``gguf`` model), the recipe's default epochs,
the seeds each corpus is read with, and the native label scheme of ``--labels native``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import ConfigError
from phiscrub.tagger.config import TrainConfig

__all__ = ["Reader", "TrainRun", "check_run", "resolve_config", "run_training"]

#: Reads corpora: ``(paths, seed, draws) -> documents`` (the seed drives placeholder surrogates).
Reader = Callable[[Sequence[Path], int, int], list[Document]]


@dataclass(frozen=True)
class TrainRun:
    """What to train on and where to write.

    Args:
        out_dir: the model folder.
        train: training corpora (not with ``recipe``).
        recipe: a few-shot transfer recipe (:data:`~phiscrub.train.recipes.RECIPES`) on ``source``
            (M) and ``target`` (F) instead of ``train``.
        source: the recipe's source corpora.
        target: the recipe's few-shot target corpora.
        dev: dev corpus for early stopping.
        source_epochs: recipe: epochs of a stage that sees M (default: ``epochs`` if given, else the paper's 3).
        target_epochs: recipe: epochs of a stage on F alone (default: ``epochs`` if given, else 25).
        target_repeat: recipe: copies of F pooled with M.
        draws: surrogate draws per placeholder document of the training corpora.
        native_corpus: ``--labels native``: the corpus whose label scheme the model learns (its
            labels plus those met in the data).
        overrides: TrainConfig keys set on the command line (None values are ignored); ``lr`` and
            ``max_length`` go to the backbone's keys.
    """

    out_dir: Path
    train: tuple[Path, ...] = ()
    recipe: str | None = None
    source: tuple[Path, ...] = ()
    target: tuple[Path, ...] = ()
    dev: Path | None = None
    source_epochs: int | None = None
    target_epochs: int | None = None
    target_repeat: int = 1
    draws: int = 1
    native_corpus: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)


def check_run(run: TrainRun) -> None:
    """The corpora and recipe options fit together.

    Raises:
        ConfigError: ``--train`` with a recipe, recipe options without one, a missing corpus.
    """
    if run.recipe is None:
        if not run.train:
            raise ConfigError("give --train corpora, or a --recipe with --source/--target")
        extra: dict[str, object] = {
            "--source": run.source or None,
            "--target": run.target or None,
            "--source-epochs": run.source_epochs,
            "--target-epochs": run.target_epochs,
            "--target-repeat": run.target_repeat if run.target_repeat != 1 else None,
        }
        used = [name for name, value in extra.items() if value is not None]
        if used:
            raise ConfigError(f"{', '.join(used)} only work with --recipe")
        return
    if run.train:
        raise ConfigError("--recipe trains on --source/--target; do not pass --train")
    if not run.target:
        raise ConfigError(f"recipe {run.recipe} needs --target")
    if run.recipe != "finetune" and not run.source:
        raise ConfigError(f"recipe {run.recipe} needs --source")
    if run.recipe == "finetune" and run.source:
        raise ConfigError("recipe finetune trains on --target only (use --init-from for a source model)")


def resolve_config(
    config_file: Path | None, recipe: str | None, encoder: str | None, overrides: dict[str, Any]
) -> TrainConfig:
    """The config of a run: the file (else the recipe's paper config, else the defaults), its
    ``encoder`` replaced, then every override that is not None.

    Raises:
        ConfigError: an invalid file or value.
    """
    from phiscrub.train.recipes import paper_config

    if config_file is not None:
        config = TrainConfig.from_json(config_file)
    else:
        config = paper_config() if recipe else TrainConfig()
    if encoder is not None:
        config = config.replace(encoder=encoder)
    bilstm = config.backbone != "transformer"  # bilstm-crf, or gguf (a BiLSTM-CRF head)
    renamed = {"lr": "bilstm.lr", "max_length": "bilstm.window"} if bilstm else {}
    changes = {renamed.get(key, key): value for key, value in overrides.items() if value is not None}
    return config.replace(**changes)


def run_training(run: TrainRun, config: TrainConfig, read: Reader) -> Any:
    """Read the corpora and train: a :class:`~phiscrub.train.trainer.TrainResult`, or with a recipe a
    :class:`~phiscrub.train.recipes.RecipeResult`.

    Raises:
        ConfigError: corpora that do not fit the recipe, or an invalid config.
    """
    from phiscrub.train.recipes import PAPER_SOURCE_EPOCHS, PAPER_TARGET_EPOCHS, run_recipe
    from phiscrub.train.trainer import train

    check_run(run)
    dev_docs = read((run.dev,), config.seed + 1000, 1) if run.dev else []
    if run.recipe is None:
        train_docs = read(run.train, config.seed, run.draws)
        return train(train_docs, dev_docs, _native(config, run, train_docs), run.out_dir)
    source_docs = read(run.source, config.seed, run.draws)
    target_docs = read(run.target, config.seed + 1, run.draws)
    config = _native(config, run, [*source_docs, *target_docs])
    default_source = config.epochs if "epochs" in _given(run) else PAPER_SOURCE_EPOCHS
    default_target = config.epochs if "epochs" in _given(run) else PAPER_TARGET_EPOCHS
    return run_recipe(
        run.recipe,
        target_docs,
        dev_docs,
        config,
        run.out_dir,
        source_docs=source_docs,
        source_epochs=run.source_epochs if run.source_epochs is not None else default_source,
        target_epochs=run.target_epochs if run.target_epochs is not None else default_target,
        target_repeat=run.target_repeat,
    )


def _given(run: TrainRun) -> set[str]:
    return {key for key, value in run.overrides.items() if value is not None}


def _native(config: TrainConfig, run: TrainRun, docs: Sequence[Document]) -> TrainConfig:
    """With ``native_corpus``: the config at that corpus's native scheme plus the labels of ``docs``."""
    if run.native_corpus is None:
        return config
    from phiscrub.labels import native_granularity

    return config.replace(
        granularity=native_granularity(run.native_corpus, {s.label for d in docs for s in d.spans})
    )
