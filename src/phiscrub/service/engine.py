"""The de-identification work behind the service: one model, many per-request option sets.

The detectors (rules and the model) are built once, at start-up. Each combination of request
options (mode, label granularity, policy) gets its own :class:`~phiscrub.deid.Deidentifier` that
shares those detectors; it is built on first use and kept.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from phiscrub.deid import Deidentifier, Redaction
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.labels import fold
from phiscrub.service.config import ServiceConfig

__all__ = ["Engine", "Options"]

#: Run through the detectors at start-up (no PHI).
_WARM_UP = "Seen in clinic on 01/02/2020 for a follow-up visit."


@dataclass(frozen=True)
class Options:
    """The options of one request, defaults already applied."""

    mode: str
    labels: str
    policy: str | None


class Engine:
    """Detect and redact notes with the service's detectors, serialised by a lock.

    ONNX Runtime uses every core for one batch already, so requests in one worker process run one
    at a time; more throughput comes from more worker processes (``phiscrub serve --workers``).

    Args:
        config: the service configuration.
        key: the surrogate secret (None: surrogate mode is refused).
    """

    def __init__(self, config: ServiceConfig, key: str | None) -> None:
        self.config = config
        self._key = key
        self._lock = threading.Lock()
        self._base = self._build("placeholder", "coarse", None, detectors=None)
        self._cache: dict[Options, Deidentifier] = {}

    def load(self) -> Engine:
        """Load the detectors (the model) and run them once on a fixed sentence.

        A broken model or an invalid option (e.g. the resolve strategy) fails here, at start-up,
        and the first request does not pay for the first model run.
        """
        self._base.load()
        self._base.detect_many([Document("warm-up", _WARM_UP)])
        return self

    @property
    def has_model(self) -> bool:
        """Whether a tagger model is among the detectors."""
        return any(getattr(d, "name", "") == "model" for d in self._base.active_detectors)

    @property
    def surrogates(self) -> bool:
        """Whether surrogate mode is available (a key is configured)."""
        return self._key is not None

    def _build(
        self, mode: str, labels: str, policy: str | None, detectors: Sequence[object] | None
    ) -> Deidentifier:
        # The model is loaded once, by the base de-identifier; the others share its detectors.
        return self.config.deidentifier(
            mode=mode,
            labels=labels,
            key=self._key,
            policy=policy,
            model=True if detectors is None else None,
            detectors=detectors,
        )

    def options(self, mode: str | None, labels: str | None, policy: str | None) -> Options:
        """Request options with the server defaults applied.

        Raises:
            ConfigError: surrogate mode without a configured key.
        """
        opts = Options(
            mode=mode or self.config.default_mode,
            labels=labels or "coarse",
            policy=policy or self.config.default_policy,
        )
        if opts.mode == "surrogate" and self._key is None:
            raise ConfigError("surrogate mode is not enabled on this server (it has no surrogate key)")
        return opts

    def _deid(self, opts: Options) -> Deidentifier:
        deid = self._cache.get(opts)
        if deid is None:
            deid = self._build(opts.mode, opts.labels, opts.policy, self._base.active_detectors).load()
            self._cache[opts] = deid
        return deid

    def redact(self, docs: Sequence[Document], opts: Options) -> list[tuple[Redaction, str]]:
        """Redact ``docs`` in one batch; each with the policy applied to it."""
        with self._lock:
            deid = self._deid(opts)
            out = list(deid.redact_many(docs, batch_size=max(1, len(docs))))
            return [(red, deid.policy_for(red.original)) for red in out]

    def detect(self, docs: Sequence[Document], opts: Options) -> list[tuple[list[Span], str]]:
        """PHI spans of ``docs`` (labels at ``opts.labels``), each with the policy applied to it."""
        with self._lock:
            deid = self._deid(opts)
            found = deid.detect_many(list(docs))
            out: list[tuple[list[Span], str]] = []
            for doc, spans in zip(docs, found):
                kept = []
                for s in spans:
                    lab = fold(s.label, opts.labels)  # type: ignore[arg-type]
                    if lab is not None:
                        kept.append(s if opts.labels == "fine" else s.with_label(lab))
                out.append((sorted(kept), deid.policy_for(doc)))
            return out
