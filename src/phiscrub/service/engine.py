"""The de-identification work behind the service: one de-identifier, per-request choices on the call.

The detectors (rules and the model) are built once, at start-up, by the service's one
:class:`~phiscrub.deid.Deidentifier`. Detection (:meth:`Engine.propose`) does not depend on the
request's choices, so the notes of concurrent requests are detected together
(:mod:`phiscrub.service.batcher`); each note is then finished with its request's choices (mode,
label granularity, policy) passed to :meth:`Deidentifier.finish <phiscrub.deid.Deidentifier.finish>`.

Surrogates: the service never uses the secret (``$PHISCRUB_KEY``) as it is. Its surrogate key is
``HMAC-SHA256(secret, "phiscrub-service-v1")``, and each client (bearer token) gets its own key
derived from that one and the token's digest (:meth:`Engine.tenant_key`), passed on the call. So
the service cannot reproduce the surrogates of a batch run (``phiscrub redact``) with the same
secret, and two token holders never share surrogates or date shifts, whatever patient ids they send
(docs/surrogates.md).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass, replace

from phiscrub.deid import KEY_ENV_VAR, Deidentifier, Redaction
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.service.config import ServiceConfig

__all__ = ["SERVICE_KEY_LABEL", "Engine", "Options", "load_engine", "service_key"]

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
    """The choices of one request, the server's defaults applied (as the answer reports them)."""

    mode: str
    labels: str
    policy: str | None


class Engine:
    """Detect notes with the service's detectors and finish them with each request's choices.

    :meth:`propose` and the finishing methods may run in several threads at once (the batcher's
    two lanes): the de-identifier holds no per-call state (its transformers, one per mode, label
    granularity and key, are built once and kept).

    Args:
        config: the service configuration.
        key: the operator's surrogate secret (None: surrogate mode is refused); requests use keys
            derived from it (:func:`service_key`), never the secret itself.
    """

    def __init__(self, config: ServiceConfig, key: str | None) -> None:
        self.config = config
        self._key = key
        #: The one de-identifier: every request's choices, and its client's key, are passed to its
        #: calls. It holds no key itself, so it is built in placeholder mode; the server's default
        #: mode is applied per request (:meth:`options`).
        self.deid = Deidentifier.from_config(replace(config.engine, mode="placeholder"))

    def load(self) -> Engine:
        """Load the detectors (the model) and run them once on a fixed sentence.

        A broken model or an invalid option (e.g. the resolve strategy) fails here, at start-up,
        and the first request does not pay for the first model run.
        """
        self.deid.load()
        self.deid.detect_many([Document("warm-up", _WARM_UP)])
        return self

    @property
    def has_model(self) -> bool:
        """Whether a tagger model is among the detectors."""
        return any(getattr(d, "name", "") == "model" for d in self.deid.active_detectors)

    @property
    def surrogates(self) -> bool:
        """Whether surrogate mode is available (a key is configured)."""
        return self._key is not None

    def tenant_key(self, tenant: str) -> str | None:
        """The surrogate key of requests made with the token whose digest is ``tenant``."""
        return None if self._key is None else service_key(self._key, tenant)

    def options(self, mode: str | None, labels: str | None, policy: str | None) -> Options:
        """A request's choices with the server's defaults (:attr:`ServiceConfig.engine`) applied.

        Raises:
            ConfigError: an invalid choice, or surrogate mode without a configured key.
        """
        cfg = self.config.engine.with_choices(
            mode=mode or None, labels=labels or "coarse", policy=policy or None
        )
        if cfg.mode == "surrogate" and self._key is None:
            raise ConfigError("surrogate mode is not enabled on this server (it has no surrogate key)")
        return Options(mode=cfg.mode, labels=cfg.labels, policy=cfg.policy)

    def propose(self, docs: Sequence[Document]) -> list[list[Span]]:
        """Every detector's proposals for a batch of notes (one model run); choices do not matter."""
        return self.deid.propose_many(docs)

    def redact_one(self, doc: Document, proposals: Sequence[Span], opts: Options, tenant: str) -> Redaction:
        """One note redacted from its proposals with ``opts`` and the client's key (``tenant``); the
        policy applied is the Redaction's ``policy``."""
        key = self.tenant_key(tenant) if opts.mode == "surrogate" else None
        return self.deid.finish(
            doc, proposals, mode=opts.mode, labels=opts.labels, policy=opts.policy, key=key
        )

    def detect_one(self, doc: Document, proposals: Sequence[Span], opts: Options) -> tuple[list[Span], str]:
        """PHI spans of one note from its proposals (labels at ``opts.labels``), and its policy."""
        spans = self.deid.select(doc, proposals, policy=opts.policy)
        return list(self.deid.labelled(spans, opts.labels)), self.deid.policy_for(doc, opts.policy)


def load_engine(config: ServiceConfig) -> Engine:
    """Check the secrets and load the engine (the model) before anything listens.

    Raises:
        ConfigError: auth is on without a token, or surrogate mode by default without a key.
        ModelError: the model does not load.
    """
    config.token()  # no token, no server
    key = config.key()
    if config.engine.mode == "surrogate" and key is None:
        raise ConfigError(f"--mode surrogate needs a key: set ${KEY_ENV_VAR} or pass --key-file")
    return Engine(config, key).load()
