"""``phiscrub evaluate``: compare predicted and gold corpora (Kim et al.'s three F1 scores)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

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
    from phiscrub.document import Document
    from phiscrub.io.base import Problem

__all__ = ["evaluate_cmd"]


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
@click.option(
    "--plot",
    default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a per-label P/R/F1 bar chart with frequencies (PNG), as in Amin et al. 2022 Fig. 4.",
)
@click.option(
    "--plot-metric",
    type=click.Choice(["entity", "token"]),
    default="entity",
    show_default=True,
    help="Scores drawn by --plot.",
)
@policy_option(
    "Score only what is PHI under this policy: gold and predicted spans alike are filtered "
    "(docs/policy.md). Default: no filtering."
)
@click.option(
    "--pr-curve",
    default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write binary token precision-recall over span-score thresholds (PNG, plus a .json of the points).",
)
@click.option(
    "--scheme",
    type=click.Choice(["phiscrub", "meddocan", "i2b2"]),
    default="phiscrub",
    show_default=True,
    help="meddocan / i2b2: the shared task's official figures instead (NER (start, end, type) micro "
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
    from phiscrub.evaluate.metrics import evaluate
    from phiscrub.evaluate.report import label_frequencies, plot_per_label, to_markdown, write_report
    from phiscrub.io import read_corpus
    from phiscrub.labels import NATIVE_CORPORA, native_granularity

    if out_dir is not None and (scheme != "phiscrub" or leaks):
        raise click.UsageError(
            "--out-dir goes with the phiscrub scores, not --scheme meddocan/i2b2 or --leaks"
        )
    if scheme != "phiscrub":
        _official(gold, pred, gold_format, pred_format, out, scheme)
        return
    if leaks:
        _leaks(gold, pred, gold_format, pred_format, gold_corpus, labels, policy, out)
        return
    native_corpus = None
    if labels == "native":
        native_corpus = gold_corpus if gold_corpus in NATIVE_CORPORA else "brat"
        gold_corpus = pred_corpus = train_corpus = "native"
    gold_docs, gold_problems = read_corpus(gold, fmt=gold_format, corpus=gold_corpus)
    pred_docs, pred_problems = read_corpus(pred, fmt=pred_format, corpus=pred_corpus)
    if native_corpus is not None:
        labels = native_granularity(
            native_corpus, {s.label for d in [*gold_docs, *pred_docs] for s in d.spans}
        )
    train_problems: list[Problem] = []
    train_counts: Counter[str] | None = None
    if train_path is not None:
        train_docs, train_problems = read_corpus(train_path, fmt=train_format, corpus=train_corpus)
        train_counts = label_frequencies(train_docs, labels)  # type: ignore[arg-type]
    for p in [*gold_problems, *pred_problems, *train_problems]:
        click.echo(f"problem: {p}", err=True)
    if policy is not None:
        from phiscrub.policy import apply_policy

        gold_docs = [d.with_spans(apply_policy(d.text, d.spans, policy)) for d in gold_docs]
        pred_docs = [d.with_spans(apply_policy(d.text, d.spans, policy)) for d in pred_docs]
    result = evaluate(gold_docs, pred_docs, granularity=labels)  # type: ignore[arg-type]
    config = {
        "gold": str(gold),
        "pred": str(pred),
        "labels": labels,
        "gold_format": gold_format,
        "pred_format": pred_format,
        "gold_corpus": gold_corpus,
        "pred_corpus": pred_corpus,
        "policy": policy,
    }
    if train_path is not None:
        config.update({"train": str(train_path), "train_format": train_format, "train_corpus": train_corpus})
    paths = (
        []
        if out is None and out_dir is not None
        else list(write_report(result, out or Path("evaluation"), config, train_counts))
    )
    if out_dir is not None:
        from phiscrub.evaluate.details import write_details

        paths += [*write_report(result, out_dir / "evaluation", config, train_counts)]
        paths.append(write_details(gold_docs, pred_docs, labels, out_dir))  # type: ignore[arg-type]
    if plot is not None:
        paths.append(plot_per_label(result, plot, train_counts, metric=plot_metric))
    if pr_curve is not None:
        paths += _write_pr_curve(gold_docs, pred_docs, pr_curve)
    click.echo(to_markdown(result, train_counts=train_counts))
    click.echo(f"report written to {', '.join(str(p) for p in paths)}", err=True)
    if gold_problems or pred_problems or train_problems:
        sys.exit(1)


def _official(
    gold: Path, pred: Path, gold_format: str | None, pred_format: str | None, out: Path | None, scheme: str
) -> None:
    """Official shared-task figures on the labels as written (no mapping, none dropped): PREFIX.json/.md."""
    import json

    from phiscrub.evaluate.official import official_scores, read_official

    # labels as written, unknown ones too (the official scripts drop none); BRAT: .ann files only
    gold_docs, gold_problems = read_official(gold, gold_format)
    pred_docs, pred_problems = read_official(pred, pred_format)
    for p in [*gold_problems, *pred_problems]:
        click.echo(f"problem: {p}", err=True)
    scores = official_scores(gold_docs, pred_docs, scheme)
    prefix = out or Path("evaluation")
    prefix.parent.mkdir(parents=True, exist_ok=True)
    data = {"config": {"gold": str(gold), "pred": str(pred), "scheme": scheme}, **scores.to_dict()}
    json_path = prefix.with_name(prefix.name + ".json")
    md_path = prefix.with_name(prefix.name + ".md")
    json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    md_path.write_text(scores.to_markdown(), encoding="utf-8")
    click.echo(scores.to_markdown())
    click.echo(f"report written to {json_path}, {md_path}", err=True)
    if gold_problems or pred_problems:
        sys.exit(1)


def _leaks(
    gold: Path,
    pred: Path,
    gold_format: str | None,
    pred_format: str | None,
    gold_corpus: str | None,
    labels: str,
    policy: str | None,
    out: Path | None,
) -> None:
    """``--leaks``: what of the gold PHI survives in the redacted corpus ``pred`` (PREFIX.json/.md)."""
    import json

    from phiscrub.evaluate.leaks import find_leaks, read_redacted
    from phiscrub.io import read_corpus

    if labels == "native":
        raise click.UsageError("--leaks reports coarse, fine or phicon5 labels, not native")
    gold_docs, gold_problems = read_corpus(gold, fmt=gold_format, corpus=gold_corpus)
    pred_docs, pred_problems = read_redacted(pred, pred_format)
    for p in [*gold_problems, *pred_problems]:
        click.echo(f"problem: {p}", err=True)
    if policy is not None:
        from phiscrub.policy import apply_policy

        gold_docs = [d.with_spans(apply_policy(d.text, d.spans, policy)) for d in gold_docs]
    report = find_leaks(gold_docs, pred_docs, labels)  # type: ignore[arg-type]
    prefix = out or Path("evaluation")
    prefix.parent.mkdir(parents=True, exist_ok=True)
    config = {"gold": str(gold), "pred": str(pred), "labels": labels, "policy": policy, "leaks": True}
    json_path = prefix.with_name(prefix.name + ".json")
    md_path = prefix.with_name(prefix.name + ".md")
    json_path.write_text(
        json.dumps({"config": config, **report.to_dict()}, indent=2) + "\n", encoding="utf-8"
    )
    md_path.write_text(report.to_markdown(), encoding="utf-8")
    click.echo(report.to_markdown())
    click.echo(f"leak report written to {json_path}, {md_path} (doc ids and offsets of each leak)", err=True)
    if gold_problems or pred_problems or report.missing:
        sys.exit(1)


def _write_pr_curve(gold_docs: list[Document], pred_docs: list[Document], png: Path) -> list[Path]:
    """Binary token P/R over span-score thresholds: a PNG and the points as JSON next to it."""
    import json

    from phiscrub.evaluate.curve import plot_pr_curve, threshold_points

    points = threshold_points(gold_docs, pred_docs)
    plot_pr_curve(points, png)
    data = png.with_suffix(".json")
    data.write_text(json.dumps([p.to_dict() for p in points], indent=2) + "\n", encoding="utf-8")
    return [png, data]
