"""Fine-tune a :class:`~phiscrub.tagger.model.PhiTagger` on gold documents.

AdamW with two learning rates (pretrained encoder: ``lr``; new head, shape embeddings and CRF:
``head_lr``), linear warm-up then linear decay, gradient clipping, and early stopping on the dev
token-level micro F1 (Kim et al. 2024: patience 3); a tie in token F1 is broken by the dev
entity-level F1 (token F1 cannot see a ``B``/``I`` error that splits an entity). The best model (by dev F1) is saved to the
output folder whenever it improves, so the folder always holds the best checkpoint so far, also
when a time budget or ``max_steps`` ends the run. Without dev documents the last epoch is kept.

Two dev figures are recorded, because they measure two different things:

* ``best_dev_f1`` (and each epoch's ``dev_token_f1``): the in-memory weights, in float32
  arithmetic, at the end of the best epoch. This is what early stopping compares.
* ``saved_model_dev`` (:func:`saved_model_scores`): the saved model folder reloaded the way
  ``phiscrub predict`` / :class:`~phiscrub.detect.tagger.TaggerDetector` runs it: weights as stored
  (``save_dtype`` float16 or int8 rounds them) and the inference precision ``auto`` (bfloat16
  autocast on a CPU with native bf16 instructions). ``phiscrub predict --no-rules --no-propagate``
  then ``phiscrub evaluate`` reproduces its ``token`` F1; it can differ from ``best_dev_f1``
  (e.g. 0.7227 against 0.7336 for a MiniLM tagger under bfloat16 autocast).

The same loop trains the ``bilstm-crf`` backbone (:mod:`phiscrub.tagger.bilstm`; every parameter is
new and uses ``bilstm.lr``), and continues training a saved model of either backbone
when ``config.init_from`` names one (:func:`build_model`).

Progress output (tqdm, stderr) shows only step counts, the running loss and dev scores: never
document text.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import torch

from phiscrub.document import Document
from phiscrub.errors import ConfigError
from phiscrub.labels import Granularity
from phiscrub.tagger.bilstm import BiLstmTagger
from phiscrub.tagger.config import ARCHITECTURE_KEYS, BILSTM_ENCODER, GGUF_BACKBONE, TrainConfig
from phiscrub.tagger.inference import predict_words
from phiscrub.tagger.loaders import Tagger, load_for_inference, load_tagger
from phiscrub.tagger.model import PhiTagger
from phiscrub.train.dataset import build_examples, build_word_examples

__all__ = [
    "EpochLog",
    "EpochLoop",
    "EpochTracker",
    "TrainResult",
    "apply_gradients",
    "build_model",
    "dev_scores",
    "optimizer_for",
    "planned_steps",
    "saved_model_scores",
    "seed_everything",
    "torch_threads",
    "train",
    "training_examples",
    "update_meta",
]


R = TypeVar("R", bound="TrainResult")


@dataclass(frozen=True)
class EpochLog:
    """What happened in one epoch.

    Args:
        epoch: 1-based epoch number.
        steps: optimiser steps so far (all epochs).
        train_loss: mean training loss of the epoch's steps.
        dev_token_f1: dev token-level micro F1 after the epoch (None without dev documents).
        dev_entity_f1: dev entity-level micro F1 (None without dev documents or metrics module).
        seconds: wall time of the epoch, evaluation included.
        improved: the dev score improved and the model was saved.
    """

    epoch: int
    steps: int
    train_loss: float
    dev_token_f1: float | None
    dev_entity_f1: float | None
    seconds: float
    improved: bool


@dataclass(frozen=True)
class TrainResult:
    """Outcome of :func:`train`.

    Args:
        model_dir: folder holding the saved (best) model.
        config: the resolved config (encoder path filled in).
        best_dev_f1: best dev token micro F1 of the in-memory float32 weights (None without dev
            documents); the figure early stopping compares.
        best_epoch: epoch of the saved model.
        epochs_run: epochs started.
        steps: optimiser steps taken.
        stop_reason: ``epochs``, ``early_stopping``, ``max_steps`` or ``time_budget``.
        history: one :class:`EpochLog` per epoch.
        seconds: total wall time.
        n_train_windows: training windows per epoch.
        saved_model_dev: dev scores of the saved model folder as ``phiscrub predict`` runs it
            (:func:`saved_model_scores`; None without dev documents).
    """

    model_dir: Path
    config: TrainConfig
    best_dev_f1: float | None
    best_epoch: int | None
    epochs_run: int
    steps: int
    stop_reason: str
    history: tuple[EpochLog, ...]
    seconds: float
    n_train_windows: int
    saved_model_dev: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (no document content)."""
        return {
            "model_dir": str(self.model_dir),
            "config": self.config.to_dict(),
            "best_dev_f1": self.best_dev_f1,
            "best_epoch": self.best_epoch,
            "epochs_run": self.epochs_run,
            "steps": self.steps,
            "stop_reason": self.stop_reason,
            "history": [asdict(h) for h in self.history],
            "seconds": self.seconds,
            "n_train_windows": self.n_train_windows,
            "saved_model_dev": self.saved_model_dev,
        }


def seed_everything(seed: int) -> None:
    """Seed ``random``, numpy and torch."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


@dataclass
class EpochTracker:
    """Best-epoch bookkeeping shared by :func:`train` and distillation: dev scores, saving, patience.

    At the end of each epoch :meth:`end_epoch` scores the dev documents (token F1, entity F1 as the
    tie-break), saves the model to ``out`` when it improved (every epoch without dev documents), and
    appends the epoch's :class:`EpochLog`.
    """

    history: list[EpochLog] = field(default_factory=list)
    best_key: tuple[float, float] | None = None
    best_f1: float | None = None
    best_epoch: int | None = None
    bad_epochs: int = 0

    def end_epoch(
        self,
        model: Tagger,
        out: Path,
        dev_docs: Sequence[Document] | None,
        config: TrainConfig,
        epoch: int,
        steps: int,
        losses: Sequence[float],
        epoch_start: float,
    ) -> EpochLog:
        """Score, save if improved, and log the epoch that just ended."""
        dev_f1: float | None = None
        dev_entity: float | None = None
        improved = False
        if dev_docs:
            scores = dev_scores(model, dev_docs, config.eval_batch_size)
            dev_f1, dev_entity = scores["token"], scores.get("entity")
            key = (dev_f1, dev_entity if dev_entity is not None else 0.0)
            if self.best_key is None or key > self.best_key:
                self.best_key, self.best_f1, self.best_epoch, self.bad_epochs = key, dev_f1, epoch, 0
                improved = True
            else:
                self.bad_epochs += 1
        else:
            self.best_epoch, improved = epoch, True
        if improved:
            model.save(out, extra_meta={"best_dev_token_f1": self.best_f1, "epoch": epoch, "steps": steps})
        log = EpochLog(
            epoch=epoch,
            steps=steps,
            train_loss=float(np.mean(losses)) if losses else float("nan"),
            dev_token_f1=dev_f1,
            dev_entity_f1=dev_entity,
            seconds=time.monotonic() - epoch_start,
            improved=improved,
        )
        self.history.append(log)
        return log

    def patience_spent(self, dev_docs: Sequence[Document] | None, config: TrainConfig) -> bool:
        """True when the dev score has not improved for ``config.patience`` epochs."""
        return bool(dev_docs) and self.bad_epochs >= config.patience


def dev_scores(model: Tagger, dev_docs: Sequence[Document], batch_size: int = 32) -> dict[str, float]:
    """Binary, token and entity micro F1 of the model on gold documents
    (:func:`phiscrub.evaluate.metrics.evaluate`, the project's metric definitions)."""
    predictions = predict_words(model, dev_docs, batch_size=batch_size)
    return _scores(dev_docs, predictions, model.config.granularity)


def _scores(
    dev_docs: Sequence[Document], predictions: Sequence[Any], granularity: Granularity
) -> dict[str, float]:
    from phiscrub.evaluate.metrics import evaluate

    pred_docs = [doc.with_spans(p.spans()) for doc, p in zip(dev_docs, predictions)]
    result = evaluate(list(dev_docs), pred_docs, granularity)
    return {"binary": result.binary.f1, "token": result.token.f1, "entity": result.entity.f1}


def saved_model_scores(
    model_dir: str | Path, dev_docs: Sequence[Document], device: str = "cpu", batch_size: int = 16
) -> dict[str, Any]:
    """Dev scores of a saved model folder, loaded and run the way ``phiscrub predict`` runs it.

    The folder is reloaded by :func:`phiscrub.tagger.loaders.load_for_inference` (as
    :meth:`phiscrub.detect.tagger.TaggerDetector.load` does) with its defaults
    (precision ``auto``, no quantization), so the weights are those on disk (``save_dtype``) and a
    transformer runs under bfloat16 autocast on a CPU with native bf16 instructions. The ``token``
    F1 is then the one ``phiscrub predict --no-rules --no-propagate`` followed by ``phiscrub
    evaluate`` reports on the same documents.

    Args:
        model_dir: the model folder.
        dev_docs: gold documents.
        device: torch device to run on.
        batch_size: windows per forward pass (the detector's default).

    Returns:
        ``binary``, ``token`` and ``entity`` micro F1, and what produced them: ``precision``
        (``float32`` or ``bfloat16``), ``weights_dtype`` (as saved) and ``device``.

    Raises:
        ModelError: the folder cannot be loaded.
    """
    folder = Path(model_dir)
    model = load_for_inference(folder, device=device)
    # A BiLSTM-CRF ignores autocast (it always runs in float32).
    bf16 = not isinstance(model, BiLstmTagger) and model.autocast_dtype == torch.bfloat16
    predictions = predict_words(model, list(dev_docs), batch_size=batch_size)
    meta_path = folder / "meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
    return {
        **_scores(dev_docs, predictions, model.config.granularity),
        "precision": "bfloat16" if bf16 else "float32",
        "weights_dtype": meta.get("dtype", model.config.save_dtype),
        "device": device,
    }


def update_meta(folder: Path, facts: dict[str, Any]) -> None:
    """Add ``facts`` to a saved model's ``meta.json``."""
    path = folder / "meta.json"
    meta = json.loads(path.read_text(encoding="utf-8"))
    meta.update(facts)
    path.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def optimizer_for(model: Tagger, config: TrainConfig) -> torch.optim.Optimizer:
    """AdamW with the encoder at ``lr``, the rest at ``head_lr`` (every parameter at ``bilstm.lr``
    for a BiLSTM-CRF), and no weight decay on biases, norms, feature embeddings and CRF scores."""
    groups: dict[tuple[bool, bool], list[torch.nn.Parameter]] = {}
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        is_encoder = name.startswith("encoder.")
        # No weight decay on biases, norms, embeddings of the features, and CRF scores.
        no_decay = (
            param.ndim < 2 or "norm" in name.lower() or name.startswith(("crf.", "shape_emb", "length_emb"))
        )
        groups.setdefault((is_encoder, no_decay), []).append(param)
    bilstm = isinstance(model, BiLstmTagger)
    param_groups = [
        {
            "params": params,
            "lr": config.bilstm.lr if bilstm else config.lr if is_encoder else config.head_lr,
            "weight_decay": 0.0 if no_decay else config.weight_decay,
        }
        for (is_encoder, no_decay), params in sorted(groups.items())
    ]
    return torch.optim.AdamW(param_groups)


def _schedule(optimizer: torch.optim.Optimizer, total: int, warmup: int) -> torch.optim.lr_scheduler.LambdaLR:
    def factor(step: int) -> float:
        if warmup > 0 and step < warmup:
            return (step + 1) / warmup
        return max(0.0, (total - step) / max(1, total - warmup))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


def build_model(config: TrainConfig, train_docs: Sequence[Document]) -> Tagger:
    """The model a training run starts from, with its resolved config (``model.config``).

    A fresh model of the configured backbone, or, with ``config.init_from``, the saved model: its
    architecture keys (:data:`~phiscrub.tagger.config.ARCHITECTURE_KEYS`) replace the config's, the
    other keys (learning rates, epochs, dropout ...) come from ``config``; a BiLSTM-CRF's
    vocabularies are extended with the words and characters of ``train_docs``.

    Raises:
        ConfigError: ``init_from`` holds a model of another backbone (when ``encoder`` is set) or
            another granularity and ``init_head`` is not set (``fold``/``reinit`` refit the head).
        ModelError: the encoder or the saved model cannot be loaded.
    """
    if config.init_from is None:
        if config.backbone == BILSTM_ENCODER:
            return BiLstmTagger.from_documents(config, train_docs)
        if config.backbone == GGUF_BACKBONE:
            from phiscrub.tagger.gemma import GemmaTagger

            return GemmaTagger.from_documents(config, train_docs)
        return PhiTagger.from_encoder(config)
    model = load_tagger(config.init_from)
    saved = model.config
    if config.encoder is not None and config.backbone != saved.backbone:
        raise ConfigError(
            f"init_from holds a {saved.backbone} model, but the config asks for {config.backbone}"
        )
    wanted = config.granularity
    if wanted != saved.granularity and config.init_head is None:
        raise ConfigError(
            f"init_from predicts {saved.granularity} labels, but the config asks for {wanted}: "
            "fold its head (--head fold) or re-initialise it (--head reinit)"
        )
    resolved = config.replace(**{key: saved.get(key) for key in ARCHITECTURE_KEYS})
    model.config = resolved
    if wanted != saved.granularity:
        from phiscrub.train.head import refit_head

        refit_head(model, wanted, config.init_head or "fold")
        resolved = model.config
    if isinstance(model, BiLstmTagger):
        model.dropout.p = resolved.bilstm.dropout
        return model.extended(train_docs)
    model.dropout.p = resolved.dropout
    return model


@contextmanager
def torch_threads(n: int | None) -> Iterator[None]:
    """Run with ``torch.set_num_threads(n)`` (None: torch's choice), restoring the old count after."""
    old = torch.get_num_threads()
    if n is not None:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def move_to_device(model: Tagger, device: str) -> None:
    """``model.to(device)``; an unusable device is a ConfigError."""
    try:
        model.to(device)
    except (RuntimeError, AssertionError) as exc:
        raise ConfigError(f"cannot use device {device!r}: {exc.__class__.__name__}") from exc


def training_examples(model: Tagger, train_docs: Sequence[Document]) -> Sequence[Any]:
    """The training windows of ``train_docs`` for ``model`` (word windows for a BiLSTM-CRF).

    Raises:
        ConfigError: no windows (the documents hold no words).
    """
    config = model.config
    examples: Sequence[Any]
    if isinstance(model, BiLstmTagger):
        examples = build_word_examples(train_docs, model)
    else:
        examples = build_examples(
            train_docs,
            model.tokenizer,
            model.tags,
            config.granularity,
            config.max_length,
            config.overlap,
            config.sentence_aware,
            config.subword_strategy,
        )
    if not examples:
        raise ConfigError("no training windows: the training documents hold no words")
    return examples


def planned_steps(n_examples: int, config: TrainConfig) -> int:
    """Optimiser steps of a full run: ``epochs`` x batches per epoch, capped by ``max_steps``."""
    total = config.epochs * math.ceil(n_examples / config.batch_size)
    return total if config.max_steps is None else min(total, config.max_steps)


def apply_gradients(
    model: Tagger, optimizer: torch.optim.Optimizer, loss: torch.Tensor, max_grad_norm: float
) -> float:
    """Back-propagate ``loss``, clip the gradients (``max_grad_norm`` > 0), step; returns the loss."""
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    if max_grad_norm > 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    optimizer.step()
    return float(loss.detach())


@dataclass
class EpochLoop:
    """The epoch loop of :func:`train` and of distillation: shuffled batches, one ``step`` each, the
    ``max_steps`` and time budgets, dev selection and saving (:class:`EpochTracker`), patience.

    Args:
        model: the model trained (saved to ``out`` when the dev score improves).
        out: the model folder.
        dev_docs: gold dev documents (empty: every epoch is saved, the last one kept).
        total_steps: planned steps (the progress bar's length).
        started: ``time.monotonic()`` the time budget counts from.
    """

    model: Tagger
    out: Path
    dev_docs: Sequence[Document]
    total_steps: int
    started: float
    tracker: EpochTracker = field(default_factory=EpochTracker)
    steps: int = 0
    stop_reason: str = "epochs"

    def run(self, n_examples: int, step: Callable[[list[int]], float], desc: str, progress: bool) -> None:
        """Train until the epochs, the patience, ``max_steps`` or the time budget run out.

        Args:
            n_examples: training windows; ``step`` gets the indices of one shuffled batch of them.
            step: one optimiser step on a batch; returns its loss.
            desc: the progress bar's name.
            progress: show the bar (step counts, loss and dev F1; never text).
        """
        from tqdm.auto import tqdm

        config = self.model.config
        rng = random.Random(config.seed)
        bar = tqdm(total=self.total_steps, disable=not progress, unit="step", desc=desc, dynamic_ncols=True)
        try:
            for epoch in range(1, config.epochs + 1):
                epoch_start = time.monotonic()
                losses = self._epoch(n_examples, step, rng, bar, epoch)
                log = self.tracker.end_epoch(
                    self.model, self.out, self.dev_docs, config, epoch, self.steps, losses, epoch_start
                )
                postfix: dict[str, Any] = {"epoch": epoch, "loss": f"{log.train_loss:.4f}"}
                if log.dev_token_f1 is not None:
                    postfix.update(dev_f1=f"{log.dev_token_f1:.4f}", best=f"{self.tracker.best_f1:.4f}")
                bar.set_postfix(postfix)
                if self.stop_reason != "epochs":
                    break
                if self.tracker.patience_spent(self.dev_docs, config):
                    self.stop_reason = "early_stopping"
                    break
        finally:
            bar.close()

    def _epoch(
        self, n_examples: int, step: Callable[[list[int]], float], rng: random.Random, bar: Any, epoch: int
    ) -> list[float]:
        config = self.model.config
        losses: list[float] = []
        order = list(range(n_examples))
        rng.shuffle(order)
        self.model.train()
        for b in range(0, len(order), config.batch_size):
            losses.append(step(order[b : b + config.batch_size]))
            self.steps += 1
            bar.update(1)
            bar.set_postfix(epoch=epoch, loss=f"{np.mean(losses[-20:]):.4f}", refresh=False)
            if config.max_steps is not None and self.steps >= config.max_steps:
                self.stop_reason = "max_steps"
                break
            if config.time_budget_s is not None and time.monotonic() - self.started >= config.time_budget_s:
                self.stop_reason = "time_budget"
                break
        return losses

    def saved_scores(self) -> dict[str, Any] | None:
        """Dev scores of the saved folder as ``phiscrub predict`` runs it, also added to its
        ``meta.json`` (None without dev documents)."""
        if not self.dev_docs or self.tracker.best_epoch is None:
            return None
        scores = saved_model_scores(self.out, self.dev_docs, device=self.model.config.device)
        update_meta(self.out, {"saved_model_dev": scores})
        return scores

    def finish(self, result_cls: type[R], n_examples: int, summary_file: str, **extra: Any) -> R:
        """Score the saved folder (:meth:`saved_scores`), build the run's result (a
        :class:`TrainResult` or subclass, ``extra`` its own fields) and write it to ``summary_file``."""
        saved_dev = self.saved_scores()
        result = result_cls(
            model_dir=self.out,
            config=self.model.config,
            best_dev_f1=self.tracker.best_f1,
            best_epoch=self.tracker.best_epoch,
            epochs_run=len(self.tracker.history),
            steps=self.steps,
            stop_reason=self.stop_reason,
            history=tuple(self.tracker.history),
            seconds=time.monotonic() - self.started,
            n_train_windows=n_examples,
            saved_model_dev=saved_dev,
            **extra,
        )
        text = json.dumps(result.to_dict(), indent=2) + "\n"
        (self.out / summary_file).write_text(text, encoding="utf-8")
        return result


def train(
    train_docs: Sequence[Document],
    dev_docs: Sequence[Document],
    config: TrainConfig,
    out_dir: str | Path,
    progress: bool = True,
) -> TrainResult:
    """Fine-tune a tagger and save the best model to ``out_dir``.

    Args:
        train_docs: gold training documents (labels at any granularity; folded to ``config``'s).
        dev_docs: gold dev documents for early stopping (may be empty: then the last epoch is kept).
        config: the training configuration.
        out_dir: model folder to write (see :mod:`phiscrub.tagger.model`), plus ``training.json``.
        progress: show a tqdm progress bar (loss and dev F1; never text).

    Returns:
        A :class:`TrainResult`.

    Raises:
        ConfigError: no training windows, or an unusable device.
        ModelError: the encoder cannot be loaded.
        LabelError: a span label is unknown.
    """
    started = time.monotonic()
    with torch_threads(config.num_threads):
        seed_everything(config.seed)
        model = build_model(config, train_docs)
        config = model.config  # encoder path resolved, architecture of init_from
        move_to_device(model, config.device)
        examples = training_examples(model, train_docs)
        total = planned_steps(len(examples), config)
        optimizer = optimizer_for(model, config)
        scheduler = _schedule(optimizer, total, int(config.warmup_ratio * total))

        def step(batch: list[int]) -> float:
            return _step(model, optimizer, scheduler, [examples[i] for i in batch], config)

        loop = EpochLoop(model, Path(out_dir), dev_docs, total, started)
        loop.run(len(examples), step, "train", progress)
        return loop.finish(TrainResult, len(examples), "training.json")


def _step(
    model: Tagger,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LambdaLR,
    examples: list[Any],
    config: TrainConfig,
) -> float:
    """One optimiser step on a batch of windows; returns the loss."""
    device = next(model.parameters()).device
    batch = {k: v.to(device) for k, v in model.collate(examples).items()}
    out = model(batch)
    loss = apply_gradients(model, optimizer, model.loss(out, batch["labels"]), config.max_grad_norm)
    scheduler.step()
    return loss
