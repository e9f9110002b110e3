"""The experiment configuration: a TOML (or JSON) file describing a grid of augmentation runs.

One file describes the whole grid of Kim et al. (2024, Table 2) style experiments: which corpus to
train on, which corpora to test on (cross-dataset), which augmentation methods, levels ``alpha``,
training fractions and seeds to cross, and how to train each tagger. The file is read by the
project's one config loader (:func:`phiscrub.config.load_config`) into :class:`ExperimentFile`, then
resolved (paths, methods, cross-key rules) into an :class:`ExperimentConfig`. Every key is checked;
an unknown or invalid key is a :class:`~phiscrub.errors.ConfigError` whose message names the key by
its dotted path (``grid.alphas``, ``train.epochs``, ``data.test.i2b2.path``).

Layout (TOML; the same keys as nested objects in JSON)::

    name = "meddocan-aug"          # optional, default: the file's stem
    labels = "coarse"              # fine | coarse | phicon5: labels the taggers predict and are scored on
    root = "../.."                 # optional: folder relative data paths are resolved against
                                   # (itself relative to the config file); default: the current folder
    keep_models = false            # keep each cell's model folder (default: deleted after evaluation)
    plot_metric = "entity"         # binary | token | entity: the F1 drawn against alpha

    [grid]
    fractions = [0.1, 0.2]         # shares of the training pool, in (0, 1]
    methods = ["none", "phicon", "mr", "mr+daga"]
    alphas = [1, 2]                # augmentation levels, integers >= 1
    seeds = [1, 2]

    [data.train]                   # the corpus the training subsets are drawn from
    path = "data/train"
    format = "brat"                # optional: guessed from the files when left out
    corpus = "meddocan"            # optional: label mapping of the reader

    [data.dev]                     # early stopping; EITHER a held-out share of the train corpus ...
    held_out = 0.1
    # ... OR a dev corpus: path = "...", format = "...", corpus = "..."
    # Without [data.dev] there is no early stopping: the last epoch is kept.

    [data.test.meddocan-dev]       # one table per test corpus (the name is the table's key)
    path = "data/dev"
    format = "brat"
    corpus = "meddocan"

    [augment]                      # options of the augmenters (defaults shown)
    lang = "auto"                  # surrogate language of phi/phicon: en, es, ca, zh, auto
    p_sr = 0.1                     # context: synonym-replacement share
    p_ri = 0.1                     # context: random-insertion share
    p_mr = 0.5                     # mr: replacement probability per entity

    [augment.daga]                 # keyword arguments of DagaAugmenter (granularity = labels)
    epochs = 10

    [train]                        # TrainConfig keys (seed and granularity come from the grid)
    encoder = "bilstm-crf"
    epochs = 10

    [train.bilstm]                 # a TrainConfig section (flat bilstm_hidden = 50 works too)
    hidden = 50

**Methods.** ``none`` trains on the subset alone; it is run once per fraction and seed whatever the
alphas (it is alpha 0). ``phi``, ``context``, ``phicon``, ``mr`` and ``daga`` are the methods of
:func:`phiscrub.augment.registry.build_augmenter`. A ``+`` joins methods as a *union* (Wang et al. 2022):
``mr+daga`` at alpha 2 trains on the subset, plus mr's 2 copies of every document, plus DAGA's
2 x (sentences with PHI) generated sentences. ``phicon`` is not ``phi+context``: it *chains* the two on
each copy (PHICON), where ``phi+context`` would add both methods' copies side by side.

**Splits.** A training corpus is split per seed only (see :func:`phiscrub.experiment.runner.split_train`):
the same documents at a given fraction and seed for every method and alpha, and the subset at a
smaller fraction is contained in the subset at a larger one. The dev documents are never
augmented and never come from a test corpus: a test path equal to (or inside, or around) the train
or dev path is a :class:`~phiscrub.errors.ConfigError`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast, get_args

from phiscrub.augment.registry import AugmentOptions
from phiscrub.config import load_config as load_typed
from phiscrub.config import read_config_file
from phiscrub.errors import ConfigError
from phiscrub.labels import Granularity
from phiscrub.tagger.config import TrainConfig

__all__ = [
    "METRICS",
    "AugmentOptions",
    "CorpusSpec",
    "DevSpec",
    "ExperimentConfig",
    "ExperimentFile",
    "load_config",
    "parse_config",
    "split_method",
]

#: TrainConfig keys the grid sets itself.
_GRID_OWNED_TRAIN_KEYS = {"seed": "grid.seeds", "granularity": "labels"}
Metric = Literal["binary", "token", "entity"]
#: The three corpus-level F1 scores (Kim et al. 2024: B, T, E), in table order.
METRICS: tuple[str, ...] = get_args(Metric)


def _augment_methods() -> tuple[str, ...]:
    from phiscrub.augment.registry import AUGMENT_METHODS

    return AUGMENT_METHODS


# ---------------------------------------------------------------------------------------------- the file


@dataclass(frozen=True)
class CorpusTable:
    """``[data.train]``, ``[data.test.<name>]``: a corpus as the file gives it (path relative to ``root``)."""

    path: str
    format: str | None = None
    corpus: str | None = None


@dataclass(frozen=True)
class DevTable:
    """``[data.dev]``: a held-out share of the train corpus, or a dev corpus."""

    held_out: float | None = None
    path: str | None = None
    format: str | None = None
    corpus: str | None = None


@dataclass(frozen=True)
class DataTable:
    """``[data]``: the train corpus, the test corpora by name, and the dev documents."""

    train: CorpusTable
    test: dict[str, CorpusTable]
    dev: DevTable | None = None


@dataclass(frozen=True)
class GridTable:
    """``[grid]``: the values crossed (``alphas`` may be left out when no method augments)."""

    fractions: tuple[float, ...]
    methods: tuple[str, ...]
    seeds: tuple[int, ...]
    alphas: tuple[int, ...] | None = None


@dataclass(frozen=True)
class AugmentTable:
    """``[augment]``: options of the augmenters (``[augment.daga]``: DagaAugmenter keyword arguments)."""

    lang: str = "auto"
    p_sr: float = 0.1
    p_ri: float = 0.1
    p_mr: float = 0.5
    daga: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ExperimentFile:
    """An experiment file as written (types and keys checked by :func:`phiscrub.config.load_config`);
    :func:`parse_config` resolves it into an :class:`ExperimentConfig`."""

    grid: GridTable
    data: DataTable
    name: str | None = None
    labels: Granularity = "coarse"
    root: str | None = None
    keep_models: bool = False
    plot_metric: Metric = "entity"
    augment: AugmentTable = field(default_factory=AugmentTable)
    train: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------- resolved


@dataclass(frozen=True)
class CorpusSpec:
    """Where a corpus is and how to read it.

    Args:
        path: file or folder (resolved, absolute).
        format: reader name (``brat``, ``jsonl``, ...); None: guessed by :func:`phiscrub.io.detect_format`.
        corpus: label mapping given to the reader (``meddocan``, ``i2b2-2014``, ...).
    """

    path: Path
    format: str | None = None
    corpus: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"path": str(self.path), "format": self.format, "corpus": self.corpus}


@dataclass(frozen=True)
class DevSpec:
    """The dev documents used for early stopping (never a test corpus).

    Args:
        held_out: share of the train corpus held out per seed (before the fraction is drawn), or None.
        corpus: a separate dev corpus, or None.

    Neither: no dev documents (the trainer keeps the last epoch).
    """

    held_out: float | None = None
    corpus: CorpusSpec | None = None

    @property
    def kind(self) -> str:
        """``held_out``, ``corpus`` or ``none``."""
        if self.held_out is not None:
            return "held_out"
        return "corpus" if self.corpus is not None else "none"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "kind": self.kind,
            "held_out": self.held_out,
            "corpus": self.corpus.to_dict() if self.corpus is not None else None,
        }


@dataclass(frozen=True)
class ExperimentConfig:
    """A validated experiment grid (build it with :func:`load_config` or :func:`parse_config`).

    Args:
        name: experiment name (table title).
        labels: label granularity of the taggers and of the scores.
        train_corpus: the corpus training subsets are drawn from.
        dev: the early-stopping documents.
        test_corpora: test corpora by name, in file order.
        fractions: training fractions, in file order.
        methods: augmentation methods (``none`` or ``+``-joined names), in file order.
        alphas: augmentation levels, in file order.
        seeds: seeds, in file order.
        train: the base training config (``seed`` is set per cell).
        augment: augmenter options.
        keep_models: keep each cell's model folder.
        plot_metric: the F1 drawn against alpha.
        source: the file the config was read from, if any.
    """

    name: str
    labels: Granularity
    train_corpus: CorpusSpec
    dev: DevSpec
    test_corpora: dict[str, CorpusSpec]
    fractions: tuple[float, ...]
    methods: tuple[str, ...]
    alphas: tuple[int, ...]
    seeds: tuple[int, ...]
    train: TrainConfig
    augment: AugmentOptions = field(default_factory=AugmentOptions)
    keep_models: bool = False
    plot_metric: str = "entity"
    source: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of the resolved config (paths absolute)."""
        return {
            "name": self.name,
            "labels": self.labels,
            "data": {
                "train": self.train_corpus.to_dict(),
                "dev": self.dev.to_dict(),
                "test": {name: spec.to_dict() for name, spec in self.test_corpora.items()},
            },
            "grid": {
                "fractions": list(self.fractions),
                "methods": list(self.methods),
                "alphas": list(self.alphas),
                "seeds": list(self.seeds),
            },
            "augment": self.augment.to_dict(),
            # flat keys: the cell fingerprints (experiment/runner.py) of runs made before
            # TrainConfig had sections stay valid for --resume
            "train": self.train.to_dict(flat=True),
            "keep_models": self.keep_models,
            "plot_metric": self.plot_metric,
            "source": str(self.source) if self.source is not None else None,
        }


def split_method(method: str) -> tuple[str, ...]:
    """The component methods of a grid method: ``"mr+daga"`` -> ``("mr", "daga")``; ``"none"`` -> ``()``."""
    if method == "none":
        return ()
    return tuple(part.strip() for part in method.split("+"))


# ---------------------------------------------------------------------------------------------- reading


def load_config(path: str | Path) -> ExperimentConfig:
    """Read and validate an experiment config file (``.toml`` or ``.json``).

    Args:
        path: the config file.

    Raises:
        ConfigError: unreadable file, bad syntax, or an invalid key (named by its dotted path).
    """
    p = Path(path)
    data = read_config_file(p, "experiment config")
    try:
        return parse_config(data, base_dir=p.resolve().parent, default_name=p.stem, source=p.resolve())
    except ConfigError as exc:
        raise ConfigError(f"experiment config {p}: {exc}") from None


def parse_config(
    data: Any,
    base_dir: str | Path | None = None,
    default_name: str = "experiment",
    source: Path | None = None,
) -> ExperimentConfig:
    """Validate an experiment config given as nested dicts (parsed TOML or JSON).

    Args:
        data: the parsed file.
        base_dir: folder of the config file: a relative ``root`` is resolved against it (default:
            the current folder).
        default_name: the name when the config has no ``name`` key.
        source: the file, recorded in the config.

    Raises:
        ConfigError: an unknown or invalid key, named by its dotted path.
    """
    raw = load_typed(data, ExperimentFile)
    root = _root(raw.root, Path(base_dir) if base_dir is not None else None)
    grid = raw.grid
    methods = _methods(grid.methods)
    augmenting = any(m != "none" for m in methods)
    if grid.alphas is None and augmenting:
        raise ConfigError("grid.alphas is missing")
    alphas = _distinct(grid.alphas or (), "grid.alphas", allow_empty=not augmenting)
    if any(a < 1 for a in alphas):
        raise ConfigError("grid.alphas values must be >= 1")
    fractions = _distinct(grid.fractions, "grid.fractions")
    if any(not 0.0 < f <= 1.0 for f in fractions):
        raise ConfigError("grid.fractions values must be in (0, 1]")
    if not raw.data.test:
        raise ConfigError("data.test: give at least one test corpus")
    train_corpus = _corpus(raw.data.train, "data.train", root)
    dev = _dev(raw.data.dev, root)
    tests = {name: _corpus(spec, f"data.test.{name}", root) for name, spec in raw.data.test.items()}
    _check_no_leak(train_corpus, dev, tests)
    return ExperimentConfig(
        name=_non_empty(raw.name if raw.name is not None else default_name, "name"),
        labels=raw.labels,
        train_corpus=train_corpus,
        dev=dev,
        test_corpora=tests,
        fractions=fractions,
        methods=methods,
        alphas=alphas,
        seeds=_distinct(grid.seeds, "grid.seeds"),
        train=_train(raw.train, raw.labels),
        augment=_augment(raw.augment, raw.labels),
        keep_models=raw.keep_models,
        plot_metric=raw.plot_metric,
        source=source,
    )


# ---------------------------------------------------------------------------------------------- checks


def _non_empty(value: str, where: str) -> str:
    if not value.strip():
        raise ConfigError(f"{where} must be a non-empty string")
    return value


def _distinct(values: tuple[Any, ...], where: str, allow_empty: bool = False) -> tuple[Any, ...]:
    if not values and not allow_empty:
        raise ConfigError(f"{where} must not be empty")
    if len({json.dumps(v, sort_keys=True) for v in values}) != len(values):
        raise ConfigError(f"{where} has repeated values")
    return values


def _methods(value: tuple[str, ...]) -> tuple[str, ...]:
    allowed = _augment_methods()
    out: list[str] = []
    for item in _distinct(value, "grid.methods"):
        name = item.strip()
        if name != "none":
            parts = split_method(name)
            bad = [p for p in parts if p not in allowed]
            if bad:
                raise ConfigError(
                    f"grid.methods: unknown method {bad[0]!r} in {item!r}; use none or "
                    f"{', '.join(allowed)}, joined by '+' for a union"
                )
            if len(set(parts)) != len(parts):
                raise ConfigError(f"grid.methods: {item!r} joins a method to itself")
            name = "+".join(parts)
        out.append(name)
    return _distinct(tuple(out), "grid.methods")


def _root(value: str | None, base_dir: Path | None) -> Path:
    if value is None:
        return Path.cwd()
    root = Path(_non_empty(value, "root")).expanduser()
    if not root.is_absolute():
        root = (base_dir or Path.cwd()) / root
    return root.resolve()


def _corpus(table: CorpusTable | DevTable, where: str, root: Path) -> CorpusSpec:
    if table.path is None:
        raise ConfigError(f"{where}.path is missing")
    path = Path(_non_empty(table.path, f"{where}.path")).expanduser()
    path = (path if path.is_absolute() else root / path).resolve()
    if table.format is not None:
        from phiscrub.io import READERS

        if table.format not in READERS:
            raise ConfigError(f"{where}.format must be one of {', '.join(sorted(READERS))}")
    corpus = _non_empty(table.corpus, f"{where}.corpus") if table.corpus is not None else None
    return CorpusSpec(path, table.format, corpus)


def _dev(table: DevTable | None, root: Path) -> DevSpec:
    if table is None:
        return DevSpec()
    if table.held_out is None:
        return DevSpec(corpus=_corpus(table, "data.dev", root))
    if (table.path, table.format, table.corpus) != (None, None, None):
        raise ConfigError("data.dev: give either held_out or a corpus (path, format, corpus), not both")
    if not 0.0 < table.held_out < 1.0:
        raise ConfigError("data.dev.held_out must be in (0, 1)")
    return DevSpec(held_out=table.held_out)


def _overlaps(a: Path, b: Path) -> bool:
    return a == b or a.is_relative_to(b) or b.is_relative_to(a)


def _check_no_leak(train: CorpusSpec, dev: DevSpec, tests: dict[str, CorpusSpec]) -> None:
    """Test corpora must not share files with the train or dev corpus."""
    for name, spec in tests.items():
        if _overlaps(spec.path, train.path):
            raise ConfigError(f"data.test.{name}.path overlaps data.train.path: a test corpus cannot train")
        if dev.corpus is not None and _overlaps(spec.path, dev.corpus.path):
            raise ConfigError(f"data.test.{name}.path overlaps data.dev.path: never select on a test corpus")


def _augment(table: AugmentTable, labels: str) -> AugmentOptions:
    from phiscrub.transform.fill import FILL_LANGS

    if table.lang not in FILL_LANGS:
        raise ConfigError(f"augment.lang must be one of {', '.join(FILL_LANGS)}")
    for key in ("p_sr", "p_ri", "p_mr"):
        if not 0.0 <= getattr(table, key) <= 1.0:
            raise ConfigError(f"augment.{key} must be in [0, 1]")
    if "granularity" in table.daga:
        raise ConfigError("augment.daga.granularity is set by the top-level labels key")
    _check_daga(table.daga, labels)
    return AugmentOptions(
        lang=table.lang, p_sr=table.p_sr, p_ri=table.p_ri, p_mr=table.p_mr, daga=dict(table.daga)
    )


def _check_daga(kwargs: dict[str, Any], labels: str) -> None:
    """Build a DagaAugmenter once so that a bad DAGA option fails before any training."""
    import inspect

    from phiscrub.augment.daga import DagaAugmenter

    params = set(inspect.signature(DagaAugmenter.__init__).parameters) - {"self", "granularity"}
    unknown = sorted(set(kwargs) - params)
    if unknown:
        names = ", ".join(f"augment.daga.{k}" for k in unknown)
        raise ConfigError(f"unknown config key(s): {names}; known: {', '.join(sorted(params))}")
    try:
        DagaAugmenter(granularity=cast(Granularity, labels), **kwargs)
    except ConfigError as exc:
        raise ConfigError(f"augment.daga: {exc}") from None
    except TypeError as exc:
        raise ConfigError(f"augment.daga: bad value ({exc.__class__.__name__})") from None


def _train(table: dict[str, Any], labels: str) -> TrainConfig:
    for key, owner in _GRID_OWNED_TRAIN_KEYS.items():
        if key in table:
            raise ConfigError(f"train.{key} is set by {owner}; remove it from [train]")
    return load_typed({**table, "granularity": labels}, TrainConfig, where="train")
