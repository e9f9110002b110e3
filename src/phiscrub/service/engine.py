"""The de-identification work behind the service: one model, many per-request option sets.

The detectors (rules and the model) are built once, at start-up. Detection (:meth:`Engine.propose`)
does not depend on the request options, so the notes of concurrent requests are detected together
(:mod:`phiscrub.service.batcher`); each note is then finished with its request's options (mode,
label granularity, policy) by a :class:`~phiscrub.deid.Deidentifier` that shares those detectors,
built on first use and kept.

Surrogates: the service never uses the secret (``$PHISCRUB_KEY``) as it is. Its surrogate key is
``HMAC-SHA256(secret, "phiscrub-service-v1")``, and each client (bearer token) gets its own key
derived from that one and the token's digest (:meth:`Engine.tenant_key`). So the service cannot
reproduce the surrogates of a batch run (``phiscrub redact``) with the same secret, and two token
holders never share surrogates or date shifts, whatever patient ids they send (docs/surrogates.md).
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from phiscrub.deid import Deidentifier, Redaction
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.labels import fold
from phiscrub.service.config import ServiceConfig

__all__ = ["SERVICE_KEY_LABEL", "Engine", "Options", "service_key"]

#: Run through the detectors at start-up (no PHI).
_WARM_UP = "Seen in clinic on 01/02/2020 for a follow-up visit."

#: Label of the service's own surrogate key: HMAC-SHA256(secret, this).
SERVICE_KEY_LABEL = b"phiscrub-service-v1"


def service_key(secret: str, tenant: str) -> str:
    """The surrogate key of one client of the service (hex), derived from the operator's secret.

    ``HMAC-SHA256(HMAC-SHA256(secret, SERVICE_KEY_LABEL), "tenant:" + tenant)``: not the secret a
    batch run uses, and another key for every ``tenant`` (a bearer token's digest).
    """
    base = hmac.new(secret.encode("utf-8"), SERVICE_KEY_LABEL, hashlib.sha256).digest()
    return hmac.new(base, b"tenant:" + tenant.encode("utf-8"), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Options:
    """The options of one request, defaults already applied."""

    mode: str
    labels: str
    policy: str | None


class Engine:
    """Detect notes with the service's detectors and finish them with each request's options.

    :meth:`propose` and the finishing methods may run in several threads at once (the batcher's
    two lanes): the detectors and de-identifiers hold no per-call state.

    Args:
        config: the service configuration.
        key: the operator's surrogate secret (None: surrogate mode is refused); requests use keys
            derived from it (:func:`service_key`), never the secret itself.
    """

    def __init__(self, config: ServiceConfig, key: str | None) -> None:
        self.config = config
        self._key = key
        self._lock = threading.Lock()
        self._base = self._build("placeholder", "coarse", None, None, detectors=None)
        self._cache: dict[tuple[Options, str], Deidentifier] = {}

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

    def tenant_key(self, tenant: str) -> str | None:
        """The surrogate key of requests made with the token whose digest is ``tenant``."""
        return None if self._key is None else service_key(self._key, tenant)

    def _build(
        self, mode: str, labels: str, policy: str | None, key: str | None, detectors: Sequence[object] | None
    ) -> Deidentifier:
        # The model is loaded once, by the base de-identifier; the others share its detectors.
        return self.config.deidentifier(
            mode=mode,
            labels=labels,
            key=key,
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

    def _deid(self, opts: Options, tenant: str) -> Deidentifier:
        # Only surrogates depend on the client: other modes share one de-identifier per options.
        who = tenant if opts.mode == "surrogate" else ""
        with self._lock:
            deid = self._cache.get((opts, who))
            if deid is None:
                key = self.tenant_key(who) if opts.mode == "surrogate" else None
                deid = self._build(opts.mode, opts.labels, opts.policy, key, self._base.active_detectors)
                self._cache[(opts, who)] = deid.load()
            return deid

    def propose(self, docs: Sequence[Document]) -> list[list[Span]]:
        """Every detector's proposals for a batch of notes (one model run); options do not matter."""
        return self._base.propose_many(docs)

    def redact_one(
        self, doc: Document, proposals: Sequence[Span], opts: Options, tenant: str
    ) -> tuple[Redaction, str]:
        """One note redacted from its proposals with ``opts``, and the policy applied to it.

        The same as :meth:`Deidentifier.redact_one` with the client's key (``tenant``).
        """
        deid = self._deid(opts, tenant)
        spans = deid.select(doc, proposals)
        kept = []
        for s in spans:
            lab = fold(s.label, opts.labels)  # type: ignore[arg-type]
            if lab is not None:
                kept.append(s if opts.labels == "fine" else s.with_label(lab))
        pid = doc.metadata.get("patient_id")
        result = deid.transformer.apply(doc, spans, patient_id=None if pid is None else str(pid))
        return Redaction(original=doc, spans=tuple(sorted(kept)), result=result), deid.policy_for(doc)

    def detect_one(self, doc: Document, proposals: Sequence[Span], opts: Options) -> tuple[list[Span], str]:
        """PHI spans of one note from its proposals (labels at ``opts.labels``), and its policy."""
        deid = self._deid(opts, "")
        kept = []
        for s in deid.select(doc, proposals):
            lab = fold(s.label, opts.labels)  # type: ignore[arg-type]
            if lab is not None:
                kept.append(s if opts.labels == "fine" else s.with_label(lab))
        return sorted(kept), deid.policy_for(doc)
