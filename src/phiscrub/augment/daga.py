"""DAGA: data augmentation with a generation approach (Ding et al. 2020; used by Wang et al. 2022).

Unlike the other augmenters, DAGA does not edit documents one by one: it learns the corpus and then
writes new sentences from scratch.

1. **Sentences.** The gold documents are cut into sentences (:func:`phiscrub.text.sentences`) and
   words (:func:`phiscrub.text.tokenize`); each word gets a BIO tag over the labels folded to the chosen
   granularity (:func:`phiscrub.train.dataset.bio_tags`). Sentences with PHI are kept, plus a share
   (``o_fraction``) of sentences without PHI, so that the model also learns plain context.
2. **Linearization.** A tag token is inserted before every entity word:
   ``seen by <B-NAME> John <I-NAME> Smith on <B-DATE> 3/4``. Spacing is kept in the words themselves:
   a word written right after the previous one, with no space (``3`` ``/`` ``4``, ``Smith`` ``,``),
   carries the prefix ``##`` (``<B-DATE> 3 <I-DATE> ##/ <I-DATE> ##4``), so that a generated sentence
   is written back with the corpus's own spacing and a date or a phone number stays in one piece.
   ``##`` cannot be confused with a real word: the tokenizer makes every punctuation mark a token of
   its own, so no word starts with two of them.
3. **Language model.** A word-level LSTM language model (embedding, LSTM, linear layer over the
   vocabulary of every word and tag token seen in the kept sentences) is trained on the linearized
   sentences, ``<bos>`` to ``<eos>``, on the CPU.
4. **Sampling.** New sequences are sampled token by token with a temperature, up to ``max_len`` tokens.
5. **Delinearization.** A sample becomes words, tags and character spans (:func:`delinearize`,
   :func:`render`; the format lives in :mod:`phiscrub.augment.linearize`). It is *malformed*, and dropped, when a tag token is not followed by a word (a tag at
   the end, or two tags in a row), when an ``I-X`` does not continue an entity of type ``X`` (after an
   ``O`` word, at the start, or after another type), when it has no word, or when it does not end within
   ``max_len`` tokens. Samples that repeat a training sentence word for word, or an earlier sample, are
   dropped too: they add nothing.

The kept sentences are grouped into new documents (``daga-<n>``), one sentence per line, with spans
at the folded granularity (``NAME``, ``DATE``... for ``coarse``; coarse labels are valid document
labels). Counts of every stage are given in a :class:`DagaReport`; nothing in it, in the logs or in
the exceptions holds note text.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

from phiscrub.augment.base import ResultLines
from phiscrub.augment.linearize import (
    BOS,
    EOS,
    PAD,
    SPECIALS,
    TAG_RE,
    TaggedSentence,
    delinearize,
    linearize,
    render,
    tagged_sentences,
)
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, MalformedSampleError
from phiscrub.labels import GRANULARITIES, Granularity

if TYPE_CHECKING:
    import torch

__all__ = ["DagaAugmenter", "DagaReport", "DagaResult"]

logger = logging.getLogger(__name__)

_IGNORE = -100
# Samples drawn in parallel by the sampler.
_SAMPLE_BATCH = 128


@dataclass
class DagaReport:
    """Counts of one :meth:`DagaAugmenter.generate` call (no text).

    Attributes:
        generated: sequences sampled from the language model.
        kept: well-formed new sentences written to documents.
        dropped_malformed: samples that were not well formed (see :func:`delinearize`).
        dropped_duplicate_of_train: samples equal to a training sentence.
        dropped_repeat: samples equal to an earlier kept sample.
        reasons: malformed samples per rule.
        kept_with_phi: kept sentences with at least one entity.
        entities: entities of the kept sentences per label.
        documents: documents made of the kept sentences.
    """

    generated: int = 0
    kept: int = 0
    dropped_malformed: int = 0
    dropped_duplicate_of_train: int = 0
    dropped_repeat: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    kept_with_phi: int = 0
    entities: Counter[str] = field(default_factory=Counter)
    documents: int = 0


@contextmanager
def _torch_threads(threads: int | None) -> Iterator[None]:
    """Run the block with ``threads`` torch CPU threads, then restore the previous setting."""
    import torch

    if threads is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@dataclass
class DagaResult(ResultLines):
    """The result of :meth:`DagaAugmenter.augment` (counts only).

    Attributes:
        documents: the new documents.
        report: the sampling counts.
        documents_in: input documents.
        alpha: samples per sentence with PHI.
        seed: sampling seed.
        phi_sentences, train_sentences, skipped_long, epochs_run: the fitted model's counts.
    """

    documents: list[Document]
    report: DagaReport
    documents_in: int
    alpha: int
    seed: int
    phi_sentences: int
    train_sentences: int
    skipped_long: int
    epochs_run: int

    def counts(self) -> dict[str, Any]:
        """Samples kept and dropped (per rule), and the model's sentence and epoch counts."""
        r = self.report
        return {
            "method": "daga",
            "kept": r.kept,
            "dropped": r.dropped_malformed + r.dropped_duplicate_of_train + r.dropped_repeat,
            "generated": r.generated,
            "kept_with_phi": r.kept_with_phi,
            "dropped_malformed": r.dropped_malformed,
            "dropped_duplicate_of_train": r.dropped_duplicate_of_train,
            "dropped_repeat": r.dropped_repeat,
            "reasons": dict(sorted(r.reasons.items())),
            "documents_out": len(self.documents),
            "phi_sentences": self.phi_sentences,
            "train_sentences": self.train_sentences,
            "epochs_run": self.epochs_run,
        }

    # the text of warnings() and summary() (see ResultLines)
    DROPPED = ("dropped {n} malformed samples", "report.reasons")
    SUMMARY = (
        "augment daga: {r.documents_in} documents in, {r.phi_sentences} sentences with PHI, "
        "{r.train_sentences} training sentences ({r.skipped_long} too long), {r.epochs_run} epochs; "
        "generated {r.report.generated} samples: kept {r.report.kept} ({r.report.kept_with_phi} with PHI), "
        "dropped {r.report.dropped_malformed} malformed, {r.report.dropped_duplicate_of_train} duplicates "
        "of training, {r.report.dropped_repeat} repeats; wrote {written} documents ({r.report.documents} "
        "new) to {destination} (alpha {r.alpha}, seed {r.seed})"
    )


@dataclass(eq=False)
class DagaAugmenter:
    """Generate new labelled sentences with an LSTM language model over linearized sentences.

    Args:
        embed_dim: word embedding size.
        hidden: LSTM hidden size.
        layers: LSTM layers.
        epochs: passes over the training sentences.
        lr: Adam learning rate.
        max_len: longest linearized sentence, in tokens: longer training sentences are left out, and
            a sample that has not ended by then is malformed.
        temperature: sampling temperature (below 1: safer, less varied samples).
        granularity: label granularity of the tags and of the generated spans.
        time_budget_s: stop training after this many seconds (checked between batches); None: no limit.
        batch_size: sentences per training batch.
        dropout: dropout on the embeddings and the LSTM outputs during training.
        o_fraction: share of the sentences without PHI that are kept for training.
        lowercase: lower-case the words (the generated text is then lower case too).
        sentences_per_doc: sentences per generated document; None: the corpus's mean number of
            sentences with PHI per document that has any.
        threads: torch CPU threads while training and sampling (restored afterwards); None: torch's
            setting. One by default: a small LSTM gains little from more, and on a busy machine
            several threads can make each step many times slower.
        id_prefix: id prefix of the documents :meth:`augment` writes.

    Attributes (after :meth:`fit`):
        vocab_: the token list (index = id): specials, tag tokens, then words by frequency.
        phi_sentences_: input sentences with PHI (before the ``max_len`` filter).
        train_sentences_: linearized sentences the model was trained on.
        skipped_long_: sentences left out for being longer than ``max_len``.
        epochs_run_: epochs done (fewer than ``epochs`` when the time budget ran out; a partial epoch
            counts).
        losses_: mean training loss per epoch.
        sentences_per_doc_: sentences per generated document.
        last_report_: the report of the latest :meth:`generate`.

    Raises:
        ConfigError: a size, rate or share out of range, or an unknown granularity.
    """

    name = "daga"

    embed_dim: int = 128
    hidden: int = 256
    layers: int = 1
    epochs: int = 10
    lr: float = 2e-3
    max_len: int = 160
    temperature: float = 1.0
    granularity: Granularity = "coarse"
    time_budget_s: float | None = None
    _: KW_ONLY
    batch_size: int = 32
    dropout: float = 0.2
    o_fraction: float = 0.1
    lowercase: bool = False
    sentences_per_doc: int | None = None
    threads: int | None = 1
    id_prefix: str = "daga"
    vocab_: list[str] | None = field(default=None, init=False)
    phi_sentences_: int = field(default=0, init=False)
    train_sentences_: int = field(default=0, init=False)
    skipped_long_: int = field(default=0, init=False)
    epochs_run_: int = field(default=0, init=False)
    losses_: list[float] = field(default_factory=list, init=False)
    sentences_per_doc_: int = field(default=1, init=False)
    last_report_: DagaReport | None = field(default=None, init=False)
    _model: Any = field(default=None, init=False, repr=False)
    _train_texts: set[str] = field(default_factory=set, init=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("embed_dim", "hidden", "layers", "epochs", "lr", "max_len", "temperature", "batch_size"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"DAGA {name} must be positive")
        if self.time_budget_s is not None and self.time_budget_s < 0:
            raise ConfigError("DAGA time budget must not be negative")
        if not 0.0 <= self.dropout < 1.0:
            raise ConfigError("DAGA dropout must be in [0, 1)")
        if not 0.0 <= self.o_fraction <= 1.0:
            raise ConfigError("DAGA o_fraction must be in [0, 1]")
        if self.sentences_per_doc is not None and self.sentences_per_doc < 1:
            raise ConfigError("DAGA sentences_per_doc must be at least 1")
        if self.threads is not None and self.threads < 1:
            raise ConfigError("DAGA threads must be at least 1")
        if self.granularity not in GRANULARITIES:
            raise ConfigError(f"unknown label granularity {self.granularity!r}")

    # ------------------------------------------------------------------ fit

    def fit(self, docs: Iterable[Document], seed: int = 0, progress: bool = False) -> DagaAugmenter:
        """Select and linearize the training sentences, then train the language model; return self.

        Args:
            docs: gold documents.
            seed: seeds the choice of sentences without PHI, the weights, the batch order and dropout.
            progress: show a tqdm bar on stderr (epoch and loss only).

        Raises:
            ConfigError: no sentence with PHI fits in ``max_len``.
            LabelError: a span label is unknown.
        """
        import torch

        rng = random.Random(f"daga:{seed}")
        per_doc = tagged_sentences(docs, self.granularity, self.lowercase)
        chosen: list[TaggedSentence] = []
        phi_counts: list[int] = []
        for sents in per_doc:
            n_phi = 0
            for sent in sents:
                if sent.has_phi:
                    n_phi += 1
                    chosen.append(sent)
                elif rng.random() < self.o_fraction:
                    chosen.append(sent)
            if n_phi:
                phi_counts.append(n_phi)
        self.phi_sentences_ = sum(phi_counts)
        self.sentences_per_doc_ = self.sentences_per_doc or max(
            1, round(self.phi_sentences_ / max(len(phi_counts), 1))
        )
        seqs = [linearize(s) for s in chosen]
        kept = [(s, q) for s, q in zip(chosen, seqs) if len(q) <= self.max_len]
        self.skipped_long_ = len(seqs) - len(kept)
        if not any(s.has_phi for s, _ in kept):
            raise ConfigError(
                f"DAGA needs at least one sentence with PHI of at most max_len={self.max_len} tokens"
            )
        self._train_texts = {render(s)[0] for s, _ in kept}
        self.train_sentences_ = len(kept)

        counts: Counter[str] = Counter()
        tag_tokens: set[str] = set()
        for _, seq in kept:
            for tok in seq:
                if TAG_RE.fullmatch(tok):
                    tag_tokens.add(tok)
                else:
                    counts[tok] += 1
        # Sorted so that ids depend on the data only, never on hash order.
        words = sorted(counts, key=lambda w: (-counts[w], w))
        self.vocab_ = [*SPECIALS, *sorted(tag_tokens), *words]
        index = {tok: i for i, tok in enumerate(self.vocab_)}
        encoded = [[index[tok] for tok in seq] for _, seq in kept]

        with torch.random.fork_rng(devices=[]), _torch_threads(self.threads):
            torch.manual_seed(seed)
            self._model = self._build(len(self.vocab_))
            self._train(encoded, rng, progress)
        logger.info(
            "daga: %d training sentences (%d with PHI in the input, %d too long), vocabulary %d, %d epochs",
            self.train_sentences_,
            self.phi_sentences_,
            self.skipped_long_,
            len(self.vocab_),
            self.epochs_run_,
        )
        return self

    def _build(self, vocab_size: int) -> Any:
        from torch import nn

        return nn.ModuleDict(
            {
                "embed": nn.Embedding(vocab_size, self.embed_dim, padding_idx=0),
                "lstm": nn.LSTM(
                    self.embed_dim,
                    self.hidden,
                    num_layers=self.layers,
                    batch_first=True,
                    dropout=self.dropout if self.layers > 1 else 0.0,
                ),
                "drop": nn.Dropout(self.dropout),
                "out": nn.Linear(self.hidden, vocab_size),
            }
        )

    def _hidden(
        self, ids: torch.Tensor, state: tuple[torch.Tensor, torch.Tensor] | None = None
    ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        m = self._model
        hidden, state = m["lstm"](m["drop"](m["embed"](ids)), state)
        return hidden, state

    def _logits(self, hidden: torch.Tensor) -> torch.Tensor:
        m = self._model
        logits: torch.Tensor = m["out"](m["drop"](hidden))
        return logits

    def _batches(self, encoded: list[list[int]], rng: random.Random) -> list[list[int]]:
        """One epoch's batches of sentence indices, shuffled, each of sentences of similar length."""
        order = list(range(len(encoded)))
        rng.shuffle(order)
        # Sorting within pools of 50 batches cuts padding without making the batch order predictable.
        pool = self.batch_size * 50
        batches: list[list[int]] = []
        for lo in range(0, len(order), pool):
            chunk = sorted(order[lo : lo + pool], key=lambda i: len(encoded[i]))
            batches += [chunk[k : k + self.batch_size] for k in range(0, len(chunk), self.batch_size)]
        rng.shuffle(batches)
        return batches

    def _train(self, encoded: list[list[int]], rng: random.Random, progress: bool) -> None:
        import torch
        from tqdm.auto import tqdm

        bos, eos = SPECIALS.index(BOS), SPECIALS.index(EOS)
        optimizer = torch.optim.Adam(self._model.parameters(), lr=self.lr)
        loss_fn = torch.nn.CrossEntropyLoss(ignore_index=_IGNORE)
        self._model.train()
        self.epochs_run_ = 0
        self.losses_ = []
        started = time.monotonic()
        n_batches = math.ceil(len(encoded) / self.batch_size)
        bar = tqdm(total=self.epochs * n_batches, disable=not progress, unit="batch", desc="daga lm")
        out_of_time = False
        for _ in range(self.epochs):
            total, steps = 0.0, 0
            for batch in self._batches(encoded, rng):
                if self.time_budget_s is not None and time.monotonic() - started >= self.time_budget_s:
                    out_of_time = True
                    break
                rows = [encoded[i] for i in batch]
                width = max(len(r) for r in rows) + 1
                inputs = torch.zeros((len(rows), width), dtype=torch.long)
                targets = torch.full((len(rows), width), _IGNORE, dtype=torch.long)
                for k, row in enumerate(rows):
                    inputs[k, : len(row) + 1] = torch.tensor([bos, *row])
                    targets[k, : len(row) + 1] = torch.tensor([*row, eos])
                hidden, _ = self._hidden(inputs)
                # Project only real positions: the vocabulary layer is most of the cost, padding none of
                # the loss (padding comes last, so the LSTM outputs before it do not depend on it).
                real = targets != _IGNORE
                loss = loss_fn(self._logits(hidden[real]), targets[real])
                optimizer.zero_grad()
                loss.backward()
                # Clipping keeps the LSTM stable at the higher learning rates small corpora like.
                torch.nn.utils.clip_grad_norm_(self._model.parameters(), 5.0)
                optimizer.step()
                total += float(loss.item())
                steps += 1
                bar.update(1)
                bar.set_postfix(loss=f"{total / steps:.3f}")
            if steps:
                self.epochs_run_ += 1
                self.losses_.append(total / steps)
                logger.info("daga epoch %d: loss %.4f", self.epochs_run_, total / steps)
            if out_of_time:
                logger.info("daga: time budget reached after %d epochs", self.epochs_run_)
                break
        bar.close()
        self._model.eval()

    # ------------------------------------------------------------- generate

    def augment(
        self, docs: Sequence[Document], alpha: int, seed: int = 0, *, progress: bool = False
    ) -> DagaResult:
        """The corpus-level contract: ``alpha`` samples per training sentence with PHI, as documents.

        ``docs`` only counts the input (the model learnt from the corpus given to :meth:`fit`).

        Raises:
            ConfigError: the augmenter was not fitted, or ``alpha`` < 1.
        """
        if alpha < 1:
            raise ConfigError("alpha must be at least 1")
        report = DagaReport()
        generated = self.generate(
            alpha * self.phi_sentences_, seed=seed, report=report, id_prefix=self.id_prefix
        )
        return DagaResult(
            generated, report, documents_in=len(docs), alpha=alpha, seed=seed, phi_sentences=self.phi_sentences_,
            train_sentences=self.train_sentences_, skipped_long=self.skipped_long_, epochs_run=self.epochs_run_,
        )  # fmt: skip

    def sample(self, n: int, seed: int | random.Random = 0) -> list[list[str] | None]:
        """Draw ``n`` linearized sequences (None for one that did not end within ``max_len`` tokens).

        Raises:
            ConfigError: the augmenter was not fitted, or ``n`` < 0.
        """
        import torch

        if self._model is None or self.vocab_ is None:
            raise ConfigError("DAGA needs fit(corpus) before generate()")
        if n < 0:
            raise ConfigError("DAGA sample count must not be negative")
        int_seed = seed.getrandbits(63) if isinstance(seed, random.Random) else seed
        gen = torch.Generator().manual_seed(int_seed)
        bos, eos = SPECIALS.index(BOS), SPECIALS.index(EOS)
        # Never sample padding or a new sentence start.
        banned = torch.tensor([SPECIALS.index(PAD), bos])
        out: list[list[str] | None] = []
        with torch.no_grad(), _torch_threads(self.threads):
            for lo in range(0, n, _SAMPLE_BATCH):
                size = min(_SAMPLE_BATCH, n - lo)
                ids = torch.full((size, 1), bos, dtype=torch.long)
                state = None
                rows: list[list[int]] = [[] for _ in range(size)]
                done = torch.zeros(size, dtype=torch.bool)
                for _ in range(self.max_len + 1):
                    hidden, state = self._hidden(ids, state)
                    step = self._logits(hidden[:, -1, :]) / self.temperature
                    step[:, banned] = float("-inf")
                    nxt = torch.multinomial(torch.softmax(step, dim=-1), 1, generator=gen)
                    for k in range(size):
                        if not done[k]:
                            tok = int(nxt[k, 0])
                            if tok == eos:
                                done[k] = True
                            else:
                                rows[k].append(tok)
                    if bool(done.all()):
                        break
                    ids = nxt
                for k in range(size):
                    ended = bool(done[k]) and len(rows[k]) <= self.max_len
                    out.append([self.vocab_[t] for t in rows[k]] if ended else None)
        return out

    def generate(
        self,
        n: int,
        seed: int | random.Random = 0,
        report: DagaReport | None = None,
        id_prefix: str = "daga",
    ) -> list[Document]:
        """Sample ``n`` sequences and return the well-formed new sentences grouped into documents.

        ``n`` counts samples drawn, not sentences kept: malformed samples and duplicates are dropped
        and counted in ``report`` (and :attr:`last_report_`). Documents are ``<id_prefix>-<k>`` (k from
        0), ``sentences_per_doc_`` sentences each, one per line, with metadata ``method`` and
        ``augment_method`` (``daga``), ``augment_seed`` and ``granularity``.

        Args:
            n: samples to draw.
            seed: seed (or random stream) of the sampler.
            report: filled in with the counts; a new one when None.
            id_prefix: document id prefix.

        Raises:
            ConfigError: the augmenter was not fitted, or ``n`` < 0.
        """
        report = report if report is not None else DagaReport()
        self.last_report_ = report
        int_seed = seed.getrandbits(63) if isinstance(seed, random.Random) else seed
        kept: list[tuple[str, list[Span]]] = []
        seen: set[str] = set()
        for seq in self.sample(n, int_seed):
            report.generated += 1
            if seq is None:
                report.dropped_malformed += 1
                report.reasons["no end of sentence within max_len"] += 1
                continue
            try:
                text, spans = render(delinearize(seq))
            except MalformedSampleError as err:
                report.dropped_malformed += 1
                report.reasons[str(err)] += 1
                continue
            if text in self._train_texts:
                report.dropped_duplicate_of_train += 1
                continue
            if text in seen:
                report.dropped_repeat += 1
                continue
            seen.add(text)
            kept.append((text, spans))
            report.kept += 1
            report.kept_with_phi += bool(spans)
            report.entities.update(s.label for s in spans)
        docs = self._documents(kept, int_seed, id_prefix)
        report.documents = len(docs)
        logger.info(
            "daga: %d samples, %d kept, %d malformed, %d duplicates of training, %d repeats",
            report.generated,
            report.kept,
            report.dropped_malformed,
            report.dropped_duplicate_of_train,
            report.dropped_repeat,
        )
        return docs

    def _documents(self, kept: list[tuple[str, list[Span]]], seed: int, id_prefix: str) -> list[Document]:
        docs: list[Document] = []
        per = self.sentences_per_doc_
        for k in range(0, len(kept), per):
            parts: list[str] = []
            spans: list[Span] = []
            pos = 0
            for text, sent_spans in kept[k : k + per]:
                if parts:
                    parts.append("\n")
                    pos += 1
                spans += [s.shifted(pos) for s in sent_spans]
                parts.append(text)
                pos += len(text)
            metadata = {
                "method": self.name,
                "augment_method": self.name,
                "augment_seed": seed,
                "granularity": self.granularity,
            }
            doc = Document(f"{id_prefix}-{len(docs)}", "".join(parts), tuple(spans), metadata).validate()
            docs.append(doc)
        return docs
