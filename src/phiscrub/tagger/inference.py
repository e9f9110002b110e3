"""Whole-document prediction with a :class:`~phiscrub.tagger.model.PhiTagger`.

Shared by the trainer (dev scores) and :class:`phiscrub.detect.tagger.TaggerDetector`:

1. documents -> words -> subwords -> overlapping windows (:mod:`phiscrub.tagger.encoding`, :mod:`phiscrub.tagger.windows`);
2. windows are batched by length and run through the model under ``torch.inference_mode``;
3. each word keeps the scores of the window that owns it (the one where it is farthest from a cut
   edge, :func:`~phiscrub.tagger.windows.window_owners`);
4. the word scores of the whole document are decoded at once by a BIO-constrained Viterbi (with
   the CRF's transition scores when the model has a CRF), so an entity crossing a window boundary
   is decoded as one entity and the output is always valid BIO;
5. word tags become character spans; a span's score is the mean, over its words, of the
   probability of the chosen tag: the softmax probability without a CRF, the CRF's posterior
   marginal (forward-backward over the whole document) with one.

A ``bilstm-crf`` tagger (:mod:`phiscrub.tagger.bilstm`) replaces steps 1-3 by word windows
(:func:`phiscrub.tagger.bilstm.word_scores`); decoding (4-5) is shared.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from phiscrub.document import Document
from phiscrub.progress import wants_progress
from phiscrub.tagger.bilstm import BiLstmTagger, word_scores

# Decoding and window ownership are torch-free (shared with the ONNX path, phiscrub.detect.onnx_tagger).
from phiscrub.tagger.decode import WordPrediction, decode_in_groups, owned_scores
from phiscrub.tagger.encoding import collate, encode_documents, special_affixes
from phiscrub.tagger.loaders import Tagger
from phiscrub.tagger.model import PhiTagger
from phiscrub.tagger.windows import WindowExample, encoder_windows
from phiscrub.text import Token

__all__ = ["WordPrediction", "predict_words"]


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

    def score(part: Sequence[Document]) -> list[tuple[list[Token], np.ndarray]]:
        if isinstance(model, BiLstmTagger):
            return word_scores(model, part, batch_size)
        return _window_scores(model, part, batch_size)

    try:
        transitions = model.transition_scores()
        return decode_in_groups(docs, score, model.tags, transitions, model.crf is not None)
    finally:
        model.train(was_training)


def _device_of(model: Tagger) -> torch.device:
    for param in model.parameters():
        return param.device
    return torch.device("cpu")


def _window_scores(
    model: PhiTagger, docs: Sequence[Document], batch_size: int
) -> list[tuple[list[Token], np.ndarray]]:
    """Per-word scores of whole documents from overlapping subword windows (steps 1-3 above)."""
    config = model.config
    encoded = encode_documents(docs, model.tokenizer)
    args = (config.max_length, config.overlap, config.sentence_aware, config.subword_strategy)
    examples, owners = encoder_windows(encoded, special_affixes(model.tokenizer), *args)
    device = _device_of(model)
    dtype = model.autocast_dtype

    def run(chunk: list[WindowExample]) -> np.ndarray:
        batch = {k: v.to(device) for k, v in collate(chunk, model.pad_id).items()}
        with torch.autocast(device.type, dtype=dtype or torch.bfloat16, enabled=dtype is not None):
            result = model(batch)
        return model.log_scores(result.emissions.float()).double().cpu().numpy()

    n_words = [len(enc.tokens) for enc in encoded]
    loud = wants_progress(max((len(d.text) for d in docs), default=0))  # long notes: counts only
    with torch.inference_mode():
        scores = owned_scores(
            examples, owners, n_words, len(model.tags), run, _input_length, batch_size, progress=loud
        )
    return [(enc.tokens, doc_scores) for enc, doc_scores in zip(encoded, scores)]


def _input_length(example: WindowExample) -> int:
    return len(example.input_ids)
