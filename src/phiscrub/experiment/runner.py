"""Run an experiment grid: one tagger per (fraction, method, alpha, seed) cell, scored on every test corpus.

For each cell (:func:`run_cell`):

1. **Split** (:func:`split_train`): the train corpus is shuffled by the seed alone; with a held-out
   dev share, its first documents are the dev set; the first ``fraction`` of the rest (the *training
   pool*) is the training subset. So every method and alpha sees the same subset at a given fraction
   and seed, and the subset at a smaller fraction lies inside the one at a larger fraction.
2. **Augment** (:func:`augment_train`): the subset plus each component method's output at ``alpha``
   (``none``: nothing added), every method built by :func:`phiscrub.augment.build_augmenter`, fitted on
   the subset and asked for ``augment(subset, alpha, seed)``. Document-level methods make ``alpha`` copies per document with
   :func:`phiscrub.augment.augment_corpus` (copies ``0..alpha-1`` are the same at every alpha, so the
   data at alpha 2 contains the data at alpha 1, as in Kim et al.); DAGA is fitted on the subset and
   samples ``alpha`` x (sentences with PHI) sentences. The dev documents are never augmented.
3. **Train** with :func:`phiscrub.train.train`, the cell's seed as ``TrainConfig.seed``; early stopping
   on the dev documents (see :class:`~phiscrub.experiment.config.DevSpec`).
4. **Score** the best checkpoint on every test corpus with :func:`phiscrub.evaluate.metrics.evaluate`.

The grid is run by :func:`phiscrub.experiment.grid.run_grid` with a
:class:`~phiscrub.experiment.grid.FolderStore`: each finished cell writes
``OUTDIR/cells/<cell-id>/result.json`` (written whole or not at all); a rerun skips cells whose result
is there and was made by the same settings (a *fingerprint* of the data, labels, augmenter and
training options and the cell itself), and refuses to mix results of different settings. The model folder is deleted after scoring unless ``keep_models``. At the end the
Table 2 style markdown table and the F1-against-alpha plot are written from all the results.

Nothing here logs or prints note text: ids, counts and scores only.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import random
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from phiscrub import __version__
from phiscrub.document import Document
from phiscrub.errors import ConfigError
from phiscrub.evaluate.metrics import index_documents
from phiscrub.experiment.config import AugmentOptions, CorpusSpec, ExperimentConfig
from phiscrub.experiment.grid import FolderStore, plan_grid, run_grid, write_json
from phiscrub.labels import Granularity

if TYPE_CHECKING:
    from phiscrub.augment.base import CorpusAugmenter

#: Fitted augmenters by (subset key, method) and the seconds their fit took.
FitCache = dict[tuple[Any, str], tuple["CorpusAugmenter", float]]

__all__ = [
    "Cell",
    "ExperimentData",
    "ExperimentReport",
    "augment_train",
    "cell_fingerprint",
    "default_out_dir",
    "load_data",
    "plan_cells",
    "run_cell",
    "run_experiment",
    "split_train",
]

logger = logging.getLogger(__name__)

RESULT_FILE = "result.json"
TABLE_FILE = "table.md"
PLOT_FILE = "f1-vs-alpha.png"
EXPERIMENT_FILE = "experiment.json"


@dataclass(frozen=True)
class Cell:
    """One point of the grid.

    Args:
        fraction: share of the training pool used.
        method: ``none`` or a (``+``-joined) augmentation method.
        alpha: augmentation level (0 for ``none``).
        seed: seeds the split, the augmenters and the training.
    """

    fraction: float
    method: str
    alpha: int
    seed: int

    @property
    def id(self) -> str:
        """Folder name of the cell, e.g. ``f0.1_mr+daga_a2_s1``."""
        return f"f{self.fraction:g}_{self.method}_a{self.alpha}_s{self.seed}"

    @property
    def key(self) -> str:
        """The cell's key in the grid runner (its :attr:`id`)."""
        return self.id

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"fraction": self.fraction, "method": self.method, "alpha": self.alpha, "seed": self.seed}


@dataclass
class ExperimentData:
    """The corpora of an experiment, read once.

    Args:
        train: the train corpus (split per cell).
        dev: the given dev corpus (empty with a held-out share or without dev).
        tests: test corpora by name.
        problems: reader problems per corpus role (``train``, ``dev``, ``test.<name>``), counts only.
    """

    train: list[Document]
    dev: list[Document]
    tests: dict[str, list[Document]]
    problems: dict[str, int] = field(default_factory=dict)


@dataclass
class ExperimentReport:
    """What :func:`run_experiment` did.

    Args:
        out_dir: the results folder.
        cells: every cell of the grid, in run order.
        ran: ids of the cells run now.
        skipped: ids of the cells already finished (resumed).
        results: the result dicts of all finished cells, in grid order.
        splits: per fraction and seed, the sizes of the training subset, dev set and pool.
        table_path: the markdown table (None on a dry run).
        plot_path: the PNG plot (None on a dry run or without matplotlib).
    """

    out_dir: Path
    cells: tuple[Cell, ...]
    ran: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    results: list[dict[str, Any]] = field(default_factory=list)
    splits: list[dict[str, Any]] = field(default_factory=list)
    table_path: Path | None = None
    plot_path: Path | None = None

    def split_lines(self) -> list[str]:
        """One line per fraction and seed: training subset, spans and dev sizes (counts only)."""
        return [
            f"fraction {s['fraction']:g} seed {s['seed']}: {s['train_docs']} training documents "
            f"({s['train_spans']} spans), {s['dev_docs']} dev documents"
            for s in self.splits
        ]

    def cell_lines(self) -> list[str]:
        """One line per cell: ``done`` (finished before) or ``todo``, then its id."""
        finished = set(self.skipped)
        return [f"{'done' if cell.id in finished else 'todo'}  {cell.id}" for cell in self.cells]

    def summary(self, name: str, dry_run: bool) -> str:
        """One line: cells in all, run now or to run, finished before; the table's path."""
        n, done = len(self.cells), len(self.skipped)
        if dry_run:
            return (
                f"experiment {name}: {n} cells, {done} finished, {n - done} to run; output {self.out_dir} "
                "(dry run: nothing trained)"
            )
        return f"experiment {name}: {n} cells, ran {len(self.ran)}, {done} already finished; table -> {self.table_path}"


def default_out_dir(config: ExperimentConfig) -> Path:
    """The results folder when none is given: ``runs/experiments/<name>``."""
    return Path("runs") / "experiments" / config.name


# ---------------------------------------------------------------------------------------------- plan


def plan_cells(config: ExperimentConfig) -> list[Cell]:
    """Every cell of the grid: per fraction, per seed, per method, per alpha (``none`` once, alpha 0).

    Cells sharing a fraction and seed run one after the other, so a fitted DAGA model is reused by
    every alpha and every union that needs it.
    """
    cells: list[Cell] = []
    for fraction in config.fractions:
        for seed in config.seeds:
            for method in config.methods:
                alphas = (0,) if method == "none" else config.alphas
                cells.extend(Cell(fraction, method, alpha, seed) for alpha in alphas)
    return cells


def split_train(
    docs: Sequence[Document], fraction: float, seed: int, held_out: float | None = None
) -> tuple[list[Document], list[Document]]:
    """The training subset and the held-out dev documents of a fraction and seed.

    The documents are sorted by id and shuffled with a stream seeded by ``seed`` only. With
    ``held_out``, the first ``round(held_out * n)`` documents (at least 1) are the dev set; the others
    form the training pool, and the first ``round(fraction * pool)`` (at least 1) of the pool are the
    training subset. Both lists come back sorted by id.

    Args:
        docs: the train corpus.
        fraction: share of the pool to train on, in (0, 1].
        seed: the split's seed.
        held_out: share of the corpus held out as dev, or None (no dev from the corpus).

    Raises:
        ConfigError: a share out of range, or too few documents for the split.
        InputFormatError: a document id repeated in the corpus.
    """
    if not 0.0 < fraction <= 1.0:
        raise ConfigError(f"training fraction must be in (0, 1], got {fraction}")
    order = sorted(index_documents(docs, "train").values(), key=_doc_id)
    random.Random(f"experiment-split:{seed}").shuffle(order)
    n_dev = 0
    if held_out is not None:
        if not 0.0 < held_out < 1.0:
            raise ConfigError(f"held-out dev share must be in (0, 1), got {held_out}")
        n_dev = max(1, round(held_out * len(order)))
    pool = order[n_dev:]
    if not pool:
        raise ConfigError(f"the train corpus has {len(order)} documents: too few to hold out a dev set")
    n_train = max(1, round(fraction * len(pool)))
    return sorted(pool[:n_train], key=_doc_id), sorted(order[:n_dev], key=_doc_id)


def _doc_id(doc: Document) -> str:
    return doc.id


def cell_fingerprint(config: ExperimentConfig, cell: Cell) -> str:
    """A short hash of everything that decides a cell's result (data, labels, options, training, cell).

    Grid lists, ``keep_models``, the plot metric and the name are left out: adding an alpha or a seed
    to the grid keeps the finished cells valid. Augmenter options count only for augmented cells.
    """
    full = config.to_dict()
    key = {
        "data": full["data"],
        "labels": full["labels"],
        "train": full["train"],
        "augment": full["augment"] if cell.method != "none" else None,
        "cell": cell.to_dict(),
    }
    blob = json.dumps(key, sort_keys=True).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:16]


# ---------------------------------------------------------------------------------------------- data


def _read(spec: CorpusSpec, role: str) -> tuple[list[Document], int]:
    from phiscrub.io import read_corpus

    if not spec.path.exists():
        raise ConfigError(f"data.{role}.path does not exist: {spec.path}")
    docs, problems = read_corpus(spec.path, spec.format, spec.corpus)
    if not docs:
        raise ConfigError(f"data.{role}: no documents read from {spec.path}")
    return docs, len(problems)


def load_data(config: ExperimentConfig) -> ExperimentData:
    """Read the train, dev and test corpora of a config (reader problems are counted, not fatal).

    Raises:
        ConfigError: a corpus path is missing or holds no documents.
        InputFormatError: a corpus cannot be read in its format.
    """
    train, n_train = _read(config.train_corpus, "train")
    problems = {"train": n_train}
    dev: list[Document] = []
    if config.dev.corpus is not None:
        dev, problems["dev"] = _read(config.dev.corpus, "dev")
    tests: dict[str, list[Document]] = {}
    for name, spec in config.test_corpora.items():
        tests[name], problems[f"test.{name}"] = _read(spec, f"test.{name}")
    return ExperimentData(train=train, dev=dev, tests=tests, problems=problems)


# ---------------------------------------------------------------------------------------------- augment


def _spans(docs: Sequence[Document]) -> int:
    return sum(len(d.spans) for d in docs)


def _fitted(
    part: str,
    subset: Sequence[Document],
    seed: int,
    options: AugmentOptions,
    fit_cache: FitCache | None,
    cache_key: Any,
) -> tuple[CorpusAugmenter, float, bool]:
    """The method ``part`` fitted on ``subset``: from ``fit_cache`` when this subset and seed fitted it
    already (cells of one fraction and seed run together, so only their fits are kept)."""
    from phiscrub.augment import build_augmenter

    key = (cache_key, part)
    if fit_cache is not None and key in fit_cache:
        augmenter, fit_s = fit_cache[key]
        return augmenter, fit_s, True
    started = time.monotonic()
    augmenter = build_augmenter(part, options).fit(subset, seed=seed, progress=False)
    fit_s = time.monotonic() - started
    if fit_cache is not None:
        for old in [k for k in fit_cache if k[0] != cache_key]:
            del fit_cache[old]
        fit_cache[key] = (augmenter, fit_s)
    return augmenter, fit_s, False


def augment_train(
    subset: Sequence[Document],
    method: str,
    alpha: int,
    seed: int,
    options: AugmentOptions,
    labels: str = "coarse",
    fit_cache: FitCache | None = None,
    cache_key: Any = None,
) -> tuple[list[Document], list[dict[str, Any]]]:
    """The augmented documents of a cell (the subset itself not included) and per-method counts.

    A ``+``-joined method is the union of its components' documents, each made at ``alpha`` from the
    subset (never from another component's output); their ids are then prefixed with the component
    name so they stay unique.

    Args:
        subset: the training subset.
        method: ``none``, a method of :data:`phiscrub.augment.AUGMENT_METHODS`, or a ``+`` join.
        alpha: augmentation level (ignored for ``none``).
        seed: seeds the copies and the DAGA model.
        options: augmenter options.
        labels: label granularity of the DAGA tags.
        fit_cache: reuse augmenters fitted on the same subset and seed (the DAGA language model is
            trained once per fraction and seed, not once per alpha).
        cache_key: the key of this subset and seed in ``fit_cache``.

    Returns:
        The new documents, and one counts dict per component (``kept``/``dropped`` in all of them,
        ``fit_seconds`` and ``fit_reused`` too).

    Raises:
        ConfigError: unknown method, or DAGA finds no usable sentence with PHI.
    """
    parts = [p for p in method.split("+") if p] if method != "none" else []
    if not parts:
        return [], []
    if alpha < 1:
        raise ConfigError("alpha must be at least 1 for an augmentation method")
    out: list[Document] = []
    stats: list[dict[str, Any]] = []
    options = replace(options, granularity=cast(Granularity, labels), run_tag=f"s{seed}")
    for part in parts:
        augmenter, fit_s, reused = _fitted(part, subset, seed, options, fit_cache, cache_key)
        result = augmenter.augment(subset, alpha, seed)
        docs = result.documents
        st = {**result.counts(), "fit_seconds": round(fit_s, 3), "fit_reused": reused}
        if len(parts) > 1:
            docs = [Document(f"{part}:{d.id}", d.text, d.spans, dict(d.metadata)) for d in docs]
        out.extend(docs)
        stats.append(st)
    return out, stats


# ---------------------------------------------------------------------------------------------- one cell


def _score(model_dir: Path, tests: dict[str, list[Document]], config: Any, labels: str) -> dict[str, Any]:
    from phiscrub.evaluate.metrics import evaluate
    from phiscrub.tagger.inference import predict_words
    from phiscrub.tagger.loaders import load_tagger

    model = load_tagger(model_dir, device=config.device)
    scores: dict[str, Any] = {}
    for name, docs in tests.items():
        preds = predict_words(model, docs, batch_size=config.eval_batch_size)
        pred_docs = [d.with_spans(p.spans()) for d, p in zip(docs, preds)]
        result = evaluate(docs, pred_docs, labels)  # type: ignore[arg-type]
        scores[name] = {
            "binary": result.binary.f1,
            "token": result.token.f1,
            "entity": result.entity.f1,
            "docs": len(docs),
            "evaluation": result.to_dict(),
        }
    return scores


def run_cell(
    cell: Cell,
    config: ExperimentConfig,
    data: ExperimentData,
    cell_dir: str | Path,
    fit_cache: FitCache | None = None,
) -> dict[str, Any]:
    """Split, augment, train and score one cell; return its result dict.

    Args:
        cell: the cell.
        config: the experiment.
        data: the corpora.
        cell_dir: the cell's folder (``model/`` while it runs; :func:`run_experiment` stores the
            result as ``result.json`` there).
        fit_cache: see :func:`augment_train`.

    Returns:
        The result (JSON-ready).
    """
    from phiscrub.train.trainer import train

    started = time.monotonic()
    folder = Path(cell_dir)
    folder.mkdir(parents=True, exist_ok=True)
    subset, held_dev = split_train(data.train, cell.fraction, cell.seed, config.dev.held_out)
    dev = held_dev if config.dev.kind == "held_out" else data.dev

    t0 = time.monotonic()
    extra, aug_stats = augment_train(
        subset,
        cell.method,
        cell.alpha,
        cell.seed,
        config.augment,
        config.labels,
        fit_cache,
        (cell.fraction, cell.seed),
    )
    augment_s = time.monotonic() - t0
    train_docs = subset + extra

    t0 = time.monotonic()
    model_dir = folder / "model"
    train_config = config.train.replace(seed=cell.seed)
    trained = train(train_docs, dev, train_config, model_dir, progress=False)
    train_s = time.monotonic() - t0

    t0 = time.monotonic()
    tests = _score(model_dir, data.tests, trained.config, config.labels)
    evaluate_s = time.monotonic() - t0
    if not config.keep_models:
        shutil.rmtree(model_dir, ignore_errors=True)

    training = trained.to_dict()
    training.pop("config", None)
    training["model_dir"] = str(model_dir) if config.keep_models else None
    result: dict[str, Any] = {
        "cell_id": cell.id,
        "cell": cell.to_dict(),
        "fingerprint": cell_fingerprint(config, cell),
        "phiscrub_version": __version__,
        "config": config.to_dict(),
        "train_config": trained.config.to_dict(),
        "seeds": {"split": cell.seed, "augment": cell.seed, "train": cell.seed},
        "data": {
            "train_corpus_docs": len(data.train),
            "dev": config.dev.kind,
            "dev_docs": len(dev),
            "dev_ids": [d.id for d in held_dev],
            "train_ids": [d.id for d in subset],
            "docs_before": len(subset),
            "spans_before": _spans(subset),
            "docs_after": len(train_docs),
            "spans_after": _spans(train_docs),
            "reader_problems": dict(data.problems),
        },
        "augmentation": aug_stats,
        "training": training,
        "seconds": {
            "augment": round(augment_s, 3),
            "train": round(train_s, 3),
            "evaluate": round(evaluate_s, 3),
            "total": round(time.monotonic() - started, 3),
        },
        "test": tests,
    }
    logger.info(
        "cell %s: %d train docs (%d after augmentation), %s, %.0f s",
        cell.id,
        len(subset),
        len(train_docs),
        ", ".join(f"{n} E={s['entity']:.4f}" for n, s in tests.items()),
        result["seconds"]["total"],
    )
    return result


# ---------------------------------------------------------------------------------------------- grid


def _splits(config: ExperimentConfig, data: ExperimentData) -> list[dict[str, Any]]:
    out = []
    for fraction in config.fractions:
        for seed in config.seeds:
            subset, dev = split_train(data.train, fraction, seed, config.dev.held_out)
            out.append(
                {
                    "fraction": fraction,
                    "seed": seed,
                    "train_docs": len(subset),
                    "train_spans": _spans(subset),
                    "dev_docs": len(dev) if config.dev.kind == "held_out" else len(data.dev),
                }
            )
    return out


def run_experiment(
    config: ExperimentConfig,
    out_dir: str | Path,
    resume: bool = True,
    dry_run: bool = False,
    progress: bool = True,
) -> ExperimentReport:
    """Run every unfinished cell of the grid, then write the table and the plot.

    Args:
        config: the experiment.
        out_dir: results folder (``cells/<id>/result.json``, ``table.md``, ``f1-vs-alpha.png``,
            ``experiment.json``).
        resume: skip cells already finished with the same settings; False runs every cell again.
        dry_run: read the corpora, check the splits and list the cells; train and write nothing.
        progress: a tqdm bar over the cells on stderr (counts only).

    Returns:
        An :class:`ExperimentReport`.

    Raises:
        ConfigError: a finished cell was made with other settings (with ``resume``), a corpus is
            missing or empty, or a split or an augmenter cannot work on the data.
    """
    out = Path(out_dir)
    cells = plan_cells(config)
    store = FolderStore(out / "cells", RESULT_FILE)

    def fingerprint(cell: Cell) -> str:
        return cell_fingerprint(config, cell)

    plan = plan_grid(cells, store, resume=resume, fingerprint=fingerprint, stale="error")
    report = ExperimentReport(out_dir=out, cells=tuple(cells), skipped=tuple(plan.done))
    data: ExperimentData | None = None
    if plan.todo or dry_run:
        data = load_data(config)
        report.splits = _splits(config, data)
    if dry_run:
        report.results = [plan.done[c.id] for c in cells if c.id in plan.done]
        return report

    out.mkdir(parents=True, exist_ok=True)
    write_json(out / EXPERIMENT_FILE, {"config": config.to_dict(), "cells": [c.id for c in cells]})
    fit_cache: FitCache = {}

    def one(cell: Cell) -> dict[str, Any]:
        cell_dir = out / "cells" / cell.id
        if cell_dir.exists():  # a cell interrupted earlier, or --no-resume: start it clean
            shutil.rmtree(cell_dir)
        assert data is not None  # loaded above whenever a cell is left to run
        return run_cell(cell, config, data, cell_dir, fit_cache)

    grid = run_grid(
        cells, one, store, resume=resume, fingerprint=fingerprint, stale="error", progress=progress,
        desc="experiment",
    )  # fmt: skip
    report.ran = tuple(grid.ran)
    report.results = grid.ordered()
    return _write_summaries(report, config)


def _write_summaries(report: ExperimentReport, config: ExperimentConfig) -> ExperimentReport:
    """Write the table and (with matplotlib) the plot of ``report.results``; fill in their paths."""
    from phiscrub.experiment.plot import plot_f1_vs_alpha
    from phiscrub.experiment.table import write_table

    out = report.out_dir
    report.table_path = write_table(report.results, config, out / TABLE_FILE)
    if importlib.util.find_spec("matplotlib") is None:
        logger.warning("matplotlib is not installed: the F1-against-alpha plot is skipped")
    else:
        report.plot_path = plot_f1_vs_alpha(report.results, config, out / PLOT_FILE)
    return report
