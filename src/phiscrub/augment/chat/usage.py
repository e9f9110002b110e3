"""The usage log: JSONL, one line per request (document id, attempt, status, tokens, seconds, cost).

Never prompt or reply text.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from phiscrub.augment.chat.settings import LLMSettings

__all__ = ["UsageLog"]


class UsageLog:
    """Append usage records to ``path`` (its folder is created); thread-safe."""

    def __init__(self, path: str | Path, settings: LLMSettings) -> None:
        self.path = Path(path)
        self.settings = settings
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def write(
        self, doc_id: str, attempt: int, status: str, cached: bool, usage: tuple[int, int], seconds: float
    ) -> None:
        """One request's record."""
        record = {
            "time": round(time.time(), 3),
            "doc_id": doc_id,
            "model": self.settings.model,
            "attempt": attempt,
            "status": status,
            "cached": cached,
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "seconds": round(seconds, 3),
            "cost": self.settings.cost(*usage),
        }
        line = json.dumps(record) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
