"""De-identify a text column of an Apache Spark DataFrame (``pip install "phiscrub[spark]"``).

:func:`redact` adds a pandas UDF (Arrow batches) over the text, id and patient columns; every other
column stays in the JVM, untouched. Each Python worker process of each executor builds the
:class:`~phiscrub.deid.Deidentifier` (and loads the model) once, on its first batch, and keeps it
in a module-level cache keyed by the settings, so later tasks of the same worker reuse it (Spark
reuses Python workers by default, ``spark.python.worker.reuse``). Notes are redacted exactly as
``phiscrub redact`` redacts them (the same detectors, batches retried one note at a time on
failure, the same surrogates for the same key, id and patient), so the same notes give the same
text and spans on Spark and on the command line.

Output: the text column holds the redacted text (or ``output_col`` does, the original column being
kept), ``spans_col`` an array of ``struct<start, end, label, source, score, out_start, out_end>``
(offsets into the original text; ``out_*`` into the redacted text, as in ``phi_spans.jsonl``) and
``error_col`` the exception type for a note that could not be redacted (its text is then empty,
never the original) or null. A null text stays null, with no spans.

Only the text column is redacted. Other free-text columns must be redacted too (call
:func:`redact` once per column) or dropped before the data leaves the secure environment.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from phiscrub.deid import Deidentifier
from phiscrub.document import Document
from phiscrub.engine_config import DeidConfig, from_options
from phiscrub.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd
    from pyspark.sql import DataFrame

__all__ = ["SPANS_TYPE", "SparkSettings", "redact"]

#: Spark SQL type of the spans column.
SPANS_TYPE = (
    "array<struct<start:int,end:int,label:string,source:string,score:double,out_start:int,out_end:int>>"
)
_RESULT_TYPE = f"struct<text:string,spans:{SPANS_TYPE},error:string>"

#: Deidentifiers built in this process, by settings (one per Python worker and configuration).
_CACHE: dict[SparkSettings, Deidentifier] = {}
#: How many times this process has built a Deidentifier, by settings (each at most once).
_LOADS: Counter[SparkSettings] = Counter()


@dataclass(frozen=True)
class SparkSettings:
    """What each executor needs to build the same :class:`~phiscrub.deid.Deidentifier` (picklable,
    hashable): one engine config plus the Spark run's own fields.

    ``engine.model`` is ``"default"``, None (rules only) or a folder path valid on the executors;
    ``shipped_model`` names a folder sent with ``SparkContext.addFile`` (looked up with
    ``SparkFiles.get``) instead.
    """

    engine: DeidConfig = field(default_factory=DeidConfig)
    key: str | bytes | None = field(default=None, repr=False)
    shipped_model: str | None = None
    batch_size: int = 16

    def build(self, model: str | None) -> Deidentifier:
        """An unloaded :class:`~phiscrub.deid.Deidentifier` with these settings and ``model``.

        Raises:
            ConfigError: a key that is blank, or missing in surrogate mode.
        """
        return Deidentifier.from_config(replace(self.engine, model=model), key=self.key)


def redact(
    df: DataFrame,
    *,
    text_col: str = "text",
    id_col: str | None = None,
    patient_col: str | None = None,
    config: DeidConfig | None = None,
    key: str | bytes | None = None,
    ship_model: bool = False,
    batch_size: int = 16,
    output_col: str | None = None,
    spans_col: str = "phi_spans",
    error_col: str = "phi_error",
    **options: Any,
) -> DataFrame:
    """De-identify ``text_col`` of ``df`` on the executors; lazy, like any transformation.

    The options are those of ``phiscrub redact`` (``docs/redact.md``): the same notes with the
    same options, ids and patients give the same redacted text and spans.

    Args:
        df: the notes.
        text_col: string column of note text.
        id_col: column of document ids (cast to string). Surrogate date shifts of notes without a
            patient are keyed by the id, so give it in surrogate mode; without it, ids are
            ``<partition>-<row>`` and depend on the partitioning.
        patient_col: column grouping notes of one patient (cast to string): consistent surrogate
            names and date shifts across them.
        config: the engine options (:class:`~phiscrub.engine_config.DeidConfig`); keywords in
            ``options`` override it.
        key: surrogate secret; None reads ``$PHISCRUB_KEY`` **on the executors**
            (``spark.executorEnv.PHISCRUB_KEY``). A key given here travels inside the task closure.
        ship_model: send the driver's ``model`` folder to every executor (``SparkContext.addFile``).
        batch_size: notes per model batch inside an Arrow batch.
        output_col: put the redacted text there and keep ``text_col``; default: replace ``text_col``.
        spans_col: name of the spans column (:data:`SPANS_TYPE`).
        error_col: name of the column with the exception type of a note that failed, else null.
        options: engine options by their :class:`~phiscrub.engine_config.DeidConfig` names, as in
            ``phiscrub redact`` (``mode``, ``labels``, ``policy``, ``model``, ``lexicon``,
            ``propagate``, ``resolve``, ``age_over_89``, ``lang``, ``threshold``, ``guard``,
            ``locale``, ...), and ``keep_ages`` (as ``--keep-ages``). ``model``: ``"default"`` (the
            model bundled with phiscrub, installed on every executor), None (rules only), or a
            model folder readable at this path on every executor (shared storage such as
            ``/dbfs/...``), or on the driver with ``ship_model=True``. ``site_lists``,
            ``registry``, ``allow_list``: paths readable on every executor (shared storage);
            notes find their registry patient through ``patient_col`` (``docs/site-lists.md``).

    Returns:
        ``df`` with the redacted text and the two new columns.

    Raises:
        ConfigError: an invalid option, a missing or non-string text column, a missing id or
            patient column, a model folder that does not exist, or an output column that exists.
    """
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType

    if batch_size < 1:
        raise ConfigError("batch_size must be at least 1")
    settings = SparkSettings(from_options(options, config), key=key, batch_size=batch_size)
    settings.build(None)  # validates the options on the driver, loads nothing
    _check_columns(df, text_col, id_col, patient_col, output_col, spans_col, error_col)
    if not isinstance(df.schema[text_col].dataType, StringType):
        raise ConfigError(
            f"the text column {text_col!r} holds {df.schema[text_col].dataType.simpleString()}, not strings"
        )
    settings = _place_model(df, settings, ship_model)

    udf = _redact_udf(settings)
    args = F.struct(
        F.col(text_col).alias("text"),
        (F.col(id_col).cast("string") if id_col else F.lit(None).cast("string")).alias("id"),
        (F.col(patient_col).cast("string") if patient_col else F.lit(None).cast("string")).alias("patient"),
    )
    tmp = "__phiscrub_result"
    out = df.withColumn(tmp, udf(args))
    target = output_col or text_col
    out = out.withColumn(target, F.col(f"{tmp}.text"))
    out = out.withColumn(spans_col, F.col(f"{tmp}.spans")).withColumn(error_col, F.col(f"{tmp}.error"))
    return out.drop(tmp)


def _check_columns(
    df: DataFrame,
    text_col: str,
    id_col: str | None,
    patient_col: str | None,
    output_col: str | None,
    spans_col: str,
    error_col: str,
) -> None:
    names = df.columns
    for col, what in ((text_col, "text_col"), (id_col, "id_col"), (patient_col, "patient_col")):
        if col is not None and col not in names:
            raise ConfigError(f"no column {col!r} ({what}) in the DataFrame ({len(names)} columns)")
    for col in (output_col, spans_col, error_col):
        if col is not None and col in names:
            raise ConfigError(f"the output column {col!r} exists already; choose another name")


def _place_model(df: DataFrame, settings: SparkSettings, ship: bool) -> SparkSettings:
    """Check the model option on the driver; ship a local folder to the executors if asked."""
    model = settings.engine.model
    if model is None or model == "default":
        if ship:
            raise ConfigError("ship_model=True needs a model folder, not 'default' or None")
        return settings
    folder = Path(model)
    if ship:
        if not folder.is_dir():
            raise ConfigError(f"model folder {folder} does not exist on the driver")
        df.sparkSession.sparkContext.addFile(str(folder.resolve()), recursive=True)
        return replace(
            settings, engine=replace(settings.engine, model=None), shipped_model=folder.resolve().name
        )
    return settings


def _redact_udf(settings: SparkSettings) -> Any:
    """The pandas UDF (iterator of struct batches -> iterator of result batches) for ``settings``."""
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    def run(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        return redact_batches(settings, batches)

    # pyspark reads the hints to pick the UDF kind; as objects, since this module's are strings.
    run.__annotations__ = {"batches": Iterator[pd.DataFrame], "return": Iterator[pd.DataFrame]}
    return pandas_udf(run, _RESULT_TYPE)  # type: ignore[call-overload]


def deidentifier_for(settings: SparkSettings) -> Deidentifier:
    """The loaded :class:`~phiscrub.deid.Deidentifier` of ``settings`` in this process (built once).

    Threads: unless ``$PHISCRUB_THREADS`` is set, the model uses the task's CPUs
    (``spark.task.cpus``, 1 by default), as Spark runs one task per core.
    """
    deid = _CACHE.get(settings)
    if deid is None:
        if not os.environ.get("PHISCRUB_THREADS"):
            os.environ["PHISCRUB_THREADS"] = str(_task_cpus())
        model = settings.engine.model
        if settings.shipped_model is not None:
            from pyspark import SparkFiles

            model = SparkFiles.get(settings.shipped_model)
        deid = settings.build(model).load()
        _CACHE[settings] = deid
        _LOADS[settings] += 1
    return deid


def _task_cpus() -> int:
    try:
        from pyspark import TaskContext

        ctx = TaskContext.get()
        return max(1, int(ctx.cpus())) if ctx is not None else 1
    except Exception:  # noqa: BLE001 - outside a task, or an old pyspark: one thread
        return 1


@dataclass
class _Frame:
    """The output of one Arrow batch, filled in as its notes are redacted."""

    text: list[str | None]
    spans: list[list[dict[str, Any]] | None]
    error: list[str | None]
    waiting: int = 0
    #: Rows whose text is null: redacted as "" (as the CLI reads a null JSONL text), written null.
    nulls: set[int] = field(default_factory=set)


def redact_batches(settings: SparkSettings, batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """Redact Arrow batches of ``(text, id, patient)`` rows into ``(text, spans, error)`` rows.

    The notes are redacted in consecutive batches of ``settings.batch_size`` across Arrow batch
    boundaries, as ``phiscrub redact`` batches its input: a partition holding the CLI's input in
    order (or a run of whole CLI batches) is redacted in the very same batches. (The int8 model
    quantizes its activations per batch, so a note's model scores can depend, slightly, on the
    notes batched with it.) An Arrow batch's output is yielded once all its notes are done.
    """
    import pandas as pd

    deid = deidentifier_for(settings)
    partition = _partition_id()
    row = 0
    frames: list[_Frame] = []  # not yet yielded, in order
    pending: list[tuple[_Frame, int, Document]] = []
    for frame in batches:
        texts = frame["text"].tolist()
        ids = frame["id"].tolist()
        patients = frame["patient"].tolist()
        out = _Frame([None] * len(texts), [[] for _ in texts], [None] * len(texts))  # null note: no spans
        frames.append(out)
        for i, text in enumerate(texts):
            if not isinstance(text, str):  # null: None, or NaN with pandas' string dtype
                out.nulls.add(i)
                text = ""
            doc_id = ids[i] if isinstance(ids[i], str) and ids[i] != "" else f"{partition}-{row + i}"
            meta: dict[str, Any] = {"position": row + i}
            if isinstance(patients[i], str):
                meta["patient_id"] = patients[i]
            pending.append((out, i, Document(doc_id, text, (), meta)))
            out.waiting += 1
        row += len(texts)
        while len(pending) >= settings.batch_size:
            _redact_into(deid, pending[: settings.batch_size])
            del pending[: settings.batch_size]
        while frames and frames[0].waiting == 0:
            done = frames.pop(0)
            yield pd.DataFrame({"text": done.text, "spans": done.spans, "error": done.error})
    _redact_into(deid, pending)
    for done in frames:
        yield pd.DataFrame({"text": done.text, "spans": done.spans, "error": done.error})


def _redact_into(deid: Deidentifier, chunk: list[tuple[_Frame, int, Document]]) -> None:
    """Redact one batch of notes (retried one by one on failure) into their frames' outputs."""
    from phiscrub.runs.batches import redact_batch

    for (out, i, _), (_, red, error) in zip(chunk, redact_batch(deid, [d for _, _, d in chunk])):
        out.waiting -= 1
        if red is None:  # never the original text: written empty, with the exception type
            out.text[i], out.spans[i], out.error[i] = "", None, error or "Exception"
            continue
        out.text[i] = None if i in out.nulls and red.text == "" else red.text
        out.spans[i] = [
            {
                "start": s.start,
                "end": s.end,
                "label": s.label,
                "source": s.source,
                "score": float(s.score),
                "out_start": o.start,
                "out_end": o.end,
            }
            for s, o in zip(red.spans, red.result.spans)
        ]


def _partition_id() -> int:
    try:
        from pyspark import TaskContext

        ctx = TaskContext.get()
        return int(ctx.partitionId()) if ctx is not None else 0
    except Exception:  # noqa: BLE001 - outside a task
        return 0
