"""The ``synth`` run as an API: letters and settings in, synthetic letters and their statistics written.

:func:`run_synth` synthesizes every letter, writes the letters (and, when asked, the masked letters the
refiller saw) with the given writer, and the statistics next to the output
(:func:`~phiscrub.synth.config.stats_file_for`); the CLI only parses its options, reads the input,
calls it and prints the summary (counts only).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from phiscrub.document import Document
from phiscrub.io.base import Writer
from phiscrub.synth.config import SynthConfig, SynthStats, stats_file_for
from phiscrub.synth.pipeline import Synthesizer
from phiscrub.synth.refill import Refiller

__all__ = ["labelled_format", "run_synth"]


def labelled_format(fmt: str) -> bool | None:
    """Whether letters read with ``fmt`` come with gold PHI: never for ``txt``, always for the annotation
    formats, None (decided per letter, by its spans) for the record formats (``jsonl``, ``csv``,
    ``parquet``)."""
    return None if fmt in ("jsonl", "csv", "parquet") else fmt != "txt"


def run_synth(
    docs: Sequence[Document],
    config: SynthConfig,
    refiller: Refiller | None,
    writer: Writer,
    output: Path,
    *,
    masked_output: Path | None = None,
    labelled: bool | None = None,
    progress: bool = False,
) -> SynthStats:
    """Synthesize ``docs`` and write them to ``output`` (the masked letters to ``masked_output``).

    Args:
        docs: the letters.
        config: the synthesis settings.
        refiller: the language model (None: the default refiller).
        writer: the output format's writer.
        output: where the synthetic letters go; the statistics go next to it.
        masked_output: also write the masked letters there (the baseline of ``synth-eval --masked``).
        labelled: whether the letters come with gold PHI (see :func:`labelled_format`).
        progress: a progress bar on stderr (counts only).

    Returns:
        The run's statistics (also written as JSON).
    """
    synthesizer = Synthesizer(config, refiller)
    if masked_output is None:
        writer.write(synthesizer.synthesize_many(docs, labelled=labelled, progress=progress), output)
    else:
        pairs = list(synthesizer.synthesize_pairs(docs, labelled=labelled, progress=progress))
        writer.write((p[0] for p in pairs), output)
        writer.write((p[1] for p in pairs), masked_output)
    stats_file_for(output).write_text(
        json.dumps(synthesizer.stats.as_dict(), indent=2) + "\n", encoding="utf-8"
    )
    return synthesizer.stats
