"""``phiscrub evaluate`` as an API: read the corpora, score them, write the reports.

Three kinds of run, each a function the command line calls after parsing its options:

* :func:`run_evaluation` (the phiscrub scores: binary token, token micro and entity micro F1 with
  per-label scores) and :func:`write_evaluation` (``PREFIX.json``/``.md``, the ``--out-dir`` folder
  for ``phiscrub report``, the per-label plot and the precision-recall curve);
* :func:`run_official` (a shared task's official figures, ``--scheme meddocan|i2b2``);
* :func:`run_leaks` (``--leaks``: the gold PHI that survives in a redacted corpus).

Reading problems are returned, never raised, so a caller can report them and still write what was
read. Reports hold scores, counts, labels, document ids and offsets, never note text.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from phiscrub.document import Document
from phiscrub.errors import ConfigError

if TYPE_CHECKING:
    from phiscrub.evaluate.leaks import LeakReport
    from phiscrub.evaluate.metrics import EvaluationResult
    from phiscrub.evaluate.official import OfficialScores
    from phiscrub.io.base import Problem

__all__ = [
    "DEFAULT_PREFIX",
    "CorpusRef",
    "EvaluationRun",
    "ReportOutputs",
    "run_evaluation",
    "run_leaks",
    "run_official",
    "write_evaluation",
    "write_json_md",
]

#: The report prefix when none is given: ``./evaluation.json`` and ``./evaluation.md``.
DEFAULT_PREFIX = Path("evaluation")


@dataclass(frozen=True)
class CorpusRef:
    """A corpus on disk: its path, format (None: guessed) and label mapping (None: the format's)."""

    path: Path
    fmt: str | None = None
    corpus: str | None = None


@dataclass
class EvaluationRun:
    """A scored pair of corpora.

    Args:
        result: the scores.
        gold_docs: the gold documents (filtered by the policy, when one was given).
        pred_docs: the predicted documents (idem).
        labels: the granularity scored (``native`` resolved to the corpus's own).
        config: the settings recorded in the report.
        train_counts: entities per label in the training corpus, when one was given.
        problems: reading problems of every corpus read.
    """

    result: EvaluationResult
    gold_docs: list[Document]
    pred_docs: list[Document]
    labels: str
    config: dict[str, Any]
    train_counts: Counter[str] | None = None
    problems: list[Problem] = field(default_factory=list)


@dataclass(frozen=True)
class ReportOutputs:
    """Which files :func:`write_evaluation` writes besides nothing (every field optional).

    Args:
        prefix: ``PREFIX.json``/``PREFIX.md`` (None: ``./evaluation`` unless ``out_dir`` is given).
        out_dir: a folder for ``phiscrub report`` (``evaluation.json``, ``evaluation.md``,
            ``documents.jsonl``).
        plot: the per-label P/R/F1 bar chart (PNG).
        plot_metric: ``entity`` or ``token``: the scores the chart draws.
        pr_curve: the binary token precision-recall curve over span-score thresholds (PNG, plus a
            ``.json`` of the points next to it).
    """

    prefix: Path | None = None
    out_dir: Path | None = None
    plot: Path | None = None
    plot_metric: str = "entity"
    pr_curve: Path | None = None


def _filtered(docs: list[Document], policy: str | None) -> list[Document]:
    """The documents with only the spans that are PHI under ``policy`` (all of them without one)."""
    if policy is None:
        return docs
    from phiscrub.policy import apply_policy

    return [d.with_spans(apply_policy(d.text, d.spans, policy)) for d in docs]


def run_evaluation(
    gold: CorpusRef,
    pred: CorpusRef,
    labels: str = "coarse",
    policy: str | None = None,
    train: CorpusRef | None = None,
) -> EvaluationRun:
    """Read and score a predicted corpus against a gold one.

    Args:
        gold: the gold corpus.
        pred: the predicted corpus.
        labels: ``fine``, ``coarse``, ``phicon5`` or ``native`` (the labels as written in the files,
            per type of the gold corpus's mapping, ``brat`` by default; every corpus is then read
            with the ``native`` mapping).
        policy: score only what is PHI under this policy (gold and predicted spans alike).
        train: a (few-shot) training corpus whose per-label entity counts go into the report.

    Returns:
        An :class:`EvaluationRun`.
    """
    from phiscrub.evaluate.metrics import evaluate
    from phiscrub.evaluate.report import label_frequencies
    from phiscrub.io import read_corpus
    from phiscrub.labels import NATIVE_CORPORA, native_granularity

    native_corpus = None
    if labels == "native":
        native_corpus = gold.corpus if gold.corpus in NATIVE_CORPORA else "brat"
        gold, pred = CorpusRef(gold.path, gold.fmt, "native"), CorpusRef(pred.path, pred.fmt, "native")
        train = CorpusRef(train.path, train.fmt, "native") if train is not None else None
    gold_docs, problems = read_corpus(gold.path, fmt=gold.fmt, corpus=gold.corpus)
    pred_docs, pred_problems = read_corpus(pred.path, fmt=pred.fmt, corpus=pred.corpus)
    problems = [*problems, *pred_problems]
    if native_corpus is not None:
        labels = native_granularity(
            native_corpus, {s.label for d in [*gold_docs, *pred_docs] for s in d.spans}
        )
    train_counts: Counter[str] | None = None
    if train is not None:
        train_docs, train_problems = read_corpus(train.path, fmt=train.fmt, corpus=train.corpus)
        problems += train_problems
        train_counts = label_frequencies(train_docs, labels)  # type: ignore[arg-type]
    gold_docs, pred_docs = _filtered(gold_docs, policy), _filtered(pred_docs, policy)
    result = evaluate(gold_docs, pred_docs, granularity=labels)  # type: ignore[arg-type]
    return EvaluationRun(
        result=result,
        gold_docs=gold_docs,
        pred_docs=pred_docs,
        labels=labels,
        config=_config(gold, pred, labels, policy, train),
        train_counts=train_counts,
        problems=problems,
    )


def _config(
    gold: CorpusRef, pred: CorpusRef, labels: str, policy: str | None, train: CorpusRef | None
) -> dict[str, Any]:
    config: dict[str, Any] = {
        "gold": str(gold.path),
        "pred": str(pred.path),
        "labels": labels,
        "gold_format": gold.fmt,
        "pred_format": pred.fmt,
        "gold_corpus": gold.corpus,
        "pred_corpus": pred.corpus,
        "policy": policy,
    }
    if train is not None:
        config.update({"train": str(train.path), "train_format": train.fmt, "train_corpus": train.corpus})
    return config


def write_evaluation(run: EvaluationRun, outputs: ReportOutputs) -> list[Path]:
    """Write the reports of a run; return the paths written, in order.

    ``PREFIX.json``/``.md`` are written unless only ``outputs.out_dir`` is given.
    """
    from phiscrub.evaluate.report import plot_per_label, write_report

    paths: list[Path] = []
    if outputs.prefix is not None or outputs.out_dir is None:
        prefix = outputs.prefix or DEFAULT_PREFIX
        paths += write_report(run.result, prefix, run.config, run.train_counts)
    if outputs.out_dir is not None:
        from phiscrub.evaluate.details import write_details

        paths += write_report(run.result, outputs.out_dir / "evaluation", run.config, run.train_counts)
        paths.append(write_details(run.gold_docs, run.pred_docs, run.labels, outputs.out_dir))  # type: ignore[arg-type]
    if outputs.plot is not None:
        paths.append(plot_per_label(run.result, outputs.plot, run.train_counts, metric=outputs.plot_metric))
    if outputs.pr_curve is not None:
        paths += _write_pr_curve(run.gold_docs, run.pred_docs, outputs.pr_curve)
    return paths


def _write_pr_curve(gold_docs: list[Document], pred_docs: list[Document], png: Path) -> list[Path]:
    """Binary token P/R over span-score thresholds: a PNG and the points as JSON next to it."""
    from phiscrub.evaluate.curve import plot_pr_curve, threshold_points

    points = threshold_points(gold_docs, pred_docs)
    plot_pr_curve(points, png)
    data = png.with_suffix(".json")
    data.write_text(json.dumps([p.to_dict() for p in points], indent=2) + "\n", encoding="utf-8")
    return [png, data]


def write_json_md(prefix: Path | None, data: dict[str, Any], markdown: str) -> tuple[Path, Path]:
    """Write ``PREFIX.json`` (indented) and ``PREFIX.md``; ``prefix`` None: ``./evaluation``."""
    prefix = prefix or DEFAULT_PREFIX
    prefix.parent.mkdir(parents=True, exist_ok=True)
    json_path = prefix.with_name(prefix.name + ".json")
    md_path = prefix.with_name(prefix.name + ".md")
    json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    md_path.write_text(markdown, encoding="utf-8")
    return json_path, md_path


def run_official(
    gold: CorpusRef, pred: CorpusRef, scheme: str, prefix: Path | None = None
) -> tuple[OfficialScores, tuple[Path, Path], list[Problem]]:
    """A shared task's official figures on the labels as written (no mapping, none dropped).

    Args:
        gold: the gold corpus (its ``corpus`` is ignored: labels as written).
        pred: the predicted corpus (idem).
        scheme: ``meddocan`` or ``i2b2``.
        prefix: the report prefix (None: ``./evaluation``).

    Returns:
        The scores, the JSON and Markdown paths, the reading problems.
    """
    from phiscrub.evaluate.official import official_scores, read_official

    # labels as written, unknown ones too (the official scripts drop none); BRAT: .ann files only
    gold_docs, gold_problems = read_official(gold.path, gold.fmt)
    pred_docs, pred_problems = read_official(pred.path, pred.fmt)
    scores = official_scores(gold_docs, pred_docs, scheme)
    data = {"config": {"gold": str(gold.path), "pred": str(pred.path), "scheme": scheme}, **scores.to_dict()}
    paths = write_json_md(prefix, data, scores.to_markdown())
    return scores, paths, [*gold_problems, *pred_problems]


def run_leaks(
    gold: CorpusRef, redacted: CorpusRef, labels: str, policy: str | None = None, prefix: Path | None = None
) -> tuple[LeakReport, tuple[Path, Path], list[Problem]]:
    """What of the gold PHI survives in a redacted corpus (counts, labels, doc ids and offsets).

    Args:
        gold: the gold corpus.
        redacted: the redacted output (a ``phiscrub redact`` OUTDIR or any notes).
        labels: ``fine``, ``coarse`` or ``phicon5``.
        policy: count only the gold spans that are PHI under this policy.
        prefix: the report prefix (None: ``./evaluation``).

    Returns:
        The report, the JSON and Markdown paths, the reading problems.

    Raises:
        ConfigError: ``labels`` is ``native``.
    """
    from phiscrub.evaluate.leaks import find_leaks, read_redacted
    from phiscrub.io import read_corpus

    if labels == "native":
        raise ConfigError("--leaks reports coarse, fine or phicon5 labels, not native")
    gold_docs, gold_problems = read_corpus(gold.path, fmt=gold.fmt, corpus=gold.corpus)
    pred_docs, pred_problems = read_redacted(redacted.path, redacted.fmt)
    report = find_leaks(_filtered(gold_docs, policy), pred_docs, labels)  # type: ignore[arg-type]
    config = {
        "gold": str(gold.path),
        "pred": str(redacted.path),
        "labels": labels,
        "policy": policy,
        "leaks": True,
    }
    paths = write_json_md(prefix, {"config": config, **report.to_dict()}, report.to_markdown())
    return report, paths, [*gold_problems, *pred_problems]
