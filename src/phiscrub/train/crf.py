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

__all__ = ["CRF", "bio_constraints", "constraint_scores", "marginals", "viterbi_decode"]

_NEG_INF = float("-inf")


def bio_constraints(tags: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Allowed transitions of a BIO tag set.

    Returns:
        ``allowed[i, j]`` (True when tag j may follow tag i) and ``allowed_start[j]`` (True when a
        sequence may start with tag j).
    """
    n = len(tags)
    allowed = np.ones((n, n), dtype=bool)
    allowed_start = np.ones(n, dtype=bool)
    for j, tag in enumerate(tags):
        if not tag.startswith("I-"):
            continue
        allowed_start[j] = False
        for i, prev in enumerate(tags):
            # I-X may only follow B-X or I-X
            allowed[i, j] = prev in (f"B-{tag[2:]}", tag)
    return allowed, allowed_start


def constraint_scores(tags: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Transition, start and end scores that only forbid invalid BIO (0 or minus infinity)."""
    allowed, allowed_start = bio_constraints(tags)
    trans = np.where(allowed, 0.0, _NEG_INF)
    start = np.where(allowed_start, 0.0, _NEG_INF)
    return trans, start, np.zeros(len(tags))


def viterbi_decode(
    emissions: np.ndarray, transitions: np.ndarray, start: np.ndarray, end: np.ndarray
) -> list[int]:
    """Best tag path for one sequence.

    Args:
        emissions: ``(n, T)`` scores (log-probabilities or CRF emissions).
        transitions: ``(T, T)`` scores of tag j following tag i (minus infinity: forbidden).
        start: ``(T,)`` scores of starting with each tag.
        end: ``(T,)`` scores of ending with each tag.

    Returns:
        ``n`` tag indices; empty for an empty sequence.
    """
    n = emissions.shape[0]
    if n == 0:
        return []
    emissions = emissions.astype(np.float64, copy=False)
    transitions = transitions.astype(np.float64, copy=False)
    back = np.empty((n, emissions.shape[1]), dtype=np.int64)
    score = start + emissions[0]
    for t in range(1, n):
        cand = score[:, None] + transitions  # (prev, next)
        back[t] = cand.argmax(axis=0)
        score = cand[back[t], np.arange(cand.shape[1])] + emissions[t]
    score = score + end
    best = int(score.argmax())
    path = [best]
    for t in range(n - 1, 0, -1):
        best = int(back[t, best])
        path.append(best)
    path.reverse()
    return path


def _logsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    top = x.max(axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.exp(x - top).sum(axis=axis, keepdims=True)) + top
    return np.squeeze(out, axis=axis)


def marginals(
    emissions: np.ndarray, transitions: np.ndarray, start: np.ndarray, end: np.ndarray
) -> np.ndarray:
    """Posterior probability of each tag at each position (forward-backward).

    Same arguments as :func:`viterbi_decode`; returns an ``(n, T)`` array whose rows sum to 1
    (invalid BIO tags at a position get probability 0 when every path to them is forbidden).
    """
    n, n_tags = emissions.shape
    if n == 0:
        return np.zeros((0, n_tags))
    emissions = emissions.astype(np.float64, copy=False)
    fast = _marginals_scaled(emissions, transitions, start, end)
    if fast is not None:
        return fast
    return _marginals_log(emissions, transitions, start, end)


def _finite_exp(x: np.ndarray, axis: int | None = None) -> np.ndarray:
    """exp(x - max) with -inf -> 0; the shift cancels in the normalised products below."""
    finite = np.where(np.isfinite(x), x, -np.inf)
    top = finite.max(axis=axis, keepdims=axis is not None) if np.isfinite(finite).any() else 0.0
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(under="ignore", over="ignore"):
        return np.exp(finite - top)


def _marginals_scaled(
    emissions: np.ndarray, transitions: np.ndarray, start: np.ndarray, end: np.ndarray
) -> np.ndarray | None:
    """Forward-backward in probability space with per-step scaling (fast: one mat-vec a step).

    Returns None when a scaling factor underflows to 0 (extreme scores); the caller then uses the
    log-space version, which is exact but slower.
    """
    n = emissions.shape[0]
    em = _finite_exp(emissions, axis=1)
    trans = _finite_exp(transitions)
    alpha = np.empty_like(em)
    beta = np.empty_like(em)
    a = _finite_exp(start) * em[0]
    for t in range(n):
        if t:
            a = (alpha[t - 1] @ trans) * em[t]
        z = a.sum()
        if not (z > 0 and np.isfinite(z)):
            return None
        alpha[t] = a / z
    b = _finite_exp(end)
    for t in range(n - 1, -1, -1):
        if t < n - 1:
            b = trans @ (em[t + 1] * beta[t + 1])
        z = b.sum()
        if not (z > 0 and np.isfinite(z)):
            return None
        beta[t] = b / z
    post = alpha * beta
    norm = post.sum(axis=1, keepdims=True)
    if not np.all(norm > 0):
        return None
    return np.clip(post / norm, 0.0, 1.0)


def _marginals_log(
    emissions: np.ndarray, transitions: np.ndarray, start: np.ndarray, end: np.ndarray
) -> np.ndarray:
    """Forward-backward in log space (exact for any score range)."""
    n, n_tags = emissions.shape
    alpha = np.empty((n, n_tags))
    beta = np.zeros((n, n_tags))
    alpha[0] = start + emissions[0]
    for t in range(1, n):
        alpha[t] = _logsumexp(alpha[t - 1][:, None] + transitions, axis=0) + emissions[t]
    beta[n - 1] = end
    for t in range(n - 2, -1, -1):
        beta[t] = _logsumexp(transitions + (emissions[t + 1] + beta[t + 1])[None, :], axis=1)
    log_z = _logsumexp(alpha[n - 1] + end, axis=0)
    with np.errstate(under="ignore"):
        # rounding can push a certain tag a hair above 1
        return np.clip(np.exp(alpha + beta - log_z), 0.0, 1.0)


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
