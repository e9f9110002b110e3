"""One grid runner for every experiment driver: resume, crash-safe results, mean ± sd, tables.

A *grid* is a list of cells, each with a unique :attr:`GridCell.key` (a frozen dataclass of the
cell's parameters with a ``key`` property is the usual shape). :func:`run_grid` runs the cells that
are not finished yet, one after the other, and records each result the moment it is made, so a crash
or a Ctrl-C in the middle of a grid loses only the cell that was running; a rerun skips every cell
already recorded (``resume``). A cell's *fingerprint* (anything JSON-comparable: a hash of the
settings, the commands it runs) is recorded with it: a recorded cell whose fingerprint differs from
the one asked now is either run again (``stale="rerun"``) or refused (``stale="error"``, so that
results of different settings are never mixed in one table).

Results are kept by a :class:`ResultStore`:

* :class:`JsonlStore`: one JSON line per finished cell (``{"key", "fingerprint", "result"}``),
  appended and flushed to disk as each cell ends; a half-written last line (a crash while writing)
  is ignored, and the last line of a key wins (``resume=False`` appends the reruns);
* :class:`FolderStore`: one ``<root>/<key>/result.json`` per cell, each written whole or not at all
  (the layout of ``phiscrub experiment`` and ``scripts/crosslingual_experiments.py``).

:func:`summarize` groups results and gives the mean and sample standard deviation of each metric
(:class:`MeanSd`); :func:`markdown_table` and :func:`csv_table` write any table of strings.

The drivers: :func:`phiscrub.experiment.runner.run_experiment` (``phiscrub experiment``),
``scripts/crosslingual_experiments.py`` and ``scripts/synth_experiments.py``. Nothing here logs or
prints results or text: keys and counts only.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import statistics
import sys
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, Protocol, TypeVar

from phiscrub.errors import ConfigError

__all__ = [
    "FolderStore",
    "GridCell",
    "GridPlan",
    "GridReport",
    "JsonlStore",
    "MeanSd",
    "Record",
    "ResultStore",
    "Summary",
    "csv_table",
    "markdown_table",
    "mean_sd",
    "plan_grid",
    "run_grid",
    "summarize",
    "write_json",
]

logger = logging.getLogger(__name__)

#: A cell's result: a JSON-ready dict.
Result = dict[str, Any]
#: ``notify(event, key)``: ``skip`` (finished before), ``stale`` (recorded with another fingerprint,
#: run again), ``run`` (starting), ``done`` (recorded).
Notify = Callable[[str, str], None]
Stale = Literal["rerun", "error"]


class GridCell(Protocol):
    """What the runner needs of a cell: a key, unique in its grid (also a folder name for
    :class:`FolderStore`)."""

    @property
    def key(self) -> str:
        """The cell's unique key."""
        ...


C = TypeVar("C", bound=GridCell)
K = TypeVar("K", bound=Hashable)
R = TypeVar("R")


@dataclass(frozen=True)
class Record:
    """A finished cell as stored: its key, the fingerprint it was made with, its result."""

    key: str
    fingerprint: Any
    result: Result


class ResultStore(Protocol):
    """Where finished cells are kept."""

    def load(self, keys: Sequence[str]) -> dict[str, Record]:
        """The records of those of ``keys`` that are stored."""
        ...

    def save(self, record: Record) -> None:
        """Store one record durably before returning (a later crash must not lose it)."""
        ...

    def describe(self) -> str:
        """Where the records are (for messages)."""
        ...


def write_json(path: Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON whole or not at all (a crash never leaves a half-written file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


class JsonlStore:
    """Records as lines of one JSON Lines file, appended (and fsynced) as each cell finishes.

    Args:
        path: the results file (created with its folder on the first record).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def load(self, keys: Sequence[str]) -> dict[str, Record]:
        """Read the file; the last record of a key wins; a line that does not parse (a crash while
        it was written) is skipped with a warning naming its line number."""
        wanted = set(keys)
        found: dict[str, Record] = {}
        if not self.path.is_file():
            return found
        with self.path.open(encoding="utf-8") as fh:
            for number, line in enumerate(fh, start=1):
                record = self._parse(line, number)
                if record is not None and record.key in wanted:
                    found[record.key] = record
        return found

    def _parse(self, line: str, number: int) -> Record | None:
        if not line.strip():
            return None
        try:
            data = json.loads(line)
            return Record(str(data["key"]), data.get("fingerprint"), dict(data["result"]))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            logger.warning("%s line %d: not a complete record, ignored", self.path, number)
            return None

    def save(self, record: Record) -> None:
        """Append one line and flush it to disk."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps({"key": record.key, "fingerprint": record.fingerprint, "result": record.result})
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def describe(self) -> str:
        """The file's path."""
        return str(self.path)


class FolderStore:
    """Records as ``<root>/<key>/<filename>``, one JSON file per cell, each written atomically.

    The fingerprint is kept inside the result, under ``fingerprint_field``.

    Args:
        root: the folder holding one folder per cell.
        filename: the result file of a cell.
        fingerprint_field: the result key holding the fingerprint.
    """

    def __init__(
        self, root: str | Path, filename: str = "result.json", fingerprint_field: str = "fingerprint"
    ) -> None:
        self.root = Path(root)
        self.filename = filename
        self.field = fingerprint_field

    def path(self, key: str) -> Path:
        """The result file of cell ``key``."""
        return self.root / key / self.filename

    def load(self, keys: Sequence[str]) -> dict[str, Record]:
        """The readable result files of ``keys``; an unreadable one is skipped with a warning (the
        cell runs again)."""
        found: dict[str, Record] = {}
        for key in keys:
            path = self.path(key)
            if not path.is_file():
                continue
            try:
                result = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                logger.warning("cell %s: unreadable %s, running it again", key, self.filename)
                continue
            if isinstance(result, dict):
                found[key] = Record(key, result.get(self.field), result)
        return found

    def save(self, record: Record) -> None:
        """Write the result file (the fingerprint added under its field when the result lacks it)."""
        result = record.result
        if self.field not in result:
            result = {**result, self.field: record.fingerprint}
        write_json(self.path(record.key), result)

    def describe(self) -> str:
        """The root folder."""
        return str(self.root)


# ---------------------------------------------------------------------------------------------- run


@dataclass
class GridPlan(Generic[C]):
    """What a run of the grid would do.

    Args:
        done: the recorded results of finished cells, by key.
        todo: the cells to run, in grid order.
        stale: keys of recorded cells made with another fingerprint (in ``todo`` again).
    """

    done: dict[str, Result]
    todo: list[C]
    stale: list[str] = field(default_factory=list)


@dataclass
class GridReport(Generic[C]):
    """What :func:`run_grid` did.

    Args:
        cells: every cell of the grid, in grid order.
        results: the results of every finished cell (recorded before or run now), by key.
        ran: keys of the cells run now.
        skipped: keys of the cells finished before.
    """

    cells: list[C]
    results: dict[str, Result]
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def ordered(self) -> list[Result]:
        """The results of the finished cells, in grid order."""
        return [self.results[c.key] for c in self.cells if c.key in self.results]


def _as_store(store: ResultStore | str | Path) -> ResultStore:
    return JsonlStore(store) if isinstance(store, (str, Path)) else store


def _check_keys(cells: Sequence[GridCell]) -> None:
    keys = [c.key for c in cells]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise ConfigError(f"grid cell key {dup!r} is used by more than one cell")


def plan_grid(
    cells: Sequence[C],
    store: ResultStore | str | Path,
    *,
    resume: bool = True,
    fingerprint: Callable[[C], Any] | None = None,
    stale: Stale = "rerun",
    adopt: Callable[[C], Result | None] | None = None,
) -> GridPlan[C]:
    """Which cells are finished and which are to run (nothing is run or written).

    Args:
        cells: the grid.
        store: a :class:`ResultStore`, or the path of a :class:`JsonlStore` file.
        resume: False: every cell is to run.
        fingerprint: the fingerprint a cell's record must have to count as finished (None: any).
        stale: a recorded cell with another fingerprint is run again (``rerun``) or refused (``error``).
        adopt: for a cell with no record, a result made before the store existed (e.g. its output
            files are there), or None; an adopted cell counts as finished (:func:`run_grid` records it).

    Raises:
        ConfigError: two cells share a key, or (``stale="error"``) a cell was recorded with another
            fingerprint.
    """
    _check_keys(cells)
    plan: GridPlan[C] = GridPlan(done={}, todo=[])
    records = _as_store(store).load([c.key for c in cells]) if resume else {}
    for cell in cells:
        record = records.get(cell.key)
        wanted = fingerprint(cell) if fingerprint is not None else None
        if record is not None and fingerprint is not None and record.fingerprint != wanted:
            if stale == "error":
                raise ConfigError(
                    f"cell {cell.key} in {_as_store(store).describe()} was run with other settings; use "
                    "another output folder, or --no-resume to run every cell again"
                )
            plan.stale.append(cell.key)
            record = None
        if record is not None:
            plan.done[cell.key] = record.result
        elif resume and adopt is not None and (adopted := adopt(cell)) is not None:
            plan.done[cell.key] = adopted
        else:
            plan.todo.append(cell)
    return plan


def run_grid(
    cells: Sequence[C],
    run_cell: Callable[[C], Result],
    store: ResultStore | str | Path,
    *,
    resume: bool = True,
    fingerprint: Callable[[C], Any] | None = None,
    stale: Stale = "rerun",
    adopt: Callable[[C], Result | None] | None = None,
    select: Callable[[C], bool] | None = None,
    progress: bool = True,
    desc: str = "grid",
    notify: Notify | None = None,
) -> GridReport[C]:
    """Run every unfinished cell and record each result as soon as it is made.

    Args:
        cells: the grid, in run order (keys unique).
        run_cell: makes one cell's result (a JSON-ready dict); an exception stops the grid, the cells
            recorded before it stay recorded.
        store: a :class:`ResultStore`, or the path of a :class:`JsonlStore` file.
        resume: skip the cells already recorded (False: run every cell again).
        fingerprint: see :func:`plan_grid`; recorded with each result.
        stale: see :func:`plan_grid`.
        adopt: see :func:`plan_grid`; adopted results are recorded in the store.
        select: run only the unfinished cells it accepts (the others are left out of the run; their
            recorded results are still returned).
        progress: a tqdm bar of cells on stderr (counts only).
        desc: the bar's label.
        notify: called with each event and cell key (see :data:`Notify`), e.g. to print them.

    Returns:
        A :class:`GridReport`.

    Raises:
        ConfigError: see :func:`plan_grid`.
    """
    from tqdm import tqdm

    target = _as_store(store)
    plan = plan_grid(cells, target, resume=resume, fingerprint=fingerprint, stale=stale, adopt=adopt)
    tell: Notify = notify or (lambda event, key: logger.info("cell %s: %s", key, event))
    report: GridReport[C] = GridReport(cells=list(cells), results=dict(plan.done))
    for cell in cells:
        if cell.key in plan.done:
            report.skipped.append(cell.key)
            tell("skip", cell.key)
        elif cell.key in plan.stale:
            tell("stale", cell.key)
    todo = [c for c in plan.todo if select is None or select(c)]
    _record_adopted(plan, target, cells, fingerprint)
    bar = tqdm(total=len(todo), desc=desc, unit="cell", file=sys.stderr, disable=not progress)
    try:
        for cell in todo:
            tell("run", cell.key)
            result = run_cell(cell)
            target.save(Record(cell.key, fingerprint(cell) if fingerprint else None, result))
            report.results[cell.key] = result
            report.ran.append(cell.key)
            tell("done", cell.key)
            bar.update(1)
    finally:
        bar.close()
    return report


def _record_adopted(
    plan: GridPlan[C], store: ResultStore, cells: Sequence[C], fingerprint: Callable[[C], Any] | None
) -> None:
    """Record the adopted results (those of ``plan.done`` the store does not hold yet)."""
    held = store.load(list(plan.done))
    for cell in cells:
        if cell.key in plan.done and cell.key not in held:
            store.save(Record(cell.key, fingerprint(cell) if fingerprint else None, plan.done[cell.key]))


# ---------------------------------------------------------------------------------------------- summaries


@dataclass(frozen=True)
class MeanSd:
    """The mean and sample standard deviation of some values.

    Args:
        mean: the mean.
        sd: the sample standard deviation (n - 1), None with a single value.
        n: how many values.
    """

    mean: float
    sd: float | None
    n: int

    def format(self, digits: int = 3, scale: float = 1.0) -> str:
        """``mean ± sd`` (the mean alone without an sd), each times ``scale``, to ``digits`` decimals."""
        mean = f"{scale * self.mean:.{digits}f}"
        return mean if self.sd is None else f"{mean} ± {scale * self.sd:.{digits}f}"


def mean_sd(values: Iterable[float]) -> MeanSd:
    """:class:`MeanSd` of ``values``.

    Raises:
        ValueError: no values.
    """
    vals = [float(v) for v in values]
    if not vals:
        raise ValueError("mean of no values")
    return MeanSd(statistics.fmean(vals), statistics.stdev(vals) if len(vals) > 1 else None, len(vals))


@dataclass(frozen=True)
class Summary(Generic[K, R]):
    """One group of results: its key, its members (in input order) and each metric's :class:`MeanSd`."""

    key: K
    members: tuple[R, ...]
    stats: dict[str, MeanSd]


def summarize(
    results: Iterable[R], group_by: Callable[[R], K], metrics: Mapping[str, Callable[[R], float]]
) -> dict[K, Summary[K, R]]:
    """Group ``results`` by ``group_by`` (groups in first-seen order) and give each metric's mean ± sd.

    Args:
        results: cell results (any type).
        group_by: the group key of a result (e.g. the cell without its seed).
        metrics: metric name -> the value of a result.
    """
    groups: dict[K, list[R]] = {}
    for res in results:
        groups.setdefault(group_by(res), []).append(res)
    return {
        key: Summary(
            key, tuple(members), {name: mean_sd(get(r) for r in members) for name, get in metrics.items()}
        )
        for key, members in groups.items()
    }


# ---------------------------------------------------------------------------------------------- tables


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]], align: str | None = None) -> str:
    """A markdown table (no trailing newline).

    Args:
        header: the column titles.
        rows: the cells of each row, as text.
        align: one letter per column, ``l`` (``---``) or ``r`` (``---:``); None: all ``l``.
    """
    align = align or "l" * len(header)
    if len(align) != len(header):
        raise ValueError(f"align has {len(align)} letters for {len(header)} columns")
    rule = "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"
    lines = ["| " + " | ".join(header) + " |", rule]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def csv_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """The same table as CSV text (RFC 4180 quoting, ``\\n`` line ends)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()
