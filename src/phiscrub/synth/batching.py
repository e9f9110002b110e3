"""Padded token batches for the Hugging Face models of synthesis (the masked-LM refiller, the embedding
metric): one helper instead of a copy in each."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

__all__ = ["padded_batch"]


def padded_batch(rows: Sequence[Sequence[int]], pad: int) -> tuple[torch.Tensor, torch.Tensor]:
    """``(input_ids, attention_mask)`` of token id rows, right-padded with ``pad`` to the longest row.

    Args:
        rows: token ids, one row per sequence (at least one).
        pad: the padding id.
    """
    import torch

    width = max(len(r) for r in rows)
    input_ids = torch.full((len(rows), width), pad, dtype=torch.long)
    attention = torch.zeros((len(rows), width), dtype=torch.long)
    for i, row in enumerate(rows):
        input_ids[i, : len(row)] = torch.tensor(row)
        attention[i, : len(row)] = 1
    return input_ids, attention
