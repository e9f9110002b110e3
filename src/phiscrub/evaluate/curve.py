"""Precision-recall over the score threshold: points and a PNG.

Two ways to get the points, both binary token level (a token is PHI or not, any label; tokens
from :func:`phiscrub.text.tokenize`, a token is predicted when a span shares a character with it,
as in :mod:`phiscrub.evaluate.metrics`):

* :func:`threshold_points`: from predicted documents whose spans carry scores (e.g. ``phiscrub
  predict --threshold 0`` output). For threshold ``t`` the spans scoring ``>= t`` are kept. All
  thresholds come from one pass (a token is predicted at ``t`` when the best span over it scores
  ``>= t``).
* :func:`pipeline_points`: runs a :class:`~phiscrub.deid.Deidentifier` once
  (:meth:`~phiscrub.deid.Deidentifier.propose_many`) and applies each threshold the way the
  pipeline does (:meth:`~phiscrub.deid.Deidentifier.select`: threshold, policy, propagation,
  resolve). This is exactly what ``--threshold`` does.

Gold spans are filtered by the PHI policy first, when one is given (:mod:`phiscrub.policy`).
:func:`plot_pr_curve` draws the points with matplotlib.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from phiscrub.document import Document, Span
from phiscrub.errors import InputFormatError
from phiscrub.evaluate.metrics import AsDict, index_documents

if TYPE_CHECKING:
    from phiscrub.deid import Deidentifier

__all__ = [
    "DEFAULT_THRESHOLDS",
    "ThresholdPoint",
    "pipeline_points",
    "plot_pr_curve",
    "threshold_points",
]

#: Thresholds swept by default: 0.0, 0.05, ..., 0.95, 0.99.
DEFAULT_THRESHOLDS: tuple[float, ...] = (*(round(i * 0.05, 2) for i in range(20)), 0.99)


@dataclass(frozen=True)
class ThresholdPoint(AsDict):
    """Binary token scores at one threshold.

    Args:
        threshold: spans scoring below it were dropped.
        recall: gold PHI tokens predicted / gold PHI tokens.
        precision: predicted tokens that are gold PHI / predicted tokens (1.0 when nothing is
            predicted and nothing is to find, 0.0 when nothing is predicted but something is).
        fp_per_1000: false-positive tokens per 1,000 gold non-PHI tokens.
        tp: true-positive tokens.
        fp: false-positive tokens.
        fn: false-negative tokens.
    """

    threshold: float
    recall: float
    precision: float
    fp_per_1000: float
    tp: int
    fp: int
    fn: int


def _token_best(doc: Document, spans: Iterable[Span], starts: list[int], ends: list[int]) -> list[float]:
    """Per token, the highest score of a span sharing a character with it (-1.0: none)."""
    best = [-1.0] * len(starts)
    for span in spans:
        i = bisect.bisect_left(starts, span.end) - 1
        while i >= 0 and ends[i] > span.start:
            best[i] = max(best[i], span.score)
            i -= 1
    return best


def _gold_mask(doc: Document, starts: list[int], ends: list[int], policy: str | None) -> list[bool]:
    from phiscrub.labels import fold
    from phiscrub.policy import apply_policy

    spans = [s for s in doc.spans if fold(s.label, "fine") is not None]
    if policy is not None:
        spans = apply_policy(doc.text, spans, policy)
    return [b >= 0 for b in _token_best(doc, spans, starts, ends)]


def _count(rows: Sequence[tuple[list[bool], Sequence[float]]], t: float) -> tuple[int, int, int, int]:
    """(tp, fp, fn, gold non-PHI tokens) when tokens whose best span scores ``>= t`` are predicted."""
    tp = fp = fn = neg = 0
    for gold, best in rows:
        for g, b in zip(gold, best):
            hit = b >= 0 and b >= t
            if g:
                tp += hit
                fn += not hit
            else:
                neg += 1
                fp += hit
    return tp, fp, fn, neg


def _point(t: float, tp: int, fp: int, fn: int, neg: int) -> ThresholdPoint:
    vacuous = tp == fp == fn == 0
    recall = tp / (tp + fn) if tp + fn else (1.0 if vacuous else 0.0)
    precision = tp / (tp + fp) if tp + fp else (1.0 if vacuous else 0.0)
    return ThresholdPoint(float(t), recall, precision, 1000.0 * fp / neg if neg else 0.0, tp, fp, fn)


def threshold_points(
    gold_docs: Iterable[Document],
    pred_docs: Iterable[Document],
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
    policy: str | None = None,
) -> list[ThresholdPoint]:
    """Binary token recall and precision when predicted spans scoring below each threshold are dropped.

    Args:
        gold_docs: gold documents.
        pred_docs: predicted documents (paired by id; a missing one predicts nothing) whose spans
            carry scores.
        thresholds: the thresholds, in the order wanted.
        policy: PHI policy applied to the gold *and* predicted spans (None: no filtering).

    Raises:
        InputFormatError: duplicate ids, or a predicted document whose text differs from the gold.
    """
    from phiscrub.policy import apply_policy
    from phiscrub.text import tokenize

    preds = index_documents(pred_docs, "predicted")
    rows: list[tuple[list[bool], Sequence[float]]] = []
    for gold in index_documents(gold_docs, "gold").values():
        pred = preds.get(gold.id)
        if pred is not None and pred.text != gold.text:
            raise InputFormatError(f"document {gold.id!r}: predicted text differs from the gold text")
        tokens = tokenize(gold.text)
        starts, ends = [t.start for t in tokens], [t.end for t in tokens]
        spans = list(pred.spans) if pred is not None else []
        if policy is not None:
            spans = apply_policy(gold.text, spans, policy)
        rows.append((_gold_mask(gold, starts, ends, policy), _token_best(gold, spans, starts, ends)))
    return [_point(t, *_count(rows, t)) for t in thresholds]


def pipeline_points(
    deid: Deidentifier,
    gold_docs: Sequence[Document],
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
    batch_size: int = 16,
) -> list[ThresholdPoint]:
    """Binary token recall and precision of ``deid`` at each threshold (detectors run once).

    The gold is filtered by the policy ``deid`` applies to each document
    (:meth:`~phiscrub.deid.Deidentifier.policy_for`).

    Args:
        deid: the pipeline (its own threshold is ignored).
        gold_docs: gold documents; their text is what ``deid`` reads.
        thresholds: the thresholds, in the order wanted.
        batch_size: documents per detection batch.
    """
    from phiscrub.text import tokenize

    per_t: list[list[tuple[list[bool], list[float]]]] = [[] for _ in thresholds]
    for b in range(0, len(gold_docs), batch_size):
        batch = list(gold_docs[b : b + batch_size])
        for doc, proposals in zip(batch, deid.propose_many(batch)):
            tokens = tokenize(doc.text)
            starts, ends = [t.start for t in tokens], [t.end for t in tokens]
            gold = _gold_mask(doc, starts, ends, deid.policy_for(doc))
            for k, t in enumerate(thresholds):
                kept = deid.select(doc, proposals, threshold=t)
                best = _token_best(doc, kept, starts, ends)
                per_t[k].append((gold, [1.0 if v >= 0 else -1.0 for v in best]))
    return [_point(t, *_count(rows, 0.0)) for rows, t in zip(per_t, thresholds)]


def plot_pr_curve(
    points: Sequence[ThresholdPoint] | dict[str, Sequence[ThresholdPoint]],
    path: str | Path,
    title: str = "Precision-recall over the score threshold",
    mark: float | None = None,
) -> Path:
    """Draw precision against recall, one line per curve, thresholds annotated; write a PNG.

    Args:
        points: one curve, or curves by name (e.g. ``{"OOD test": [...], "dev": [...]}``).
        path: the PNG to write (folders are created).
        title: plot title.
        mark: a threshold to circle on each curve (e.g. the default), when it is among the points.

    Returns:
        ``path`` as a Path.
    """
    from phiscrub.evaluate.figure import agg_figure

    curves = points if isinstance(points, dict) else {"": points}
    fig = agg_figure("the precision-recall curve", figsize=(6.0, 4.5), dpi=120)
    ax = fig.add_subplot(1, 1, 1)
    for name, pts in curves.items():
        xs = [p.recall for p in pts]
        ys = [p.precision for p in pts]
        ax.plot(xs, ys, marker=".", label=name or None)
        for p in pts[:: max(1, len(pts) // 6)]:
            ax.annotate(
                f"{p.threshold:g}",
                (p.recall, p.precision),
                fontsize=7,
                xytext=(3, 3),
                textcoords="offset points",
            )
        for p in pts:
            if mark is not None and abs(p.threshold - mark) < 1e-9:
                ax.plot([p.recall], [p.precision], "o", mfc="none", mec="black", ms=10)
    ax.set_xlabel("binary token recall")
    ax.set_ylabel("binary token precision")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    if any(curves):
        ax.legend(loc="lower left")
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(out)
    return out
