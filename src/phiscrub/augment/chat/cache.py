"""The reply cache: one JSON file per request, keyed by a hash of endpoint, model, messages and sampling.

A rerun after an interruption sends only what is missing. Files are written to a temporary name and
renamed, so a half-written file is never read (and one that fails to parse is asked again).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from phiscrub.augment.chat.transport import Completion

__all__ = ["ReplyCache"]


class ReplyCache:
    """Cached completions under ``folder`` (created), two-level by key prefix."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def key(endpoint: str, payload: Mapping[str, Any]) -> str:
        """The cache key of a request."""
        canonical = json.dumps({"endpoint": endpoint, **payload}, sort_keys=True)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def get(self, key: str) -> Completion | None:
        """The cached completion, or None when missing or unreadable."""
        path = self.folder / key[:2] / f"{key}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return Completion(
                data["text"], int(data["prompt_tokens"]), int(data["completion_tokens"]), True,
                data.get("finish_reason"),
            )  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError):
            return None  # missing or half-written: ask again

    def put(self, key: str, completion: Completion) -> None:
        """Store a completion (atomically)."""
        folder = self.folder / key[:2]
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
