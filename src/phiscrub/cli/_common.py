"""Shared pieces of the CLI commands."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from tqdm import tqdm

from phiscrub.document import Document
from phiscrub.io.base import Problem

__all__ = ["CORPUS_OUT_FORMATS", "read_with_problems"]

#: Formats a labelled corpus can be written in by ``augment`` and ``synth`` (``--to``).
CORPUS_OUT_FORMATS: list[str] = ["jsonl", "brat", "i2b2", "conll", "csv", "parquet"]


def read_with_problems(
    path: Path, fmt: str | None, corpus: str | None = None, seed: int = 0, draws: int = 1
) -> tuple[list[Document], list[Problem], str]:
    """Read one corpus with a progress bar; print each reading problem (ids and offsets only).

    Returns:
        The documents, the problems, and the format actually used.
    """
    from phiscrub.io import detect_format, get_reader

    used = fmt or detect_format(path)
    opts: dict[str, object] = {"corpus": corpus, "seed": seed}
    if used == "placeholder":
        opts["draws"] = draws
    reader = get_reader(used, **opts)
    docs = list(tqdm(reader.read(path), desc="read", unit="doc", file=sys.stderr, delay=1.0))
    for problem in reader.problems:
        click.echo(f"problem: {problem}", err=True)
    return docs, list(reader.problems), used
