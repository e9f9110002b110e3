"""Tiny synthetic corpora and tiny training configs shared by the tests (made-up PHI only).

Importable as ``corpora`` from any test module: ``tests/conftest.py`` puts ``tests/`` on ``sys.path``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.tagger.config import TrainConfig

__all__ = [
    "FIRST",
    "HOSPITALS",
    "LAST",
    "TINY_BILSTM",
    "TINY_TRANSFORMER",
    "Part",
    "generate_docs",
    "make_doc",
    "tiny_bilstm_config",
    "tiny_transformer_config",
]

#: A piece of note text and its gold label (None: not PHI).
Part = tuple[str, str | None]

# Made-up people and places (synthetic PHI only).
FIRST = ("Alma", "Boris", "Celia", "Dario", "Edna", "Fabio", "Greta", "Hugo", "Iris", "Jonas", "Kira", "Lev")
LAST = ("Quill", "Ranter", "Sovik", "Tamber", "Ulvane", "Varga", "Wexley", "Yorn", "Zabel", "Pryce")
HOSPITALS = ("Larkspur General", "Oakmere Clinic", "Fenwick Memorial")

#: A small, fast character + word BiLSTM-CRF (one thread, no warm-up).
TINY_BILSTM: dict[str, Any] = {
    "bilstm": {
        "word_dim": 16,
        "char_dim": 8,
        "char_hidden": 8,
        "hidden": 16,
        "dropout": 0.1,
        "lr": 2e-2,
        "window": 16,
        "overlap": 4,
    },
    "batch_size": 4,
    "warmup_ratio": 0.0,
    "num_threads": 1,
}

#: Short windows and high learning rates for tiny random transformer encoders.
TINY_TRANSFORMER: dict[str, Any] = {
    "max_length": 32,
    "overlap": 4,
    "batch_size": 4,
    "lr": 3e-3,
    "head_lr": 1e-2,
    "warmup_ratio": 0.0,
}


def make_doc(doc_id: str, parts: Iterable[Part]) -> Document:
    """A document from (text, label) pieces; labelled pieces become gold spans.

    Args:
        doc_id: document id.
        parts: pieces in text order; a piece with a label is one gold span of that label.
    """
    text, spans = "", []
    for piece, label in parts:
        if label is not None:
            spans.append(Span(len(text), len(text) + len(piece), label))
        text += piece
    return Document(doc_id, text, tuple(spans))


def generate_docs(
    ids: Iterable[str], seed: int, parts: Callable[[random.Random], list[Part]]
) -> list[Document]:
    """One document per id, their pieces drawn in turn from one generator seeded with ``seed``.

    Args:
        ids: document ids, in order.
        seed: seed of the shared ``random.Random``.
        parts: draws the (text, label) pieces of one document.
    """
    rng = random.Random(seed)
    return [make_doc(doc_id, parts(rng)) for doc_id in ids]


def tiny_bilstm_config(**changes: Any) -> TrainConfig:
    """A BiLSTM-CRF training config with :data:`TINY_BILSTM`, then ``changes``.

    Args:
        changes: config values to set on top (validated).
    """
    return TrainConfig(encoder="bilstm-crf").replace(**{**TINY_BILSTM, **changes})


def tiny_transformer_config(encoder: str | Path, **changes: Any) -> TrainConfig:
    """A transformer training config on ``encoder`` with :data:`TINY_TRANSFORMER`, then ``changes``.

    Args:
        encoder: folder of a (tiny) encoder.
        changes: config values to set on top (validated).
    """
    return TrainConfig(encoder=str(encoder)).replace(**{**TINY_TRANSFORMER, **changes})
