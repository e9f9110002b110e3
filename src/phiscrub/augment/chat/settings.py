"""Where and how to call an OpenAI-compatible endpoint: :class:`LLMSettings`."""

from __future__ import annotations

import os
from dataclasses import dataclass

from phiscrub.config import check_fields
from phiscrub.errors import ConfigError

__all__ = ["API_KEY_ENVS", "LLMSettings"]

#: Environment variables read for the endpoint's API key, first one set wins.
API_KEY_ENVS: tuple[str, ...] = ("PHISCRUB_LLM_API_KEY", "OPENAI_API_KEY")


@dataclass(frozen=True)
class LLMSettings:
    """Where and how to call the endpoint (a table or a TOML/JSON file loads with
    :func:`phiscrub.config.load_config`).

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
        check_fields(self)
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

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """The price of these tokens (prices are per million tokens)."""
        return (prompt_tokens * self.price_prompt + completion_tokens * self.price_completion) / 1e6
