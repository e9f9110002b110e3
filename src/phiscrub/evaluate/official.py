"""Shared-task scoring: the figures of the MEDDOCAN (CODALAB) and i2b2 2014 official scorers.

Reimplemented from the scorers' published definition (the MEDDOCAN script is based on the i2b2
2014 one; its code is not shipped here), so that ``phiscrub evaluate --scheme meddocan`` and the
official script agree (checked on MEDDOCAN dev with ``scripts/meddocan_official_parity.py``):

* **NER** (MEDDOCAN subtrack 1, i2b2 "strict"): a prediction is a true positive when a gold
  annotation of the same document has the same ``(start, end, type)``. Sets per document (a
  duplicated annotation counts once), counts summed over documents, micro precision, recall and
  F1 (0 where a denominator is 0).
* **Spans strict** (MEDDOCAN subtrack 2): the same on ``(start, end)``, ignoring the type.
* **Spans merged** (MEDDOCAN subtrack 2): in gold and predictions alike, sorted spans that follow
  one another are merged when only non-alphanumeric characters (:meth:`str.isalnum` false) lie
  between them. The true positives are the strict matches plus the matches of merged spans (one
  set); a strict prediction (gold span) that is not matched is no false positive (negative) when it
  lies inside a true positive. As the script: the gap is read between the *merged* span's end and
  the next span's start (an overlap or a nested span leaves nothing between, so it merges, and the
  merged span then ends where the nested one ends); each side's gaps are read in its own text; the
  script reads texts in Python's text mode, so ``\\r\\n`` and ``\\r`` count as one character there
  while the offsets count them as written (the gaps of notes with Windows line ends are read that
  way here too).
* **Leak** (MEDDOCAN subtrack 1): NER false negatives divided by the number of sentences. The
  official script counts the lines of sentence-split files it reads from a fixed folder (and
  prints NA without them, as on the distributed corpus); here a sentence is a non-empty line of
  the gold text, so this one figure has no official counterpart to agree with.

Only documents present in both gold and predictions are scored, as in the official script; for a
BRAT folder read with :func:`read_official` a document is present when its ``.ann`` is (the
script lists ``.ann`` files; a ``.txt`` alone is not scored).

Labels are compared as written (``--labels native``): no folding. Figures are not rounded; the
official scripts print 4 significant digits.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from phiscrub.document import Document
from phiscrub.errors import ConfigError

if TYPE_CHECKING:
    from phiscrub.io.base import PathLike, Problem

__all__ = ["OFFICIAL_SCHEMES", "PRF", "OfficialScores", "merge_spans", "official_scores", "read_official"]

Scheme = Literal["meddocan", "i2b2"]
OFFICIAL_SCHEMES: tuple[str, ...] = ("meddocan", "i2b2")


@dataclass
class PRF:
    """True positive, false positive and false negative counts with micro P/R/F1."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, gold: AbstractSet[object], pred: AbstractSet[object]) -> None:
        """Add one document's sets."""
        self.tp += len(gold & pred)
        self.fp += len(pred - gold)
        self.fn += len(gold - pred)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> dict[str, float | int]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }


@dataclass
class OfficialScores:
    """The figures of one scheme; ``per_type`` holds the NER counts of each type."""

    scheme: str
    ner: PRF = field(default_factory=PRF)
    spans_strict: PRF = field(default_factory=PRF)
    spans_merged: PRF = field(default_factory=PRF)
    sentences: int = 0
    per_type: dict[str, PRF] = field(default_factory=dict)

    @property
    def leak(self) -> float:
        """NER false negatives per gold sentence."""
        return self.ner.fn / self.sentences if self.sentences else 0.0

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"scheme": self.scheme, "ner": self.ner.to_dict()}
        if self.scheme == "meddocan":
            out["leak"] = self.leak
            out["spans_strict"] = self.spans_strict.to_dict()
            out["spans_merged"] = self.spans_merged.to_dict()
        out["per_type"] = {k: v.to_dict() for k, v in sorted(self.per_type.items())}
        return out

    def to_markdown(self) -> str:
        rows = [("NER (start, end, type)", self.ner)]
        if self.scheme == "meddocan":
            rows += [("Spans strict (start, end)", self.spans_strict), ("Spans merged", self.spans_merged)]
        lines = [
            f"## Official {self.scheme} scores",
            "",
            "| measure | P | R | F1 | TP | FP | FN |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, s in rows:
            lines.append(
                f"| {name} | {s.precision:.4f} | {s.recall:.4f} | {s.f1:.4f} | {s.tp} | {s.fp} | {s.fn} |"
            )
        if self.scheme == "meddocan":
            lines += ["", f"Leak (NER FN per gold sentence): {self.leak:.4f}"]
        lines += ["", "| type | P | R | F1 | gold |", "|---|---|---|---|---|"]
        for label, s in sorted(self.per_type.items()):
            lines.append(f"| {label} | {s.precision:.4f} | {s.recall:.4f} | {s.f1:.4f} | {s.tp + s.fn} |")
        return "\n".join(lines) + "\n"


def merge_spans(text: str, offsets: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
    """Merge sorted spans separated only by non-alphanumeric characters (MEDDOCAN "merged").

    As the official script: the text between the previous merged span's end and the next span's
    start decides (an overlap leaves nothing between, so it merges), and the merged span ends
    where the next span ends.
    """
    merged: list[tuple[int, int]] = []
    for start, end in sorted(offsets):
        if merged and not any(ch.isalnum() for ch in text[merged[-1][1] : start]):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return set(merged)


def _as_script_reads(text: str) -> str:
    """The text as the official script sees it: read in text mode, so line ends are one ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _merged_counts(
    gold_text: str, pred_text: str, gold: set[tuple[int, int]], pred: set[tuple[int, int]]
) -> tuple[int, int, int]:
    """TP, FP, FN of MEDDOCAN's "merged" span measure for one document."""
    merged_gold = merge_spans(_as_script_reads(gold_text), gold)
    merged_pred = merge_spans(_as_script_reads(pred_text), pred)
    hits = (gold & pred) | (merged_gold & merged_pred)

    def inside(span: tuple[int, int]) -> bool:
        return any(span[0] >= h[0] and span[1] <= h[1] for h in hits)

    fp = {s for s in pred - gold if not inside(s)}
    fn = {s for s in gold - pred if not inside(s)}
    return len(hits), len(fp), len(fn)


def official_scores(
    gold: Sequence[Document], pred: Sequence[Document], scheme: str = "meddocan"
) -> OfficialScores:
    """Score ``pred`` against ``gold`` as the official script of ``scheme`` does.

    Documents are matched by id; only those in both are scored (as the official script does).

    Raises:
        ConfigError: unknown scheme.
    """
    if scheme not in OFFICIAL_SCHEMES:
        raise ConfigError(f"unknown scoring scheme {scheme!r}; known: {list(OFFICIAL_SCHEMES)}")
    by_id = {d.id: d for d in pred}
    scores = OfficialScores(scheme)
    for doc in gold:
        sys_doc = by_id.get(doc.id)
        if sys_doc is None:
            continue
        g_ner = {(s.start, s.end, s.label) for s in doc.spans}
        p_ner = {(s.start, s.end, s.label) for s in sys_doc.spans}
        scores.ner.add(g_ner, p_ner)
        for label in {t[2] for t in g_ner | p_ner}:
            scores.per_type.setdefault(label, PRF()).add(
                {t for t in g_ner if t[2] == label},
                {t for t in p_ner if t[2] == label},
            )
        g_spans = {(s, e) for s, e, _ in g_ner}
        p_spans = {(s, e) for s, e, _ in p_ner}
        scores.spans_strict.add(g_spans, p_spans)
        tp, fp, fn = _merged_counts(doc.text, sys_doc.text, g_spans, p_spans)
        scores.spans_merged.tp += tp
        scores.spans_merged.fp += fp
        scores.spans_merged.fn += fn
        scores.sentences += sum(1 for line in doc.text.splitlines() if line.strip())
    return scores


def read_official(path: PathLike, fmt: str | None = None) -> tuple[list[Document], list[Problem]]:
    """Read a corpus for official scoring: labels as written, and the documents the script sees.

    Every label is kept as written (``corpus="native"``). In a BRAT folder only the documents
    with an ``.ann`` file are returned: the official script lists ``.ann`` files, so a ``.txt``
    alone (a document the system left without an annotation file) is not scored, whereas an empty
    ``.ann`` is a scored document without annotations.

    Raises:
        ConfigError: unknown format.
        InputFormatError: the path is missing or its format cannot be detected.
    """
    from phiscrub.io import detect_format, read_corpus

    fmt = fmt or detect_format(path)
    docs, problems = read_corpus(path, fmt=fmt, corpus="native")
    root = Path(path)
    if fmt == "brat" and root.is_dir():
        docs = [d for d in docs if (root / (d.id + ".ann")).is_file()]
    return docs, problems
