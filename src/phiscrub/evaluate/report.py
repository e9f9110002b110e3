"""Evaluation reports: a Markdown summary in the shape of Kim et al.'s tables, plus a JSON record.

The JSON file holds the resolved configuration (gold/pred paths, granularity, tokenizer, ...) next to
every score, so a number in a table can always be traced back to how it was computed. Neither file
contains note text: only scores, counts, labels and document ids.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from phiscrub.errors import ConfigError
from phiscrub.evaluate.metrics import PRF, EvaluationResult

__all__ = ["ZERO_DIVISION_RULE", "to_markdown", "write_report"]

#: The zero-division convention of :mod:`phiscrub.evaluate.metrics`, restated in every report.
ZERO_DIVISION_RULE = "0/0 scores 0.0, except nothing to find and nothing predicted, which scores 1.0"

# At most this many ids are listed in the Markdown; the JSON always lists all of them.
_MAX_IDS_SHOWN = 20


def _pct(x: float) -> str:
    # Kim et al. report F1 as percentages with two decimals.
    return f"{100 * x:.2f}"


def _ids(ids: tuple[str, ...]) -> str:
    shown = ", ".join(f"`{i}`" for i in ids[:_MAX_IDS_SHOWN])
    more = len(ids) - _MAX_IDS_SHOWN
    return shown + (f" ... (+{more} more)" if more > 0 else "")


def _config_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def to_markdown(result: EvaluationResult, config: Mapping[str, Any] | None = None) -> str:
    """Render ``result`` as Markdown.

    A summary table with the three metrics ``B`` (binary token-level), ``T`` (token-level micro) and
    ``E`` (entity-level micro) as rows, as in Kim et al. (2024) Tables 2-3 (percentages), then a
    per-label table with token, entity and binary scores and support counts.

    Args:
        result: the evaluation to render.
        config: optional settings to list under the tables (paths, granularity, ...).

    Returns:
        The Markdown text, ending with a newline.
    """
    lines = [
        "# De-identification evaluation",
        "",
        f"- granularity: `{result.granularity}`",
        f"- tokenizer: `{result.tokenizer}`",
        f"- documents: {result.n_docs}",
        f"- gold documents without prediction: {len(result.missing_pred_ids)}",
        f"- predicted documents without gold: {len(result.extra_pred_ids)}",
        "",
        "## Summary",
        "",
        "| F1 | Metric | Precision | Recall | F1 | TP | FP | FN |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    rows: list[tuple[str, str, PRF]] = [
        ("B", "binary token-level", result.binary),
        ("T", "token-level micro", result.token),
        ("E", "entity-level micro", result.entity),
    ]
    for key, name, prf in rows:
        lines.append(
            f"| {key} | {name} | {_pct(prf.precision)} | {_pct(prf.recall)} | {_pct(prf.f1)} "
            f"| {prf.tp} | {prf.fp} | {prf.fn} |"
        )
    lines += [
        "",
        "## Per label",
        "",
        (
            "| Label | Token P | Token R | Token F1 | Entity P | Entity R | Entity F1 | Binary P | Binary R "
            "| Gold tokens | Pred tokens | Gold entities | Pred entities |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, s in result.per_label.items():
        lines.append(
            f"| {label} | {_pct(s.token.precision)} | {_pct(s.token.recall)} | {_pct(s.token.f1)} "
            f"| {_pct(s.entity.precision)} | {_pct(s.entity.recall)} | {_pct(s.entity.f1)} "
            f"| {_pct(s.binary_precision)} | {_pct(s.binary_recall)} "
            f"| {s.gold_tokens} | {s.pred_tokens} | {s.gold_entities} | {s.pred_entities} |"
        )
    if not result.per_label:
        lines.append("| (no PHI in gold or predictions) | | | | | | | | | | | | |")
    lines += [
        "",
        (
            "Scores are percentages, micro-averaged over all documents. B: every token PHI or not; "
            "T: token label must match; E: exact span (whitespace-stripped) and label. "
            f"Zero division: {ZERO_DIVISION_RULE}."
        ),
    ]
    if result.missing_pred_ids:
        lines += ["", f"Gold documents without prediction: {_ids(result.missing_pred_ids)}"]
    if result.extra_pred_ids:
        lines += ["", f"Predicted documents without gold: {_ids(result.extra_pred_ids)}"]
    if config:
        lines += ["", "## Configuration", ""]
        lines += [f"- {key}: `{_config_value(value)}`" for key, value in config.items()]
    return "\n".join(lines) + "\n"


def _json_default(value: Any) -> Any:
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    raise ConfigError(f"report config value of type {type(value).__name__} is not JSON-serialisable")


def _resolve_config(result: EvaluationResult, config: Mapping[str, Any]) -> dict[str, Any]:
    """The caller's config plus granularity and tokenizer from the result; contradictions are errors."""
    resolved = dict(config)
    for key in ("granularity", "tokenizer"):
        value = getattr(result, key)
        if key in resolved and resolved[key] != value:
            raise ConfigError(
                f"config says {key}={resolved[key]!r} but the result was computed with {value!r}"
            )
        resolved[key] = value
    return resolved


def _targets(out: str | os.PathLike[str]) -> tuple[Path, Path]:
    """JSON and Markdown paths for ``out`` (a folder, or a path prefix)."""
    raw = os.fspath(out)
    path = Path(raw)
    if path.is_dir() or raw.endswith(("/", os.sep)):
        return path / "evaluation.json", path / "evaluation.md"
    if path.suffix in (".json", ".md"):
        path = path.with_suffix("")
    return path.with_name(path.name + ".json"), path.with_name(path.name + ".md")


def write_report(
    result: EvaluationResult,
    out: str | os.PathLike[str],
    config: Mapping[str, Any] | None = None,
) -> tuple[Path, Path]:
    """Write ``result`` as JSON and Markdown.

    Args:
        result: the evaluation to save.
        out: an existing folder or a path ending in ``/`` (files ``evaluation.json`` and
            ``evaluation.md`` inside it), or a path prefix such as ``runs/dev`` (files
            ``runs/dev.json`` and ``runs/dev.md``; a trailing ``.json``/``.md`` is dropped first).
            Missing parent folders are created.
        config: run settings to record (e.g. ``gold``/``pred`` paths); granularity and tokenizer
            are filled in from ``result``.

    Returns:
        ``(json_path, markdown_path)``.

    Raises:
        ConfigError: the config contradicts the result's granularity or tokenizer, or holds a value
            that cannot be written as JSON.
    """
    resolved = _resolve_config(result, config or {})
    json_path, md_path = _targets(out)
    payload = {
        "config": resolved,
        "zero_division": ZERO_DIVISION_RULE,
        "result": result.to_dict(),
    }
    # Serialise before touching the disk so a bad config leaves no half-written report behind.
    text = json.dumps(payload, indent=2, sort_keys=False, default=_json_default, ensure_ascii=False)
    markdown = to_markdown(result, resolved)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(text + "\n", encoding="utf-8")
    md_path.write_text(markdown, encoding="utf-8")
    return json_path, md_path
