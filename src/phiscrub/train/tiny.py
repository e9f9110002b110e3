"""Tiny randomly initialised encoders, for smoke tests and CI without any download.

:func:`make_tiny_encoder` writes a normal Hugging Face encoder folder (config, weights, fast
tokenizer) that :func:`phiscrub.tagger.model.load_encoder` and the trainer accept like any
pretrained encoder. The models know nothing: they only exercise the pipeline quickly.
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any, cast

from phiscrub.errors import ConfigError

__all__ = ["TINY_KINDS", "make_tiny_encoder"]

TINY_KINDS: tuple[str, ...] = ("bert", "distilbert", "roberta", "xlm-roberta")

_CHARS = string.ascii_lowercase + string.digits
_PUNCT = ".,:;/-()#+@'\"!?&%*_"
_DEFAULT_WORDS = (
    "the",
    "patient",
    "was",
    "seen",
    "by",
    "dr",
    "on",
    "at",
    "in",
    "and",
    "of",
    "with",
    "for",
    "to",
    "mr",
    "mrs",
    "ms",
    "hospital",
    "clinic",
    "phone",
    "mrn",
    "date",
    "born",
    "age",
    "years",
    "old",
    "discharged",
    "admitted",
    "follow",
    "up",
    "call",
    "lives",
    "street",
    "city",
    "visit",
    "note",
)


def _wordpiece_vocab(words: tuple[str, ...]) -> dict[str, int]:
    tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tokens += list(_CHARS) + list(_PUNCT) + ["##" + c for c in _CHARS]
    tokens += [w for w in words if w not in tokens]
    return {tok: i for i, tok in enumerate(tokens)}


def _tokenizer(kind: str, words: tuple[str, ...]) -> Any:
    if kind in ("bert", "distilbert"):
        from transformers import BertTokenizer, DistilBertTokenizer

        cls = BertTokenizer if kind == "bert" else DistilBertTokenizer
        return cls(vocab=_wordpiece_vocab(words), do_lower_case=True)
    if kind == "roberta":
        import json
        import tempfile

        from tokenizers import ByteLevelBPETokenizer
        from transformers import RobertaTokenizer

        specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
        bpe = ByteLevelBPETokenizer()
        corpus = [" ".join(words), _CHARS, _PUNCT] * 4
        bpe.train_from_iterator(
            corpus, vocab_size=400, min_frequency=1, special_tokens=specials, show_progress=False
        )
        with tempfile.TemporaryDirectory() as tmp:
            bpe.save_model(tmp)
            vocab = json.loads((Path(tmp) / "vocab.json").read_text(encoding="utf-8"))
            lines = (Path(tmp) / "merges.txt").read_text(encoding="utf-8").splitlines()
        merges = [tuple(line.split(" ", 1)) for line in lines if line and not line.startswith("#")]
        # transformers types merges as strings, but the BPE backend wants (left, right) pairs
        return RobertaTokenizer(vocab=vocab, merges=cast(Any, merges), add_prefix_space=True)
    from transformers import XLMRobertaTokenizer

    pieces: list[tuple[str, float]] = [("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)]
    pieces += [("\u2581" + w, -2.0) for w in words] + [("\u2581", -3.0)]
    pieces += [(c, -4.0) for c in _CHARS + _PUNCT + string.ascii_uppercase]
    pieces += [("<mask>", 0.0)]
    return XLMRobertaTokenizer(vocab=pieces)


def make_tiny_encoder(
    out_dir: str | Path,
    kind: str = "bert",
    hidden_size: int = 32,
    num_layers: int = 2,
    num_heads: int = 2,
    intermediate_size: int = 64,
    max_positions: int = 512,
    seed: int = 0,
    tokenizer_dir: str | Path | None = None,
    words: tuple[str, ...] = _DEFAULT_WORDS,
) -> Path:
    """Write a tiny random encoder folder.

    Args:
        out_dir: folder to create.
        kind: ``bert``, ``distilbert``, ``roberta`` or ``xlm-roberta``.
        hidden_size: width of the model.
        num_layers: transformer layers.
        num_heads: attention heads (must divide ``hidden_size``).
        intermediate_size: feed-forward width.
        max_positions: position embeddings.
        seed: seeds the random weights.
        tokenizer_dir: copy the (fast) tokenizer of this local folder instead of building a small
            one (e.g. the MiniLM tokenizer for realistic subwords); ``kind`` must match it.
        words: whole words added to a built vocabulary (the rest is spelled character by character).

    Returns:
        The folder.

    Raises:
        ConfigError: unknown kind.
    """
    import torch
    from transformers import AutoTokenizer, BertConfig, DistilBertConfig, RobertaConfig, XLMRobertaConfig

    from phiscrub.hf import quiet_transformers

    if kind not in TINY_KINDS:
        raise ConfigError(f"unknown tiny encoder kind {kind!r}; use one of {TINY_KINDS}")
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    with quiet_transformers():
        if tokenizer_dir is not None:
            tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir, local_files_only=True)
        else:
            tokenizer = _tokenizer(kind, words)
    vocab_size = len(tokenizer)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    sizes: dict[str, Any] = {"vocab_size": vocab_size, "pad_token_id": pad}
    if kind == "distilbert":
        # DistilBERT names the same sizes differently.
        config: Any = DistilBertConfig(
            dim=hidden_size,
            n_layers=num_layers,
            n_heads=num_heads,
            hidden_dim=intermediate_size,
            max_position_embeddings=max_positions,
            **sizes,
        )
    else:
        shape: dict[str, Any] = {
            "hidden_size": hidden_size,
            "num_hidden_layers": num_layers,
            "num_attention_heads": num_heads,
            "intermediate_size": intermediate_size,
        }
        if kind == "bert":
            config = BertConfig(max_position_embeddings=max_positions, **shape, **sizes)
        else:
            cls = RobertaConfig if kind == "roberta" else XLMRobertaConfig
            # RoBERTa positions start after the padding index.
            config = cls(
                max_position_embeddings=max_positions + pad + 1,
                bos_token_id=tokenizer.bos_token_id,
                eos_token_id=tokenizer.eos_token_id,
                **shape,
                **sizes,
            )
    from transformers import AutoModel

    torch.manual_seed(seed)
    with quiet_transformers():
        model = AutoModel.from_config(config)
        model.save_pretrained(folder)
        tokenizer.save_pretrained(folder)
    return folder
