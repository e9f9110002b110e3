""":class:`ChatClient`: a leak-guarded, cached, retrying chat-completions client with a usage log.

Every request goes through the :class:`~phiscrub.augment.llm.LeakGuard` first: a prompt in which a
detector still finds PHI is never sent (:class:`~phiscrub.errors.LeakGuardError`, document id + labels
+ offsets only). Then the reply cache (:mod:`.cache`), the HTTP exchange (:mod:`.transport`) with the
retry policy (:mod:`.retry`), and the usage log (:mod:`.usage`).
"""

from __future__ import annotations

import threading
import time
import urllib.error
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from phiscrub.augment.chat.cache import ReplyCache
from phiscrub.augment.chat.retry import RETRY_STATUS, backoff_delay, retry_after
from phiscrub.augment.chat.settings import LLMSettings
from phiscrub.augment.chat.transport import Completion, parse_completion, post_json
from phiscrub.augment.chat.usage import UsageLog
from phiscrub.augment.llm import LeakGuard
from phiscrub.errors import LLMError

__all__ = ["ChatClient"]


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
        self._cache = ReplyCache(self.cache_dir) if self.cache_dir is not None else None
        self._usage = UsageLog(self.log_path, settings) if self.log_path is not None else None
        self._sleep = sleep
        self._lock = threading.Lock()
        self.requests = 0
        self.cache_hits = 0
        self.retries = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0

    @property
    def cost(self) -> float:
        """Total cost of the tokens used so far (prices per million tokens)."""
        return self.settings.cost(self.prompt_tokens, self.completion_tokens)

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
        key = ReplyCache.key(self.settings.endpoint, payload)
        cached = self._cache.get(key) if self._cache is not None else None
        if cached is not None:
            with self._lock:
                self.cache_hits += 1
            self._log(doc_id, 0, "cached", True, (0, 0), 0.0)
            return cached
        completion = self._post(doc_id, payload)
        if self._cache is not None:
            self._cache.put(key, completion)
        return completion

    def _post(self, doc_id: str, payload: dict[str, Any]) -> Completion:
        """Send with retries; count tokens; log every attempt."""
        last = "no attempt"
        for attempt in range(1, self.settings.max_retries + 2):
            start = time.perf_counter()
            server_wait: float | None = None
            try:
                completion = parse_completion(doc_id, post_json(self.settings, payload))
                with self._lock:
                    self.requests += 1
                    self.prompt_tokens += completion.prompt_tokens
                    self.completion_tokens += completion.completion_tokens
                usage = (completion.prompt_tokens, completion.completion_tokens)
                self._log(doc_id, attempt, "200", False, usage, time.perf_counter() - start)
                return completion
            except urllib.error.HTTPError as err:
                last = f"HTTP {err.code}"
                server_wait = retry_after(err.headers.get("Retry-After") if err.headers else None)
                err.close()
                self._log(doc_id, attempt, str(err.code), False, (0, 0), time.perf_counter() - start)
                if err.code not in RETRY_STATUS:
                    raise LLMError(f"[doc {doc_id}] LLM endpoint answered {last}; not retried") from None
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as err:
                reason = getattr(err, "reason", err)
                last = type(reason).__name__ if not isinstance(reason, str) else "connection error"
                self._log(doc_id, attempt, last, False, (0, 0), time.perf_counter() - start)
            if attempt <= self.settings.max_retries:
                with self._lock:
                    self.retries += 1
                self._sleep(backoff_delay(self.settings.backoff_s, attempt, server_wait))
        raise LLMError(
            f"[doc {doc_id}] LLM endpoint failed after {self.settings.max_retries + 1} attempts ({last})"
        )

    def _log(
        self, doc_id: str, attempt: int, status: str, cached: bool, usage: tuple[int, int], seconds: float
    ) -> None:
        if self._usage is not None:
            self._usage.write(doc_id, attempt, status, cached, usage, seconds)
