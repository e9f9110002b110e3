"""``phiscrub convert``: move a labelled corpus between formats."""

from __future__ import annotations

from pathlib import Path

import click

from phiscrub.cli._common import (
    corpus_option,
    input_argument,
    input_format_option,
    labels_option,
    read_with_problems,
    seed_option,
)

__all__ = ["convert"]

FORMATS = ["brat", "i2b2", "conll", "jsonl", "txt", "placeholder"]


@click.command()
@input_argument(metavar="IN")
@click.argument("output_path", metavar="OUT", type=click.Path(path_type=Path))
@input_format_option("--from", "src_fmt", choices=FORMATS)
@click.option("--to", "dst_fmt", type=click.Choice([f for f in FORMATS if f != "placeholder"]), required=True)
@corpus_option()
@labels_option(
    "Labels written: native keeps every label as written in IN (unknown ones included); fine, "
    "coarse or phicon5 fold them (spans not PHI at that granularity are left out). Default: the "
    "labels as read (mapped to fine with --corpus).",
    default=None,
    native=True,
)
@seed_option("Seed for surrogate filling (placeholder input).")
def convert(
    input_path: Path,
    output_path: Path,
    src_fmt: str | None,
    dst_fmt: str,
    corpus: str | None,
    labels: str | None,
    seed: int,
) -> None:
    """Convert a corpus IN (file or folder) to OUT in another format.

    Problems (bad offsets, unknown labels, malformed files) are reported by document id and span id;
    the rest of the batch is converted.
    """
    from phiscrub.io import get_writer
    from phiscrub.labels import fold

    docs, problems, fmt = read_with_problems(
        input_path, src_fmt, "native" if labels == "native" else corpus, seed
    )
    if labels is not None and labels != "native":
        docs = [
            d.with_spans([s.with_label(f) for s in d.spans if (f := fold(s.label, labels)) is not None])  # type: ignore[arg-type]
            for d in docs
        ]
    get_writer(dst_fmt).write(docs, output_path)
    click.echo(
        f"converted {len(docs)} documents ({sum(len(d.spans) for d in docs)} spans) from {fmt} to {dst_fmt}; "
        f"problems: {len(problems)}",
        err=True,
    )
