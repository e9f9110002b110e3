"""Load a saved tagger folder of any kind: the loader registry keyed by backbone.

A folder's ``config.json`` names its backbone (:attr:`phiscrub.tagger.config.TrainConfig.backbone`):
``transformer`` (:class:`~phiscrub.tagger.model.PhiTagger`), ``bilstm-crf``
(:class:`~phiscrub.tagger.bilstm.BiLstmTagger`) or ``gguf`` (:class:`~phiscrub.tagger.gemma.GemmaTagger`).
:data:`LOADERS` maps each to its class's ``load``; the kinds themselves never import each other
or this module. :func:`load_for_inference` also sets the arithmetic precision the way prediction
runs (``phiscrub predict``, :class:`phiscrub.detect.tagger.TaggerDetector`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeAlias

import torch

from phiscrub.errors import ConfigError, ModelError
from phiscrub.tagger.bilstm import BiLstmTagger
from phiscrub.tagger.config import TrainConfig
from phiscrub.tagger.gemma import GemmaTagger
from phiscrub.tagger.model import PhiTagger

__all__ = [
    "LOADERS",
    "PRECISIONS",
    "Tagger",
    "check_precision",
    "cpu_has_native_bf16",
    "load_for_inference",
    "load_tagger",
]

#: Any kind of trained tagger (same interface: forward, loss, collate, save ...).
Tagger: TypeAlias = PhiTagger | BiLstmTagger

#: Backbone -> loader ``(model_dir, device=..., quantize=...) -> tagger`` of that kind.
LOADERS: dict[str, Callable[..., Tagger]] = {
    kind.BACKBONE: kind.load for kind in (PhiTagger, BiLstmTagger, GemmaTagger)
}

#: Encoder arithmetic choices at inference (:func:`load_for_inference`).
PRECISIONS = ("auto", "float32", "bfloat16")


def load_tagger(model_dir: str | Path, device: str = "cpu", quantize: bool = False) -> Tagger:
    """Load any saved tagger folder: a transformer, a ``bilstm-crf`` or a ``gguf`` model.

    The backbone is read from the folder's ``config.json`` (``encoder: "bilstm-crf"``, or
    ``"gemma3-270m"`` / a ``.gguf`` path: :class:`phiscrub.tagger.gemma.GemmaTagger`).

    Args:
        model_dir: the folder (written by ``save`` or :func:`phiscrub.train.train`).
        device: torch device to put the model on.
        quantize: dynamic int8 quantization (CPU inference only).

    Returns:
        The tagger in eval mode.

    Raises:
        ModelError: missing or inconsistent files.
        ConfigError: an invalid ``config.json``.
    """
    folder = Path(model_dir)
    if not (folder / "config.json").is_file():
        raise ModelError(f"model folder {folder} has no config.json")
    backbone = TrainConfig.from_json(folder / "config.json").backbone
    loader = LOADERS.get(backbone)
    if loader is None:
        raise ModelError(f"model folder {folder} has an unknown backbone {backbone!r}")
    return loader(folder, device=device, quantize=quantize)


def cpu_has_native_bf16() -> bool:
    """True on a CPU with native bfloat16 arithmetic (Linux: avx512_bf16 or amx_bf16 flags)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False


def check_precision(precision: str) -> None:
    """Raise :class:`~phiscrub.errors.ConfigError` unless ``precision`` is one of :data:`PRECISIONS`."""
    if precision not in PRECISIONS:
        raise ConfigError(f"unknown precision {precision!r}; use auto, float32 or bfloat16")


def load_for_inference(
    model_dir: str | Path, device: str = "cpu", quantize: bool = False, precision: str = "auto"
) -> Tagger:
    """:func:`load_tagger`, with the encoder's autocast precision set for prediction.

    Args:
        model_dir: the folder.
        device: torch device.
        quantize: dynamic int8 quantization (CPU only).
        precision: ``float32``, ``bfloat16`` (autocast), or ``auto``: bfloat16 on a CPU with native
            bf16 instructions (AVX512-BF16 / AMX) when not quantized, else float32. A BiLSTM-CRF
            always runs in float32.

    Raises:
        ConfigError: an unknown precision.
        ModelError: the folder does not load.
    """
    check_precision(precision)
    model = load_tagger(model_dir, device=device, quantize=quantize)
    if precision == "auto":
        native = device == "cpu" and not quantize and cpu_has_native_bf16()
        precision = "bfloat16" if native else "float32"
    model.autocast_dtype = torch.bfloat16 if precision == "bfloat16" else None
    return model
