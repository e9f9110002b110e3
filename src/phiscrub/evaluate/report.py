"""Evaluation reports: a Markdown summary in the shape of Kim et al.'s tables, plus a JSON record.

The JSON file holds the resolved configuration (gold/pred paths, granularity, tokenizer, ...) next to
every score, so a number in a table can always be traced back to how it was computed. Neither file
contains note text: only scores, counts, labels and document ids.

Per-label frequencies (Amin et al. 2022, Figure 4): :func:`label_frequencies` counts entities per
label in a corpus (e.g. the few-shot training set), :func:`frequency_table` puts them next to the
per-label scores and the evaluation-set counts (``dev/train``), and :func:`plot_per_label` draws the
same as a PNG bar chart (matplotlib, Agg backend, imported only when plotting).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.evaluate.metrics import PRF, EvaluationResult
from phiscrub.labels import Granularity, fold

__all__ = [
    "PLOT_METRICS",
    "ZERO_DIVISION_RULE",
    "frequency_rows",
    "frequency_table",
    "label_frequencies",
    "load_scores",
    "plot_per_label",
    "to_markdown",
    "write_report",
]

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


def to_markdown(
    result: EvaluationResult,
    config: Mapping[str, Any] | None = None,
    train_counts: Mapping[str, int] | None = None,
) -> str:
    """Render ``result`` as Markdown.

    A summary table with the three metrics ``B`` (binary token-level), ``T`` (token-level micro) and
    ``E`` (entity-level micro) as rows, as in Kim et al. (2024) Tables 2-3 (percentages), then a
    per-label table with token, entity and binary scores and support counts.

    Args:
        result: the evaluation to render.
        config: optional settings to list under the tables (paths, granularity, ...).
        train_counts: entities per label in the training corpus; when given, a per-label table with
            ``dev/train`` frequencies follows (see :func:`frequency_table`).

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
    if train_counts is not None:
        lines += ["", frequency_table(result, train_counts).rstrip("\n")]
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
    train_counts: Mapping[str, int] | None = None,
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
        train_counts: entities per label in the training corpus; adds ``"frequencies"`` (per label
            ``dev`` and ``train`` counts) to the JSON and the frequency table to the Markdown.

    Returns:
        ``(json_path, markdown_path)``.

    Raises:
        ConfigError: the config contradicts the result's granularity or tokenizer, or holds a value
            that cannot be written as JSON.
    """
    resolved = _resolve_config(result, config or {})
    json_path, md_path = _targets(out)
    payload: dict[str, Any] = {
        "config": resolved,
        "zero_division": ZERO_DIVISION_RULE,
        "result": result.to_dict(),
    }
    if train_counts is not None:
        payload["frequencies"] = {
            label: {"dev": dev, "train": train}
            for label, dev, train, _ in frequency_rows(result, train_counts)
        }
    # Serialise before touching the disk so a bad config leaves no half-written report behind.
    text = json.dumps(payload, indent=2, sort_keys=False, default=_json_default, ensure_ascii=False)
    markdown = to_markdown(result, resolved, train_counts)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(text + "\n", encoding="utf-8")
    md_path.write_text(markdown, encoding="utf-8")
    return json_path, md_path


def load_scores(path: str | os.PathLike[str]) -> dict[str, dict[str, float]]:
    """Binary, token and entity precision, recall and F1 of a report written by :func:`write_report`.

    Raises:
        InputFormatError: the file is not such a report (named by path, never content).
    """
    try:
        result = json.loads(Path(path).read_text(encoding="utf-8"))["result"]
        return {m: {k: float(result[m][k]) for k in ("precision", "recall", "f1")} for m in _METRICS}
    except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError):
        raise InputFormatError(f"{path}: not a `phiscrub evaluate` report") from None


_METRICS = ("binary", "token", "entity")


# --------------------------------------------------------------------------------------------
# Label frequencies (Amin et al. 2022, Figure 4)

#: Metrics :func:`plot_per_label` can draw: entity-level or token-level P/R/F1.
PLOT_METRICS: tuple[str, ...] = ("entity", "token")


def label_frequencies(docs: Iterable[Document], granularity: Granularity = "coarse") -> Counter[str]:
    """Entities per label in ``docs``, labels folded to ``granularity``.

    Args:
        docs: a labelled corpus (spans are counted as entities; overlapping spans each count).
        granularity: ``coarse``, ``fine`` or ``phicon5``; spans folding to nothing (``OTHER``,
            and AGE/PROFESSION under ``phicon5``) are not counted.

    Returns:
        Counts by label.
    """
    counts: Counter[str] = Counter()
    for doc in docs:
        for span in doc.spans:
            label = fold(span.label, granularity)
            if label is not None:
                counts[label] += 1
    return counts


def frequency_rows(
    result: EvaluationResult, train_counts: Mapping[str, int] | None = None
) -> list[tuple[str, int, int | None, Any]]:
    """``(label, dev count, train count, scores or None)`` per label, sorted by label.

    Labels are those of ``result.per_label`` (seen in gold or predictions) plus those of
    ``train_counts``; the dev count is the number of gold entities in the evaluation set; the
    train count is None when no ``train_counts`` are given; scores are the result's
    :class:`~phiscrub.evaluate.metrics.LabelScores`, or None for a label only seen in training.
    """
    labels = sorted(set(result.per_label) | set(train_counts or {}))
    rows: list[tuple[str, int, int | None, Any]] = []
    for label in labels:
        scores = result.per_label.get(label)
        dev = scores.gold_entities if scores is not None else 0
        train = None if train_counts is None else int(train_counts.get(label, 0))
        rows.append((label, dev, train, scores))
    return rows


def _freq(dev: int, train: int | None) -> str:
    return f"{dev}/{train}" if train is not None else str(dev)


def frequency_table(result: EvaluationResult, train_counts: Mapping[str, int] | None = None) -> str:
    """Per-label scores with their frequencies, as in Amin et al. (2022) Figure 4 (Markdown).

    Args:
        result: the evaluation (its gold entities per label are the ``dev`` frequencies).
        train_counts: entities per label in the (few-shot) training corpus, or None.

    Returns:
        A Markdown section: one row per label with entity P/R/F1, token F1, and ``dev/train``
        entity counts (percentages as in the other tables). Ends with a newline.
    """
    header = "dev/train" if train_counts is not None else "dev"
    lines = [
        f"## Per label with frequencies ({header})",
        "",
        (
            f"| Label | Frequency ({header}) | Dev entities | Train entities "
            "| Entity P | Entity R | Entity F1 | Token F1 |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, dev, train, scores in frequency_rows(result, train_counts):
        train_cell = "" if train is None else str(train)
        if scores is None:
            cells = "- | - | - | -"
        else:
            e, t = scores.entity, scores.token
            cells = f"{_pct(e.precision)} | {_pct(e.recall)} | {_pct(e.f1)} | {_pct(t.f1)}"
        lines.append(f"| {label} | {_freq(dev, train)} | {dev} | {train_cell} | {cells} |")
    if len(lines) == 4:
        lines.append("| (no labels) | | | | | | | |")
    lines += ["", "Dev: gold entities in the evaluation set; train: entities in the training corpus."]
    return "\n".join(lines) + "\n"


def plot_per_label(
    result: EvaluationResult,
    path: str | os.PathLike[str],
    train_counts: Mapping[str, int] | None = None,
    *,
    metric: str = "entity",
    title: str | None = None,
) -> Path:
    """Draw per-label precision, recall and F1 as grouped bars, frequencies under each label (PNG).

    The shape of Amin et al. (2022) Figure 4: one group of three bars per PHI label, the tick label
    reading ``LABEL`` and ``(dev/train)`` entity counts. Drawn with matplotlib's Agg backend on a
    standalone figure (no pyplot state, no display needed).

    Args:
        result: the evaluation to draw.
        path: PNG file to write (parent folders created).
        train_counts: entities per label in the training corpus, or None for dev counts only.
        metric: ``entity`` (exact-match entity scores) or ``token`` (token-level scores).
        title: figure title (default names the metric and the granularity).

    Returns:
        The path written.

    Raises:
        ConfigError: unknown metric, or matplotlib is not installed.
    """
    if metric not in PLOT_METRICS:
        raise ConfigError(f"unknown plot metric {metric!r}; use one of {', '.join(PLOT_METRICS)}")
    from phiscrub.evaluate.figure import agg_figure

    rows = frequency_rows(result, train_counts)
    n = max(len(rows), 1)
    fig = agg_figure("plotting", figsize=(max(6.0, 1.3 * n + 1.5), 4.2), dpi=100)
    ax = fig.add_subplot(1, 1, 1)
    width = 0.26
    series = (("Precision", "precision", "#4c72b0"), ("Recall", "recall", "#dd8452"), ("F1", "f1", "#55a868"))
    for k, (name, attr, color) in enumerate(series):
        values = []
        for _, _, _, scores in rows:
            prf = None if scores is None else getattr(scores, metric)
            values.append(0.0 if prf is None else 100 * getattr(prf, attr))
        xs = [i + (k - 1) * width for i in range(len(rows))]
        bars = ax.bar(xs, values, width, label=name, color=color)
        if attr == "f1":
            ax.bar_label(bars, labels=[f"{v:.0f}" for v in values], fontsize=7, padding=1)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([f"{label}\n({_freq(dev, train)})" for label, dev, train, _ in rows], fontsize=8)
    ax.set_ylim(0, 110)
    ax.set_ylabel("%")
    freq = "dev/train" if train_counts is not None else "dev"
    ax.set_xlabel(f"PHI label (entity frequency {freq})")
    ax.set_title(title or f"{metric.capitalize()}-level scores per label ({result.granularity})", pad=22)
    # Above the axes, so that it never hides a bar.
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), fontsize=8, ncol=3, frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, format="png", metadata={"Software": None})
    return out
