"""The experiment configuration: a TOML (or JSON) file describing a grid of augmentation runs.

One file describes the whole grid of Kim et al. (2024, Table 2) style experiments: which corpus to
train on, which corpora to test on (cross-dataset), which augmentation methods, levels ``alpha``,
training fractions and seeds to cross, and how to train each tagger. Every key is checked; an
unknown or invalid key is a :class:`~phiscrub.errors.ConfigError` whose message names the key by its
dotted path (``grid.alphas``, ``train.epochs``, ``data.test.i2b2.path``).

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

**Methods.** ``none`` trains on the subset alone; it is run once per fraction and seed whatever the
alphas (it is alpha 0). ``phi``, ``context``, ``phicon``, ``mr`` and ``daga`` are the methods of
:func:`phiscrub.augment.make_augmenter`. A ``+`` joins methods as a *union* (Wang et al. 2022):
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
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from phiscrub.augment.registry import AugmentOptions
from phiscrub.errors import ConfigError
from phiscrub.labels import Granularity
from phiscrub.train.config import TrainConfig

__all__ = [
    "METRICS",
    "AugmentOptions",
    "CorpusSpec",
    "DevSpec",
    "ExperimentConfig",
    "load_config",
    "parse_config",
    "split_method",
]

#: The three corpus-level F1 scores (Kim et al. 2024: B, T, E), in table order.
METRICS: tuple[str, ...] = ("binary", "token", "entity")
_GRANULARITIES: tuple[str, ...] = ("fine", "coarse", "phicon5")
#: TrainConfig keys the grid sets itself.
_GRID_OWNED_TRAIN_KEYS = {"seed": "grid.seeds", "granularity": "labels"}


def _augment_methods() -> tuple[str, ...]:
    from phiscrub.augment.registry import AUGMENT_METHODS

    return AUGMENT_METHODS


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
            "train": self.train.to_dict(),
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
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read experiment config {p}: {exc.__class__.__name__}") from exc
    data: Any
    if p.suffix.lower() == ".json":
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"experiment config {p} is not valid JSON: {exc}") from exc
    elif p.suffix.lower() == ".toml":
        try:
            import tomllib
        except ImportError:  # Python 3.10
            raise ConfigError("TOML experiment configs need Python 3.11 or later; use JSON") from None
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"experiment config {p} is not valid TOML: {exc}") from exc
    else:
        raise ConfigError(f"experiment config {p}: use a .toml or .json file")
    return parse_config(data, base_dir=p.resolve().parent, default_name=p.stem, source=p.resolve())


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
    top = _table(data, "")
    known = {"name", "labels", "root", "keep_models", "plot_metric", "grid", "data", "augment", "train"}
    _no_unknown(top, known, "")
    name = _string(top.get("name", default_name), "name")
    labels = _choice(top.get("labels", "coarse"), "labels", _GRANULARITIES)
    root = _root(top.get("root"), Path(base_dir) if base_dir is not None else None)
    keep_models = _bool(top.get("keep_models", False), "keep_models")
    plot_metric = _choice(top.get("plot_metric", "entity"), "plot_metric", METRICS)

    grid = _table(_required(top, "grid", ""), "grid")
    _no_unknown(grid, {"fractions", "methods", "alphas", "seeds"}, "grid")
    methods = _methods(_required(grid, "methods", "grid"))
    fractions = _fractions(_required(grid, "fractions", "grid"))
    seeds = _ints(_required(grid, "seeds", "grid"), "grid.seeds", minimum=None)
    augmenting = any(m != "none" for m in methods)
    if augmenting:
        alphas = _ints(_required(grid, "alphas", "grid"), "grid.alphas", minimum=1)
    else:
        alphas = _ints(grid.get("alphas", []), "grid.alphas", minimum=1, allow_empty=True)

    data_t = _table(_required(top, "data", ""), "data")
    _no_unknown(data_t, {"train", "dev", "test"}, "data")
    train_corpus = _corpus(_required(data_t, "train", "data"), "data.train", root)
    dev = _dev(data_t.get("dev"), root)
    tests_t = _table(_required(data_t, "test", "data"), "data.test")
    if not tests_t:
        raise ConfigError("data.test: give at least one test corpus")
    tests = {str(k): _corpus(v, f"data.test.{k}", root) for k, v in tests_t.items()}
    _check_no_leak(train_corpus, dev, tests)

    augment = _augment(top.get("augment", {}), labels)
    train = _train(top.get("train", {}), labels)
    return ExperimentConfig(
        name=name,
        labels=cast(Granularity, labels),
        train_corpus=train_corpus,
        dev=dev,
        test_corpora=tests,
        fractions=fractions,
        methods=methods,
        alphas=alphas,
        seeds=seeds,
        train=train,
        augment=augment,
        keep_models=keep_models,
        plot_metric=plot_metric,
        source=source,
    )


# ---------------------------------------------------------------------------------------------- checks


def _where(key: str, prefix: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where or 'the experiment config'} must be a table (an object)")
    return value


def _required(table: dict[str, Any], key: str, prefix: str) -> Any:
    if key not in table:
        raise ConfigError(f"{_where(key, prefix)} is missing")
    return table[key]


def _no_unknown(table: dict[str, Any], known: set[str], prefix: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        names = ", ".join(_where(str(k), prefix) for k in unknown)
        raise ConfigError(f"unknown experiment config key(s): {names}; known: {', '.join(sorted(known))}")


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where} must be a non-empty string")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false")
    return value


def _choice(value: Any, where: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ConfigError(f"{where} must be one of {', '.join(choices)}, got {value!r}")
    return str(value)


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"{where} must be a number")
    return float(value)


def _list(value: Any, where: str, allow_empty: bool = False) -> list[Any]:
    if not isinstance(value, list):
        raise ConfigError(f"{where} must be a list")
    if not value and not allow_empty:
        raise ConfigError(f"{where} must not be empty")
    if len({json.dumps(v, sort_keys=True) for v in value}) != len(value):
        raise ConfigError(f"{where} has repeated values")
    return value


def _ints(value: Any, where: str, minimum: int | None, allow_empty: bool = False) -> tuple[int, ...]:
    out: list[int] = []
    for item in _list(value, where, allow_empty):
        if isinstance(item, bool) or not isinstance(item, int):
            raise ConfigError(f"{where} must hold integers, got {item!r}")
        if minimum is not None and item < minimum:
            raise ConfigError(f"{where} values must be >= {minimum}, got {item}")
        out.append(item)
    return tuple(out)


def _fractions(value: Any) -> tuple[float, ...]:
    out: list[float] = []
    for item in _list(value, "grid.fractions"):
        f = _number(item, "grid.fractions")
        if not 0.0 < f <= 1.0:
            raise ConfigError(f"grid.fractions values must be in (0, 1], got {item!r}")
        out.append(f)
    if len(set(out)) != len(out):
        raise ConfigError("grid.fractions has repeated values")
    return tuple(out)


def _methods(value: Any) -> tuple[str, ...]:
    allowed = _augment_methods()
    out: list[str] = []
    for item in _list(value, "grid.methods"):
        if not isinstance(item, str):
            raise ConfigError(f"grid.methods must hold strings, got {item!r}")
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
    if len(set(out)) != len(out):
        raise ConfigError("grid.methods has repeated values")
    return tuple(out)


def _root(value: Any, base_dir: Path | None) -> Path:
    if value is None:
        return Path.cwd()
    root = Path(_string(value, "root")).expanduser()
    if not root.is_absolute():
        root = (base_dir or Path.cwd()) / root
    return root.resolve()


def _corpus(value: Any, where: str, root: Path) -> CorpusSpec:
    table = _table(value, where)
    _no_unknown(table, {"path", "format", "corpus"}, where)
    path = Path(_string(_required(table, "path", where), f"{where}.path")).expanduser()
    path = (path if path.is_absolute() else root / path).resolve()
    fmt = table.get("format")
    if fmt is not None:
        from phiscrub.io import READERS

        fmt = _choice(fmt, f"{where}.format", tuple(sorted(READERS)))
    corpus = table.get("corpus")
    if corpus is not None:
        corpus = _string(corpus, f"{where}.corpus")
    return CorpusSpec(path, fmt, corpus)


def _dev(value: Any, root: Path) -> DevSpec:
    if value is None:
        return DevSpec()
    table = _table(value, "data.dev")
    _no_unknown(table, {"held_out", "path", "format", "corpus"}, "data.dev")
    if "held_out" in table:
        if set(table) != {"held_out"}:
            raise ConfigError("data.dev: give either held_out or a corpus (path, format, corpus), not both")
        share = _number(table["held_out"], "data.dev.held_out")
        if not 0.0 < share < 1.0:
            raise ConfigError(f"data.dev.held_out must be in (0, 1), got {table['held_out']!r}")
        return DevSpec(held_out=share)
    return DevSpec(corpus=_corpus(table, "data.dev", root))


def _overlaps(a: Path, b: Path) -> bool:
    return a == b or a.is_relative_to(b) or b.is_relative_to(a)


def _check_no_leak(train: CorpusSpec, dev: DevSpec, tests: dict[str, CorpusSpec]) -> None:
    """Test corpora must not share files with the train or dev corpus."""
    for name, spec in tests.items():
        if _overlaps(spec.path, train.path):
            raise ConfigError(f"data.test.{name}.path overlaps data.train.path: a test corpus cannot train")
        if dev.corpus is not None and _overlaps(spec.path, dev.corpus.path):
            raise ConfigError(f"data.test.{name}.path overlaps data.dev.path: never select on a test corpus")


def _augment(value: Any, labels: str) -> AugmentOptions:
    table = _table(value, "augment")
    _no_unknown(table, {"lang", "p_sr", "p_ri", "p_mr", "daga"}, "augment")
    from phiscrub.transform.fill import FILL_LANGS

    lang = _choice(table.get("lang", "auto"), "augment.lang", tuple(FILL_LANGS))
    probs: dict[str, float] = {}
    for key, default in (("p_sr", 0.1), ("p_ri", 0.1), ("p_mr", 0.5)):
        p = _number(table.get(key, default), f"augment.{key}")
        if not 0.0 <= p <= 1.0:
            raise ConfigError(f"augment.{key} must be in [0, 1], got {p}")
        probs[key] = p
    daga = dict(_table(table.get("daga", {}), "augment.daga"))
    if "granularity" in daga:
        raise ConfigError("augment.daga.granularity is set by the top-level labels key")
    _check_daga(daga, labels)
    return AugmentOptions(lang=lang, p_sr=probs["p_sr"], p_ri=probs["p_ri"], p_mr=probs["p_mr"], daga=daga)


def _check_daga(kwargs: dict[str, Any], labels: str) -> None:
    """Build a DagaAugmenter once so that a bad DAGA option fails before any training."""
    import inspect

    from phiscrub.augment.daga import DagaAugmenter

    params = set(inspect.signature(DagaAugmenter.__init__).parameters) - {"self", "granularity"}
    _no_unknown(kwargs, params, "augment.daga")
    try:
        DagaAugmenter(granularity=cast(Granularity, labels), **kwargs)
    except ConfigError as exc:
        raise ConfigError(f"augment.daga: {exc}") from None
    except TypeError as exc:
        raise ConfigError(f"augment.daga: bad value ({exc.__class__.__name__})") from None


def _train(value: Any, labels: str) -> TrainConfig:
    table = dict(_table(value, "train"))
    for key, owner in _GRID_OWNED_TRAIN_KEYS.items():
        if key in table:
            raise ConfigError(f"train.{key} is set by {owner}; remove it from [train]")
    known = set(TrainConfig.__dataclass_fields__)
    _no_unknown(table, known, "train")
    try:
        return TrainConfig.from_dict({**table, "granularity": labels})
    except ConfigError as exc:
        raise ConfigError(f"train: {exc}") from None
