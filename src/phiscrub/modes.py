"""The redaction modes: how a PHI span is replaced, in one list for the API, the CLI and the service.

This module imports nothing heavy: the CLI's ``--mode`` choice and the service's request schema
read it at start-up.
"""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["MODES", "Mode"]

#: ``placeholder`` (``[NAME]``), ``mask`` (``***``) or ``surrogate`` (realistic stand-ins, keyed).
Mode = Literal["placeholder", "mask", "surrogate"]
#: The mode names in choice order (``placeholder``, the default, first).
MODES: tuple[str, ...] = get_args(Mode)
