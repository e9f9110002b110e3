"""Experiment grids: augmentation method x alpha x training fraction x seed, Kim et al. (2024) Table 2 style.

* :mod:`~phiscrub.experiment.config`: the TOML/JSON config (:func:`load_config`), every key checked.
* :mod:`~phiscrub.experiment.grid`: the one grid runner of every experiment driver (:func:`run_grid`:
  resume, each result recorded as it finishes), :func:`summarize` (mean ± sd) and the table writers.
* :mod:`~phiscrub.experiment.runner`: :func:`run_experiment` (resumable, one ``result.json`` per cell),
  :func:`split_train` (the same subset for every method at a fraction and seed), :func:`augment_train`.
* :mod:`~phiscrub.experiment.table`: the markdown table (B/T/E F1 per test corpus, mean ± std).
* :mod:`~phiscrub.experiment.plot`: F1 against alpha, one line per method, one panel per fraction.

The command line is ``phiscrub experiment CONFIG [-o OUTDIR] [--resume/--no-resume] [--dry-run]``.
"""

from __future__ import annotations

from phiscrub.experiment.config import (
    METRICS,
    AugmentOptions,
    CorpusSpec,
    DevSpec,
    ExperimentConfig,
    load_config,
    parse_config,
    split_method,
)
from phiscrub.experiment.grid import FolderStore, JsonlStore, MeanSd, mean_sd, run_grid, summarize
from phiscrub.experiment.plot import plot_f1_vs_alpha
from phiscrub.experiment.runner import (
    Cell,
    ExperimentData,
    ExperimentReport,
    augment_train,
    cell_fingerprint,
    load_data,
    plan_cells,
    run_cell,
    run_experiment,
    split_train,
)
from phiscrub.experiment.table import TableRow, aggregate, render_table, write_table

__all__ = [
    "METRICS",
    "AugmentOptions",
    "Cell",
    "CorpusSpec",
    "DevSpec",
    "ExperimentConfig",
    "ExperimentData",
    "ExperimentReport",
    "FolderStore",
    "JsonlStore",
    "MeanSd",
    "TableRow",
    "aggregate",
    "augment_train",
    "cell_fingerprint",
    "load_config",
    "load_data",
    "mean_sd",
    "parse_config",
    "plan_cells",
    "plot_f1_vs_alpha",
    "render_table",
    "run_cell",
    "run_experiment",
    "run_grid",
    "split_method",
    "split_train",
    "summarize",
    "write_table",
]
