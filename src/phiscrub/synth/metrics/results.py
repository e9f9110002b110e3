"""Per-letter comparisons and the corpus report (:func:`evaluate_synthetic`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.synth.metrics.embedding import EmbeddingScorer
from phiscrub.synth.metrics.entropy import text_entropy
from phiscrub.synth.metrics.invalid import InvalidCounts
from phiscrub.synth.metrics.matching import Matching, match_documents
from phiscrub.synth.metrics.privacy import PrivacyCheck, phi_strings, privacy_check
from phiscrub.synth.metrics.readability import (
    Readability,
    readability,
)
from phiscrub.synth.metrics.rouge import Score, rouge_l, rouge_n
from phiscrub.synth.metrics.tokens import (
    DEFAULT_MASK_PATTERN,
    _mask_re,
    word_tokens,
)
from phiscrub.text import TOKENIZER_NAME

__all__ = ["Comparison", "LetterResult", "SynthReport", "compare", "evaluate_synthetic"]


# -- per-letter and corpus results ----------------------------------------------------------------
@dataclass(frozen=True)
class Comparison:
    """One letter (synthetic or masked) scored against its original.

    Args:
        rouge1: ROUGE-1.
        rouge2: ROUGE-2.
        rougeL: ROUGE-L.
        bertscore: embedding similarity, None when not computed.
        privacy: what of the original survives in the letter.
    """

    rouge1: Score
    rouge2: Score
    rougeL: Score
    bertscore: Score | None
    privacy: PrivacyCheck


def compare(
    candidate: str,
    original: str,
    phi: Sequence[str],
    bertscore: Score | None = None,
    n: int = 5,
    mask_pattern: str | None = DEFAULT_MASK_PATTERN,
) -> Comparison:
    """ROUGE and privacy scores of ``candidate`` against ``original`` (BERTScore passed in, batched elsewhere).

    Args:
        candidate: the synthetic or masked letter.
        original: the original letter.
        phi: the original's PHI strings.
        bertscore: its embedding similarity, if computed.
        n: n-gram order of the privacy check.
        mask_pattern: mask tokens.
    """
    cand = word_tokens(candidate, mask_pattern)
    ref = word_tokens(original, mask_pattern)
    return Comparison(
        rouge1=rouge_n(cand, ref, 1),
        rouge2=rouge_n(cand, ref, 2),
        rougeL=rouge_l(cand, ref),
        bertscore=bertscore,
        privacy=privacy_check(original, phi, candidate, n=n, mask_pattern=mask_pattern),
    )


@dataclass(frozen=True)
class LetterResult:
    """All scores of one synthetic letter.

    Args:
        synthetic_id: the synthetic letter's id.
        original_id: its original's id.
        masked_id: its masked version's id, if any.
        phi_source: ``gold`` (the original's spans) or ``detector``.
        synthetic: synthetic vs original.
        baseline: masked vs original, if a masked version exists.
        readability: per text kind (``original``, ``synthetic``, ``masked``).
        entropy: bits per token per text kind.
        invalid: the generator's invalid-prediction counts for this letter, if known.
    """

    synthetic_id: str
    original_id: str
    masked_id: str | None
    phi_source: str
    synthetic: Comparison
    baseline: Comparison | None
    readability: dict[str, Readability]
    entropy: dict[str, float]
    invalid: InvalidCounts | None = None


def _mean(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


@dataclass
class SynthReport:
    """Per-letter results, pairing counts and corpus averages of a synthetic corpus.

    Args:
        letters: one result per paired synthetic letter.
        matching: the pairing (ids only are reported).
        corpus_invalid: generator totals from ``stats.json``, used when no letter carries counts.
        config: settings to record (paths, encoder, ...).
    """

    letters: list[LetterResult]
    matching: Matching
    corpus_invalid: InvalidCounts | None = None
    config: dict[str, Any] = field(default_factory=dict)

    def invalid_counts(self) -> InvalidCounts | None:
        """Corpus counts: summed over letters that carry them, else the ``stats.json`` totals."""
        known = [r.invalid for r in self.letters if r.invalid is not None]
        if known:
            return InvalidCounts(sum(c.masked for c in known), sum(c.invalid for c in known))
        return self.corpus_invalid

    def averages(self) -> dict[str, dict[str, float | None]]:
        """Corpus means over letters: ``{"synthetic"|"masked"|"original": {metric: value}}``.

        ROUGE and BERTScore are F-measures (P and R under ``*_precision``/``*_recall`` for BERTScore)
        against the original; privacy shares are means of per-letter shares, and ``*_micro`` pools
        the counts.
        """
        out: dict[str, dict[str, float | None]] = {}
        for kind in ("synthetic", "masked"):
            comps = [r.synthetic if kind == "synthetic" else r.baseline for r in self.letters]
            got = [c for c in comps if c is not None]
            row: dict[str, float | None] = {}
            if got:
                row["rouge1"] = _mean(c.rouge1.fmeasure for c in got)
                row["rouge2"] = _mean(c.rouge2.fmeasure for c in got)
                row["rougeL"] = _mean(c.rougeL.fmeasure for c in got)
                for part in ("precision", "recall", "fmeasure"):
                    key = "bertscore" if part == "fmeasure" else f"bertscore_{part}"
                    row[key] = _mean(getattr(c.bertscore, part) if c.bertscore else None for c in got)
                row["phi_survival"] = _mean(c.privacy.phi_share for c in got)
                row["ngram_survival"] = _mean(c.privacy.ngram_share for c in got)
                phi_total = sum(c.privacy.phi_total for c in got)
                ng_total = sum(c.privacy.ngram_total for c in got)
                row["phi_survival_micro"] = (
                    sum(c.privacy.phi_survived for c in got) / phi_total if phi_total else None
                )
                row["ngram_survival_micro"] = (
                    sum(c.privacy.ngram_survived for c in got) / ng_total if ng_total else None
                )
            out[kind] = row
        for kind in ("synthetic", "masked", "original"):
            row = out.setdefault(kind, {})
            texts = [r for r in self.letters if kind in r.readability]
            if texts:
                for metric in ("smog", "flesch_reading_ease", "flesch_kincaid_grade"):
                    row[metric] = _mean(getattr(r.readability[kind], metric) for r in texts)
                row["entropy"] = _mean(r.entropy[kind] for r in texts)
        counts = self.invalid_counts()
        out["synthetic"]["invalid_rate"] = counts.rate if counts else None
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record: config, pairing ids and counts, corpus averages, per-letter values."""

        def comparison(c: Comparison | None) -> dict[str, Any] | None:
            if c is None:
                return None
            return {
                "rouge1": asdict(c.rouge1),
                "rouge2": asdict(c.rouge2),
                "rougeL": asdict(c.rougeL),
                "bertscore": asdict(c.bertscore) if c.bertscore else None,
                "privacy": {
                    **asdict(c.privacy),
                    "phi_share": c.privacy.phi_share,
                    "ngram_share": c.privacy.ngram_share,
                },
            }

        m = self.matching
        counts = self.invalid_counts()
        return {
            "config": self.config,
            "tokenizer": TOKENIZER_NAME,
            "pairs": len(self.letters),
            "matching": {
                "unmatched_synthetic": len(m.unmatched_synthetic),
                "originals_without_synthetic": len(m.originals_without_synthetic),
                "unmatched_masked": len(m.unmatched_masked),
                "originals_without_masked": len(m.originals_without_masked),
                "unmatched_synthetic_ids": list(m.unmatched_synthetic),
                "originals_without_synthetic_ids": list(m.originals_without_synthetic),
                "unmatched_masked_ids": list(m.unmatched_masked),
                "originals_without_masked_ids": list(m.originals_without_masked),
            },
            "invalid_predictions": asdict(counts) | {"rate": counts.rate} if counts else None,
            "averages": self.averages(),
            "letters": [
                {
                    "synthetic_id": r.synthetic_id,
                    "original_id": r.original_id,
                    "masked_id": r.masked_id,
                    "phi_source": r.phi_source,
                    "synthetic": comparison(r.synthetic),
                    "baseline": comparison(r.baseline),
                    "readability": {k: asdict(v) for k, v in r.readability.items()},
                    "entropy": dict(r.entropy),
                    "invalid": asdict(r.invalid) | {"rate": r.invalid.rate} if r.invalid else None,
                }
                for r in self.letters
            ],
        }


PhiDetector = Callable[[Sequence[Document]], list[list[Span]]]


def _default_detector(docs: Sequence[Document]) -> list[list[Span]]:
    from phiscrub.deid import Deidentifier

    return Deidentifier(mode="placeholder", model=None, policy="i2b2").detect_many(docs)


def evaluate_synthetic(
    originals: Sequence[Document],
    synthetic: Sequence[Document],
    masked: Sequence[Document] | None = None,
    *,
    scorer: EmbeddingScorer | None = None,
    phi_detector: PhiDetector | None = _default_detector,
    mask_pattern: str | None = DEFAULT_MASK_PATTERN,
    ngram: int = 5,
    stats: tuple[InvalidCounts | None, Mapping[str, InvalidCounts]] | None = None,
    config: Mapping[str, Any] | None = None,
    progress: bool = True,
) -> SynthReport:
    """Score every synthetic letter against its original and, when given, the masked baseline.

    Args:
        originals: the original letters (with gold PHI spans when available).
        synthetic: the synthetic letters.
        masked: the masked letters (generator inputs), for the baseline.
        scorer: embedding scorer for BERTScore; None skips it (scores reported as None).
        phi_detector: finds PHI in originals without spans (default: phiscrub's rules); None counts
            only gold spans.
        mask_pattern: regular expression of mask tokens.
        ngram: n-gram order of the privacy check.
        stats: generator counts ``(totals, per-document)`` from :func:`load_synth_stats`; a
            document's ``metadata["synth"]`` counts take precedence.
        config: settings recorded in the report.
        progress: show a progress bar (stderr) over the letters.

    Returns:
        The :class:`SynthReport`.
    """
    _mask_re(mask_pattern)  # fail early on a bad pattern
    matching = match_documents(originals, synthetic, masked)
    totals, per_doc = stats if stats is not None else (None, {})
    need = {o.id: o for o, _, _ in matching.pairs if not o.spans}
    detected: dict[str, list[Span]] = {}
    if need and phi_detector is not None:
        docs = list(need.values())
        detected = dict(zip(need, phi_detector(docs)))
    phi: dict[str, tuple[str, list[str]]] = {}
    for o, _, _ in matching.pairs:
        if o.id not in phi:
            source = "gold" if o.spans else "detector"
            phi[o.id] = (source, phi_strings(o, detected.get(o.id, []) if not o.spans else None))
    bert_syn: list[Score | None] = [None] * len(matching.pairs)
    bert_mask: list[Score | None] = [None] * len(matching.pairs)
    if scorer is not None:
        # Each letter's comparisons side by side, so the scorer can drop an original once done.
        cands: list[str] = []
        refs: list[str] = []
        slots: list[tuple[int, bool]] = []
        for i, (o, s, m) in enumerate(matching.pairs):
            for text, is_masked in ((s.text, False), *(((m.text, True),) if m is not None else ())):
                cands.append(text)
                refs.append(o.text)
                slots.append((i, is_masked))
        for (i, is_masked), sc in zip(slots, scorer.score(cands, refs)):
            (bert_mask if is_masked else bert_syn)[i] = sc
    from tqdm import tqdm

    letters: list[LetterResult] = []
    bar = tqdm(matching.pairs, desc="score", unit="letter", file=sys.stderr, disable=not progress, delay=1.0)
    for i, (o, s, m) in enumerate(bar):
        source, strings = phi[o.id]
        texts = {"original": o.text, "synthetic": s.text} | ({"masked": m.text} if m is not None else {})
        invalid = InvalidCounts.parse(s.metadata.get("synth")) or per_doc.get(s.id)
        letters.append(
            LetterResult(
                synthetic_id=s.id,
                original_id=o.id,
                masked_id=m.id if m is not None else None,
                phi_source=source,
                synthetic=compare(s.text, o.text, strings, bert_syn[i], ngram, mask_pattern),
                baseline=compare(m.text, o.text, strings, bert_mask[i], ngram, mask_pattern)
                if m is not None
                else None,
                readability={k: readability(t, mask_pattern) for k, t in texts.items()},
                entropy={k: text_entropy(t, mask_pattern) for k, t in texts.items()},
                invalid=invalid,
            )
        )
    return SynthReport(letters, matching, totals, dict(config or {}))
