"""``phiscrub serve``: the HTTP service and the review page (FastAPI + uvicorn, extra ``service``).

The model is loaded once before the server listens (a broken model or option fails here, exit 2);
:mod:`phiscrub.service.server` loads the engine and runs uvicorn (``--workers N``: N processes).
"""

from __future__ import annotations

import logging
from typing import Any

import click

from phiscrub.cli._engine import engine_options
from phiscrub.cli._options import Opt, options
from phiscrub.engine_config import DeidConfig
from phiscrub.errors import ModelError, PhiscrubError
from phiscrub.keys import KEY_ENV_VAR

__all__ = ["serve"]

log = logging.getLogger(__name__)

_LOOPBACK = ("127.0.0.1", "::1", "localhost")

#: The request limits, passed to :class:`~phiscrub.service.config.ServiceConfig` under their names.
_LIMITS = (
    Opt("--max-body-bytes", int, 1 << 20, "Larger request bodies get 413."),
    Opt("--max-batch", int, 128, "Most notes in one batch request."),
    Opt(
        "--rate-limit",
        click.IntRange(0),
        600,
        "Most requests per minute per token and worker process (0: no limit); more get 429.",
    ),
    Opt(
        "--deadline deadline_s",
        click.FloatRange(0, min_open=True),
        300.0,
        "Seconds a request may take; one not done by then gets 503 with Retry-After.",
    ),
    Opt(
        "--long-note-chars",
        click.IntRange(1),
        10_000,
        "Notes longer than this run in the long-note lane, which yields to shorter notes.",
    ),
)


class _StartupError(click.ClickException):
    """Bad options, no token, or a model that does not load: nothing is served."""

    exit_code = 2


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port.")
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Worker processes (each loads the model once).",
)
@click.option(
    "--token-file",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="File holding the bearer token clients must send (default: $PHISCRUB_SERVICE_TOKEN).",
)
@click.option(
    "--insecure-no-auth",
    is_flag=True,
    help="Serve without authentication (anyone who reaches the port can use it).",
)
@click.option(
    "--key-file",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help=f"File holding the surrogate secret (default: ${KEY_ENV_VAR}); without one, surrogate mode is refused.",
)
@engine_options(
    helps={
        "mode": "Mode of requests that name none.",
        "policy": "Policy of requests that name none (default: the language's default).",
        "lang": "Language of the rules: en, es, ca, de, fr, nl, zh, or auto (per note).",
    },
    skip=("labels",),  # each request names its own (default coarse)
)
@options(*_LIMITS)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="info",
    show_default=True,
    help="Server log level (the access log is at info).",
)
def serve(
    host: str,
    port: int,
    workers: int,
    token_file: str | None,
    insecure_no_auth: bool,
    key_file: str | None,
    config: DeidConfig,
    log_level: str,
    **limits: Any,
) -> None:
    """Serve POST /v1/redact, POST /v1/detect, GET /healthz, the OpenAPI docs (/docs) and the review page (/).

    Requests under /v1/ need `Authorization: Bearer TOKEN`, the token coming from
    $PHISCRUB_SERVICE_TOKEN or --token-file; the server refuses to start without one unless
    --insecure-no-auth; several tokens (one per line of the file, or comma-separated) are several
    clients, each with its own surrogates and rate limit. Surrogates use keys derived from the
    server's secret ($PHISCRUB_KEY or --key-file), never sent by clients and never those of
    `phiscrub redact` with the same secret. No note text is logged (docs/service.md).
    --site-lists, --registry and --allow-list are read once at start-up; a request's note finds its
    registry patient through the request's patient_id (docs/site-lists.md).
    """
    try:
        import uvicorn  # noqa: F401 - checked here: the service extra is installed

        from phiscrub.service.config import ServiceConfig
        from phiscrub.service.server import load_engine, run_server
    except ImportError as exc:
        raise _StartupError(
            f"phiscrub serve needs the service extra: pip install 'phiscrub[service]' ({exc.name})"
        ) from None
    try:
        service = ServiceConfig(
            engine=config,
            **limits,
            auth=not insecure_no_auth,
            token_file=token_file,
            key_file=key_file,
        )
        engine = load_engine(service)
    except ModelError as exc:
        raise _StartupError(f"cannot load the model: {exc}") from None
    except PhiscrubError as exc:
        raise _StartupError(str(exc)) from None
    if insecure_no_auth:
        where = "" if host in _LOOPBACK else f" on {host}, reachable from other machines"
        click.echo(f"warning: serving without authentication{where} (--insecure-no-auth)", err=True)
    click.echo(
        f"phiscrub serve: http://{host}:{port}/ (workers {workers}, model {'yes' if engine.has_model else 'no'}, "
        f"auth {'off' if insecure_no_auth else 'on'}, surrogates {'on' if engine.surrogates else 'off'})",
        err=True,
    )
    run_server(service, engine, host, port, workers, log_level)
