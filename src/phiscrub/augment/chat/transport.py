"""One chat-completions HTTP exchange with the standard library: send a JSON body, parse the reply."""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from typing import Any

from phiscrub.augment.chat.settings import LLMSettings
from phiscrub.errors import LLMError

__all__ = ["Completion", "parse_completion", "post_json"]


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


def post_json(settings: LLMSettings, payload: dict[str, Any]) -> bytes:
    """POST ``payload`` to the settings' endpoint (bearer key when one is set); the raw reply body.

    Raises:
        urllib.error.HTTPError, urllib.error.URLError, TimeoutError, OSError: as urllib raises them
            (the retry policy decides what to do with them).
    """
    body = json.dumps(payload).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    key = settings.resolved_key()
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(settings.endpoint, data=body, headers=headers)
    with urllib.request.urlopen(request, timeout=settings.timeout_s) as response:
        raw: bytes = response.read()
    return raw


def parse_completion(doc_id: str, raw: bytes) -> Completion:
    """The first choice's message and the token usage of a chat-completions reply.

    Raises:
        LLMError: the reply holds no chat message (document id only in the message).
    """
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
