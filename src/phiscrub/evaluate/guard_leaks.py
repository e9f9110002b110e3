"""Guard leaks: gold PHI that a pipeline found and its clinical-context guard then removed.

The clinical-context guard (:mod:`phiscrub.detect.clinical`) drops proposed spans that read as
measurements, scores or clinical vocabulary. When it is wrong it removes real PHI that the detectors
had found: the worst kind of miss, since nothing else was at fault. This module measures it.

A **guard leak** is a gold PHI token that the pipeline's selection covers without the guard and does
not cover with it. :func:`predict_with_and_without_guard` runs the detectors once per batch and the
selection twice (guard on, guard off; :meth:`phiscrub.deid.Deidentifier.select`), so both outputs
come from the same proposals; :func:`guard_leaks` counts, per gold label, the leaked tokens against
all gold tokens of that label and against the gold tokens found without the guard, plus what the
guard removed that was not PHI (the false positives it saves).

Tokens and labels are those of :mod:`phiscrub.evaluate.metrics` (:func:`~phiscrub.evaluate.metrics.
token_labels`; gold labels folded to the chosen granularity, predictions counting as PHI whatever
their label). Counts only: no text.

Example:
    >>> from phiscrub.document import Document, Span
    >>> gold = [Document("n", "WBC 16.0 10/1", (Span(9, 13, "DATE"),))]
    >>> without = [Document("n", "WBC 16.0 10/1", (Span(9, 13, "DATE"),))]
    >>> report = guard_leaks(gold, [Document("n", "WBC 16.0 10/1")], without)
    >>> report.per_label["DATE"].leaked, report.per_label["DATE"].rate
    (3, 1.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from phiscrub.document import Document
from phiscrub.errors import InputFormatError
from phiscrub.evaluate.metrics import Rate, index_documents, token_labels
from phiscrub.labels import Granularity
from phiscrub.text import tokenize

if TYPE_CHECKING:
    from phiscrub.deid import Deidentifier

__all__ = ["GuardLeakCounts", "GuardLeakReport", "guard_leaks", "predict_with_and_without_guard"]


@dataclass(frozen=True)
class GuardLeakCounts:
    """Guard leaks of one gold label (or of all labels together).

    Args:
        gold_tokens: gold PHI tokens of the label.
        found_without_guard: of those, tokens predicted as PHI (any label) with the guard off.
        leaked: of those, tokens not predicted as PHI with the guard on: removed by the guard.
    """

    gold_tokens: int
    found_without_guard: int
    leaked: int

    #: Leaked tokens over all gold tokens of the label (what the guard costs the label's recall).
    rate = Rate("leaked", "gold_tokens")
    #: Leaked tokens over the gold tokens found without the guard.
    rate_of_found = Rate("leaked", "found_without_guard")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict, counts and rates."""
        out = asdict(self)
        out.update(rate=self.rate, rate_of_found=self.rate_of_found)
        return out


@dataclass(frozen=True)
class GuardLeakReport:
    """Guard leaks per gold label and in all, and the non-PHI tokens the guard removed.

    Args:
        per_label: per gold label (folded to the report's granularity), sorted by label.
        total: all labels together.
        removed_tokens: tokens predicted as PHI with the guard off and not with it (PHI or not).
        removed_non_phi: of those, tokens that are not gold PHI (false positives the guard saves).
        granularity: the granularity gold labels were folded to.
    """

    per_label: dict[str, GuardLeakCounts]
    total: GuardLeakCounts
    removed_tokens: int
    removed_non_phi: int
    granularity: str = field(default="coarse")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        return {
            "granularity": self.granularity,
            "total": self.total.to_dict(),
            "per_label": {label: c.to_dict() for label, c in self.per_label.items()},
            "removed_tokens": self.removed_tokens,
            "removed_non_phi": self.removed_non_phi,
        }


def _paired(doc: Document, index: dict[str, Document], side: str) -> list[str | None]:
    other = index.get(doc.id)
    if other is None:
        return [None] * len(tokenize(doc.text))
    if other.text != doc.text:
        raise InputFormatError(f"gold and {side} texts differ", doc_id=doc.id)
    return token_labels(other, "coarse")


def guard_leaks(
    gold: Iterable[Document],
    guarded: Iterable[Document],
    unguarded: Iterable[Document],
    granularity: Granularity = "coarse",
) -> GuardLeakReport:
    """Count the gold PHI tokens found without the guard and lost with it.

    Args:
        gold: reference documents.
        guarded: the pipeline's output with the guard on, paired with ``gold`` by id.
        unguarded: the same pipeline's output with the guard off, paired by id.
        granularity: folding of the gold labels (``coarse`` or ``fine``) for the per-label counts.

    Raises:
        InputFormatError: duplicate ids or a paired text that differs (messages name ids, never text).
    """
    on = index_documents(guarded, "predicted")
    off = index_documents(unguarded, "predicted")
    gold_n: Counter[str] = Counter()
    found: Counter[str] = Counter()
    leaked: Counter[str] = Counter()
    removed = removed_non_phi = 0
    for gdoc in gold:
        g_labels = token_labels(gdoc, granularity)
        with_guard = _paired(gdoc, on, "guarded")
        without = _paired(gdoc, off, "unguarded")
        for g, p_on, p_off in zip(g_labels, with_guard, without):
            lost = p_off is not None and p_on is None
            removed += lost
            if g is None:
                removed_non_phi += lost
                continue
            gold_n[g] += 1
            found[g] += p_off is not None
            leaked[g] += lost
    per_label = {
        label: GuardLeakCounts(gold_n[label], found[label], leaked[label]) for label in sorted(gold_n)
    }
    total = GuardLeakCounts(sum(gold_n.values()), sum(found.values()), sum(leaked.values()))
    return GuardLeakReport(per_label, total, removed, removed_non_phi, granularity)


def predict_with_and_without_guard(
    deid: Deidentifier, docs: Sequence[Document], batch_size: int = 16
) -> tuple[list[Document], list[Document]]:
    """The output of ``deid`` on ``docs`` with its guard on and off, from the same proposals.

    The detectors run once per batch (:meth:`~phiscrub.deid.Deidentifier.propose_many`); the
    selection runs with the guard as configured (its drops counted in ``deid.guard_counts``, as
    :meth:`~phiscrub.deid.Deidentifier.detect_many` does) and again with the guard off. Output
    documents carry the input's id and text and the selected spans, no metadata.

    Returns:
        ``(guarded, unguarded)``, in the order of ``docs``.
    """
    guarded: list[Document] = []
    unguarded: list[Document] = []
    for i in range(0, len(docs), batch_size):
        chunk = list(docs[i : i + batch_size])
        for doc, proposals in zip(chunk, deid.propose_many(chunk)):
            guarded.append(Document(doc.id, doc.text, tuple(deid.select(doc, proposals))))
            unguarded.append(Document(doc.id, doc.text, tuple(deid.select(doc, proposals, guard=False))))
    return guarded, unguarded
