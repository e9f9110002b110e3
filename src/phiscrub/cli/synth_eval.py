"""``phiscrub synth-eval``: score synthetic letters against their originals (Ren et al., 2025)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from phiscrub.cli._common import (
    corpus_option,
    existing_path_option,
    input_argument,
    input_format_option,
    output_option,
    read_with_problems,
)

__all__ = ["synth_eval"]


@click.command("synth-eval")
@input_argument("original", metavar=None)
@input_argument("synthetic", metavar=None)
@existing_path_option(
    "--masked", help="Masked letters (the generator's input): scored against the originals as the baseline."
)
@output_option(
    "out",
    "Report folder: report.json and report.md are written there.",
    required=False,
    default=Path("synth-eval"),
    folder=True,
)
@existing_path_option(
    "--encoder",
    file_okay=False,
    help="Local Hugging Face encoder folder for BERTScore (default: bundled all-MiniLM-L6-v2).",
)
@click.option("--no-bertscore", is_flag=True, help="Skip the embedding similarity (no encoder is loaded).")
@input_format_option(help="Format of ORIGINAL (default: guess).")
@input_format_option("--synthetic-format", help="Format of SYNTHETIC (default: guess).")
@input_format_option("--masked-format", help="Format of --masked (default: guess).")
@corpus_option(help="Label mapping of the originals (e.g. meddocan).")
@existing_path_option(
    "--stats",
    dir_okay=False,
    help="Generator stats.json (default: stats.json in/next to SYNTHETIC, when present).",
)
@click.option(
    "--mask-pattern", default=None, help="Regular expression of mask tokens (default: [MASK], <mask>)."
)
@click.option(
    "--ngram", default=5, show_default=True, type=click.IntRange(1, 20), help="Privacy n-gram order."
)
@click.option(
    "--phi-model",
    default=None,
    help="Tagger model folder (or 'default') added to the rules when originals lack PHI spans.",
)
@click.option("--batch-size", default=16, show_default=True, type=click.IntRange(1, 1024))
@click.option(
    "--window", default=256, show_default=True, type=click.IntRange(8, 4096), help="Subwords per window."
)
def synth_eval(
    original: Path,
    synthetic: Path,
    masked: Path | None,
    out: Path,
    encoder: Path | None,
    no_bertscore: bool,
    fmt: str | None,
    synthetic_format: str | None,
    masked_format: str | None,
    corpus: str | None,
    stats: Path | None,
    mask_pattern: str | None,
    ngram: int,
    phi_model: str | None,
    batch_size: int,
    window: int,
) -> None:
    """Compare SYNTHETIC letters with their ORIGINAL letters: ROUGE, BERTScore, readability, entropy,
    invalid prediction rate, and how much PHI and how many 5-grams survive.

    Letters are paired by id; a synthetic id may carry a suffix (doc1#synth0 pairs with doc1).
    Prints a Markdown table of corpus averages; report.json adds per-letter values. Only ids and
    numbers are written, never letter text.
    """
    from phiscrub.synth.metrics import (
        CorpusSource,
        SynthEvalSettings,
        run_synth_eval,
        to_markdown,
        write_report,
    )

    orig_docs, orig_problems, orig_fmt = read_with_problems(original, fmt, corpus)
    syn_docs, syn_problems, syn_fmt = read_with_problems(synthetic, synthetic_format)
    masked_docs, masked_src = None, None
    masked_problems: list[object] = []
    if masked is not None:
        masked_docs, problems, masked_fmt = read_with_problems(masked, masked_format)
        masked_problems, masked_src = list(problems), CorpusSource(masked, masked_fmt)
    settings = SynthEvalSettings(
        corpus=corpus, stats=stats, mask_pattern=mask_pattern, ngram=ngram, phi_model=phi_model,
        bertscore=not no_bertscore, encoder=encoder, batch_size=batch_size, window=window,
    )  # fmt: skip
    sources = (CorpusSource(original, orig_fmt), CorpusSource(synthetic, syn_fmt), masked_src)
    report = run_synth_eval(orig_docs, syn_docs, masked_docs, sources, settings)
    paths = write_report(report, out)
    click.echo(to_markdown(report))
    click.echo(f"report written to {', '.join(str(p) for p in paths)}", err=True)
    if orig_problems or syn_problems or masked_problems:
        sys.exit(1)
