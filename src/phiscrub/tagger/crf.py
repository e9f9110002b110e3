"""A small linear-chain CRF in pure torch, and BIO-constrained Viterbi decoding.

Invalid BIO transitions (``O -> I-X``, ``B-X -> I-Y``, ``I-X -> I-Y`` with X != Y, and
``start -> I-X``) get score minus infinity, both in the CRF (:class:`CRF`, where they are masked
out of the learned transition matrix) and in decoding without a CRF (:func:`bio_constraints`
turned into a transition matrix of 0 / minus infinity over softmax log-probabilities). So decoded
tag sequences are always valid BIO, whatever the emissions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

# The numpy decoding lives in a torch-free module (shared with the ONNX path); re-exported here.
from phiscrub.tagger.decode import (  # noqa: F401 - _marginals_* re-exported for tests
    _marginals_log,
    _marginals_scaled,
    bio_constraints,
    constraint_scores,
    marginals,
    viterbi_decode,
)

__all__ = ["CRF", "bio_constraints", "constraint_scores", "marginals", "viterbi_decode"]

_NEG_INF = float("-inf")


class CRF(nn.Module):
    """Linear-chain CRF over BIO tags with hard BIO constraints.

    Args:
        tags: the tag names (``O``, ``B-X``, ``I-X`` ...), in model output order.
    """

    allowed: torch.Tensor
    allowed_start: torch.Tensor

    def __init__(self, tags: Sequence[str]) -> None:
        super().__init__()
        self.num_tags = len(tags)
        self.transitions = nn.Parameter(torch.zeros(self.num_tags, self.num_tags))
        self.start_transitions = nn.Parameter(torch.zeros(self.num_tags))
        self.end_transitions = nn.Parameter(torch.zeros(self.num_tags))
        allowed, allowed_start = bio_constraints(tags)
        # Derived from the tag names, so not saved with the weights.
        self.register_buffer("allowed", torch.from_numpy(allowed), persistent=False)
        self.register_buffer("allowed_start", torch.from_numpy(allowed_start), persistent=False)

    def scores(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Transition, start and end scores with forbidden moves at minus infinity."""
        trans = self.transitions.masked_fill(~self.allowed, _NEG_INF)
        start = self.start_transitions.masked_fill(~self.allowed_start, _NEG_INF)
        return trans, start, self.end_transitions

    def numpy_scores(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`scores` as float64 numpy arrays (for :func:`viterbi_decode`)."""
        with torch.no_grad():
            trans, start, end = self.scores()
            return (
                trans.detach().double().cpu().numpy(),
                start.detach().double().cpu().numpy(),
                end.detach().double().cpu().numpy(),
            )

    def log_partition(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Log normaliser of each sequence (forward algorithm).

        Args:
            emissions: ``(B, n, T)``.
            mask: ``(B, n)`` bool, left-aligned (each row's valid positions come first, at least one).
        """
        trans, start, end = self.scores()
        alpha = start + emissions[:, 0]
        for t in range(1, emissions.shape[1]):
            nxt = torch.logsumexp(alpha.unsqueeze(2) + trans.unsqueeze(0), dim=1) + emissions[:, t]
            alpha = torch.where(mask[:, t].unsqueeze(1), nxt, alpha)
        return torch.logsumexp(alpha + end, dim=1)

    def path_score(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Unnormalised score of the given tag paths (``tags`` at masked positions are ignored)."""
        trans, start, end = self.scores()
        tags = tags.masked_fill(~mask, 0)
        batch = torch.arange(emissions.shape[0], device=emissions.device)
        score = start[tags[:, 0]] + emissions[batch, 0, tags[:, 0]]
        for t in range(1, emissions.shape[1]):
            step = trans[tags[:, t - 1], tags[:, t]] + emissions[batch, t, tags[:, t]]
            score = score + step.masked_fill(~mask[:, t], 0.0)
        last = mask.long().sum(dim=1) - 1
        return score + end[tags[batch, last]]

    def nll(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Mean negative log-likelihood of the gold paths.

        Args:
            emissions: ``(B, n, T)`` float.
            tags: ``(B, n)`` gold tag ids (valid BIO on masked positions).
            mask: ``(B, n)`` bool, left-aligned, at least one True per row.
        """
        emissions = emissions.float()
        return (self.log_partition(emissions, mask) - self.path_score(emissions, tags, mask)).mean()

    def decode(self, emissions: torch.Tensor, mask: torch.Tensor) -> list[list[int]]:
        """Viterbi paths of a batch (valid BIO by construction)."""
        trans, start, end = self.numpy_scores()
        em = emissions.detach().double().cpu().numpy()
        lengths = mask.long().sum(dim=1).tolist()
        return [viterbi_decode(em[b, :n], trans, start, end) for b, n in enumerate(lengths)]
