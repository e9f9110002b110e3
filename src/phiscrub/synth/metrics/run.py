"""The ``synth-eval`` run as an API: settings in, :class:`~.results.SynthReport` out.

:func:`run_synth_eval` takes the three corpora (already read) and :class:`SynthEvalSettings`, finds the
generator's stats, builds the PHI detector and the BERTScore encoder, and records the resolved settings
in the report's ``config``; the CLI only reads the files, calls it and writes the report.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phiscrub.document import Document, Span
from phiscrub.synth.metrics.embedding import EmbeddingScorer
from phiscrub.synth.metrics.invalid import load_synth_stats, stats_path_for
from phiscrub.synth.metrics.results import SynthReport, evaluate_synthetic
from phiscrub.synth.metrics.tokens import DEFAULT_MASK_PATTERN

__all__ = ["CorpusSource", "SynthEvalSettings", "run_synth_eval"]


@dataclass(frozen=True)
class CorpusSource:
    """Where one corpus came from (recorded in the report, never read here).

    Args:
        path: the file or folder.
        fmt: the reader used.
    """

    path: Path
    fmt: str


@dataclass(frozen=True)
class SynthEvalSettings:
    """Settings of a ``synth-eval`` run.

    Args:
        corpus: label mapping of the originals.
        stats: the generator's stats.json; None: ``stats.json`` in/next to the synthetic corpus, when
            present.
        mask_pattern: regular expression of mask tokens; None: :data:`DEFAULT_MASK_PATTERN`.
        ngram: privacy n-gram order.
        phi_model: tagger model folder (or ``default``) added to the rules when originals lack PHI.
        bertscore: compute the embedding similarity.
        encoder: local encoder folder for it; None: the bundled all-MiniLM-L6-v2.
        batch_size: encoder batch size.
        window: subwords per encoder window.
    """

    corpus: str | None = None
    stats: Path | None = None
    mask_pattern: str | None = None
    ngram: int = 5
    phi_model: str | None = None
    bertscore: bool = True
    encoder: Path | None = None
    batch_size: int = 16
    window: int = 256


def run_synth_eval(
    originals: Sequence[Document],
    synthetic: Sequence[Document],
    masked: Sequence[Document] | None,
    sources: tuple[CorpusSource, CorpusSource, CorpusSource | None],
    settings: SynthEvalSettings,
) -> SynthReport:
    """Score ``synthetic`` (and the ``masked`` baseline) against ``originals``.

    Args:
        originals: the original letters.
        synthetic: the synthetic letters.
        masked: the masked letters, or None.
        sources: where the original, synthetic and masked corpora came from (for the report).
        settings: the run's settings.

    Returns:
        The report; its ``config`` holds the resolved settings and the seconds the scoring took.
    """
    started = time.perf_counter()
    original_src, synthetic_src, masked_src = sources
    pattern = settings.mask_pattern if settings.mask_pattern is not None else DEFAULT_MASK_PATTERN
    stats_file = settings.stats if settings.stats is not None else stats_path_for(synthetic_src.path)
    loaded = load_synth_stats(stats_file) if stats_file.is_file() else None
    phi_model = settings.phi_model

    def detector(docs: Sequence[Document]) -> list[list[Span]]:
        from phiscrub.deid import Deidentifier

        return Deidentifier(mode="placeholder", model=phi_model, policy="i2b2").detect_many(docs)

    scorer = None
    if settings.bertscore:
        scorer = EmbeddingScorer(
            settings.encoder, batch_size=settings.batch_size, window=settings.window, mask_pattern=pattern
        )
    config: dict[str, Any] = {
        "original": str(original_src.path),
        "synthetic": str(synthetic_src.path),
        "masked": str(masked_src.path) if masked_src is not None else None,
        "original_format": original_src.fmt,
        "synthetic_format": synthetic_src.fmt,
        "masked_format": masked_src.fmt if masked_src is not None else None,
        "corpus": settings.corpus,
        "stats": str(stats_file) if loaded is not None else None,
        "mask_pattern": pattern,
        "ngram": settings.ngram,
        "phi_detector": f"rules+{phi_model}" if phi_model else "rules",
        "encoder": str(scorer.encoder_path) if scorer is not None else None,
        "documents": {
            "original": len(originals),
            "synthetic": len(synthetic),
            "masked": len(masked) if masked is not None else None,
        },
    }
    report = evaluate_synthetic(
        originals, synthetic, masked, scorer=scorer, phi_detector=detector, mask_pattern=pattern,
        ngram=settings.ngram, stats=loaded, config=config,
    )  # fmt: skip
    if scorer is not None:
        report.config["bertscore"] = {
            "window": scorer.window,
            "batch_size": settings.batch_size,
            "layer": "last",
        }
        report.config["bertscore"] |= {"idf": False, "rescaled": False}
    report.config["seconds"] = round(time.perf_counter() - started, 2)
    return report
