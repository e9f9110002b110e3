"""A character + word BiLSTM-CRF tagger that needs no pretrained weights (NeuroNER-style).

Selected with ``TrainConfig(encoder="bilstm-crf")`` and trained by the same
:func:`phiscrub.train.train` as the transformer tagger (same early stopping, budgets, output).
Architecture, per word (Lample et al. 2016; Dernoncourt et al. 2017, NeuroNER)::

    characters -> char embedding -> char BiLSTM (last states of both directions)
    [word embedding ; char BiLSTM vector ; shape embedding ; length embedding] -> dropout
        -> word BiLSTM -> dropout -> linear -> emissions -> CRF (BIO-constrained)

Words are the project tokens (:func:`phiscrub.text.tokenize`), so predicted spans keep exact
character offsets whatever the script. There are no subwords: a document is cut into windows of at
most ``bilstm_window`` words sharing ``bilstm_overlap`` words, preferring sentence boundaries; each word
takes the scores of the window where it is farthest from a cut, and the whole document is decoded
at once (the same window planning and ownership as the transformer path,
:func:`phiscrub.tagger.windows.plan_windows`, :func:`~phiscrub.tagger.windows.window_owners`).

Vocabulary (:class:`~phiscrub.tagger.vocab.Vocab`, saved as ``vocab.json``): words are lower-cased
with every digit replaced by ``0``. Only words seen *outside* gold spans of the training documents
enter the word vocabulary, so the saved model holds no annotated PHI word (names, places, numbers of
the training notes); words inside spans are read as the unknown word, through their characters and
shape. Words seen once are replaced by the unknown word with probability ``bilstm.singleton_unk``
in training, so that the model learns to use the characters of unknown words. The character vocabulary holds
every character of the training words. Training from a saved model (``init_from``) extends both
vocabularies with the new training documents' words and characters (new rows start random).

Model folder::

    model_dir/
      config.json          resolved TrainConfig (encoder: "bilstm-crf")
      labels.json          as for the transformer tagger
      meta.json            format version, dtype, backbone "bilstm-crf", word tokenizer name
      tagger.safetensors   all weights
      vocab.json           {"words": [...], "counts": [...], "chars": [...]}
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import numpy as np
import torch
from torch import nn

from phiscrub.document import Document
from phiscrub.errors import ConfigError, ModelError
from phiscrub.tagger.base import (
    TaggerBase,
    WordEmissions,
    shape_embeddings,
)
from phiscrub.tagger.config import BILSTM_ENCODER, TrainConfig
from phiscrub.tagger.crf import CRF
from phiscrub.tagger.decode import owned_scores
from phiscrub.tagger.encoding import sentence_starts, tag_set
from phiscrub.tagger.features import word_features
from phiscrub.tagger.lstm import FastCRF, PaddedBiLSTM
from phiscrub.tagger.vocab import PAD_ID, UNK_ID, Vocab
from phiscrub.tagger.windows import IGNORE_INDEX, EncodedDocument, document_windows, window_labels
from phiscrub.text import Token, tokenize

__all__ = [
    "VOCAB_FILE",
    "BiLstmTagger",
    "WordDocument",
    "WordInputs",
    "WordWindow",
    "collate_words",
    "encode_words",
    "windows_of",
    "word_scores",
    "word_windows",
]

VOCAB_FILE = "vocab.json"


@dataclass(frozen=True, kw_only=True)
class WordInputs:
    """Per-word inputs of a BiLSTM tagger (of a whole document, or of the slots of a window).

    Args:
        word_ids: vocabulary index of each word.
        char_ids: character indices of each word.
        shape_ids: word-shape class of each word.
        length_ids: length bucket of each word.
        vectors: ``(n_words, D)`` frozen per-word vectors (``gguf`` backbone), or None.
    """

    word_ids: list[int]
    char_ids: list[tuple[int, ...]]
    shape_ids: list[int]
    length_ids: list[int]
    vectors: np.ndarray | None = None

    def sliced(self, a: int, b: int) -> dict[str, Any]:
        """The inputs of words ``a`` to ``b - 1``, as keyword arguments."""
        return {
            "word_ids": self.word_ids[a:b],
            "char_ids": self.char_ids[a:b],
            "shape_ids": self.shape_ids[a:b],
            "length_ids": self.length_ids[a:b],
            "vectors": self.vectors[a:b] if self.vectors is not None else None,
        }


@dataclass(frozen=True, kw_only=True)
class WordDocument(WordInputs):
    """A document as word ids, character ids and word features (no text beyond the tokens).

    Args:
        doc_id: the document id.
        tokens: the word tokens (:func:`phiscrub.text.tokenize`).
        sentence_start: per word, True when it starts a sentence.
        word_ids, char_ids, shape_ids, length_ids, vectors: see :class:`WordInputs`.
    """

    doc_id: str
    tokens: list[Token]
    sentence_start: list[bool]

    def _as_encoded(self) -> EncodedDocument:
        # One "subword" per word: the transformer window planning then works on words.
        index = list(range(len(self.tokens)))
        return EncodedDocument(
            doc_id=self.doc_id,
            tokens=self.tokens,
            input_ids=self.word_ids,
            subword_word=index,
            word_first=index,
            sentence_start=self.sentence_start,
            shape_ids=self.shape_ids,
            length_ids=self.length_ids,
        )


def encode_words(docs: Sequence[Document], vocab: Vocab, max_chars: int) -> list[WordDocument]:
    """Tokenize documents and look their words and characters up in ``vocab``."""
    out: list[WordDocument] = []
    for doc in docs:
        tokens = tokenize(doc.text)
        shapes, lengths = word_features(tokens, doc.text)
        out.append(
            WordDocument(
                doc_id=doc.id,
                tokens=tokens,
                word_ids=[vocab.word_id(t.text) for t in tokens],
                char_ids=[vocab.char_ids(t.text, max_chars) for t in tokens],
                shape_ids=shapes,
                length_ids=lengths,
                sentence_start=sentence_starts(doc.text, tokens),
            )
        )
    return out


@dataclass(frozen=True, kw_only=True)
class WordWindow(WordInputs):
    """One BiLSTM input: consecutive words of a document (their inputs: see :class:`WordInputs`).

    Args:
        doc_index: index of the document in the list it came from.
        window_index: index of the window in its document.
        words: document word index of each slot.
        labels: tag id of each slot, :data:`~phiscrub.tagger.windows.IGNORE_INDEX` at inference.
    """

    doc_index: int
    window_index: int
    words: list[int]
    labels: list[int]


def word_windows(
    doc: WordDocument,
    size: int,
    overlap: int,
    sentence_aware: bool,
    doc_index: int = 0,
    tag_ids: Sequence[int] | None = None,
    begin_of: dict[int, int] | None = None,
) -> tuple[list[WordWindow], list[int]]:
    """Windows of at most ``size`` words sharing about ``overlap`` words, and each word's owner.

    Args:
        doc: the document.
        size: words per window.
        overlap: words shared by consecutive windows.
        sentence_aware: prefer sentence boundaries as window edges.
        doc_index: stored in each window.
        tag_ids: per word tag id (training) or None (inference).
        begin_of: maps an ``I-X`` id to its ``B-X`` id, to relabel a window's first slot.

    Returns:
        The windows and, per word, the index of the window whose scores it takes.
    """
    if not doc.tokens:
        return [], []
    spans, owners = document_windows(doc._as_encoded(), size, overlap, sentence_aware)
    windows: list[WordWindow] = []
    for wi, (a, b) in enumerate(spans):
        labels = window_labels(tag_ids, range(a, b), begin_of)
        slots = doc.sliced(a, b)
        windows.append(
            WordWindow(doc_index=doc_index, window_index=wi, words=list(range(a, b)), labels=labels, **slots)
        )
    return windows, owners


def windows_of(
    model: BiLstmTagger,
    encoded: Sequence[WordDocument],
    tag_ids: Sequence[Sequence[int]] | None = None,
    begin_of: dict[int, int] | None = None,
) -> tuple[list[WordWindow], list[list[int]]]:
    """The word windows of many documents (:func:`word_windows`) and each document's word owners."""
    config = model.config
    examples: list[WordWindow] = []
    owners: list[list[int]] = []
    for d, enc in enumerate(encoded):
        ids = None if tag_ids is None else tag_ids[d]
        args = (config.bilstm.window, config.bilstm.overlap, config.sentence_aware)
        windows, owned = word_windows(enc, *args, d, ids, begin_of)
        examples += windows
        owners.append(owned)
    return examples, owners


def collate_words(examples: Sequence[WordWindow]) -> dict[str, torch.Tensor]:
    """Pad word windows into a batch; each distinct character sequence is stored once.

    Returns:
        ``word_ids``, ``char_index``, ``shape_ids``, ``length_ids``, ``labels``, ``word_mask``
        (B x W); ``lengths`` (B); ``chars`` (U x C) and ``char_lengths`` (U) for the U distinct
        words of the batch (``char_index`` points into them).
    """
    n_w = max(len(e.words) for e in examples)
    unique: dict[tuple[int, ...], int] = {}
    char_index: list[list[int]] = []
    for e in examples:
        row = [unique.setdefault(c if c else (UNK_ID,), len(unique)) for c in e.char_ids]
        char_index.append(row)
    sequences = list(unique)
    n_c = max(len(c) for c in sequences)

    def pad(rows: list[list[int]], width: int, value: int) -> torch.Tensor:
        return torch.tensor([r + [value] * (width - len(r)) for r in rows], dtype=torch.long)

    batch = {
        "word_ids": pad([e.word_ids for e in examples], n_w, PAD_ID),
        "char_index": pad(char_index, n_w, 0),
        "shape_ids": pad([e.shape_ids for e in examples], n_w, 0),
        "length_ids": pad([e.length_ids for e in examples], n_w, 0),
        "labels": pad([e.labels for e in examples], n_w, IGNORE_INDEX),
        "word_mask": pad([[1] * len(e.words) for e in examples], n_w, 0).bool(),
        "lengths": torch.tensor([len(e.words) for e in examples], dtype=torch.long),
        "chars": pad([list(c) for c in sequences], n_c, PAD_ID),
        "char_lengths": torch.tensor([len(c) for c in sequences], dtype=torch.long),
    }
    if examples[0].vectors is not None:
        dim = examples[0].vectors.shape[1]
        stacked = np.zeros((len(examples), n_w, dim), dtype=np.float32)
        for i, e in enumerate(examples):
            if e.vectors is not None:
                stacked[i, : len(e.words)] = e.vectors
        batch["vectors"] = torch.from_numpy(stacked)
    return batch


def _uniform_(weight: torch.Tensor) -> None:
    """Unit-variance-per-vector uniform init (each component has variance ``1 / dim``)."""
    bound = math.sqrt(3.0 / weight.shape[1])
    nn.init.uniform_(weight, -bound, bound)


class BiLstmTagger(TaggerBase):
    """Character + word BiLSTM with a linear head and an optional CRF.

    Build one with :meth:`from_documents` (new model, vocabulary from training documents) or
    :meth:`load`. Same interface as :class:`phiscrub.tagger.model.PhiTagger` for training and
    inference (``forward``, ``loss``, ``collate``, ``log_scores``, ``transition_scores``, ``save``).

    Args:
        vocab: the word and character vocabularies.
        config: the resolved config (``encoder == "bilstm-crf"``).
    """

    singleton: torch.Tensor
    #: The :attr:`TrainConfig.backbone` this class is built for (subclasses add inputs).
    BACKBONE = BILSTM_ENCODER
    BACKBONE_FILES = (VOCAB_FILE,)
    QUANTIZED_LAYERS = frozenset({nn.Linear, nn.LSTM})

    def __init__(self, vocab: Vocab, config: TrainConfig) -> None:
        super().__init__()
        if config.backbone != self.BACKBONE:
            raise ConfigError(f"a {type(self).__name__} needs the {self.BACKBONE} backbone")
        self.vocab = vocab
        self.config = config
        self.tags: tuple[str, ...] = tag_set(config.granularity)
        self.word_emb = nn.Embedding(len(vocab.words), config.bilstm.word_dim, padding_idx=PAD_ID)
        self.char_emb = nn.Embedding(len(vocab.chars), config.bilstm.char_dim, padding_idx=PAD_ID)
        for emb in (self.word_emb, self.char_emb):
            with torch.no_grad():
                _uniform_(emb.weight)
                emb.weight[PAD_ID].zero_()
        self.char_lstm = PaddedBiLSTM(config.bilstm.char_dim, config.bilstm.char_hidden)
        shape_emb, length_emb, extra = shape_embeddings(config)
        self.shape_emb: nn.Embedding | None = shape_emb
        self.length_emb: nn.Embedding | None = length_emb
        self.dropout = nn.Dropout(config.bilstm.dropout)
        self.word_lstm = PaddedBiLSTM(
            config.bilstm.word_dim + 2 * config.bilstm.char_hidden + extra, config.bilstm.hidden
        )
        self.head = nn.Linear(2 * config.bilstm.hidden, len(self.tags))
        self.crf: CRF | None = FastCRF(self.tags) if config.use_crf else None
        self.register_buffer(
            "singleton", torch.tensor(vocab.singletons(), dtype=torch.bool), persistent=False
        )
        #: Kept for interface parity with PhiTagger; the BiLSTM always runs in float32.
        self.autocast_dtype: torch.dtype | None = None

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_documents(
        cls, config: TrainConfig, docs: Sequence[Document], seed: int | None = None
    ) -> BiLstmTagger:
        """New randomly initialised tagger with the vocabulary of ``docs``.

        Args:
            config: the training config (``encoder == "bilstm-crf"``).
            docs: gold training documents.
            seed: seeds torch before initialisation (default: ``config.seed``).
        """
        vocab = Vocab.build(docs)
        torch.manual_seed(config.seed if seed is None else seed)
        return cls(vocab, config)

    def extended(self, docs: Sequence[Document]) -> BiLstmTagger:
        """Copy with the vocabularies extended by ``docs`` (known rows kept, new rows random).

        Used when training continues from a saved model on new documents (``init_from``).
        """
        vocab = Vocab.build(docs, base=self.vocab)
        model = type(self)(vocab, self.config)
        state = self.state_dict()
        for name in ("word_emb.weight", "char_emb.weight"):
            fresh = model.state_dict()[name]
            fresh[: state[name].shape[0]] = state[name]
            state[name] = fresh
        model.load_state_dict(state)
        return model.to(next(self.parameters()).device)

    # ------------------------------------------------------------------ forward / loss

    def encode(self, docs: Sequence[Document]) -> list[WordDocument]:
        """The documents as this tagger's inputs (:func:`encode_words`; subclasses add vectors)."""
        return encode_words(docs, self.vocab, self.config.bilstm.max_word_chars)

    def collate(self, examples: Sequence[WordWindow]) -> dict[str, torch.Tensor]:
        """A batch of word windows (:func:`collate_words`)."""
        return collate_words(examples)

    def char_vectors(self, chars: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """Final forward and backward states of the character BiLSTM, ``(U, 2 * char_hidden)``."""
        return self.char_lstm.final(self.char_emb(chars), lengths)

    def forward(self, batch: dict[str, torch.Tensor]) -> WordEmissions:
        """Tag scores per word slot for a collated batch (:func:`collate_words`)."""
        word_ids = batch["word_ids"]
        if self.training and self.config.bilstm.singleton_unk > 0:
            drop = self.singleton[word_ids] & (
                torch.rand(word_ids.shape, device=word_ids.device) < self.config.bilstm.singleton_unk
            )
            word_ids = word_ids.masked_fill(drop, UNK_ID)
        chars = self.char_vectors(batch["chars"], batch["char_lengths"])
        parts = [self.word_emb(word_ids), chars[batch["char_index"]]]
        if self.shape_emb is not None and self.length_emb is not None:
            parts += [self.shape_emb(batch["shape_ids"]), self.length_emb(batch["length_ids"])]
        inputs = self.dropout(torch.cat(parts, dim=-1))
        hidden = self.word_lstm(inputs, batch["lengths"])
        return WordEmissions(self.head(self.dropout(hidden)), batch["word_mask"])

    # ------------------------------------------------------------------ save / load

    def _write_backbone_files(self, folder: Path) -> dict[str, Any]:
        """Write ``vocab.json`` (see :meth:`~phiscrub.tagger.model.TaggerBase.save`)."""
        (folder / VOCAB_FILE).write_text(
            json.dumps(self.vocab.to_dict(), ensure_ascii=False), encoding="utf-8"
        )
        return {
            "backbone": BILSTM_ENCODER,
            "vocab_size": len(self.vocab.words),
            "n_chars": len(self.vocab.chars),
        }

    @classmethod
    def _from_folder(cls, folder: Path, config: TrainConfig) -> Self:
        """A tagger with the folder's vocabulary (``vocab.json``).

        Raises:
            ModelError: ``vocab.json`` cannot be read.
        """
        try:
            vocab_data = json.loads((folder / VOCAB_FILE).read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ModelError(f"cannot read {VOCAB_FILE} of {folder}") from exc
        return cls(Vocab.from_dict(vocab_data), config)


def word_scores(
    model: BiLstmTagger, docs: Sequence[Document], batch_size: int
) -> list[tuple[list[Token], np.ndarray]]:
    """Per-word decoding scores of whole documents (each word from the window that owns it).

    Args:
        model: the tagger (in eval mode).
        docs: the documents.
        batch_size: windows per forward pass.

    Returns:
        Per document, its tokens and an ``(n_words, n_tags)`` float64 array of
        :meth:`BiLstmTagger.log_scores`.
    """
    encoded = model.encode(docs)
    examples, owners = windows_of(model, encoded)
    device = next(model.parameters()).device

    def run(chunk: list[WordWindow]) -> np.ndarray:
        batch = {k: v.to(device) for k, v in collate_words(chunk).items()}
        return model.log_scores(model(batch).emissions).double().cpu().numpy()

    n_words = [len(enc.tokens) for enc in encoded]
    with torch.inference_mode():
        scores = owned_scores(examples, owners, n_words, len(model.tags), run, _n_slots, batch_size)
    return [(enc.tokens, s) for enc, s in zip(encoded, scores)]


def _n_slots(window: WordWindow) -> int:
    return len(window.words)
