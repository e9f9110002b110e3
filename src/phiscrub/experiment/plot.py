"""F1 against alpha: one line per method, one panel per training fraction (and per test corpus).

Panels are laid out with test corpora as rows and training fractions as columns. Each method's line
starts at alpha 0 from the ``none`` score of its fraction (no augmentation is alpha 0) when the grid
has ``none``, which is also drawn alone as a black square; error bars are the sample standard
deviation over seeds, and each method's points are shifted a little sideways so that the error bars
do not hide each other. Drawn on a bare :class:`matplotlib.figure.Figure` with the Agg canvas, so no
display and no global pyplot state are involved.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from phiscrub.errors import ConfigError
from phiscrub.experiment.config import METRICS, ExperimentConfig
from phiscrub.experiment.table import aggregate

__all__ = ["plot_f1_vs_alpha"]

_NAMES = {"binary": "binary token F1", "token": "token micro F1", "entity": "entity micro F1"}


def plot_f1_vs_alpha(
    results: Iterable[dict[str, Any]],
    config: ExperimentConfig,
    path: str | Path,
    metric: str | None = None,
) -> Path:
    """Draw the chosen F1 (x100) against alpha and save it as a PNG.

    Args:
        results: result dicts of :func:`phiscrub.experiment.runner.run_cell`.
        config: the experiment (order of fractions, methods, alphas; test corpora).
        path: the PNG file to write.
        metric: ``binary``, ``token`` or ``entity``; None: the config's ``plot_metric``.

    Returns:
        The path written.

    Raises:
        ConfigError: unknown metric, or matplotlib is not installed.
    """
    metric = metric or config.plot_metric
    if metric not in METRICS:
        raise ConfigError(f"plot metric must be one of {', '.join(METRICS)}, got {metric!r}")
    from phiscrub.evaluate.figure import agg_figure

    rows = aggregate(results, config)
    tests = list(config.test_corpora)
    fractions = list(config.fractions)
    fig = agg_figure(
        "the F1-against-alpha plot", figsize=(4.2 * len(fractions), 3.4 * len(tests)), layout="constrained"
    )
    axes = fig.subplots(len(tests), len(fractions), squeeze=False, sharey=True)
    methods = [m for m in config.methods if m != "none"]
    colors = {m: f"C{i % 10}" for i, m in enumerate(methods)}
    for r, test in enumerate(tests):
        for c, fraction in enumerate(fractions):
            ax = axes[r][c]
            here = [row for row in rows if row.fraction == fraction]
            base = next((row for row in here if row.method == "none"), None)
            if base is not None:
                stats = base.scores[test][metric]
                ax.errorbar(
                    [0],
                    [100 * stats.mean],
                    yerr=[100 * (stats.sd or 0.0)],
                    fmt="s",
                    color="black",
                    capsize=3,
                    label="none",
                    zorder=3,
                )
            for method in methods:
                points = sorted(
                    (row.alpha, row.scores[test][metric].mean, row.scores[test][metric].sd)
                    for row in here
                    if row.method == method
                )
                if not points:
                    continue
                # a small horizontal offset per method keeps the error bars apart
                shift = 0.04 * (methods.index(method) - (len(methods) - 1) / 2)
                xs = [p[0] + shift for p in points]
                ys = [100 * p[1] for p in points]
                errs = [100 * (p[2] or 0.0) for p in points]
                if base is not None:
                    xs, ys, errs = [0, *xs], [100 * base.scores[test][metric].mean, *ys], [0.0, *errs]
                ax.errorbar(xs, ys, yerr=errs, marker="o", color=colors[method], capsize=3, label=method)
            ax.set_xticks([0, *config.alphas] if base is not None else list(config.alphas))
            ax.set_title(f"{test}: train {100 * fraction:g}%", fontsize=10)
            ax.set_xlabel("alpha (0 = none)")
            if c == 0:
                ax.set_ylabel(f"{_NAMES[metric]} (x100)")
            ax.grid(alpha=0.3)
    legend: dict[str, Any] = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    if legend:
        fig.legend(list(legend.values()), list(legend), loc="outside right center", fontsize=9)
    fig.suptitle(f"{config.name}: {_NAMES[metric]} against alpha (mean ± std over seeds)", fontsize=11)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, format="png", dpi=110)
    return out
