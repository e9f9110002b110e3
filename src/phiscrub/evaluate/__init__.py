"""Evaluation of PHI detection: binary token, token-level micro and entity-level micro P/R/F1."""

from __future__ import annotations

from phiscrub.evaluate.metrics import PRF, EvaluationResult, LabelScores, entities, evaluate, token_labels
from phiscrub.evaluate.report import ZERO_DIVISION_RULE, to_markdown, write_report

__all__ = [
    "PRF",
    "ZERO_DIVISION_RULE",
    "EvaluationResult",
    "LabelScores",
    "entities",
    "evaluate",
    "to_markdown",
    "token_labels",
    "write_report",
]
