"""BERTScore-style embedding similarity (Zhang et al., 2020) with a local Hugging Face encoder."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from phiscrub.errors import ConfigError
from phiscrub.synth.batching import padded_batch
from phiscrub.synth.metrics.rouge import Score
from phiscrub.synth.metrics.tokens import (
    DEFAULT_MASK_PATTERN,
    _segments,
)

if TYPE_CHECKING:
    import torch

__all__ = ["EmbeddingScorer", "greedy_match"]


# -- embedding similarity -------------------------------------------------------------------------
def greedy_match(candidate: torch.Tensor, reference: torch.Tensor) -> Score:
    """BERTScore greedy matching of two sets of L2-normalised token embeddings.

    Args:
        candidate: ``(n_c, d)`` candidate token embeddings, unit length.
        reference: ``(n_r, d)`` reference token embeddings, unit length.

    Returns:
        P = mean over candidate tokens of the best cosine with a reference token, R the reverse, F.
        Empty sides score 0 (both empty: 1).
    """
    if candidate.shape[0] == 0 or reference.shape[0] == 0:
        both = candidate.shape[0] == 0 and reference.shape[0] == 0
        return Score(1.0, 1.0, 1.0) if both else Score(0.0, 0.0, 0.0)
    sim = candidate @ reference.T
    precision = float(sim.max(dim=1).values.mean())
    recall = float(sim.max(dim=0).values.mean())
    return Score.from_pr(precision, recall)


class EmbeddingScorer:
    """BERTScore-style similarity with a local Hugging Face encoder, batched, on CPU by default.

    Token embeddings are cached per distinct text, so a letter compared several times (with a
    synthetic and with a masked version) is embedded once. The encoder is loaded on first use.

    Args:
        encoder: a local encoder folder; None for the bundled all-MiniLM-L6-v2.
        batch_size: windows per forward pass.
        window: most subwords per window, special tokens included (capped by the model's limit).
        layer: hidden layer whose output is used (0 = embeddings, -1 = last); default last.
        mask_pattern: mask tokens, shown to the encoder as its own mask token.
        device: torch device name.
        progress: show a progress bar on stderr.
    """

    def __init__(
        self,
        encoder: str | Path | None = None,
        batch_size: int = 16,
        window: int = 256,
        layer: int = -1,
        mask_pattern: str | None = DEFAULT_MASK_PATTERN,
        device: str = "cpu",
        progress: bool = True,
    ) -> None:
        from phiscrub.hf import check_model_dir, quiet_transformers
        from phiscrub.tagger.model import default_encoder_path

        if batch_size < 1 or window < 3:
            raise ConfigError("batch_size must be >= 1 and window >= 3")
        self.encoder_path = check_model_dir(encoder) if encoder is not None else default_encoder_path()
        self.device = device
        self.batch_size = batch_size
        self.requested_window = window
        self.layer = layer
        self.mask_pattern = mask_pattern
        self.progress = progress
        self._quiet = quiet_transformers
        self._cache: dict[str, torch.Tensor] = {}
        self._loaded: tuple[Any, Any, int, tuple[list[int], list[int]]] | None = None

    def _load(self) -> tuple[Any, Any, int, tuple[list[int], list[int]]]:
        """Model, tokenizer, effective window and special ends; loaded on first use."""
        if self._loaded is None:
            from phiscrub.tagger.model import load_encoder

            model, tokenizer = load_encoder(self.encoder_path)
            model.eval().to(self.device)
            limit = int(getattr(model.config, "max_position_embeddings", 512) or 512)
            if getattr(model.config, "model_type", "") in ("roberta", "xlm-roberta", "camembert"):
                limit -= 2  # positions start after the padding index
            model_max = int(getattr(tokenizer, "model_max_length", limit) or limit)
            window = min(self.requested_window, limit, model_max)
            self._loaded = (model, tokenizer, window, self._special_ends(tokenizer))
        return self._loaded

    @property
    def model(self) -> Any:
        """The encoder (loaded on first use)."""
        return self._load()[0]

    @property
    def tokenizer(self) -> Any:
        """The encoder's fast tokenizer (loaded on first use)."""
        return self._load()[1]

    @property
    def window(self) -> int:
        """Effective window: the requested one capped by the model's position limit."""
        return self._load()[2]

    def _prepare(self, text: str) -> str:
        mask_token = getattr(self.tokenizer, "mask_token", None)
        if not mask_token or not self.mask_pattern:
            return text
        return "".join(mask_token if s is None else s for s in _segments(text, self.mask_pattern))

    def _special_ends(self, tokenizer: Any) -> tuple[list[int], list[int]]:
        """Special token ids the tokenizer puts before and after a single sequence (e.g. CLS, SEP)."""
        with self._quiet():
            plain = list(tokenizer("a", add_special_tokens=False)["input_ids"])
            full = list(tokenizer("a", add_special_tokens=True)["input_ids"])
        for i in range(len(full) - len(plain) + 1):
            if plain and full[i : i + len(plain)] == plain:
                return full[:i], full[i + len(plain) :]
        return [], []

    def _windows(self, ids: list[int]) -> list[tuple[list[int], list[int]]]:
        """Split subword ids into model inputs, each with the positions of its real tokens."""
        head, tail = self._load()[3]
        room = max(1, self.window - len(head) - len(tail))
        out = []
        for i in range(0, len(ids), room):
            chunk = ids[i : i + room]
            out.append((head + chunk + tail, list(range(len(head), len(head) + len(chunk)))))
        return out

    def _token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        if not texts:
            return []
        with self._quiet():
            enc = self.tokenizer([self._prepare(t) for t in texts], add_special_tokens=False)
        return [list(ids) for ids in enc["input_ids"]]

    def _embed_ids(self, ids_list: Sequence[list[int]], bar: Any) -> list[torch.Tensor]:
        """Unit-length token embeddings of pre-tokenized texts, windows batched by length."""
        import torch

        jobs: list[tuple[int, int, list[int], list[int]]] = []
        for k, ids in enumerate(ids_list):
            jobs.extend((k, w, full, keep) for w, (full, keep) in enumerate(self._windows(ids)))
        jobs.sort(key=lambda j: len(j[2]))  # similar lengths together: less padding
        parts: list[dict[int, torch.Tensor]] = [{} for _ in ids_list]
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        with torch.inference_mode():
            for i in range(0, len(jobs), self.batch_size):
                batch = jobs[i : i + self.batch_size]
                input_ids, attention = padded_batch([j[2] for j in batch], pad)
                out = self.model(
                    input_ids=input_ids.to(self.device),
                    attention_mask=attention.to(self.device),
                    output_hidden_states=self.layer != -1,
                )
                hidden = out.last_hidden_state if self.layer == -1 else out.hidden_states[self.layer]
                hidden = hidden.float().cpu()
                for r, (k, w, _, keep) in enumerate(batch):
                    parts[k][w] = hidden[r, keep]
                bar.update(len(batch))
        dim = int(self.model.config.hidden_size)
        out_embs = []
        for k in range(len(ids_list)):
            pieces = [parts[k][w] for w in sorted(parts[k])]
            emb = torch.cat(pieces) if pieces else torch.zeros((0, dim))
            out_embs.append(torch.nn.functional.normalize(emb, dim=-1))
        return out_embs

    def _bar(self, total: int) -> Any:
        from tqdm import tqdm

        return tqdm(total=total, desc="embed", unit="window", file=sys.stderr, disable=not self.progress)

    def embed(self, texts: Sequence[str]) -> list[torch.Tensor]:
        """Unit-length contextual token embeddings of each text (special tokens left out); cached.

        Args:
            texts: the texts; repeats and texts seen before are embedded once.

        Returns:
            One ``(n_tokens, hidden)`` float tensor per text.
        """
        todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if todo:
            ids = self._token_ids(todo)
            with self._bar(sum(len(self._windows(i)) for i in ids)) as bar:
                self._cache.update(zip(todo, self._embed_ids(ids, bar)))
        return [self._cache[t] for t in texts]

    def score(self, candidates: Sequence[str], references: Sequence[str], block: int = 32) -> list[Score]:
        """BERTScore P/R/F of each candidate against the reference at the same position.

        Pairs are embedded ``block`` at a time and each text's embeddings are dropped after its last
        pair (texts embedded before through :meth:`embed` are reused and kept), so memory stays
        bounded on large corpora; keep pairs sharing a text close together.

        Raises:
            ConfigError: the two sequences differ in length.
        """
        if len(candidates) != len(references):
            raise ConfigError(f"{len(candidates)} candidates but {len(references)} references")
        last_use: dict[str, int] = {}
        for i, (c, r) in enumerate(zip(candidates, references)):
            last_use[c] = last_use[r] = i
        todo = [t for t in last_use if t not in self._cache]
        ids = dict(zip(todo, self._token_ids(todo)))
        local: dict[str, torch.Tensor] = {}
        scores: list[Score] = []
        with self._bar(sum(len(self._windows(i)) for i in ids.values())) as bar:
            for start in range(0, len(candidates), block):
                stop = min(start + block, len(candidates))
                need = list(
                    dict.fromkeys(t for t in [*candidates[start:stop], *references[start:stop]] if t in ids)
                )
                need = [t for t in need if t not in local]
                local.update(zip(need, self._embed_ids([ids[t] for t in need], bar)))
                for c, r in zip(candidates[start:stop], references[start:stop]):
                    cand = self._cache[c] if c in self._cache else local[c]
                    ref = self._cache[r] if r in self._cache else local[r]
                    scores.append(greedy_match(cand, ref))
                for t in [t for t in local if last_use[t] < stop]:
                    del local[t]
        return scores

    def clear(self) -> None:
        """Forget the cached embeddings."""
        self._cache.clear()
