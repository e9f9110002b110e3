"""Layers of the BiLSTM-CRF taggers that are fast to train on CPU: a padded BiLSTM and a CRF.

:class:`PaddedBiLSTM` runs right-padded batches without packed sequences and :class:`FastCRF` has a
backward pass linear in the sequence length; both give the results of the plain torch layers
(``tests/test_bilstm.py``). Used by :mod:`phiscrub.tagger.bilstm` and :mod:`phiscrub.tagger.gemma`.
"""

from __future__ import annotations

import torch
from torch import nn

from phiscrub.tagger.crf import CRF

__all__ = ["FastCRF", "PaddedBiLSTM"]


class FastCRF(CRF):
    """:class:`~phiscrub.tagger.crf.CRF` with a backward pass linear in the sequence length.

    Same parameters, scores and results as the base class; the forward algorithm walks
    ``emissions.unbind(1)`` and the gold path score gathers all positions at once, so autograd does
    not allocate a full-size zero gradient per position (the cost that dominates CPU training of a
    small model on long windows).
    """

    def log_partition(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Log normaliser of each sequence (see :meth:`CRF.log_partition`)."""
        trans, start, end = self.scores()
        steps = emissions.unbind(1)
        valid = mask.unbind(1)
        alpha = start + steps[0]
        for emission, ok in zip(steps[1:], valid[1:]):
            nxt = torch.logsumexp(alpha.unsqueeze(2) + trans.unsqueeze(0), dim=1) + emission
            alpha = torch.where(ok.unsqueeze(1), nxt, alpha)
        return torch.logsumexp(alpha + end, dim=1)

    def path_score(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Unnormalised score of the given tag paths (see :meth:`CRF.path_score`)."""
        trans, start, end = self.scores()
        tags = tags.masked_fill(~mask, 0)
        zero = emissions.new_zeros(())
        emitted = emissions.gather(2, tags.unsqueeze(2)).squeeze(2)
        score = start[tags[:, 0]] + torch.where(mask, emitted, zero).sum(dim=1)
        if tags.shape[1] > 1:
            moves = trans[tags[:, :-1], tags[:, 1:]]
            score = score + torch.where(mask[:, 1:], moves, zero).sum(dim=1)
        last = mask.long().sum(dim=1, keepdim=True) - 1
        return score + end[tags.gather(1, last).squeeze(1)]


def _reverse_index(lengths: torch.Tensor, width: int) -> torch.Tensor:
    """``(B, width)`` positions that reverse each row's first ``lengths[b]`` items (padding stays)."""
    pos = torch.arange(width, device=lengths.device).unsqueeze(0)
    last = (lengths - 1).unsqueeze(1)
    return torch.where(pos <= last, last - pos, pos)


class PaddedBiLSTM(nn.Module):
    """A bidirectional LSTM over right-padded batches, without packed sequences.

    The backward direction is a second LSTM run on each row reversed within its length, so padding
    never reaches a real position. On CPU this is several times faster to train than
    ``nn.LSTM(bidirectional=True)`` on a packed sequence, whose backward pass allocates a full-size
    gradient for every time step.

    Args:
        input_size: input features.
        hidden_size: hidden size of each direction.
    """

    def __init__(self, input_size: int, hidden_size: int) -> None:
        super().__init__()
        self.forward_lstm = nn.LSTM(input_size, hidden_size, batch_first=True)
        self.backward_lstm = nn.LSTM(input_size, hidden_size, batch_first=True)

    def _run(
        self, inputs: torch.Tensor, lengths: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        index = _reverse_index(lengths, inputs.shape[1]).unsqueeze(2)
        fw, _ = self.forward_lstm(inputs)
        bw, _ = self.backward_lstm(inputs.gather(1, index.expand(-1, -1, inputs.shape[2])))
        return fw, bw, index

    def forward(self, inputs: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """Outputs ``(B, T, 2 * hidden)`` of both directions at every position (padding: garbage)."""
        fw, bw, index = self._run(inputs, lengths)
        bw = bw.gather(1, index.expand(-1, -1, bw.shape[2]))
        return torch.cat([fw, bw], dim=-1)

    def final(self, inputs: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """Last state of each direction (after reading the whole row), ``(B, 2 * hidden)``."""
        fw, bw, _ = self._run(inputs, lengths)
        last = (lengths - 1).view(-1, 1, 1).expand(-1, 1, fw.shape[2])
        return torch.cat([fw.gather(1, last).squeeze(1), bw.gather(1, last).squeeze(1)], dim=-1)
