"""De-identification metrics: binary token F1, token-level micro F1, entity-level micro F1, per label.

The three corpus-level scores of Kim et al. (2024, section 4.3), computed from gold and predicted
:class:`~phiscrub.document.Document` objects paired by document id:

* **binary** (``B``): every token is PHI or not, whatever its label (Dernoncourt et al., 2017).
* **token** (``T``): micro P/R/F1 over the PHI classes, ``O`` excluded (seqeval token mode /
  scikit-learn ``average="micro"`` with ``O`` left out of ``labels``). A predicted PHI token is a TP
  when its label equals the gold label, else an FP; a gold PHI token not predicted with its label is
  an FN. A token with the wrong PHI label is therefore both an FP and an FN.
* **entity** (``E``): exact match of ``(start, end, label)``, offsets taken after stripping
  surrounding whitespace from each span.

Tokens come from :func:`phiscrub.text.tokenize`; a token takes the label of the span that overlaps
it (any shared character). When several spans overlap one token the span covering more of the token
wins; ties go to the longer span, then the earlier start, then the label name (deterministic).

Labels are folded with :func:`phiscrub.labels.fold` before anything is counted; spans whose label
folds to ``None`` (``OTHER``, or AGE/PROFESSION under ``phicon5``) are dropped from both sides.

Zero division: a ratio ``0/0`` is 0.0, except when there is nothing to find *and* nothing
predicted (``tp == fp == fn == 0``), where precision, recall and F1 are all 1.0: a system that
correctly finds nothing in a corpus without PHI is perfect. Consequently a precision with no
prediction is 0.0 when there was something to find, and a recall with nothing to find is 0.0 when
something was predicted.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, cast, overload

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.labels import GRANULARITIES, Granularity, fold, is_native
from phiscrub.text import TOKENIZER_NAME, Token, tokenize

__all__ = ["PRF", "EvaluationResult", "LabelScores", "entities", "evaluate", "token_labels"]

_GRANULARITIES: tuple[str, ...] = GRANULARITIES


class AsDict:
    """Mixin of the result dataclasses: ``to_dict()`` gives the fields as a JSON-ready dict."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (nested dataclasses as dicts too)."""
        return asdict(cast(Any, self))


def share(num: float, den: float) -> float:
    """``num / den``, 0.0 when ``den`` is 0 (a rate over nothing)."""
    return num / den if den else 0.0


class Rate:
    """A read-only attribute of a counts dataclass: ``scale * num / den`` of two of its count fields,
    0.0 when the denominator is 0 (see :func:`share`). Declared without an annotation, so it is no
    dataclass field: ``rate = Rate("hits", "total")``.
    """

    def __init__(self, num: str, den: str, scale: float = 1.0) -> None:
        self.num = num
        self.den = den
        self.scale = scale

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Rate: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> float: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> Rate | float:
        if obj is None:
            return self
        return self.scale * share(getattr(obj, self.num), getattr(obj, self.den))


def index_documents(docs: Iterable[Document], side: str, validate: bool = False) -> dict[str, Document]:
    """Documents by id; a repeated id is an :class:`~phiscrub.errors.InputFormatError` naming the id
    and the ``side`` (``gold``, ``predicted``), never the text. ``validate``: check every span too."""
    out: dict[str, Document] = {}
    for doc in docs:
        if doc.id in out:
            raise InputFormatError(f"duplicate document id among {side} documents", doc_id=doc.id)
        if validate:
            doc.validate()
        out[doc.id] = doc
    return out


def _ratio(num: int, den: int, vacuous: bool) -> float:
    """``num / den``; ``0/0`` is 1.0 when ``vacuous`` (nothing to find, nothing predicted), else 0.0."""
    if den:
        return num / den
    return 1.0 if vacuous else 0.0


@dataclass(frozen=True)
class PRF(AsDict):
    """Precision, recall and F1 with the counts they come from.

    Build it with :meth:`from_counts` so the zero-division convention of this module applies.
    """

    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int

    @classmethod
    def from_counts(cls, tp: int, fp: int, fn: int) -> PRF:
        """Scores from true positives, false positives and false negatives.

        ``0/0`` is 0.0, except ``tp == fp == fn == 0`` which scores 1.0 everywhere.
        """
        vacuous = tp == 0 and fp == 0 and fn == 0
        precision = _ratio(tp, tp + fp, vacuous)
        recall = _ratio(tp, tp + fn, vacuous)
        if vacuous:
            f1 = 1.0
        elif precision + recall > 0:
            f1 = 2 * precision * recall / (precision + recall)
        else:
            f1 = 0.0
        return cls(precision, recall, f1, tp, fp, fn)


@dataclass(frozen=True)
class LabelScores(AsDict):
    """Scores of one (folded) label.

    Args:
        label: the label at the result's granularity.
        token: token-level P/R/F1 of this class (one-vs-rest).
        entity: exact-match entity P/R/F1 of this class.
        binary_recall: of the gold tokens labelled ``label``, the fraction predicted as any PHI.
        binary_precision: of the tokens predicted ``label``, the fraction that are gold PHI of any label.
        gold_tokens: number of gold tokens with this label.
        pred_tokens: number of predicted tokens with this label.
        gold_entities: number of gold entities with this label.
        pred_entities: number of predicted entities with this label.
    """

    label: str
    token: PRF
    entity: PRF
    binary_recall: float
    binary_precision: float
    gold_tokens: int
    pred_tokens: int
    gold_entities: int
    pred_entities: int


@dataclass(frozen=True)
class EvaluationResult:
    """Corpus-level evaluation of predicted against gold documents.

    Args:
        granularity: label granularity the labels were folded to.
        tokenizer: name of the tokenizer behind the token-level scores.
        n_docs: documents evaluated (union of gold and predicted ids).
        missing_pred_ids: gold documents without a prediction (scored as predicting nothing).
        extra_pred_ids: predicted documents without gold (scored as containing no PHI).
        binary: binary token-level scores (PHI vs not).
        token: token-level micro scores over PHI classes.
        entity: entity-level micro scores (exact span and label).
        per_label: scores per label seen in gold or predictions, sorted by label.
    """

    granularity: str
    tokenizer: str
    n_docs: int
    missing_pred_ids: tuple[str, ...]
    extra_pred_ids: tuple[str, ...]
    binary: PRF
    token: PRF
    entity: PRF
    per_label: dict[str, LabelScores] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (tuples become lists)."""
        return {
            "granularity": self.granularity,
            "tokenizer": self.tokenizer,
            "n_docs": self.n_docs,
            "missing_pred_ids": list(self.missing_pred_ids),
            "extra_pred_ids": list(self.extra_pred_ids),
            "binary": self.binary.to_dict(),
            "token": self.token.to_dict(),
            "entity": self.entity.to_dict(),
            "per_label": {lab: scores.to_dict() for lab, scores in self.per_label.items()},
        }


def _check_granularity(granularity: str) -> None:
    if granularity not in _GRANULARITIES and not is_native(granularity):
        raise ConfigError(f"unknown granularity {granularity!r}; use one of {list(_GRANULARITIES)}")


def _folded(spans: Iterable[Span], granularity: Granularity) -> list[Span]:
    """Spans relabelled to ``granularity``; spans folding to None (not PHI there) are dropped."""
    out: list[Span] = []
    for span in spans:
        label = fold(span.label, granularity)
        if label is not None:
            out.append(span if label == span.label else span.with_label(label))
    return out


def _token_labels(tokens: list[Token], spans: list[Span]) -> list[str | None]:
    """Label per token from already-folded ``spans`` (None = not PHI)."""
    starts = [t.start for t in tokens]
    labels: list[str | None] = [None] * len(tokens)
    # Best claim per token: (overlap, span length, -start, label) compared as a tuple; a higher
    # key wins. The label string only breaks exact ties, so the outcome never depends on span order.
    best: list[tuple[int, int, int, str] | None] = [None] * len(tokens)
    for span in spans:
        # Tokens overlapping [start, end): the first is the last token starting before `end`
        # scanned back while it still reaches past `start`.
        i = bisect.bisect_left(starts, span.end) - 1
        while i >= 0 and tokens[i].end > span.start:
            tok = tokens[i]
            overlap = min(tok.end, span.end) - max(tok.start, span.start)
            key = (overlap, span.end - span.start, -span.start, span.label)
            current = best[i]
            if current is None or key > current:
                best[i] = key
                labels[i] = span.label
            i -= 1
    return labels


def token_labels(doc: Document, granularity: Granularity = "coarse") -> list[str | None]:
    """The folded label of each token of ``doc`` (``None`` for non-PHI tokens).

    Args:
        doc: a document; its spans are folded to ``granularity`` first.
        granularity: ``fine``, ``coarse`` or ``phicon5``.

    Returns:
        One entry per token of :func:`phiscrub.text.tokenize` ``(doc.text)``.

    Raises:
        ConfigError: unknown granularity.
        LabelError: a span label outside every known label set.
    """
    _check_granularity(granularity)
    return _token_labels(tokenize(doc.text), _folded(doc.spans, granularity))


def _entities(text: str, spans: Iterable[Span]) -> set[tuple[int, int, str]]:
    """``(start, end, label)`` of each span after stripping whitespace; all-space spans vanish."""
    out: set[tuple[int, int, str]] = set()
    for span in spans:
        start, end = span.start, span.end
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            out.add((start, end, span.label))
    return out


def entities(doc: Document, granularity: Granularity = "coarse") -> set[tuple[int, int, str]]:
    """The entities of ``doc`` as compared by the entity-level metric.

    Args:
        doc: a document; its spans are folded to ``granularity`` first.
        granularity: ``fine``, ``coarse`` or ``phicon5``.

    Returns:
        A set of ``(start, end, label)`` with surrounding whitespace stripped from each span;
        duplicate spans count once.

    Raises:
        ConfigError: unknown granularity.
        LabelError: a span label outside every known label set.
    """
    _check_granularity(granularity)
    return _entities(doc.text, _folded(doc.spans, granularity))


@dataclass
class _Tally:
    """Mutable counters accumulated over documents (micro averaging sums these, never scores)."""

    binary: Counter[str] = field(default_factory=Counter)
    # Token level, per label: tp, fp, fn, gold, pred, and the two binary-per-label numerators.
    tok_tp: Counter[str] = field(default_factory=Counter)
    tok_fp: Counter[str] = field(default_factory=Counter)
    tok_fn: Counter[str] = field(default_factory=Counter)
    tok_gold: Counter[str] = field(default_factory=Counter)
    tok_pred: Counter[str] = field(default_factory=Counter)
    gold_found_as_phi: Counter[str] = field(default_factory=Counter)
    pred_on_gold_phi: Counter[str] = field(default_factory=Counter)
    ent_tp: Counter[str] = field(default_factory=Counter)
    ent_gold: Counter[str] = field(default_factory=Counter)
    ent_pred: Counter[str] = field(default_factory=Counter)

    def add(self, text: str, gold_spans: list[Span], pred_spans: list[Span]) -> None:
        # One tokenization serves both sides: the texts are identical by contract.
        tokens = tokenize(text)
        gold_tok = _token_labels(tokens, gold_spans)
        pred_tok = _token_labels(tokens, pred_spans)
        for g, p in zip(gold_tok, pred_tok):
            if g is not None and p is not None:
                self.binary["tp"] += 1
            elif p is not None:
                self.binary["fp"] += 1
            elif g is not None:
                self.binary["fn"] += 1
            if g is not None:
                self.tok_gold[g] += 1
                if p is not None:
                    self.gold_found_as_phi[g] += 1
            if p is not None:
                self.tok_pred[p] += 1
                if g is not None:
                    self.pred_on_gold_phi[p] += 1
            if p is not None and p == g:
                self.tok_tp[p] += 1
            else:
                if p is not None:
                    self.tok_fp[p] += 1
                if g is not None:
                    self.tok_fn[g] += 1
        gold_ent = _entities(text, gold_spans)
        pred_ent = _entities(text, pred_spans)
        self.ent_gold.update(lab for _, _, lab in gold_ent)
        self.ent_pred.update(lab for _, _, lab in pred_ent)
        self.ent_tp.update(lab for _, _, lab in gold_ent & pred_ent)

    def result(
        self,
        granularity: str,
        n_docs: int,
        missing: list[str],
        extra: list[str],
    ) -> EvaluationResult:
        labels = sorted(set(self.tok_gold) | set(self.tok_pred) | set(self.ent_gold) | set(self.ent_pred))
        per_label: dict[str, LabelScores] = {}
        for lab in labels:
            gold_t, pred_t = self.tok_gold[lab], self.tok_pred[lab]
            per_label[lab] = LabelScores(
                label=lab,
                token=PRF.from_counts(self.tok_tp[lab], self.tok_fp[lab], self.tok_fn[lab]),
                entity=PRF.from_counts(
                    self.ent_tp[lab],
                    self.ent_pred[lab] - self.ent_tp[lab],
                    self.ent_gold[lab] - self.ent_tp[lab],
                ),
                binary_recall=_ratio(self.gold_found_as_phi[lab], gold_t, vacuous=pred_t == 0),
                binary_precision=_ratio(self.pred_on_gold_phi[lab], pred_t, vacuous=gold_t == 0),
                gold_tokens=gold_t,
                pred_tokens=pred_t,
                gold_entities=self.ent_gold[lab],
                pred_entities=self.ent_pred[lab],
            )
        ent_tp = sum(self.ent_tp.values())
        return EvaluationResult(
            granularity=granularity,
            tokenizer=TOKENIZER_NAME,
            n_docs=n_docs,
            missing_pred_ids=tuple(missing),
            extra_pred_ids=tuple(extra),
            binary=PRF.from_counts(self.binary["tp"], self.binary["fp"], self.binary["fn"]),
            token=PRF.from_counts(
                sum(self.tok_tp.values()), sum(self.tok_fp.values()), sum(self.tok_fn.values())
            ),
            entity=PRF.from_counts(
                ent_tp, sum(self.ent_pred.values()) - ent_tp, sum(self.ent_gold.values()) - ent_tp
            ),
            per_label=per_label,
        )


def evaluate(
    gold: Iterable[Document],
    pred: Iterable[Document],
    granularity: Granularity = "coarse",
) -> EvaluationResult:
    """Score predicted documents against gold documents (micro-averaged over the whole corpus).

    Documents are paired by id. A gold document without a prediction counts as predicting no
    spans; a predicted document without gold counts as containing no PHI (all its spans are false
    positives). Both kinds of ids are listed in the result.

    Args:
        gold: reference documents.
        pred: system output; each paired document must have exactly the gold text.
        granularity: ``fine``, ``coarse`` or ``phicon5``; labels are folded to it first.

    Returns:
        An :class:`EvaluationResult` with binary, token and entity P/R/F1 and per-label scores.

    Raises:
        ConfigError: unknown granularity.
        InputFormatError: a paired document whose gold and predicted texts differ, or a document
            id repeated on one side (the message names the id, never the text).
        SpanOffsetError: a span outside its document's text.
        LabelError: a span label outside every known label set.
    """
    _check_granularity(granularity)
    # Predictions are indexed; gold streams past so only one side is held in memory.
    preds = index_documents(pred, "predicted", validate=True)
    tally = _Tally()
    seen: set[str] = set()
    missing: list[str] = []
    for gdoc in gold:
        if gdoc.id in seen:
            raise InputFormatError("duplicate document id among gold documents", doc_id=gdoc.id)
        seen.add(gdoc.id)
        gdoc.validate()
        pdoc = preds.pop(gdoc.id, None)
        if pdoc is None:
            missing.append(gdoc.id)
            pred_spans: list[Span] = []
        else:
            if pdoc.text != gdoc.text:
                raise InputFormatError(
                    "gold and predicted texts differ "
                    f"(lengths {len(gdoc.text)} and {len(pdoc.text)}); predictions must keep the text",
                    doc_id=gdoc.id,
                )
            pred_spans = _folded(pdoc.spans, granularity)
        tally.add(gdoc.text, _folded(gdoc.spans, granularity), pred_spans)
    extra = list(preds)
    for pdoc in preds.values():
        tally.add(pdoc.text, [], _folded(pdoc.spans, granularity))
    return tally.result(granularity, len(seen) + len(extra), missing, extra)
