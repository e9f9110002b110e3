"""Change the label set of a saved tagger's output head (``train --init-from M --head fold|reinit``).

A model trained on fine labels (or a corpus's native labels) can seed a run on a coarser label
set. Two ways:

``fold`` (BIO-aware)
    Each new tag takes the rows of the old tags that fold to it: ``B-NAME`` those of ``B-PATIENT``,
    ``B-DOCTOR`` ..., ``I-NAME`` those of the ``I-`` tags, ``O`` stays ``O``. Emission rows are
    averaged and the bias gets ``+ log(k)`` for ``k`` merged rows (so the new tag's score is about the
    log of the summed probabilities when the rows agree); CRF transition, start and end scores take
    the maximum over the merged old pairs. Old tags that fold to nothing (``OTHER``, AGE under
    ``phicon5``) are dropped; a new tag no old tag folds to starts at zero.
``reinit``
    A fresh head and CRF of the new size; the encoder (or BiLSTM) weights are kept.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from phiscrub.errors import ConfigError, LabelError
from phiscrub.labels import fold
from phiscrub.tagger.config import INIT_HEADS
from phiscrub.tagger.encoding import tag_set

if TYPE_CHECKING:
    from phiscrub.tagger.loaders import Tagger

__all__ = ["HEAD_MODES", "refit_head", "tag_mapping"]

HEAD_MODES: tuple[str, ...] = INIT_HEADS


def tag_mapping(old_tags: tuple[str, ...], granularity: str) -> dict[str, list[int]]:
    """For each tag of ``granularity``, the indices of the old tags that fold to it (BIO kept)."""
    new_tags = tag_set(granularity)  # type: ignore[arg-type]
    groups: dict[str, list[int]] = {t: [] for t in new_tags}
    for i, tag in enumerate(old_tags):
        if tag == "O":
            groups["O"].append(i)
            continue
        prefix, label = tag[:2], tag[2:]
        try:
            folded = fold(label, granularity)  # type: ignore[arg-type]
        except LabelError:
            folded = None
        if folded is not None and f"{prefix}{folded}" in groups:
            groups[f"{prefix}{folded}"].append(i)
    return groups


def refit_head(model: Tagger, granularity: str, mode: str) -> None:
    """Give ``model`` a head (and CRF) for ``granularity``, folded from the old one or fresh.

    Raises:
        ConfigError: unknown mode.
    """
    import torch
    from torch import nn

    if mode not in HEAD_MODES:
        raise ConfigError(f"unknown head mode {mode!r}; use one of {list(HEAD_MODES)}")
    old_tags: tuple[str, ...] = model.tags
    old_head: nn.Linear = model.head
    old_crf = model.crf
    new_tags = tag_set(granularity)  # type: ignore[arg-type]
    head = nn.Linear(old_head.in_features, len(new_tags))
    crf = type(old_crf)(new_tags) if old_crf is not None else None
    if mode == "fold":
        groups = [tag_mapping(old_tags, granularity)[t] for t in new_tags]
        with torch.no_grad():
            head.weight.zero_()
            head.bias.zero_()
            for j, rows in enumerate(groups):
                if rows:
                    head.weight[j] = old_head.weight[rows].mean(0)
                    head.bias[j] = old_head.bias[rows].mean() + math.log(len(rows))
            if crf is not None and old_crf is not None:
                for j, rows_j in enumerate(groups):
                    if rows_j:
                        crf.start_transitions[j] = old_crf.start_transitions[rows_j].max()
                        crf.end_transitions[j] = old_crf.end_transitions[rows_j].max()
                    for k, rows_k in enumerate(groups):
                        if rows_j and rows_k:
                            crf.transitions[j, k] = old_crf.transitions[rows_j][:, rows_k].max()
    model.tags = new_tags
    model.head = head
    model.crf = crf
    model.config = model.config.replace(granularity=granularity)
