"""Start the service: load the engine once, then serve it with uvicorn (one process or several).

The library behind ``phiscrub serve``. With ``workers`` > 1 uvicorn starts that many processes, each
loading the model once; the configuration reaches them as JSON in
:data:`~phiscrub.service.config.CONFIG_ENV_VAR` (no secrets: each worker reads the token and key from
the same environment variable or file as the parent).
"""

from __future__ import annotations

import os
from typing import Any

from phiscrub.service.config import CONFIG_ENV_VAR, ServiceConfig
from phiscrub.service.engine import Engine, load_engine

__all__ = ["load_engine", "log_config", "run_server"]


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging configuration: server messages and phiscrub's access log, to stderr.

    uvicorn's own access log is off (it would log query strings); phiscrub's logs method, path,
    status, duration and counts only (:mod:`phiscrub.service.middleware`).
    """
    upper = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stderr"}
        },
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": upper, "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
            "phiscrub": {"handlers": ["stderr"], "level": upper, "propagate": False},
        },
    }


def run_server(
    config: ServiceConfig, engine: Engine, host: str, port: int, workers: int, log_level: str
) -> None:
    """Serve until stopped: ``engine`` in this process, or ``workers`` processes each loading their own."""
    import uvicorn

    from phiscrub.service.app import create_app

    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_config": log_config(log_level),
        "access_log": False,
        "server_header": False,
        "proxy_headers": False,
        # On SIGTERM, requests still running after this many seconds are cancelled (a long note in
        # the works stops at its next model batch) instead of holding the shutdown up.
        "timeout_graceful_shutdown": 15,
    }
    if workers == 1:
        uvicorn.run(create_app(config, engine), **common)
        return
    del engine  # each worker process loads its own
    os.environ[CONFIG_ENV_VAR] = config.to_json()
    if not os.environ.get("PHISCRUB_THREADS"):
        # Split the cores between the workers, as `redact --workers` does.
        from phiscrub.detect.onnx_tagger import physical_cores

        os.environ["PHISCRUB_THREADS"] = str(max(1, physical_cores() // workers))
    uvicorn.run("phiscrub.service.app:app_from_env", factory=True, workers=workers, **common)
