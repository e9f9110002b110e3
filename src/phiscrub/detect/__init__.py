"""PHI detection: the :class:`Detector` role, the rule detectors, the model and the guard.

What an extension needs is exported here (``docs/extending.md``): the :class:`Detector` protocol,
:func:`detect_batch`, and the rule building blocks :class:`PatternRule` and :class:`RuleDetector`.
They are imported on first use, so importing a submodule stays as light as before.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["Detector", "PatternRule", "RuleDetector", "detect_batch"]

_HOMES = {
    "Detector": "phiscrub.detect.base",
    "detect_batch": "phiscrub.detect.base",
    "PatternRule": "phiscrub.detect.rules.base",
    "RuleDetector": "phiscrub.detect.rules.base",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home), name)
