"""Whole-document prediction with a :class:`~phiscrub.train.model.PhiTagger`.

Shared by the trainer (dev scores) and :class:`phiscrub.detect.tagger.TaggerDetector`:

1. documents -> words -> subwords -> overlapping windows (:mod:`phiscrub.train.dataset`);
2. windows are batched by length and run through the model under ``torch.inference_mode``;
3. each word keeps the scores of the window that owns it (the one where it is farthest from a cut
   edge, :func:`~phiscrub.train.dataset.window_owners`);
4. the word scores of the whole document are decoded at once by a BIO-constrained Viterbi (with
   the CRF's transition scores when the model has a CRF), so an entity crossing a window boundary
   is decoded as one entity and the output is always valid BIO;
5. word tags become character spans; a span's score is the mean, over its words, of the
   probability of the chosen tag: the softmax probability without a CRF, the CRF's posterior
   marginal (forward-backward over the whole document) with one.

A ``bilstm-crf`` tagger (:mod:`phiscrub.train.bilstm`) replaces steps 1-3 by word windows
(:func:`phiscrub.train.bilstm.word_scores`); decoding (4-5) is shared.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from phiscrub.document import Document
from phiscrub.progress import report, wants_progress
from phiscrub.text import Token
from phiscrub.train.bilstm import BiLstmTagger, word_scores
from phiscrub.train.dataset import collate, encode_documents, special_affixes

# Decoding and window planning are torch-free (shared with the ONNX path, phiscrub.detect.onnx_tagger).
from phiscrub.train.decode import WordPrediction, decode_documents, inference_windows, keep_owned
from phiscrub.train.loaders import Tagger
from phiscrub.train.model import PhiTagger

__all__ = ["WordPrediction", "predict_words"]

# Documents encoded at once: bounds memory on large corpora (windows are built per group).
_DOC_GROUP = 64


def predict_words(model: Tagger, docs: Sequence[Document], batch_size: int = 32) -> list[WordPrediction]:
    """Tag every word of every document (no truncation, any length).

    Args:
        model: the tagger (its mode is restored afterwards).
        docs: the documents.
        batch_size: windows per forward pass.

    Returns:
        One :class:`WordPrediction` per document, in order.
    """
    was_training = model.training
    model.eval()
    try:
        out: list[WordPrediction] = []
        for s in range(0, len(docs), _DOC_GROUP):
            out += _predict_group(model, docs[s : s + _DOC_GROUP], batch_size)
        return out
    finally:
        model.train(was_training)


def _device_of(model: Tagger) -> torch.device:
    for param in model.parameters():
        return param.device
    return torch.device("cpu")


def _predict_group(model: Tagger, docs: Sequence[Document], batch_size: int) -> list[WordPrediction]:
    if isinstance(model, BiLstmTagger):
        scored = word_scores(model, docs, batch_size)
    else:
        scored = _window_scores(model, docs, batch_size)
    transitions = model.transition_scores()
    use_crf = model.crf is not None
    items = [(doc.id, tokens, doc_scores) for doc, (tokens, doc_scores) in zip(docs, scored)]
    return decode_documents(items, model.tags, transitions, use_crf)


def _window_scores(
    model: PhiTagger, docs: Sequence[Document], batch_size: int
) -> list[tuple[list[Token], np.ndarray]]:
    """Per-word scores of whole documents from overlapping subword windows (steps 1-3 above)."""
    config = model.config
    tokenizer = model.tokenizer
    encoded = encode_documents(docs, tokenizer)
    examples, owners = inference_windows(
        encoded,
        special_affixes(tokenizer),
        config.max_length,
        config.overlap,
        config.sentence_aware,
        config.subword_strategy,
    )
    n_tags = len(model.tags)
    scores = [np.zeros((len(enc.tokens), n_tags), dtype=np.float64) for enc in encoded]
    device = _device_of(model)
    # Sorting by length keeps padding small; the order is restored through doc/window indices.
    order = sorted(range(len(examples)), key=lambda i: len(examples[i].input_ids))
    loud = wants_progress(max((len(d.text) for d in docs), default=0))  # long notes: counts only
    with torch.inference_mode():
        for b in range(0, len(order), batch_size):
            chunk = [examples[i] for i in order[b : b + batch_size]]
            batch = {k: v.to(device) for k, v in collate(chunk, model.pad_id).items()}
            dtype = getattr(model, "autocast_dtype", None)
            with torch.autocast(device.type, dtype=dtype or torch.bfloat16, enabled=dtype is not None):
                result = model(batch)
            window_scores = model.log_scores(result.emissions.float()).double().cpu().numpy()
            keep_owned(scores, owners, chunk, window_scores)
            if loud:
                report("model windows", min(b + batch_size, len(order)), len(order))
    return [(enc.tokens, doc_scores) for enc, doc_scores in zip(encoded, scores)]
