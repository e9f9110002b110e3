"""The Kim et al. (2024) Table 2 shaped summary: B/T/E F1 per setting and test corpus, mean ± std over seeds.

Rows are settings (``none``, then every method at every alpha) grouped by training fraction;
columns are the binary token F1 (B), token-level micro F1 (T) and entity-level micro F1 (E) of each
test corpus, x100, as ``mean ± sample standard deviation`` over the seeds that finished (the mean
alone with one seed). The best mean of each column within a training fraction is in bold. The
grouping, mean ± sd and table layout are :mod:`phiscrub.experiment.grid`'s.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phiscrub.experiment.config import METRICS, ExperimentConfig
from phiscrub.experiment.grid import MeanSd, markdown_table, summarize

__all__ = ["TableRow", "aggregate", "render_table", "setting_label", "write_table"]

_SHORT = {"binary": "B", "token": "T", "entity": "E"}


@dataclass(frozen=True)
class TableRow:
    """The seeds of one (fraction, method, alpha) setting, summarised.

    Args:
        fraction: training fraction.
        method: ``none`` or the augmentation method.
        alpha: augmentation level (0 for ``none``).
        seeds: the seeds that have a result.
        train_docs: training subset sizes (documents, before augmentation) over those seeds.
        docs_after: training set sizes after augmentation over those seeds.
        scores: per test corpus, per metric (``binary``, ``token``, ``entity``): the mean ± sample
            standard deviation over the seeds (sd None with one seed).
    """

    fraction: float
    method: str
    alpha: int
    seeds: tuple[int, ...]
    train_docs: tuple[int, ...]
    docs_after: tuple[int, ...]
    scores: dict[str, dict[str, MeanSd]]


def setting_label(method: str, alpha: int) -> str:
    """Row label of a setting: ``none`` or ``+phicon α=2``."""
    return "none" if method == "none" else f"+{method} α={alpha}"


def _setting(result: dict[str, Any]) -> tuple[float, str, int]:
    cell = result["cell"]
    return float(cell["fraction"]), cell["method"], int(cell["alpha"])


def _score_of(test: str, metric: str) -> Callable[[dict[str, Any]], float]:
    return lambda result: float(result["test"][test][metric])


def aggregate(results: Iterable[dict[str, Any]], config: ExperimentConfig) -> list[TableRow]:
    """Group cell results by (fraction, method, alpha) in the config's order; settings with no result
    are left out.

    Args:
        results: result dicts of :func:`phiscrub.experiment.runner.run_cell`.
        config: the experiment (gives the order and the test corpora).
    """
    metrics = {f"{test}/{m}": _score_of(test, m) for test in config.test_corpora for m in METRICS}
    by_seed = sorted(results, key=lambda r: int(r["cell"]["seed"]))
    groups = summarize(by_seed, _setting, metrics)
    rows: list[TableRow] = []
    for fraction in config.fractions:
        for method in config.methods:
            for alpha in (0,) if method == "none" else config.alphas:
                group = groups.get((fraction, method, alpha))
                if group is None:
                    continue
                found = group.members
                rows.append(
                    TableRow(
                        fraction=fraction,
                        method=method,
                        alpha=alpha,
                        seeds=tuple(r["cell"]["seed"] for r in found),
                        train_docs=tuple(sorted({r["data"]["docs_before"] for r in found})),
                        docs_after=tuple(r["data"]["docs_after"] for r in found),
                        scores={
                            test: {m: group.stats[f"{test}/{m}"] for m in METRICS}
                            for test in config.test_corpora
                        },
                    )
                )
    return rows


def _cell(stats: MeanSd, best: bool) -> str:
    text = stats.format(2, scale=100)
    return f"**{text}**" if best else text


def render_table(rows: Sequence[TableRow], config: ExperimentConfig) -> str:
    """The markdown table, with a title and a caption.

    Args:
        rows: from :func:`aggregate`.
        config: the experiment.
    """
    tests = list(config.test_corpora)
    header = ["Train", "Setting", "Seeds", "Train docs (aug.)"]
    header += [f"{test} {_SHORT[m]}" for test in tests for m in METRICS]
    best: dict[tuple[float, str, str], float] = {}
    block = {f: sum(r.fraction == f for r in rows) for f in {r.fraction for r in rows}}
    for row in rows:
        for test in tests:
            for m in METRICS:
                key = (row.fraction, test, m)
                best[key] = max(best.get(key, float("-inf")), row.scores[test][m].mean)
    body: list[list[str]] = []
    for row in rows:
        docs = "/".join(str(n) for n in row.train_docs)
        after = round(statistics.fmean(row.docs_after)) if row.docs_after else 0
        cells = [
            f"{100 * row.fraction:g}% ({docs} docs)",
            setting_label(row.method, row.alpha),
            str(len(row.seeds)),
            str(after),
        ]
        for test in tests:
            for m in METRICS:
                stats = row.scores[test][m]
                is_best = block[row.fraction] > 1 and stats.mean == best[(row.fraction, test, m)]
                cells.append(_cell(stats, is_best))
        body.append(cells)
    table = markdown_table(header, body, align="llll" + "r" * (len(header) - 4))
    lines = [f"## {config.name}: cross-dataset F1 (x100)", "", *table.splitlines()]
    dev = {
        "held_out": f"a held-out {100 * (config.dev.held_out or 0):g}% of the train corpus",
        "corpus": "a separate dev corpus",
        "none": "none (last epoch kept)",
    }[config.dev.kind]
    caption = (
        "B: binary token-level F1; T: token-level micro F1; E: entity-level micro F1 "
        f"({config.labels} labels), x100, mean ± sample standard deviation over seeds "
        f"{', '.join(str(s) for s in config.seeds)} (the mean alone when one seed finished). "
        "Bold: best mean of the column within a training fraction. Train: share of the training pool "
        "(train corpus minus the dev share) and its size in documents; Train docs (aug.): mean training "
        f"documents after augmentation. Early stopping on {dev}. "
        f"Training corpus: {config.train_corpus.path.name}."
    )
    lines += ["", caption, ""]
    return "\n".join(lines)


def write_table(results: Iterable[dict[str, Any]], config: ExperimentConfig, path: str | Path) -> Path:
    """Aggregate the results and write the markdown table to ``path``; return the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_table(aggregate(results, config), config), encoding="utf-8")
    return out
