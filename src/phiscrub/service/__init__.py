"""``phiscrub serve``: an HTTP service (FastAPI + uvicorn) and a review page for de-identification.

Install with the ``service`` extra (``pip install "phiscrub[service]"``). :func:`create_app` in
:mod:`phiscrub.service.app` builds the application; ``docs/service.md`` describes the API, the
page, authentication and what is logged.
"""

from __future__ import annotations

from phiscrub.service.config import ServiceConfig

__all__ = ["ServiceConfig"]
