"""``phiscrub evaluate``: compare predicted and gold corpora (Kim et al.'s three F1 scores)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

__all__ = ["evaluate_cmd"]


@click.command("evaluate")
@click.option("--gold", required=True, type=click.Path(exists=True, path_type=Path), help="Gold corpus.")
@click.option("--pred", required=True, type=click.Path(exists=True, path_type=Path), help="Predicted corpus.")
@click.option(
    "--labels", type=click.Choice(["coarse", "fine", "phicon5"]), default="coarse", show_default=True
)
@click.option("--gold-format", default=None, help="Format of --gold (default: guess).")
@click.option("--pred-format", default=None, help="Format of --pred (default: guess).")
@click.option("--gold-corpus", default=None, help="Label mapping of the gold corpus (e.g. meddocan).")
@click.option("--pred-corpus", default=None, help="Label mapping of the predicted corpus.")
@click.option(
    "-o",
    "--output",
    "out",
    default=None,
    type=click.Path(path_type=Path),
    help="Report prefix: writes PREFIX.json and PREFIX.md (default: ./evaluation).",
)
def evaluate_cmd(
    gold: Path,
    pred: Path,
    labels: str,
    gold_format: str | None,
    pred_format: str | None,
    gold_corpus: str | None,
    pred_corpus: str | None,
    out: Path | None,
) -> None:
    """Binary token F1, token micro F1 and entity micro F1, plus per-label scores.

    Tokens come from the project tokenizer (phiscrub-word-v1, see phiscrub.text).
    """
    from phiscrub.evaluate.metrics import evaluate
    from phiscrub.evaluate.report import to_markdown, write_report
    from phiscrub.io import read_corpus

    gold_docs, gold_problems = read_corpus(gold, fmt=gold_format, corpus=gold_corpus)
    pred_docs, pred_problems = read_corpus(pred, fmt=pred_format, corpus=pred_corpus)
    for p in [*gold_problems, *pred_problems]:
        click.echo(f"problem: {p}", err=True)
    result = evaluate(gold_docs, pred_docs, granularity=labels)  # type: ignore[arg-type]
    config = {
        "gold": str(gold),
        "pred": str(pred),
        "labels": labels,
        "gold_format": gold_format,
        "pred_format": pred_format,
        "gold_corpus": gold_corpus,
        "pred_corpus": pred_corpus,
    }
    paths = write_report(result, out or Path("evaluation"), config)
    click.echo(to_markdown(result))
    click.echo(f"report written to {', '.join(str(p) for p in paths)}", err=True)
    if gold_problems or pred_problems:
        sys.exit(1)
