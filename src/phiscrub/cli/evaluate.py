"""``phiscrub evaluate``: compare predicted and gold corpora (Kim et al.'s three F1 scores).

The command parses its options and calls :mod:`phiscrub.evaluate.run`; the reading, scoring and
report writing live there.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from phiscrub.cli._common import (
    corpus_option,
    existing_path_option,
    input_format_option,
    labels_option,
    output_option,
    policy_option,
)

if TYPE_CHECKING:
    from phiscrub.evaluate.run import CorpusRef
    from phiscrub.io.base import Problem

__all__ = ["evaluate_cmd"]

F = TypeVar("F", bound=Callable[..., Any])


def _png_option(name: str, help: str) -> Callable[[F], F]:
    """An optional PNG file to write."""
    return click.option(name, default=None, type=click.Path(dir_okay=False, path_type=Path), help=help)


def _choice_option(name: str, choices: Sequence[str], help: str) -> Callable[[F], F]:
    """A choice whose default is the first choice."""
    return click.option(
        name, type=click.Choice(list(choices)), default=choices[0], show_default=True, help=help
    )


@click.command("evaluate")
@existing_path_option("--gold", required=True, help="Gold corpus.")
@existing_path_option("--pred", required=True, help="Predicted corpus.")
@labels_option(
    "Label granularity scored; native: the labels as written in the files (unknown ones kept), "
    "per type, with --gold-corpus naming the corpus (default brat).",
    native=True,
)
@input_format_option("--gold-format", help="Format of --gold (default: guess).")
@input_format_option("--pred-format", help="Format of --pred (default: guess).")
@corpus_option("--gold-corpus", help="Label mapping of the gold corpus (e.g. meddocan).")
@corpus_option("--pred-corpus", help="Label mapping of the predicted corpus.")
@output_option(
    "out", "Report prefix: writes PREFIX.json and PREFIX.md (default: ./evaluation).", required=False
)
@existing_path_option(
    "--train",
    "train_path",
    help="(Few-shot) training corpus: adds per-label dev/train entity frequencies to the report.",
)
@input_format_option("--train-format", help="Format of --train (default: guess).")
@corpus_option("--train-corpus", help="Label mapping of the --train corpus.")
@_png_option(
    "--plot", "Write a per-label P/R/F1 bar chart with frequencies (PNG), as in Amin et al. 2022 Fig. 4."
)
@_choice_option("--plot-metric", ["entity", "token"], "Scores drawn by --plot.")
@policy_option(
    "Score only what is PHI under this policy: gold and predicted spans alike are filtered "
    "(docs/policy.md). Default: no filtering."
)
@_png_option(
    "--pr-curve",
    "Write binary token precision-recall over span-score thresholds (PNG, plus a .json of the points).",
)
@_choice_option(
    "--scheme",
    ["phiscrub", "meddocan", "i2b2"],
    "meddocan / i2b2: the shared task's official figures instead (NER (start, end, type) micro "
    "P/R/F1; meddocan adds spans strict, spans merged and leak), on the labels as written in the "
    "files (no corpus mapping, no folding). See docs/evaluation.md.",
)
@click.option(
    "--leaks",
    is_flag=True,
    help="Leak accounting: --pred is the redacted output (a `phiscrub redact` OUTDIR or any notes); "
    "reports per label the gold PHI that survives in it (residual rate, share of documents with a "
    "leak, worst leak kinds) as counts, labels, doc ids and offsets, never the strings. Writes "
    "PREFIX.json and PREFIX.md. See docs/reliability.md.",
)
@click.option(
    "--out-dir",
    "out_dir",
    default=None,
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write a folder for `phiscrub report`: evaluation.json, evaluation.md and documents.jsonl "
    "(per document the entity-level TP, FP and FN: offsets and labels, no text). Without -o, no "
    "./evaluation.* is written. See docs/report.md.",
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
    train_path: Path | None,
    train_format: str | None,
    train_corpus: str | None,
    plot: Path | None,
    plot_metric: str,
    policy: str | None,
    pr_curve: Path | None,
    scheme: str,
    leaks: bool = False,
    out_dir: Path | None = None,
) -> None:
    """Binary token F1, token micro F1 and entity micro F1, plus per-label scores.

    Tokens come from the project tokenizer (phiscrub-word-v1, see phiscrub.text). With --train,
    the report adds each label's entity frequency in the gold (dev) and training corpora; --plot
    draws the per-label scores with those frequencies. With --policy, spans that are not PHI under
    the policy (e.g. ages of 89 and under, states and countries under safe-harbor) are removed from
    the gold and the predictions before scoring.
    """
    from phiscrub.evaluate.report import to_markdown
    from phiscrub.evaluate.run import CorpusRef, ReportOutputs, run_evaluation, write_evaluation

    if out_dir is not None and (scheme != "phiscrub" or leaks):
        raise click.UsageError(
            "--out-dir goes with the phiscrub scores, not --scheme meddocan/i2b2 or --leaks"
        )
    gold_ref = CorpusRef(gold, gold_format, gold_corpus)
    pred_ref = CorpusRef(pred, pred_format, pred_corpus)
    if scheme != "phiscrub":
        _official(gold_ref, pred_ref, out, scheme)
        return
    if leaks:
        _leaks(gold_ref, pred_ref, labels, policy, out)
        return
    train = CorpusRef(train_path, train_format, train_corpus) if train_path is not None else None
    run = run_evaluation(gold_ref, pred_ref, labels, policy, train)
    _echo_problems(run.problems)
    outputs = ReportOutputs(
        prefix=out, out_dir=out_dir, plot=plot, plot_metric=plot_metric, pr_curve=pr_curve
    )
    paths = write_evaluation(run, outputs)
    click.echo(to_markdown(run.result, train_counts=run.train_counts))
    click.echo(f"report written to {', '.join(str(p) for p in paths)}", err=True)
    if run.problems:
        sys.exit(1)


def _echo_problems(problems: list[Problem]) -> None:
    for p in problems:
        click.echo(f"problem: {p}", err=True)


def _official(gold: CorpusRef, pred: CorpusRef, out: Path | None, scheme: str) -> None:
    """Official shared-task figures on the labels as written (no mapping, none dropped): PREFIX.json/.md."""
    from phiscrub.evaluate.run import run_official

    scores, (json_path, md_path), problems = run_official(gold, pred, scheme, out)
    _echo_problems(problems)
    click.echo(scores.to_markdown())
    click.echo(f"report written to {json_path}, {md_path}", err=True)
    if problems:
        sys.exit(1)


def _leaks(gold: CorpusRef, pred: CorpusRef, labels: str, policy: str | None, out: Path | None) -> None:
    """``--leaks``: what of the gold PHI survives in the redacted corpus ``pred`` (PREFIX.json/.md)."""
    from phiscrub.evaluate.run import run_leaks

    if labels == "native":
        raise click.UsageError("--leaks reports coarse, fine or phicon5 labels, not native")
    report, (json_path, md_path), problems = run_leaks(gold, pred, labels, policy, out)
    _echo_problems(problems)
    click.echo(report.to_markdown())
    click.echo(f"leak report written to {json_path}, {md_path} (doc ids and offsets of each leak)", err=True)
    if problems or report.missing:
        sys.exit(1)
