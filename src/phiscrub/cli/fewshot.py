"""``phiscrub fewshot-sample``: draw a K-sentence few-shot corpus covering every PHI label."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from phiscrub.cli._common import (
    corpus_option,
    draws_option,
    input_argument,
    input_format_option,
    labels_option,
    output_option,
    read_with_problems,
    seed_option,
)
from phiscrub.labels import Granularity

__all__ = ["fewshot_sample_cmd"]


@click.command("fewshot-sample")
@input_argument("corpus_path", metavar="CORPUS")
@click.option("-k", "k", required=True, type=int, help="Number of sentences to draw.")
@output_option("out", "Output JSONL file.")
@seed_option("Seed of the tie-breaks and the fill.")
@labels_option("Label granularity of the sample (coarse: the 7 PHI types; MEDDOCAN's OTHER becomes O).")
@input_format_option()
@corpus_option(help="Label mapping of the input (meddocan, wang2022, i2b2-2014 ...).")
@draws_option()
@click.option("--phi-only", is_flag=True, help="Fill only with sentences that hold PHI.")
def fewshot_sample_cmd(
    corpus_path: Path,
    k: int,
    out: Path,
    seed: int,
    labels: str,
    fmt: str | None,
    corpus: str | None,
    draws: int,
    phi_only: bool,
) -> None:
    """Pick K sentences of CORPUS so that every PHI label in it occurs at least once.

    Amin et al. (2022), Definition 1: a greedy cover of the labels first, then random sentences up
    to K, reproducible by --seed. Writes sentence-level documents (ids <doc>#s<n>) with their spans
    as JSONL, which `phiscrub train` reads. Only ids, labels and counts are printed.
    """
    from phiscrub.crosslingual.fewshot import fewshot_sample
    from phiscrub.io import get_writer

    docs, problems, used = read_with_problems(corpus_path, fmt, corpus, seed, draws)
    granularity: Granularity = labels  # type: ignore[assignment]  # click.Choice checked it
    sample = fewshot_sample(docs, k, seed=seed, granularity=granularity, phi_only=phi_only)
    get_writer("jsonl").write(sample.documents, out)
    counts = ", ".join(f"{lab}={sample.counts[lab]}" for lab in sample.labels) or "none"
    click.echo(
        f"read {len(docs)} documents ({used}), {sample.pool_size} sentences; wrote {len(sample.documents)} "
        f"sentences to {out} (cover: {len(sample.cover_ids)}; seed {seed}); entities: {counts}",
        err=True,
    )
    if problems:
        sys.exit(1)
