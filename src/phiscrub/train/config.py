"""Distillation settings, and the tagger configuration re-exported from :mod:`phiscrub.tagger.config`.

:class:`~phiscrub.tagger.config.TrainConfig` (saved with every tagger, read when a model folder is
loaded) lives in :mod:`phiscrub.tagger.config` since issue 26; its names are re-exported here so that
``from phiscrub.train.config import TrainConfig`` keeps working. What only training reads is defined
here: :class:`DistillConfig` and :func:`distill_configs`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal, get_args

from phiscrub.config import check_fields, load_config
from phiscrub.errors import ConfigError
from phiscrub.tagger.config import (
    ARCHITECTURE_KEYS,
    BACKBONES,
    BILSTM_ENCODER,
    GEMMA_ENCODER,
    GGUF_BACKBONE,
    GGUF_POOLINGS,
    INIT_HEADS,
    RECIPES,
    SAVE_DTYPES,
    SUBWORD_STRATEGIES,
    BiLstmConfig,
    GgufConfig,
    TrainConfig,
)

#: Defined here: INIT_SOURCES, DistillConfig, distill_configs; the rest is phiscrub.tagger.config's.
__all__ = [
    "ARCHITECTURE_KEYS", "BACKBONES", "BILSTM_ENCODER", "GEMMA_ENCODER", "GGUF_BACKBONE", "GGUF_POOLINGS",
    "INIT_HEADS", "INIT_SOURCES", "RECIPES", "SAVE_DTYPES", "SUBWORD_STRATEGIES",
    "BiLstmConfig", "DistillConfig", "GgufConfig", "TrainConfig", "distill_configs",
]

InitSource = Literal["teacher", "encoder"]
#: Where a distilled student's encoder layers come from (:attr:`DistillConfig.init`).
INIT_SOURCES: tuple[str, ...] = get_args(InitSource)

@dataclass(frozen=True)
class DistillConfig:
    """What makes the student and how it learns from the teacher (:mod:`phiscrub.train.distill`).

    Args:
        layers: encoder layers of the student (fewer than the teacher's).
        layer_map: which source layers the student's layers start from, in order (default:
            :func:`default_layer_map`).
        init: ``teacher`` (the teacher's fine-tuned layers and embeddings) or ``encoder`` (a
            pretrained encoder folder's).
        encoder: with ``init="encoder"``: the pretrained encoder folder (default: the teacher's
            base encoder when that folder exists, else the bundled MiniLM).
        temperature: softmax / CRF temperature of the soft labels (both teacher and student).
        alpha: weight of the soft-label loss; ``1 - alpha`` goes to the gold-tag loss.
        teacher_batch_size: windows per teacher forward pass when computing the soft labels.
        resume: a student model folder (an earlier distillation of the same teacher) to continue
            from: its layers, head and CRF replace ``layers``/``layer_map``/``init``.
    """

    layers: int = 3
    layer_map: tuple[int, ...] | None = None
    init: InitSource = "teacher"
    encoder: str | None = None
    temperature: float = 2.0
    alpha: float = 0.5
    teacher_batch_size: int = 32
    resume: str | None = None

    def __post_init__(self) -> None:
        check_fields(self)  # types, and init among INIT_SOURCES
        if self.layers < 1:
            raise ConfigError("layers must be >= 1")
        if self.layer_map is not None:
            if len(self.layer_map) != self.layers:
                raise ConfigError(f"layer_map names {len(self.layer_map)} layers, not {self.layers}")
            if any(i < 0 for i in self.layer_map):
                raise ConfigError("layer_map indices must be >= 0")
        if self.temperature <= 0:
            raise ConfigError("temperature must be > 0")
        if not 0.0 <= self.alpha <= 1.0:
            raise ConfigError("alpha must be in [0, 1]")
        if self.teacher_batch_size < 1:
            raise ConfigError("teacher_batch_size must be >= 1")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        data = asdict(self)
        data["layer_map"] = list(self.layer_map) if self.layer_map is not None else None
        return data


def distill_configs(options: dict[str, Any]) -> tuple[DistillConfig, TrainConfig]:
    """The options of ``phiscrub distill`` split into a :class:`DistillConfig` (its keys) and the
    student's :class:`TrainConfig` (the other keys); None values keep the defaults.

    Raises:
        ConfigError: an unknown key or an invalid value.
    """
    given = {key: value for key, value in options.items() if value is not None}
    own = {f.name for f in fields(DistillConfig)}
    dconfig = load_config({k: v for k, v in given.items() if k in own}, DistillConfig)
    return dconfig, TrainConfig.from_dict({k: v for k, v in given.items() if k not in own})
