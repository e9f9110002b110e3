"""Note-level and burden figures that corpus-level F1 hides: leaking notes and false alarms per 1,000 tokens.

Two numbers say more about a release of real notes than a micro F1 does:

* **share of notes with any missed PHI**: a note leaks if at least one of its gold PHI tokens is not
  predicted as PHI (any label: binary view). Given over all notes and over the notes that hold PHI.
* **false positives per 1,000 non-PHI tokens**: predicted-PHI tokens that are not gold PHI, per
  thousand gold non-PHI tokens. Real notes are mostly non-PHI text, so this is the reader's burden
  of needless redactions, comparable across corpora of different PHI density.

Tokens and labels are those of :mod:`phiscrub.evaluate.metrics` (:func:`token_labels`, labels folded
to the chosen granularity; spans folding to nothing are dropped from both sides). Documents are
paired by id; a gold document without a prediction predicts nothing; predictions without gold are
an error here (a note-level share needs the gold note).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import InputFormatError
from phiscrub.evaluate.metrics import Rate, index_documents, token_labels
from phiscrub.labels import Granularity

__all__ = ["NoteLevelScores", "binary_recall_by_gold_label", "note_level_scores"]


@dataclass(frozen=True)
class NoteLevelScores:
    """Note-level leak shares and the false-positive burden of one corpus.

    Args:
        n_notes: gold notes scored.
        notes_with_phi: notes with at least one gold PHI token.
        notes_with_miss: notes with at least one gold PHI token not predicted as PHI.
        notes_with_false_positive: notes with at least one predicted PHI token that is not gold PHI.
        phi_tokens: gold PHI tokens.
        non_phi_tokens: gold non-PHI tokens.
        false_positive_tokens: predicted PHI tokens on gold non-PHI tokens.
        missed_tokens: gold PHI tokens not predicted as PHI.
    """

    n_notes: int
    notes_with_phi: int
    notes_with_miss: int
    notes_with_false_positive: int
    phi_tokens: int
    non_phi_tokens: int
    false_positive_tokens: int
    missed_tokens: int

    #: Share of all notes that leak at least one PHI token (0.0 for an empty corpus).
    missed_note_share = Rate("notes_with_miss", "n_notes")
    #: Share of the notes holding PHI that leak at least one PHI token (0.0 when none holds PHI).
    missed_phi_note_share = Rate("notes_with_miss", "notes_with_phi")
    #: False-positive tokens per 1,000 gold non-PHI tokens (0.0 when there is no non-PHI token).
    fp_per_1000 = Rate("false_positive_tokens", "non_phi_tokens", scale=1000.0)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict, counts and the derived shares."""
        out = asdict(self)
        out.update(
            missed_note_share=self.missed_note_share,
            missed_phi_note_share=self.missed_phi_note_share,
            fp_per_1000_non_phi=self.fp_per_1000,
        )
        return out


def note_level_scores(
    gold: Iterable[Document], pred: Iterable[Document], granularity: Granularity = "coarse"
) -> NoteLevelScores:
    """Count leaking notes and false-positive tokens of ``pred`` against ``gold``.

    Args:
        gold: reference documents.
        pred: system output, paired by id; each paired document keeps the gold text.
        granularity: label folding applied to both sides first (``fine``, ``coarse``, ``phicon5``).

    Raises:
        InputFormatError: duplicate ids, a prediction without gold, or a paired text that differs
            (messages name ids, never text).
        ConfigError: unknown granularity.
    """
    preds = index_documents(pred, "predicted")
    seen: set[str] = set()
    n = with_phi = with_miss = with_fp = phi = non_phi = fp = missed = 0
    for gdoc in gold:
        if gdoc.id in seen:
            raise InputFormatError("duplicate document id among gold documents", doc_id=gdoc.id)
        seen.add(gdoc.id)
        pdoc = preds.pop(gdoc.id, None)
        if pdoc is not None and pdoc.text != gdoc.text:
            raise InputFormatError("gold and predicted texts differ", doc_id=gdoc.id)
        g_labels = token_labels(gdoc, granularity)
        p_labels = token_labels(pdoc, granularity) if pdoc is not None else [None] * len(g_labels)
        doc_phi = doc_miss = doc_fp = 0
        for g, p in zip(g_labels, p_labels):
            if g is not None:
                doc_phi += 1
                doc_miss += p is None
            else:
                non_phi += 1
                doc_fp += p is not None
        n += 1
        phi += doc_phi
        missed += doc_miss
        fp += doc_fp
        with_phi += doc_phi > 0
        with_miss += doc_miss > 0
        with_fp += doc_fp > 0
    if preds:
        raise InputFormatError("predicted document without gold", doc_id=next(iter(preds)))
    return NoteLevelScores(n, with_phi, with_miss, with_fp, phi, non_phi, fp, missed)


def binary_recall_by_gold_label(
    gold: Iterable[Document], pred: Iterable[Document], granularity: Granularity = "fine"
) -> dict[str, tuple[int, int]]:
    """For each gold label, ``(tokens predicted as any PHI, gold tokens)``: which kinds of PHI leak.

    Gold labels are folded to ``granularity`` (``fine`` tells HOSPITAL from CITY); predictions count
    as PHI whatever their label (folded to ``coarse`` so that non-PHI labels such as OTHER drop out).

    Raises:
        InputFormatError: duplicate predicted ids or a paired text that differs.
        ConfigError: unknown granularity.
    """
    preds = index_documents(pred, "predicted")
    found: dict[str, int] = {}
    total: dict[str, int] = {}
    for gdoc in gold:
        pdoc = preds.get(gdoc.id)
        if pdoc is not None and pdoc.text != gdoc.text:
            raise InputFormatError("gold and predicted texts differ", doc_id=gdoc.id)
        g_labels = token_labels(gdoc, granularity)
        p_labels = token_labels(pdoc, "coarse") if pdoc is not None else [None] * len(g_labels)
        for g, p in zip(g_labels, p_labels):
            if g is None:
                continue
            total[g] = total.get(g, 0) + 1
            found[g] = found.get(g, 0) + (p is not None)
    return {label: (found[label], total[label]) for label in sorted(total)}
