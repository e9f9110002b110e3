"""ASGI middleware of the service: access log without text, bearer auth, rate limit, size limit.

Written as plain ASGI classes (no note text can reach a log line: only the method, a known path,
the status, the duration and counts are logged). Order, outermost first: :class:`AccessLog`
(catches every error, so that no traceback with request data reaches the server log),
:class:`BearerAuth` (before any body is read; it names the client, ``scope["state"]["tenant"]``),
:class:`RateLimit` (per client), :class:`BodyLimit`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

__all__ = ["ACCESS_LOGGER", "AccessLog", "BearerAuth", "BodyLimit", "RateLimit", "send_json", "tenant_of"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Logger of the access log (one line per request: method, path, status, duration, counts).
ACCESS_LOGGER = "phiscrub.service.access"

access_log = logging.getLogger(ACCESS_LOGGER)
log = logging.getLogger(__name__)

#: Paths logged as they are; any other path is logged as ``-`` (a URL may hold anything).
_LOGGED_PATHS = frozenset(
    {"/", "/healthz", "/v1/redact", "/v1/detect", "/docs", "/redoc", "/openapi.json", "/favicon.ico"}
)
_LOGGED_PREFIXES = ("/static/", "/static-offline-docs/")

#: Security headers on every response; the review page also gets a strict CSP (no remote assets).
_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
_PAGE_CSP = (
    b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
)


async def send_json(
    send: Send, status: int, body: dict[str, Any], headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    """Send a whole JSON response."""
    data = json.dumps(body).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


def _logged_path(path: str) -> str:
    if path in _LOGGED_PATHS:
        return path
    for prefix in _LOGGED_PREFIXES:
        if path.startswith(prefix):
            return prefix + "*"
    return "-"


class AccessLog:
    """One log line per request, counts only; any unhandled error becomes a bare 500 JSON response.

    Endpoints add counts with ``request.state.log_counts = {"notes": 3, "spans": 7}``.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        state = scope.setdefault("state", {})
        status = 0
        path = scope.get("path", "")

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", [])) + _HEADERS
                if path == "/":
                    headers.append((b"content-security-policy", _PAGE_CSP))
                if path.startswith("/v1/"):
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        except Exception as exc:  # noqa: BLE001 - the type only: messages may quote request data
            log.error("request %s %s failed: %s", scope.get("method"), _logged_path(path), type(exc).__name__)
            if status == 0:
                await send_json(send_wrapper, 500, {"error": "internal server error"})
        finally:
            counts = state.get("log_counts") or {}
            extra = "".join(f" {k}={int(v)}" for k, v in counts.items())
            access_log.info(
                "%s %s %d %.1fms%s",
                scope.get("method", "-"),
                _logged_path(path),
                status,
                (time.perf_counter() - start) * 1000.0,
                extra,
            )


def _bearer(scope: Scope) -> bytes | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
    for name, value in headers:
        if name == b"authorization":
            scheme, _, token = value.partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                return token.strip()
            return None
    return None


def tenant_of(scope: Scope) -> str:
    """The client of a request: the hex SHA-256 digest of its bearer token ("" without auth)."""
    state = scope.get("state") or {}
    return str(state.get("tenant", ""))


class BearerAuth:
    """Refuse requests under ``/v1/`` without a right bearer token (401, before the body is read).

    The comparison runs in constant time over SHA-256 digests (so neither the content nor the
    length of a token leaks through timing), against every token (not stopping at a match). A
    request with a right token gets that token's digest as its client, ``scope["state"]["tenant"]``.

    Args:
        app: the application.
        tokens: the accepted tokens (none: no authentication).
    """

    def __init__(self, app: ASGIApp, tokens: Sequence[str]) -> None:
        self.app = app
        self._digests = [hashlib.sha256(t.encode("utf-8")).digest() for t in tokens]

    def _client(self, scope: Scope) -> str | None:
        """The digest (hex) of the request's token when it is one of the tokens, else None."""
        given = _bearer(scope)
        if given is None:
            return None
        digest = hashlib.sha256(given).digest()
        found = None
        for known in self._digests:
            if hmac.compare_digest(digest, known):
                found = known
        return None if found is None else found.hex()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        guarded = scope["type"] == "http" and scope.get("path", "").startswith("/v1/")
        if guarded and self._digests:
            client = self._client(scope)
            if client is None:
                await send_json(
                    send,
                    401,
                    {"error": "missing or invalid bearer token"},
                    [(b"www-authenticate", b'Bearer realm="phiscrub"')],
                )
                return
            scope.setdefault("state", {})["tenant"] = client
        await self.app(scope, receive, send)


class RateLimit:
    """At most ``per_minute`` requests under ``/v1/`` per client, more answered 429 with ``Retry-After``.

    A token bucket per client (:func:`tenant_of`): it holds up to ``per_minute`` requests and refills
    at ``per_minute / 60`` per second, so a client may send a minute's worth at once and then
    ``per_minute`` a minute. The counts live in the worker process (``--workers N``: up to N times
    the limit in all).

    Args:
        app: the application.
        per_minute: requests per minute per client (0: no limit).
    """

    def __init__(self, app: ASGIApp, per_minute: int) -> None:
        self.app = app
        self.per_minute = per_minute
        self._buckets: dict[str, tuple[float, float]] = {}  # client: (requests left, at)
        self._lock = threading.Lock()

    def _wait(self, client: str) -> float:
        """0 when the client may go on now (a request is counted), else seconds until it may."""
        now = time.monotonic()
        rate = self.per_minute / 60.0
        with self._lock:
            left, at = self._buckets.get(client, (float(self.per_minute), now))
            left = min(float(self.per_minute), left + (now - at) * rate)
            if left >= 1.0:
                self._buckets[client] = (left - 1.0, now)
                return 0.0
            self._buckets[client] = (left, now)
            return (1.0 - left) / rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limited = self.per_minute > 0 and scope["type"] == "http" and scope.get("path", "").startswith("/v1/")
        if limited:
            wait = self._wait(tenant_of(scope))
            if wait > 0:
                await send_json(
                    send,
                    429,
                    {"error": f"rate limit of {self.per_minute} requests per minute exceeded"},
                    [(b"retry-after", str(max(1, math.ceil(wait))).encode())],
                )
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413 and a JSON error.

    A declared ``Content-Length`` over the limit is refused before reading; otherwise the body is
    read up to the limit (refused as soon as it passes it) and handed on whole.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _too_large(self, send: Send) -> None:
        await send_json(send, 413, {"error": f"request body over the limit of {self.max_bytes} bytes"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await send_json(send, 400, {"error": "invalid Content-Length"})
                    return
                if declared > self.max_bytes:
                    await self._too_large(send)
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_large(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
