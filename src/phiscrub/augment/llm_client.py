"""An OpenAI-compatible chat client that cannot send PHI, and the LLM augmentation loop (Kim et al.).

:class:`ChatClient` talks to ``POST <url>/chat/completions`` (OpenAI, vLLM, llama.cpp's
``llama_cpp.server``, Ollama's ``/v1`` ...) with the standard library only. Every request goes
through the :class:`~phiscrub.augment.llm.LeakGuard` first: a prompt in which a detector still finds
PHI is never sent (:class:`~phiscrub.errors.LeakGuardError`, document id + labels + offsets only).
Then, in order:

* a **cache** (one JSON file per request, keyed by a hash of endpoint model, messages and sampling
  settings): a rerun after an interruption sends only what is missing;
* **retries** with exponential backoff and jitter on timeouts, refused connections, HTTP 408, 409,
  429 and 5xx (``Retry-After`` honoured); other statuses fail at once;
* a **usage log** (JSONL, one line per request: document id, attempt, HTTP status, cached, prompt
  and completion tokens, seconds, cost) — never prompt or reply text.

:func:`llm_augment` is the paper's pipeline on top: scrub each gold note to placeholders, build the
zero- or one-shot prompt, send it, parse the reply (near-miss placeholders mapped, unknown ones drop
the reply), fill surrogates, and yield ``notes_per_source`` new labelled notes per source note (1:1
as in the paper), retrying a dropped reply with a new sampling seed up to ``max_attempts`` times.
Several notes are in flight at once (``concurrency`` threads); output order is the input order.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import re
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from phiscrub.augment.llm import (
    LABEL_DESCRIPTIONS,
    PLACEHOLDERS,
    LeakGuard,
    PromptKind,
    build_prompt,
    fill_reply,
    parse_reply,
    scrub,
    to_sentence_documents,
)
from phiscrub.document import Document
from phiscrub.errors import ConfigError, LeakGuardError, LLMError
from phiscrub.labels import Granularity, fold
from phiscrub.transform.rewrite import rewrite

__all__ = [
    "API_KEY_ENVS",
    "ChatClient",
    "Completion",
    "LLMSettings",
    "LLMStats",
    "OnLeak",
    "echoes_prompt",
    "guard_scrub",
    "llm_augment",
]

logger = logging.getLogger(__name__)

#: Environment variables read for the endpoint's API key, first one set wins.
API_KEY_ENVS: tuple[str, ...] = ("PHISCRUB_LLM_API_KEY", "OPENAI_API_KEY")
_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})

#: What to do when the leak guard finds PHI in a scrubbed note: ``scrub`` replaces the detected spans
#: by placeholders too (then checks again), ``skip`` leaves the note out, ``fail`` stops the run.
OnLeak = Literal["scrub", "skip", "fail"]


@dataclass(frozen=True)
class LLMSettings:
    """Where and how to call the endpoint.

    Args:
        url: base URL of an OpenAI-compatible API (``http://127.0.0.1:8080/v1``); a URL already
            ending in ``/chat/completions`` is used as it is. Must be set explicitly: phiscrub
            has no default endpoint and makes no other network traffic.
        model: the ``model`` field of the request.
        api_key: bearer token; None reads :data:`API_KEY_ENVS` (none set: no header).
        temperature: sampling temperature.
        top_p: nucleus sampling.
        max_tokens: completion length limit.
        timeout_s: seconds per HTTP request.
        max_retries: retries after the first try for retryable failures.
        backoff_s: first retry delay; doubles each retry, with up to 25% jitter, capped at 60 s.
        concurrency: requests in flight at once.
        price_prompt: cost per million prompt tokens (for the log; 0: not priced).
        price_completion: cost per million completion tokens.
    """

    url: str
    model: str = "local"
    api_key: str | None = None
    temperature: float = 0.8
    top_p: float = 0.95
    max_tokens: int = 1024
    timeout_s: float = 300.0
    max_retries: int = 4
    backoff_s: float = 1.0
    concurrency: int = 2
    price_prompt: float = 0.0
    price_completion: float = 0.0

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise ConfigError("the LLM url must start with http:// or https://")
        if self.concurrency < 1 or self.max_retries < 0 or self.max_tokens < 1:
            raise ConfigError("LLM concurrency and max_tokens must be >= 1, max_retries >= 0")
        if self.timeout_s <= 0 or self.backoff_s < 0:
            raise ConfigError("LLM timeout must be > 0 and backoff >= 0")

    @property
    def endpoint(self) -> str:
        """The full chat-completions URL."""
        base = self.url.rstrip("/")
        return base if base.endswith("/chat/completions") else f"{base}/chat/completions"

    def resolved_key(self) -> str | None:
        """The API key: the explicit one, else the first of :data:`API_KEY_ENVS` that is set."""
        if self.api_key:
            return self.api_key
        for name in API_KEY_ENVS:
            value = os.environ.get(name)
            if value:
                return value
        return None


@dataclass(frozen=True)
class Completion:
    """One chat completion.

    Attributes:
        text: the reply's message content.
        prompt_tokens: usage reported by the endpoint (0 when it reports none).
        completion_tokens: likewise.
        cached: served from the cache, not the endpoint.
        finish_reason: the endpoint's ``finish_reason`` (``stop``, ``length`` ...).
    """

    text: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool
    finish_reason: str | None = None


class ChatClient:
    """Leak-guarded, cached, retrying chat-completions client.

    Args:
        settings: endpoint and sampling settings.
        guard: the leak guard run on every outgoing request (None: the default :class:`LeakGuard`).
        cache_dir: folder of cached replies (None: no cache).
        log_path: JSONL usage log, appended to (None: no log file; totals are still counted).
        sleep: the delay function (``time.sleep``; tests of the backoff pass their own).
    """

    def __init__(
        self,
        settings: LLMSettings,
        guard: LeakGuard | None = None,
        cache_dir: str | Path | None = None,
        log_path: str | Path | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.guard = guard if guard is not None else LeakGuard()
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.log_path = Path(log_path) if log_path is not None else None
        self._sleep = sleep
        self._lock = threading.Lock()
        self.requests = 0
        self.cache_hits = 0
        self.retries = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        if self.cache_dir is not None:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)

    # -- public -----------------------------------------------------------------------------------

    @property
    def cost(self) -> float:
        """Total cost of the tokens used so far (prices per million tokens)."""
        s = self.settings
        return (self.prompt_tokens * s.price_prompt + self.completion_tokens * s.price_completion) / 1e6

    def chat(self, doc_id: str, messages: Sequence[Mapping[str, str]], seed: int | None = None) -> Completion:
        """Send ``messages`` (after the leak guard) and return the reply.

        Args:
            doc_id: id used in the guard's error, the log and exceptions (never text).
            messages: OpenAI chat messages.
            seed: sampling seed sent to the endpoint (part of the cache key).

        Raises:
            LeakGuardError: a detector found PHI in a message; nothing was sent.
            LLMError: the endpoint failed after the retries, or answered without a message.
        """
        self.guard.check(doc_id, messages)
        payload: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
            "temperature": self.settings.temperature,
            "top_p": self.settings.top_p,
            "max_tokens": self.settings.max_tokens,
        }
        if seed is not None:
            payload["seed"] = seed
        key = self._cache_key(payload)
        cached = self._cache_get(key)
        if cached is not None:
            with self._lock:
                self.cache_hits += 1
            self._log(doc_id, attempt=0, status="cached", cached=True, usage=(0, 0), seconds=0.0)
            return cached
        completion = self._post(doc_id, payload)
        self._cache_put(key, completion)
        return completion

    # -- HTTP -------------------------------------------------------------------------------------

    def _post(self, doc_id: str, payload: dict[str, Any]) -> Completion:
        body = json.dumps(payload).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = self.settings.resolved_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        last = "no attempt"
        for attempt in range(1, self.settings.max_retries + 2):
            start = time.perf_counter()
            retry_after: float | None = None
            try:
                request = urllib.request.Request(self.settings.endpoint, data=body, headers=headers)
                with urllib.request.urlopen(request, timeout=self.settings.timeout_s) as response:
                    raw = response.read()
                completion = self._parse(doc_id, raw)
                with self._lock:
                    self.requests += 1
                    self.prompt_tokens += completion.prompt_tokens
                    self.completion_tokens += completion.completion_tokens
                usage = (completion.prompt_tokens, completion.completion_tokens)
                self._log(doc_id, attempt, "200", False, usage, time.perf_counter() - start)
                return completion
            except urllib.error.HTTPError as err:
                last = f"HTTP {err.code}"
                retry_after = _retry_after(err.headers.get("Retry-After") if err.headers else None)
                err.close()
                self._log(doc_id, attempt, str(err.code), False, (0, 0), time.perf_counter() - start)
                if err.code not in _RETRY_STATUS:
                    raise LLMError(f"[doc {doc_id}] LLM endpoint answered {last}; not retried") from None
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as err:
                reason = getattr(err, "reason", err)
                last = type(reason).__name__ if not isinstance(reason, str) else "connection error"
                self._log(doc_id, attempt, last, False, (0, 0), time.perf_counter() - start)
            if attempt <= self.settings.max_retries:
                with self._lock:
                    self.retries += 1
                delay = min(60.0, self.settings.backoff_s * 2 ** (attempt - 1))
                delay *= 1.0 + 0.25 * random.random()
                self._sleep(max(delay, retry_after or 0.0))
        raise LLMError(
            f"[doc {doc_id}] LLM endpoint failed after {self.settings.max_retries + 1} attempts ({last})"
        )

    @staticmethod
    def _parse(doc_id: str, raw: bytes) -> Completion:
        try:
            data = json.loads(raw)
            choice = data["choices"][0]
            text = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise LLMError(f"[doc {doc_id}] LLM endpoint answered without a chat message") from None
        if not isinstance(text, str):
            raise LLMError(f"[doc {doc_id}] LLM endpoint answered without a chat message")
        usage = data.get("usage") or {}
        return Completion(
            text=text,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            cached=False,
            finish_reason=choice.get("finish_reason"),
        )

    # -- cache and log ----------------------------------------------------------------------------

    def _cache_key(self, payload: Mapping[str, Any]) -> str:
        canonical = json.dumps({"endpoint": self.settings.endpoint, **payload}, sort_keys=True)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def _cache_get(self, key: str) -> Completion | None:
        if self.cache_dir is None:
            return None
        path = self.cache_dir / key[:2] / f"{key}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return Completion(
                data["text"], int(data["prompt_tokens"]), int(data["completion_tokens"]), True,
                data.get("finish_reason"),
            )  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError):
            return None  # missing or half-written: ask again

    def _cache_put(self, key: str, completion: Completion) -> None:
        if self.cache_dir is None:
            return
        folder = self.cache_dir / key[:2]
        folder.mkdir(parents=True, exist_ok=True)
        record = {
            "text": completion.text,
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens,
            "finish_reason": completion.finish_reason,
        }
        tmp = folder / f".{key}.{threading.get_ident()}.tmp"
        tmp.write_text(json.dumps(record), encoding="utf-8")
        os.replace(tmp, folder / f"{key}.json")

    def _log(
        self, doc_id: str, attempt: int, status: str, cached: bool, usage: tuple[int, int], seconds: float
    ) -> None:
        if self.log_path is None:
            return
        s = self.settings
        record = {
            "time": round(time.time(), 3),
            "doc_id": doc_id,
            "model": s.model,
            "attempt": attempt,
            "status": status,
            "cached": cached,
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "seconds": round(seconds, 3),
            "cost": (usage[0] * s.price_prompt + usage[1] * s.price_completion) / 1e6,
        }
        line = json.dumps(record) + "\n"
        with self._lock, self.log_path.open("a", encoding="utf-8") as fh:
            fh.write(line)


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return min(120.0, max(0.0, float(value)))
    except ValueError:
        return None


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
        """JSON-ready counts."""
        return {
            "sources": self.sources,
            "requests": self.requests,
            "guard_scrubbed": self.guard_scrubbed,
            "guard_spans": dict(self.guard_spans),
            "blocked": self.blocked,
            "replies_dropped": dict(self.replies_dropped),
            "mapped": self.mapped,
            "generated": self.generated,
            "missing": self.missing,
            "documents_out": self.documents_out,
        }


def guard_scrub(
    text: str, guard: LeakGuard, doc_id: str, labels: Granularity = "fine"
) -> tuple[str, list[str]]:
    """Replace what ``guard`` still finds in a scrubbed note by placeholders of the detected labels.

    Returns:
        The further-scrubbed text and the labels of the spans replaced (possibly empty).
    """
    found = guard.find(text, doc_id)
    if not found:
        return text, []
    replacements = []
    for span in found:
        label = fold(span.label, labels) or span.label
        replacements.append((span, f"[{label}]"))
    merged: list[tuple[Any, str]] = []
    for span, token in sorted(replacements, key=lambda r: (r[0].start, -r[0].end)):
        if merged and span.start < merged[-1][0].end:
            continue
        merged.append((span, token))
    out = rewrite(Document(doc_id, text), merged).text
    return out, [token[1:-1] for _, token in merged]


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
    known = tuple(dict.fromkeys([*placeholders]))
    zero_shot_messages = build_prompt("zero-shot", labels=known) if kind == "zero-shot" else None

    def one(doc: Document) -> list[Document]:
        accepted = known
        if zero_shot_messages is not None:
            messages = zero_shot_messages
        else:
            text = scrub(doc, labels)
            if on_leak == "scrub":
                text, extra = guard_scrub(text, client.guard, doc.id, labels)
                if extra:
                    with lock:
                        stats.guard_scrubbed += 1
                        stats.guard_spans.update(extra)
            accepted = tuple(dict.fromkeys([*known, *_placeholders_in(text)]))
            messages = build_prompt("one-shot", text, labels=accepted)
        out: list[Document] = []
        try:
            for k in range(notes_per_source):
                note = _generate(doc, k, messages, accepted)
                if note is not None:
                    out.append(note)
        except LeakGuardError:
            if on_leak == "fail":
                raise
            with lock:
                stats.blocked += 1
                stats.missing += notes_per_source - len(out)
            logger.warning("[doc %s] leak guard refused the prompt; note skipped", doc.id)
        return out

    def _generate(
        doc: Document, k: int, messages: Sequence[Mapping[str, str]], accepted: Sequence[str]
    ) -> Document | None:
        for attempt in range(max_attempts):
            sample_seed = _seed(seed, doc.id, k, attempt)
            completion = client.chat(doc.id, messages, seed=sample_seed)
            parsed = parse_reply(completion.text, accepted)
            with lock:
                stats.requests += 1
                stats.mapped += sum(parsed.mapped.values())
            if parsed.text is not None and echoes_prompt(parsed.text, messages):
                with lock:
                    stats.replies_dropped["echoes the prompt"] += 1
                continue
            if parsed.dropped or parsed.text is None:
                reason = _reply_reason(sum(parsed.unknown.values()), sum(parsed.placeholders.values()))
                with lock:
                    stats.replies_dropped[reason] += 1
                continue
            rng = random.Random(f"llm-fill:{seed}:{doc.id}:{k}")
            note = fill_reply(parsed.text, rng, lang=lang, doc_id=f"{doc.id}#llm{k}")
            metadata = {
                "source": "llm",
                "generated_from": doc.id,
                "augment_method": "llm-zeroshot" if kind == "zero-shot" else "llm-oneshot",
                "llm_attempt": attempt + 1,
                "llm_copy": k,
            }
            with lock:
                stats.generated += 1
            return Document(note.id, note.text, note.spans, metadata)
        with lock:
            stats.missing += 1
        logger.warning("[doc %s] no usable reply after %d attempts", doc.id, max_attempts)
        return None

    lock = threading.Lock()
    window = max(1, 2 * client.settings.concurrency)
    with ThreadPoolExecutor(max_workers=client.settings.concurrency) as pool:
        pending: list[Future[list[Document]]] = []
        source_iter = iter(docs)
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                try:
                    doc = next(source_iter)
                except StopIteration:
                    exhausted = True
                    break
                stats.sources += 1
                pending.append(pool.submit(one, doc))
            if not pending:
                break
            notes = pending.pop(0).result()
            if progress is not None:
                progress(1)
            for note in notes:
                parts = (
                    to_sentence_documents(note, only_with_phi=only_with_phi) if split_sentences else [note]
                )
                for part in parts:
                    stats.documents_out += 1
                    yield part


def echoes_prompt(reply: str, messages: Sequence[Mapping[str, str]], n: int = 6, limit: float = 0.3) -> bool:
    """True when more than ``limit`` of the reply's word ``n``-grams occur in the prompt.

    Small models often copy the guidelines or the one-shot sample instead of writing a new note;
    such a reply teaches nothing new (and a copied sample is not "a different patient and context").
    """

    def grams(text: str) -> list[tuple[str, ...]]:
        words = re.findall(r"\w+|\[[A-Z_]+\]", text.lower())
        return [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]

    reply_grams = grams(reply)
    if not reply_grams:
        return False
    prompt_grams = set(grams("\n".join(m.get("content", "") for m in messages)))
    shared = sum(1 for g in reply_grams if g in prompt_grams)
    return shared / len(reply_grams) > limit


def _placeholders_in(text: str) -> list[str]:
    """Labels of known ``[LABEL]`` placeholders in a scrubbed note (the one-shot prompt offers them)."""
    return [m.group(1) for m in re.finditer(r"\[([A-Z][A-Z_]*)\]", text) if m.group(1) in LABEL_DESCRIPTIONS]


def _seed(seed: int, doc_id: str, copy: int, attempt: int) -> int:
    digest = hashlib.sha256(f"llm:{seed}:{doc_id}:{copy}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
