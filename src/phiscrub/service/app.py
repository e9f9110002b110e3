"""The FastAPI application of ``phiscrub serve``: API routes, review page, error bodies without text.

Routes:

- ``POST /v1/redact``: redact one note (``text``) or a batch (``notes``).
- ``POST /v1/detect``: the PHI spans of one note or a batch.
- ``GET /healthz``: liveness and what the server offers (no auth).
- ``GET /``: the review page (static files in ``phiscrub/service/static``, no remote assets).
- ``GET /docs``, ``/redoc``, ``/openapi.json``: OpenAPI docs, served from local files.

Every error body is ``{"error": ..., "detail": ...}`` and never holds the text sent: validation
errors (422) keep the error type, message and location but not the input FastAPI would echo.

The notes of concurrent requests are detected together and long notes in a lane of their own
(:mod:`phiscrub.service.batcher`, :mod:`phiscrub.service.long_lane`); a request not done by its
deadline is answered 503.
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from phiscrub import __version__
from phiscrub.document import Document
from phiscrub.errors import PhiscrubError
from phiscrub.service.batcher import Batcher, DeadlineExceeded, Finish
from phiscrub.service.config import ServiceConfig
from phiscrub.service.engine import Engine, Options
from phiscrub.service.long_lane import Bound, ProcessLane, Recipe
from phiscrub.service.middleware import AccessLog, BearerAuth, BodyLimit, RateLimit, tenant_of
from phiscrub.service.schemas import (
    BatchDetectResponse,
    BatchRedactResponse,
    DetectRequest,
    DetectResult,
    ErrorResponse,
    Health,
    RedactedSpan,
    RedactRequest,
    RedactResult,
    SpanOut,
)

__all__ = ["STATIC_DIR", "app_from_env", "create_app"]

log = logging.getLogger(__name__)

_Handler = TypeVar("_Handler", bound=Callable[..., Any])

#: The review page's files, shipped in the package.
STATIC_DIR = Path(__file__).parent / "static"

_DESCRIPTION = """\
De-identify clinical notes over HTTP. Requests under `/v1/` need `Authorization: Bearer <token>`
(unless the server runs with `--insecure-no-auth`). Responses hold offsets into the text sent and
the redacted text, never the PHI strings; the server logs only method, path, status, duration and
counts. The review page is at `/`.
"""

#: Field names that may appear in the location of a validation error; other keys become ``<key>``.
_KNOWN_LOC = frozenset(
    {"body", "query", "path", "header", "text", "notes", "id", "patient_id", "mode", "policy", "labels"}
)

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "Missing or wrong bearer token."},
    413: {"model": ErrorResponse, "description": "Request body or batch over the server's limit."},
    422: {"model": ErrorResponse, "description": "Invalid request (the text sent is not repeated)."},
    429: {"model": ErrorResponse, "description": "Over this token's rate limit (see Retry-After)."},
    503: {"model": ErrorResponse, "description": "Not done by the server's deadline (see Retry-After)."},
}

#: Retry-After (seconds) of a request answered 503 at its deadline.
RETRY_AFTER_S = 5


def _no_telemetry() -> dict[str, Any]:
    """FastAPI keyword arguments turning its OpenTelemetry hooks off, where this FastAPI has them.

    Its telemetry logs would record validation errors with their messages; the service records
    nothing about a request but its access log line.
    """
    from fastapi import FastAPI as _FastAPI

    if "telemetry" not in inspect.signature(_FastAPI.__init__).parameters:
        return {}
    off = {"tracing": False, "metrics": False, "logs": False, "operation_spans": False}
    return {"telemetry": {**off, "auto_configure": False, "exclude": lambda scope: True}}


def _clean_loc(loc: Sequence[Any]) -> list[str | int]:
    return [x if isinstance(x, int) or x in _KNOWN_LOC else "<key>" for x in loc]


def _span_out(s: Any) -> SpanOut:
    return SpanOut(start=s.start, end=s.end, label=s.label, source=s.source, score=round(float(s.score), 4))


def _docs(req: RedactRequest | DetectRequest) -> tuple[list[Document], bool]:
    """The request's notes as documents, and whether it was a batch."""
    if req.notes is None:
        assert req.text is not None
        meta = {} if req.patient_id is None else {"patient_id": req.patient_id}
        return [Document(req.id or "text", req.text, (), meta)], False
    docs = []
    for i, note in enumerate(req.notes):
        meta = {} if note.patient_id is None else {"patient_id": note.patient_id}
        docs.append(Document(note.id if note.id is not None else str(i), note.text, (), meta))
    return docs, True


def create_app(config: ServiceConfig, engine: Engine | None = None) -> FastAPI:
    """Build the service.

    Args:
        config: the service configuration; its token and key are read now.
        engine: a loaded engine to use (default: one is built and its model loaded now).

    Raises:
        ConfigError: auth is on and no token is configured, or invalid options.
        ModelError: the model does not load.
    """
    from fastapi_offline import FastAPIOffline

    tokens = config.tokens()
    if engine is None:
        engine = Engine(config, config.key()).load()
    # Long notes are detected in a process of their own (no GIL shared with the short notes).
    batcher = Batcher(engine.propose, long_chars=config.long_note_chars, long_lane=ProcessLane(config))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        batcher.close()

    app: FastAPI = FastAPIOffline(
        title="phiscrub",
        version=__version__,
        description=_DESCRIPTION,
        lifespan=lifespan,
        **_no_telemetry(),
    )
    bearer = HTTPBearer(auto_error=False, description="The server's token (PHISCRUB_SERVICE_TOKEN).")

    def counted(request: Request, notes: int, spans: int) -> None:
        request.state.log_counts = {"notes": notes, "spans": spans}

    def notes(req: RedactRequest | DetectRequest, mode: str | None) -> tuple[list[Document], bool, Options]:
        """The request's notes, whether it was a batch, and its options (413 past the batch limit)."""
        docs, batch = _docs(req)
        if len(docs) > config.max_batch:
            raise StarletteHTTPException(413, f"more than {config.max_batch} notes in one request")
        return docs, batch, engine.options(mode, req.labels, req.policy)

    def api_route(path: str, response_model: Any, summary: str) -> Callable[[_Handler], _Handler]:
        """``POST path``: an authenticated API route with the documented error bodies."""
        return app.post(
            path,
            response_model=response_model,
            responses=_ERRORS,
            dependencies=[Security(bearer)],
            summary=summary,
        )

    async def answer(request: Request, docs: list[Document], batch: bool, finish: Finish) -> Response:
        """Run ``docs`` through the batcher; each ``finish`` gives (JSON of the note's result, spans)."""
        try:
            done = await batcher.run(docs, finish, time.monotonic() + config.deadline_s)
        except DeadlineExceeded:
            raise StarletteHTTPException(
                503,
                f"not done within the server's deadline of {config.deadline_s:g} s",
                headers={"Retry-After": str(RETRY_AFTER_S)},
            ) from None
        counted(request, len(docs), sum(n for _, n in done))
        parts = [body for body, _ in done]
        body = b'{"results":[' + b",".join(parts) + b"]}" if batch else parts[0]
        return Response(body, media_type="application/json")

    @api_route("/v1/redact", RedactResult | BatchRedactResponse, "Redact one note or a batch")
    async def redact(req: RedactRequest, request: Request) -> Response:
        """Replace the PHI of ``text`` (answer: one result) or of each of ``notes`` (answer: ``results``)."""
        docs, batch, opts = notes(req, req.mode)
        recipe = Recipe(_redact_finish, (opts, tenant_of(request.scope)))
        return await answer(request, docs, batch, Bound(recipe, engine))

    @api_route("/v1/detect", DetectResult | BatchDetectResponse, "Find the PHI spans of one note or a batch")
    async def detect(req: DetectRequest, request: Request) -> Response:
        """Spans (offsets into the text sent, label, source, score) of ``text`` or of each of ``notes``."""
        docs, batch, opts = notes(req, "placeholder")
        return await answer(request, docs, batch, Bound(Recipe(_detect_finish, (opts,)), engine))

    @app.get("/healthz", response_model=Health, summary="Liveness and what the server offers")
    def healthz() -> Health:
        """Always 200 while the server runs; no auth needed."""
        return Health(
            status="ok",
            version=__version__,
            model=engine.has_model,
            auth=bool(tokens),
            surrogate=engine.surrogates,
            max_body_bytes=config.max_body_bytes,
            max_batch=config.max_batch,
            rate_limit=config.rate_limit,
            deadline_s=config.deadline_s,
        )

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    _error_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes)
    app.add_middleware(RateLimit, per_minute=config.rate_limit)
    app.add_middleware(BearerAuth, tokens=tokens)
    app.add_middleware(AccessLog)
    return app


def _redact_finish(engine: Engine, opts: Options, tenant: str) -> Finish:
    """A note's redact answer from its proposals: (JSON of its :class:`RedactResult`, spans)."""

    def finish(doc: Document, proposals: list[Any]) -> tuple[bytes, int]:
        red = engine.redact_one(doc, proposals, opts, tenant)
        if len(red.spans) != len(red.result.spans):  # each listed span has its replacement
            raise RuntimeError("spans and replacements differ in number")
        spans = [
            RedactedSpan(**_span_out(s).model_dump(), out_start=o.start, out_end=o.end)
            for s, o in zip(red.spans, red.result.spans)
        ]
        result = RedactResult(
            id=doc.id, mode=opts.mode, policy=str(red.policy), labels=opts.labels, text=red.text, spans=spans
        )
        return result.model_dump_json().encode("utf-8"), len(spans)

    return finish


def _detect_finish(engine: Engine, opts: Options) -> Finish:
    """A note's detect answer from its proposals: (JSON of its :class:`DetectResult`, spans)."""

    def finish(doc: Document, proposals: list[Any]) -> tuple[bytes, int]:
        spans, policy = engine.detect_one(doc, proposals, opts)
        result = DetectResult(id=doc.id, policy=policy, spans=[_span_out(s) for s in spans])
        return result.model_dump_json().encode("utf-8"), len(spans)

    return finish


def _error_handlers(app: FastAPI) -> None:
    """Error bodies ``{"error": ...}`` that never repeat the text sent."""

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own handler repeats the input (the note) in the body: keep type, message, place.
        detail = [
            {
                "type": str(e.get("type", "")),
                "loc": _clean_loc(e.get("loc", ())),
                "msg": str(e.get("msg", "")),
            }
            for e in exc.errors()
        ]
        return JSONResponse({"error": "invalid request", "detail": detail}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(PhiscrubError)
    async def phiscrub_error(request: Request, exc: PhiscrubError) -> JSONResponse:
        # phiscrub messages name options, ids and offsets, never text (phiscrub.errors).
        return JSONResponse({"error": str(exc)}, status_code=400)


def app_from_env() -> FastAPI:
    """The app of a uvicorn worker process: configuration from ``$PHISCRUB_SERVICE_CONFIG``."""
    return create_app(ServiceConfig.from_env())
