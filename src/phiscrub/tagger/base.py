"""What every kind of trained tagger shares: the forward output, the base class, the model folder files.

A model folder (written by :meth:`TaggerBase.save`, read by each kind's ``load``)::

    model_dir/
      config.json          resolved TrainConfig
      labels.json          {"granularity": ..., "tags": ["O", "B-AGE", ...], "labels": [...]}
      meta.json            format version, weight dtype, word tokenizer name, backbone facts
      tagger.safetensors   all weights, float32, float16 or int8 (or an ONNX export standing in)

The kinds (:mod:`phiscrub.tagger.model` transformer, :mod:`phiscrub.tagger.bilstm` BiLSTM-CRF,
:mod:`phiscrub.tagger.gemma` GGUF features) build on this module and add their own files;
:mod:`phiscrub.tagger.loaders` picks the kind of a saved folder. Nothing here imports a kind.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self, TypeVar

import torch
from torch import nn

from phiscrub.errors import ModelError
from phiscrub.labels import labels_of
from phiscrub.tagger.config import TrainConfig
from phiscrub.tagger.crf import CRF, constraint_scores
from phiscrub.tagger.encoding import tag_set
from phiscrub.tagger.features import N_LENGTH_IDS, N_SHAPE_IDS
from phiscrub.tagger.onnx_weights import has_torch_weights_in_graph, torch_state_from_onnx
from phiscrub.tagger.windows import IGNORE_INDEX
from phiscrub.text import TOKENIZER_NAME

__all__ = [
    "FORMAT_VERSION",
    "WEIGHTS_FILE",
    "TaggerBase",
    "WordEmissions",
    "check_model_labels",
    "load_weights_into",
    "read_folder_config",
    "read_model_config",
    "read_weights",
    "shape_embeddings",
    "write_model_files",
    "write_weights",
]

FORMAT_VERSION = 1
WEIGHTS_FILE = "tagger.safetensors"
#: Suffix of the per-row scale tensor stored next to each int8 matrix.
INT8_SCALE_SUFFIX = ".__int8_scale"
_ModuleT = TypeVar("_ModuleT", bound=nn.Module)


@dataclass(frozen=True)
class WordEmissions:
    """Per-word scores of a batch of windows.

    Args:
        emissions: ``(B, W, T)`` tag scores per word slot.
        word_mask: ``(B, W)`` bool, True on real word slots.
    """

    emissions: torch.Tensor
    word_mask: torch.Tensor


def shape_embeddings(config: TrainConfig) -> tuple[nn.Embedding | None, nn.Embedding | None, int]:
    """Word-shape and word-length embeddings of a tagger, when ``config.shape_features`` is on.

    Args:
        config: the training config (``shape_features``, ``shape_dim``, ``length_dim``).

    Returns:
        ``(shape embedding, length embedding, their total width)``; ``(None, None, 0)`` when off.
    """
    if not config.shape_features:
        return None, None, 0
    shape_emb = nn.Embedding(N_SHAPE_IDS, config.shape_dim, padding_idx=0)
    length_emb = nn.Embedding(N_LENGTH_IDS, config.length_dim, padding_idx=0)
    return shape_emb, length_emb, config.shape_dim + config.length_dim


class TaggerBase(nn.Module):
    """What :class:`~phiscrub.tagger.model.PhiTagger` and the BiLSTM-CRF tagger share: labels, loss, decoding scores, ``save``.

    A subclass sets ``config``, ``tags`` (:func:`~phiscrub.tagger.encoding.tag_set` of
    ``config.granularity``) and ``crf`` (a :class:`~phiscrub.tagger.crf.CRF` or None), and writes its
    own extra files in :meth:`_write_backbone_files`.
    """

    config: TrainConfig
    tags: tuple[str, ...]
    crf: CRF | None

    @property
    def labels(self) -> tuple[str, ...]:
        """The PHI labels this tagger predicts (at its granularity)."""
        return labels_of(self.config.granularity)

    def loss(self, out: WordEmissions, labels: torch.Tensor) -> torch.Tensor:
        """CRF negative log-likelihood, or token cross-entropy without a CRF (mean over the batch).

        Args:
            out: the forward output.
            labels: ``(B, W)`` gold tag ids, :data:`~phiscrub.tagger.windows.IGNORE_INDEX` where unlabelled.
        """
        if self.crf is not None:
            return self.crf.nll(out.emissions, labels, out.word_mask)
        return nn.functional.cross_entropy(
            out.emissions[out.word_mask].float(), labels[out.word_mask], ignore_index=IGNORE_INDEX
        )

    def log_scores(self, emissions: torch.Tensor) -> torch.Tensor:
        """Per-word scores for decoding: CRF emissions as they are, else softmax log-probabilities.

        Args:
            emissions: ``(..., T)`` tag scores.
        """
        if self.crf is not None:
            return emissions.float()
        return torch.log_softmax(emissions.float(), dim=-1)

    def transition_scores(self) -> tuple[Any, Any, Any]:
        """Transition, start and end scores (numpy float64) for :func:`~phiscrub.tagger.crf.viterbi_decode`.

        With a CRF: its learned scores with invalid BIO moves at minus infinity; without: 0 for
        allowed moves and minus infinity for invalid BIO moves.
        """
        if self.crf is not None:
            return self.crf.numpy_scores()
        return constraint_scores(self.tags)

    def save(
        self, model_dir: str | Path, dtype: str | None = None, extra_meta: dict[str, Any] | None = None
    ) -> Path:
        """Write a self-contained model folder (see the module docstring of the tagger's kind).

        Args:
            model_dir: target folder (created; existing model files are overwritten).
            dtype: ``float32``, ``float16`` or ``int8`` weights (default: ``config.save_dtype``).
                ``int8`` stores every large matrix as int8 with one float16 scale per row
                (symmetric, per-row absmax) and the rest as float16: about a quarter of the
                float32 size, which is how the bundled model fits the package.
            extra_meta: more JSON-ready facts for ``meta.json`` (e.g. training scores).

        Returns:
            The folder.
        """
        dtype = dtype or self.config.save_dtype
        folder = Path(model_dir)
        write_weights(self, folder, dtype)
        meta = {**self._write_backbone_files(folder), **(extra_meta or {})}
        write_model_files(folder, self.config, self.tags, self.labels, dtype, meta)
        return folder

    def _write_backbone_files(self, folder: Path) -> dict[str, Any]:
        """Write the files only this kind of tagger has (after the weights, before ``config.json``).

        Args:
            folder: the model folder (it exists).

        Returns:
            Facts about the backbone for ``meta.json``.
        """
        raise NotImplementedError

    #: The :attr:`TrainConfig.backbone` of this kind (checked when a folder is loaded).
    BACKBONE: str = ""
    #: Files a folder of this kind needs besides ``config.json``, ``labels.json`` and the weights.
    BACKBONE_FILES: tuple[str, ...] = ()
    #: Module types quantized by ``load(..., quantize=True)``.
    QUANTIZED_LAYERS: frozenset[type[nn.Module]] = frozenset({nn.Linear})

    @classmethod
    def load(cls, model_dir: str | Path, device: str = "cpu", quantize: bool = False) -> Self:
        """Load a model folder written by :meth:`save` (weights come back as float32, eval mode).

        Args:
            model_dir: the folder.
            device: torch device to put the model on.
            quantize: dynamic int8 quantization of :attr:`QUANTIZED_LAYERS` (CPU inference only).

        Raises:
            ModelError: missing or inconsistent files, or quantization on a non-CPU device.
            ConfigError: an invalid ``config.json``.
        """
        folder = Path(model_dir)
        config = read_folder_config(folder, cls.BACKBONE, cls.BACKBONE_FILES)
        model = cls._from_folder(folder, config)
        return load_weights_into(model, folder, device, quantize, set(cls.QUANTIZED_LAYERS))

    @classmethod
    def _from_folder(cls, folder: Path, config: TrainConfig) -> Self:
        """A tagger of this kind built from a checked folder (its weights not loaded yet)."""
        raise NotImplementedError


def read_model_config(folder: Path, extra_files: Sequence[str] = ()) -> TrainConfig:
    """The config of a model folder, after checking that every file a model folder needs is there.

    Args:
        folder: the model folder.
        extra_files: files this kind of model needs beyond ``config.json``, ``labels.json`` and
            the weights file (e.g. ``vocab.json``).

    Raises:
        ModelError: a file is missing.
        ConfigError: an invalid ``config.json``.
    """
    for name in ("config.json", "labels.json", WEIGHTS_FILE, *extra_files):
        if name == WEIGHTS_FILE and _weights_in_graph(folder):
            continue  # an ONNX-only folder: the weights are rebuilt from the graph (read_weights)
        if not (folder / name).is_file():
            raise ModelError(f"model folder {folder} has no {name}")
    return TrainConfig.from_json(folder / "config.json")


def read_folder_config(folder: Path, backbone: str, extra_files: Sequence[str] = ()) -> TrainConfig:
    """The config of a ``backbone`` model folder, after checking its backbone, files and labels.

    Raises:
        ModelError: a file is missing, the folder holds another backbone, or its tags differ.
        ConfigError: an invalid ``config.json``.
    """
    config = read_model_config(folder)
    if config.backbone != backbone:
        raise ModelError(
            f"{folder} holds a {config.backbone} model, not {backbone}; load it with load_tagger"
        )
    read_model_config(folder, extra_files)  # the files of this backbone
    check_model_labels(folder, config)
    return config


def check_model_labels(folder: Path, config: TrainConfig) -> None:
    """Check that ``labels.json`` of a model folder lists the tags of ``config.granularity``.

    Args:
        folder: the model folder.
        config: its config (:func:`read_model_config`).

    Raises:
        ModelError: the tags differ.
    """
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    if labels.get("tags") != list(tag_set(config.granularity)):
        raise ModelError(f"labels.json in {folder} does not match granularity {config.granularity}")


def load_weights_into(
    model: _ModuleT,
    folder: Path,
    device: str = "cpu",
    quantize: bool = False,
    layers: set[type[nn.Module]] | None = None,
) -> _ModuleT:
    """Fill a freshly built tagger with the weights of ``folder``, in eval mode, on ``device``.

    Args:
        model: the tagger, built from the folder's config.
        folder: the model folder (its weights file).
        device: torch device to put the model on.
        quantize: dynamic int8 quantization (CPU inference only).
        layers: the module types to quantize (default: ``nn.Linear``).

    Raises:
        ModelError: the weights do not fit the model, or quantization on a non-CPU device.
    """
    try:
        result = model.load_state_dict(read_weights(folder), strict=False)
    except RuntimeError as exc:  # shape mismatch
        raise ModelError(f"weights in {folder} do not fit the model") from exc
    if result.missing_keys or result.unexpected_keys:
        raise ModelError(
            f"weights in {folder} do not fit the model: {len(result.missing_keys)} missing, "
            f"{len(result.unexpected_keys)} unexpected keys"
        )
    model.eval()
    if quantize:
        if torch.device(device).type != "cpu":
            raise ModelError("dynamic int8 quantization is for CPU inference only")
        model = _quantize_dynamic(model, layers)
    return model.to(device)


def write_model_files(
    folder: Path,
    config: TrainConfig,
    tags: Sequence[str],
    labels: Sequence[str],
    dtype: str,
    meta: dict[str, Any],
) -> None:
    """Write the descriptors every model folder has: ``config.json``, ``labels.json``, ``meta.json``.

    ``meta.json`` gets the format version, weights file name, dtype and word tokenizer, then ``meta``.
    """
    config.to_json(folder / "config.json")
    label_info = {"granularity": config.granularity, "tags": list(tags), "labels": list(labels)}
    (folder / "labels.json").write_text(json.dumps(label_info, indent=2) + "\n", encoding="utf-8")
    full = {
        "format_version": FORMAT_VERSION,
        "weights": WEIGHTS_FILE,
        "dtype": dtype,
        "word_tokenizer": TOKENIZER_NAME,
        **meta,
    }
    (folder / "meta.json").write_text(json.dumps(full, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def write_weights(model: nn.Module, folder: Path, dtype: str) -> None:
    """Write a module's weights to ``folder/tagger.safetensors`` (``float32``, ``float16`` or ``int8``).

    ``int8`` stores every 2-D float tensor of at least 4096 values as int8 with one float16 scale
    per row (see :meth:`TaggerBase.save`), the rest as float16.

    Raises:
        ModelError: unknown dtype, or a dynamically quantized module.
    """
    from safetensors.torch import save_file

    if dtype not in ("float32", "float16", "int8"):
        raise ModelError(f"cannot save weights as {dtype!r}; use float32, float16 or int8")
    if _is_quantized(model):
        raise ModelError("a quantized tagger cannot be saved; save the float model")
    folder.mkdir(parents=True, exist_ok=True)
    target = torch.float32 if dtype == "float32" else torch.float16
    state: dict[str, torch.Tensor] = {}
    for key, value in model.state_dict().items():
        value = value.detach().cpu()
        if dtype == "int8" and value.is_floating_point() and value.dim() == 2 and value.numel() >= 4096:
            q, scale = _quantize_rows(value.float())
            state[key] = q
            state[key + INT8_SCALE_SUFFIX] = scale
            continue
        if value.is_floating_point():
            value = value.to(target)
        # clone: safetensors refuses tensors that share storage (tied weights)
        state[key] = value.contiguous().clone()
    save_file(state, str(folder / WEIGHTS_FILE), metadata={"format": "pt", "dtype": dtype})


def read_weights(folder: Path) -> dict[str, torch.Tensor]:
    """Read ``folder/tagger.safetensors`` back as a float32 state dict (int8 matrices dequantized).

    A folder without it but with an ONNX export (``phiscrub export-onnx --onnx-only``, the bundled
    model) gets the weights rebuilt from the graph (:func:`phiscrub.tagger.onnx_weights.torch_state_from_onnx`).
    """
    from safetensors.torch import load_file

    if _weights_in_graph(folder):
        return torch_state_from_onnx(folder)

    raw = load_file(str(folder / WEIGHTS_FILE))
    state = {}
    for k, v in raw.items():
        if k.endswith(INT8_SCALE_SUFFIX):
            continue
        scale = raw.get(k + INT8_SCALE_SUFFIX)
        if scale is not None:
            state[k] = v.float() * scale.float().unsqueeze(1)
        else:
            state[k] = v.float() if v.is_floating_point() else v
    return state


def _weights_in_graph(folder: Path) -> bool:
    """True when ``folder`` has no weights file but an ONNX export that stands in for it."""
    if (folder / WEIGHTS_FILE).is_file():
        return False
    return has_torch_weights_in_graph(folder)


def _quantize_rows(weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Symmetric per-row int8 quantization: ``weight ~= q * scale[:, None]``."""
    scale = weight.abs().amax(dim=1).clamp(min=1e-12) / 127.0
    q = torch.round(weight / scale.unsqueeze(1)).clamp(-127, 127).to(torch.int8)
    return q.contiguous(), scale.to(torch.float16).contiguous()


def _is_quantized(model: nn.Module) -> bool:
    # dynamic quantized layers live in torch.ao.nn.quantized (their class is also named Linear)
    return any(type(m).__module__.startswith("torch.ao.nn.quantized") for m in model.modules())


def _quantize_dynamic(model: Any, layers: set[type[nn.Module]] | None = None) -> Any:
    """Dynamic int8 quantization of every ``nn.Linear`` (or of ``layers``; weights int8, activations float)."""
    try:
        from torch.ao.quantization import quantize_dynamic
    except ImportError as exc:  # pragma: no cover - depends on the torch build
        raise ModelError("this torch build has no dynamic quantization") from exc
    with warnings.catch_warnings():
        # torch.ao.quantization is deprecated in favour of torchao, which is not a dependency.
        warnings.simplefilter("ignore")
        quantized = quantize_dynamic(model, layers or {nn.Linear}, dtype=torch.qint8)
    return quantized
