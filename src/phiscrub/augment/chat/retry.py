"""When to retry a failed request and how long to wait: exponential backoff with jitter, ``Retry-After``."""

from __future__ import annotations

import random

__all__ = ["RETRY_STATUS", "backoff_delay", "retry_after"]

#: HTTP statuses worth another try (timeouts, conflicts, rate limits, server errors).
RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


def retry_after(value: str | None) -> float | None:
    """Seconds of a ``Retry-After`` header (capped at 120), or None when absent or not a number."""
    if not value:
        return None
    try:
        return min(120.0, max(0.0, float(value)))
    except ValueError:
        return None


def backoff_delay(backoff_s: float, attempt: int, server_wait: float | None = None) -> float:
    """The wait before retry ``attempt`` (from 1): ``backoff_s`` doubling, capped at 60 s, plus up to
    25% jitter; at least what the server asked for."""
    delay = min(60.0, backoff_s * 2.0 ** (attempt - 1))
    delay *= 1.0 + 0.25 * random.random()
    return float(max(delay, server_wait or 0.0))
