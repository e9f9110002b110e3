"""Configuration of ``phiscrub serve``: the engine options, limits, and where the secrets come from.

The configuration travels to uvicorn worker processes as JSON in :data:`CONFIG_ENV_VAR`; that JSON
holds no secret. The bearer token and the surrogate key are read by each worker from where the
operator put them: :data:`TOKEN_ENV_VAR` or a token file, :data:`~phiscrub.keys.KEY_ENV_VAR` or a
key file (:func:`phiscrub.keys.read_key_file`).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field

from phiscrub.config import load_config
from phiscrub.engine_config import DeidConfig
from phiscrub.errors import ConfigError
from phiscrub.keys import KEY_ENV_VAR, read_key_file, read_secret_text

__all__ = [
    "CONFIG_ENV_VAR",
    "DEFAULT_DEADLINE_S",
    "DEFAULT_LONG_NOTE_CHARS",
    "DEFAULT_MAX_BATCH",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_RATE_LIMIT",
    "TOKEN_ENV_VAR",
    "ServiceConfig",
    "read_token_file",
]

#: Environment variable holding the bearer token clients must send.
TOKEN_ENV_VAR = "PHISCRUB_SERVICE_TOKEN"
#: Environment variable carrying the (secret-free) configuration to worker processes.
CONFIG_ENV_VAR = "PHISCRUB_SERVICE_CONFIG"
#: Default request body limit: 1 MiB (about 500 pages of notes).
DEFAULT_MAX_BODY_BYTES = 1 << 20
#: Default most notes in one batch request.
DEFAULT_MAX_BATCH = 128
#: Default requests per minute per bearer token (and worker process).
DEFAULT_RATE_LIMIT = 600
#: Default seconds a request may take before it is answered 503.
DEFAULT_DEADLINE_S = 300.0
#: Default length (characters) above which a note is detected in the long-note lane.
DEFAULT_LONG_NOTE_CHARS = 10_000


@dataclass(frozen=True)
class ServiceConfig:
    """What the service runs with: one engine config plus the service's own fields.

    Per-request choices (mode, policy, labels) are in the requests; ``engine.mode`` and
    ``engine.policy`` are those of requests that name none (the labels of such requests are
    ``coarse``). The site knowledge of ``engine`` (``site_lists``, ``registry``, ``allow_list``)
    is paths on the server, read once per worker process (never per request, never sent by
    clients, never logged); a request's note finds its registry patient through its
    ``patient_id`` (docs/site-lists.md).

    Args:
        engine: the engine options (:class:`~phiscrub.engine_config.DeidConfig`).
        max_body_bytes: larger request bodies are refused with 413.
        max_batch: most notes in one batch request.
        auth: whether requests to ``/v1/`` need the bearer token.
        token_file: file holding the bearer token(s) (else :data:`TOKEN_ENV_VAR`): one per line (or
            comma-separated); each token is a client of its own (own surrogates, own rate limit).
        key_file: file holding the surrogate key (else ``$PHISCRUB_KEY``); no key, no surrogate mode.
        rate_limit: most requests per minute per token in one worker process (0: no limit); more
            are answered 429 with ``Retry-After``.
        deadline_s: a request not done in this many seconds is answered 503 with ``Retry-After``.
        long_note_chars: notes longer than this are detected in the long-note lane
            (:mod:`phiscrub.service.batcher`), which yields to the small notes.
    """

    engine: DeidConfig = field(default_factory=DeidConfig)
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_batch: int = DEFAULT_MAX_BATCH
    auth: bool = True
    token_file: str | None = None
    key_file: str | None = None
    rate_limit: int = DEFAULT_RATE_LIMIT
    deadline_s: float = DEFAULT_DEADLINE_S
    long_note_chars: int = DEFAULT_LONG_NOTE_CHARS

    def __post_init__(self) -> None:
        if self.max_body_bytes < 1:
            raise ConfigError("--max-body-bytes must be at least 1")
        if self.max_batch < 1:
            raise ConfigError("--max-batch must be at least 1")
        if self.rate_limit < 0:
            raise ConfigError("--rate-limit must be 0 (no limit) or more")
        if not self.deadline_s > 0:
            raise ConfigError("--deadline must be more than 0 seconds")
        if self.long_note_chars < 1:
            raise ConfigError("--long-note-chars must be at least 1")

    # -- transport to worker processes -------------------------------------------------------------
    def to_json(self) -> str:
        """The configuration as JSON (no secrets: only the paths of secret files)."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ServiceConfig:
        """Read :meth:`to_json` output back.

        Raises:
            ConfigError: not a JSON object of known fields.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"${CONFIG_ENV_VAR} is not valid JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise ConfigError(f"${CONFIG_ENV_VAR} must hold a JSON object")
        try:
            return load_config(data, cls)
        except ConfigError as exc:
            raise ConfigError(f"${CONFIG_ENV_VAR}: {exc}") from None

    @classmethod
    def from_env(cls) -> ServiceConfig:
        """The configuration a worker process was started with (:data:`CONFIG_ENV_VAR`)."""
        text = os.environ.get(CONFIG_ENV_VAR)
        if not text:
            raise ConfigError(f"${CONFIG_ENV_VAR} is not set: start the service with `phiscrub serve`")
        return cls.from_json(text)

    # -- secrets -----------------------------------------------------------------------------------
    def tokens(self) -> tuple[str, ...]:
        """The bearer tokens: from :attr:`token_file`, else :data:`TOKEN_ENV_VAR`; none when auth is off.

        Several tokens are one per line or comma-separated (lines starting with ``#`` are comments).

        Raises:
            ConfigError: auth is on and no non-blank token is configured.
        """
        if not self.auth:
            return ()
        if self.token_file is not None:
            text = read_token_file(self.token_file)
        else:
            text = os.environ.get(TOKEN_ENV_VAR, "")
        tokens = [
            t.strip()
            for line in text.splitlines()
            if not line.strip().startswith("#")
            for t in line.split(",")
            if t.strip()
        ]
        if not tokens:
            raise ConfigError(
                f"no bearer token: set ${TOKEN_ENV_VAR} or pass --token-file "
                "(or --insecure-no-auth to serve without authentication)"
            )
        return tuple(dict.fromkeys(tokens))

    def token(self) -> str | None:
        """The first bearer token (:meth:`tokens`), or None when auth is off."""
        tokens = self.tokens()
        return tokens[0] if tokens else None

    def key(self) -> str | None:
        """The surrogate key: from :attr:`key_file` (less one trailing line break,
        :func:`phiscrub.keys.read_key_file`), else ``$PHISCRUB_KEY``, else None."""
        if self.key_file is not None:
            return read_key_file(self.key_file, "--key-file")
        return os.environ.get(KEY_ENV_VAR) or None


def read_token_file(path: str) -> str:
    """The text of a bearer-token file (tokens are split and stripped by :meth:`ServiceConfig.tokens`).

    Raises:
        ConfigError: the file cannot be read or is blank (the message names the path, not content).
    """
    text = read_secret_text(path, "--token-file")
    if not text.strip():
        raise ConfigError(f"--token-file {path} is empty")
    return text
