"""The LLM augmentation loop (Kim et al.) on top of the leak-guarded chat client.

The client lives in :mod:`phiscrub.augment.chat` (settings, HTTP, retries, cache, usage log, the ordered
thread pool) and the prompt and reply steps in :mod:`phiscrub.augment.llm`; this module only holds the
loop. :func:`llm_augment` is the paper's pipeline: scrub each gold note to
placeholders, build the zero- or one-shot prompt, send it, parse the reply (near-miss placeholders
mapped, unknown ones drop the reply), fill surrogates, and yield ``notes_per_source`` new labelled notes
per source note (1:1 as in the paper), retrying a dropped reply with a new sampling seed up to
``max_attempts`` times. Several notes are in flight at once (``concurrency`` threads); output order is
the input order. :class:`LLMAugmenter` is the same behind the corpus-level augmenter contract.
"""

from __future__ import annotations

import hashlib
import logging
import random
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

from phiscrub.augment.base import PretrainedAugmenter, ResultLines
from phiscrub.augment.chat import ChatClient, ordered_map
from phiscrub.augment.llm import (
    PLACEHOLDERS,
    PromptKind,
    build_prompt,
    echoes_prompt,
    fill_reply,
    parse_reply,
    placeholders_in,
    scrub,
    to_sentence_documents,
)
from phiscrub.document import Document
from phiscrub.errors import ConfigError, LeakGuardError
from phiscrub.labels import Granularity

if TYPE_CHECKING:
    from phiscrub.augment.registry import LLMOptions

__all__ = ["LLMAugmenter", "LLMResult", "LLMStats", "OnLeak", "llm_augment"]

logger = logging.getLogger(__name__)

#: What to do when the leak guard finds PHI in a scrubbed note: ``scrub`` replaces the detected spans
#: by placeholders too (then checks again), ``skip`` leaves the note out, ``fail`` stops the run.
OnLeak = Literal["scrub", "skip", "fail"]


# -- the augmentation loop -------------------------------------------------------------------------


@dataclass
class LLMStats:
    """Counts of one :func:`llm_augment` run (no text anywhere).

    Attributes:
        sources: source notes seen.
        requests: prompts sent (cache hits included).
        guard_scrubbed: notes in which the guard found residual PHI that was scrubbed before sending.
        guard_spans: residual PHI spans scrubbed that way, per label.
        blocked: notes the guard refused (``on_leak="skip"``) — nothing was sent for them.
        replies_dropped: replies dropped, per reason.
        mapped: near-miss placeholders mapped to known ones.
        generated: notes generated (after filling).
        missing: source notes left without a generated note after ``max_attempts``.
        documents_out: documents yielded (sentences when split).
    """

    sources: int = 0
    requests: int = 0
    guard_scrubbed: int = 0
    guard_spans: Counter[str] = field(default_factory=Counter)
    blocked: int = 0
    replies_dropped: Counter[str] = field(default_factory=Counter)
    mapped: int = 0
    generated: int = 0
    missing: int = 0
    documents_out: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready counts (counters as plain dicts)."""
        plain = {f.name: getattr(self, f.name) for f in fields(self)}
        return {k: dict(v) if isinstance(v, Counter) else v for k, v in plain.items()}


def _reply_reason(parsed_unknown: int, placeholders: int) -> str:
    if parsed_unknown:
        return "unknown placeholder"
    if placeholders == 0:
        return "no placeholder"
    return "too short"


def llm_augment(
    docs: Iterable[Document],
    kind: PromptKind,
    client: ChatClient,
    *,
    seed: int = 0,
    lang: str = "en",
    labels: Granularity = "fine",
    placeholders: Sequence[str] = PLACEHOLDERS,
    notes_per_source: int = 1,
    max_attempts: int = 3,
    on_leak: OnLeak = "scrub",
    split_sentences: bool = False,
    only_with_phi: bool = False,
    stats: LLMStats | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[Document]:
    """Generate ``notes_per_source`` labelled notes per source note with an LLM (Kim et al.).

    One-shot prompts carry the source note scrubbed to placeholders; zero-shot prompts carry no
    note (the source only sets the count, and seeds the sampling). New notes are named
    ``"<source id>#llm<k>"`` with metadata ``generated_from``, ``augment_method``, ``llm_attempt``.

    Args:
        docs: gold source documents.
        kind: ``zero-shot`` or ``one-shot``.
        client: the endpoint client (its leak guard checks every prompt).
        seed: base seed of sampling and surrogate filling.
        lang: surrogate language for the fill (``en``, ``es``, ``ca``, ``zh``, ``auto``).
        labels: granularity of the one-shot scrub placeholders.
        placeholders: the placeholder labels offered in the prompt and accepted in replies.
        notes_per_source: notes to generate per source note (the paper: 1).
        max_attempts: tries per note; a dropped reply is retried with another sampling seed.
        on_leak: see :data:`OnLeak` (one-shot only; zero-shot prompts hold no note).
        split_sentences: yield one document per sentence (Kim et al.'s training unit).
        only_with_phi: with ``split_sentences``, keep only sentences with PHI.
        stats: filled in while the iterator is consumed.
        progress: called with 1 after each source note.

    Raises:
        ConfigError: bad arguments.
        LeakGuardError: PHI in a prompt with ``on_leak="fail"``.
        LLMError: the endpoint failed after its retries.
    """
    if kind not in ("zero-shot", "one-shot"):
        raise ConfigError(f"unknown prompt kind {kind!r}; use zero-shot or one-shot")
    if notes_per_source < 1 or max_attempts < 1:
        raise ConfigError("notes_per_source and max_attempts must be >= 1")
    if on_leak not in ("scrub", "skip", "fail"):
        raise ConfigError(f"unknown on_leak {on_leak!r}; use scrub, skip or fail")
    stats = stats if stats is not None else LLMStats()
    worker = _NoteWorker(
        kind, client, stats, seed=seed, lang=lang, labels=labels, known=tuple(dict.fromkeys(placeholders)),
        notes_per_source=notes_per_source, max_attempts=max_attempts, on_leak=on_leak,
    )  # fmt: skip

    def submitted(_: Document) -> None:
        stats.sources += 1

    for notes in ordered_map(worker.notes_for, docs, client.settings.concurrency, on_submit=submitted):
        if progress is not None:
            progress(1)
        for note in notes:
            parts = to_sentence_documents(note, only_with_phi=only_with_phi) if split_sentences else [note]
            for part in parts:
                stats.documents_out += 1
                yield part


@dataclass
class _NoteWorker:
    """The generation of one source note's notes, run on the pool's threads (counts under a lock)."""

    kind: PromptKind
    client: ChatClient
    stats: LLMStats
    _: KW_ONLY
    seed: int
    lang: str
    labels: Granularity
    known: tuple[str, ...]
    notes_per_source: int
    max_attempts: int
    on_leak: OnLeak
    lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self.method = "llm-zeroshot" if self.kind == "zero-shot" else "llm-oneshot"
        self.zero_shot = build_prompt("zero-shot", labels=self.known) if self.kind == "zero-shot" else None

    def prompt_for(self, doc: Document) -> tuple[list[dict[str, str]], tuple[str, ...]]:
        """The messages for ``doc`` and the placeholders a reply may use."""
        if self.zero_shot is not None:
            return self.zero_shot, self.known
        text = scrub(doc, self.labels)
        if self.on_leak == "scrub":
            text, extra = self.client.guard.scrub(text, doc.id, self.labels)
            if extra:
                with self.lock:
                    self.stats.guard_scrubbed += 1
                    self.stats.guard_spans.update(extra)
        accepted = tuple(dict.fromkeys([*self.known, *placeholders_in(text)]))
        return build_prompt("one-shot", text, labels=accepted), accepted

    def notes_for(self, doc: Document) -> list[Document]:
        """``notes_per_source`` notes for ``doc`` (fewer when replies are unusable or the guard refuses)."""
        messages, accepted = self.prompt_for(doc)
        out: list[Document] = []
        try:
            for k in range(self.notes_per_source):
                note = self.generate(doc, k, messages, accepted)
                if note is not None:
                    out.append(note)
        except LeakGuardError:
            if self.on_leak == "fail":
                raise
            with self.lock:
                self.stats.blocked += 1
                self.stats.missing += self.notes_per_source - len(out)
            logger.warning("[doc %s] leak guard refused the prompt; note skipped", doc.id)
        return out

    def generate(
        self, doc: Document, k: int, messages: Sequence[Mapping[str, str]], accepted: Sequence[str]
    ) -> Document | None:
        """Note ``k`` of ``doc``: up to ``max_attempts`` replies, each with its own sampling seed."""
        for attempt in range(self.max_attempts):
            completion = self.client.chat(doc.id, messages, seed=_seed(self.seed, doc.id, k, attempt))
            text = self._usable(completion.text, messages, accepted)
            if text is None:
                continue
            rng = random.Random(f"llm-fill:{self.seed}:{doc.id}:{k}")
            note = fill_reply(text, rng, lang=self.lang, doc_id=f"{doc.id}#llm{k}")
            metadata = {
                "source": "llm",
                "generated_from": doc.id,
                "augment_method": self.method,
                "llm_attempt": attempt + 1,
                "llm_copy": k,
            }
            with self.lock:
                self.stats.generated += 1
            return Document(note.id, note.text, note.spans, metadata)
        with self.lock:
            self.stats.missing += 1
        logger.warning("[doc %s] no usable reply after %d attempts", doc.id, self.max_attempts)
        return None

    def _usable(
        self, reply: str, messages: Sequence[Mapping[str, str]], accepted: Sequence[str]
    ) -> str | None:
        """The parsed reply text, or None (counted by reason) when it is dropped."""
        parsed = parse_reply(reply, accepted)
        with self.lock:
            self.stats.requests += 1
            self.stats.mapped += sum(parsed.mapped.values())
        if parsed.text is not None and echoes_prompt(parsed.text, messages):
            reason: str | None = "echoes the prompt"
        elif parsed.dropped or parsed.text is None:
            reason = _reply_reason(sum(parsed.unknown.values()), sum(parsed.placeholders.values()))
        else:
            reason = None
        if reason is not None:
            with self.lock:
                self.stats.replies_dropped[reason] += 1
            return None
        return parsed.text


def _seed(seed: int, doc_id: str, copy: int, attempt: int) -> int:
    digest = hashlib.sha256(f"llm:{seed}:{doc_id}:{copy}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


@dataclass
class LLMResult(ResultLines):
    """The result of :meth:`LLMAugmenter.augment` (counts only).

    Attributes:
        method: ``llm-oneshot`` or ``llm-zeroshot``.
        documents: the generated notes (or sentences).
        stats: the loop's counts.
        cache_hits, retries, prompt_tokens, completion_tokens, cost: the client's totals.
    """

    method: str
    documents: list[Document]
    stats: LLMStats
    cache_hits: int
    retries: int
    prompt_tokens: int
    completion_tokens: int
    cost: float

    def counts(self) -> dict[str, Any]:
        """The loop's counts and the client's totals."""
        return {
            "method": self.method,
            "kept": self.stats.generated,
            "dropped": self.dropped,
            **self.stats.to_dict(),
            "cache_hits": self.cache_hits,
            "retries": self.retries,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost": self.cost,
        }

    def notes(self) -> list[str]:
        """The notes the leak guard scrubbed further, with the spans per label."""
        st = self.stats
        if not st.guard_scrubbed:
            return []
        labels = ", ".join(f"{lab} {n}" for lab, n in sorted(st.guard_spans.items()))
        return [f"leak guard: scrubbed residual PHI in {st.guard_scrubbed} notes before sending ({labels})"]

    @property
    def dropped(self) -> int:
        """Replies dropped, all reasons."""
        return sum(self.stats.replies_dropped.values())

    # the text of warnings() and summary() (see ResultLines)
    DROPPED = ("dropped {n} replies", "stats.replies_dropped")
    SUMMARY = (
        "augment {r.method}: {r.stats.sources} source notes, {r.stats.requests} requests ({r.cache_hits} "
        "from cache, {r.retries} retries), {r.stats.blocked} blocked by the leak guard, {r.dropped} replies "
        "dropped, {r.stats.mapped} placeholders mapped; {r.stats.generated} notes generated "
        "({r.stats.missing} missing), wrote {written} documents to {destination}; tokens: "
        "{r.prompt_tokens} prompt + {r.completion_tokens} completion, cost {r.cost:.4f}"
    )


@dataclass(eq=False)
class LLMAugmenter(PretrainedAugmenter):
    """Kim et al.'s LLM augmentation behind the corpus-level contract: ``alpha`` notes per source note.

    Its ``fit`` learns nothing: the model is behind the endpoint.

    Args:
        kind: ``one-shot`` or ``zero-shot``.
        llm: the endpoint and the loop's options (:class:`~phiscrub.augment.registry.LLMOptions`:
            settings, attempts per note, reply cache, usage log, ``on_leak``, sentence split).
        lang: surrogate language of the fill.

    Raises:
        ConfigError: unknown kind.
    """

    kind: PromptKind
    llm: LLMOptions
    _: KW_ONLY
    lang: str = "en"

    def __post_init__(self) -> None:
        if self.kind not in ("zero-shot", "one-shot"):
            raise ConfigError(f"unknown prompt kind {self.kind!r}; use zero-shot or one-shot")
        self.name = "llm-oneshot" if self.kind == "one-shot" else "llm-zeroshot"

    def augment(
        self, docs: Sequence[Document], alpha: int, seed: int = 0, *, progress: bool = False
    ) -> LLMResult:
        """``alpha`` generated notes per source note (a tqdm bar on stderr with ``progress``).

        Raises:
            LeakGuardError: PHI in a prompt with ``on_leak="fail"``.
            LLMError: the endpoint failed after its retries.
        """
        from tqdm import tqdm

        llm = self.llm
        client = ChatClient(llm.settings, cache_dir=llm.cache_dir, log_path=llm.log_path)
        stats = LLMStats()
        with tqdm(
            total=len(docs), desc=f"augment {self.name}", unit="note", file=sys.stderr, delay=1.0,
            disable=not progress,
        ) as bar:  # fmt: skip
            generated = list(
                llm_augment(
                    docs, self.kind, client, seed=seed, lang=self.lang, notes_per_source=alpha,
                    max_attempts=llm.attempts, on_leak=llm.on_leak, split_sentences=llm.split_sentences,
                    stats=stats, progress=bar.update,
                )
            )  # fmt: skip
        return LLMResult(
            self.name, generated, stats, client.cache_hits, client.retries, client.prompt_tokens,
            client.completion_tokens, client.cost,
        )  # fmt: skip
