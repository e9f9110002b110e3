"""``phiscrub fewshot-sample``: draw a K-sentence few-shot corpus covering every PHI label."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from phiscrub.cli._common import read_with_problems
from phiscrub.labels import Granularity

__all__ = ["fewshot_sample_cmd"]


@click.command("fewshot-sample")
@click.argument("corpus_path", metavar="CORPUS", type=click.Path(exists=True, path_type=Path))
@click.option("-k", "k", required=True, type=int, help="Number of sentences to draw.")
@click.option(
    "-o", "--output", "out", required=True, type=click.Path(path_type=Path), help="Output JSONL file."
)
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the tie-breaks and the fill.")
@click.option(
    "--labels",
    type=click.Choice(["coarse", "fine", "phicon5"]),
    default="coarse",
    show_default=True,
    help="Label granularity of the sample (coarse: the 7 PHI types; MEDDOCAN's OTHER becomes O).",
)
@click.option("--format", "fmt", default=None, help="Input format (default: guess).")
@click.option(
    "--corpus", default=None, help="Label mapping of the input (meddocan, wang2022, i2b2-2014 ...)."
)
@click.option("--draws", default=1, show_default=True, help="Surrogate draws per note for placeholder input.")
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
