"""An OpenAI-compatible chat client that cannot send PHI, one concern per module.

* :mod:`.settings`: :class:`LLMSettings` (endpoint, sampling, retries, prices).
* :mod:`.transport`: one HTTP exchange and :class:`Completion`.
* :mod:`.retry`: which failures are retried and the backoff.
* :mod:`.cache`: the reply cache (a rerun resumes from it).
* :mod:`.usage`: the JSONL usage log (ids and counts only).
* :mod:`.concurrent`: the ordered thread-pool map the augmentation loop runs on.
* :mod:`.client`: :class:`ChatClient`, which puts them together behind the leak guard.
"""

from __future__ import annotations

from phiscrub.augment.chat.client import ChatClient
from phiscrub.augment.chat.concurrent import ordered_map
from phiscrub.augment.chat.settings import API_KEY_ENVS, LLMSettings
from phiscrub.augment.chat.transport import Completion

__all__ = ["API_KEY_ENVS", "ChatClient", "Completion", "LLMSettings", "ordered_map"]
