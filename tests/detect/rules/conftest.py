"""Fixtures for the rule-detector tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phiscrub.deid import Deidentifier
from phiscrub.detect.rules.base import RuleDetector

from ._support import run_detector


@pytest.fixture
def found() -> Callable[[RuleDetector, str], list[tuple[str, str]]]:
    """``found(detector, text)`` -> list of ``(surface, label)`` pairs, span invariants checked."""

    def _found(detector: RuleDetector, text: str) -> list[tuple[str, str]]:
        return [(text[s.start : s.end], s.label) for s in run_detector(detector, text)]

    return _found


@pytest.fixture(scope="module")
def rules_only() -> Deidentifier:
    """A rules-only de-identifier (no model), for tests that run the whole selection."""
    return Deidentifier(model=None)
