"""``phiscrub train`` and ``phiscrub predict``: fit a PHI tagger, and run one over a corpus."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from phiscrub.cli._common import read_with_problems
from phiscrub.document import Document

__all__ = ["predict", "train_cmd"]


def read_inputs(
    paths: tuple[Path, ...], fmt: str | None, corpus: str | None, seed: int, draws: int
) -> list[Document]:
    """Read and concatenate corpora; reading problems are printed (ids only) and counted."""
    docs: list[Document] = []
    for path in paths:
        got, problems, used = read_with_problems(path, fmt, corpus, seed, draws)
        click.echo(f"read {len(got)} documents from {path} ({used}); problems: {len(problems)}", err=True)
        docs.extend(got)
    return docs


@click.command("train")
@click.option(
    "--train",
    "train_paths",
    multiple=True,
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="Training corpus (repeatable: original + augmented copies).",
)
@click.option(
    "--dev",
    "dev_path",
    default=None,
    type=click.Path(exists=True, path_type=Path),
    help="Dev corpus for early stopping (token micro F1, patience 3).",
)
@click.option(
    "-o", "--output", "out_dir", required=True, type=click.Path(path_type=Path), help="Model folder."
)
@click.option("--encoder", default=None, help="Local Hugging Face encoder folder (default: bundled MiniLM).")
@click.option("--crf/--no-crf", default=None, help="CRF output layer (default: from config, on).")
@click.option(
    "--labels", type=click.Choice(["coarse", "fine", "phicon5"]), default=None, help="Label granularity."
)
@click.option("--format", "fmt", default=None, help="Input format for --train/--dev (default: guess).")
@click.option("--corpus", default=None, help="Label mapping of the inputs (meddocan, i2b2-2014 ...).")
@click.option(
    "--config",
    "config_path",
    default=None,
    type=click.Path(exists=True, path_type=Path),
    help="TrainConfig JSON; command-line options override it.",
)
@click.option("--epochs", type=int, default=None)
@click.option("--lr", type=float, default=None)
@click.option("--batch-size", type=int, default=None)
@click.option("--max-length", type=int, default=None, help="Subword tokens per window (default 192).")
@click.option("--seed", type=int, default=None)
@click.option(
    "--time-budget", "time_budget_s", type=float, default=None, help="Stop training after N seconds."
)
@click.option("--threads", "num_threads", type=int, default=None, help="torch threads.")
@click.option("--draws", default=1, show_default=True, help="Surrogate draws per note for placeholder input.")
@click.option("--save-dtype", type=click.Choice(["float32", "float16"]), default=None)
def train_cmd(
    train_paths: tuple[Path, ...],
    dev_path: Path | None,
    out_dir: Path,
    encoder: str | None,
    crf: bool | None,
    labels: str | None,
    fmt: str | None,
    corpus: str | None,
    config_path: Path | None,
    epochs: int | None,
    lr: float | None,
    batch_size: int | None,
    max_length: int | None,
    seed: int | None,
    time_budget_s: float | None,
    num_threads: int | None,
    draws: int,
    save_dtype: str | None,
) -> None:
    """Train a PHI tagger (transformer encoder + optional CRF) on labelled corpora."""
    from phiscrub.train.config import TrainConfig
    from phiscrub.train.trainer import train

    config = TrainConfig.from_json(config_path) if config_path else TrainConfig()
    overrides = {
        "encoder": encoder,
        "use_crf": crf,
        "granularity": labels,
        "epochs": epochs,
        "lr": lr,
        "batch_size": batch_size,
        "max_length": max_length,
        "seed": seed,
        "time_budget_s": time_budget_s,
        "num_threads": num_threads,
        "save_dtype": save_dtype,
    }
    config = config.replace(**{k: v for k, v in overrides.items() if v is not None})
    train_docs = read_inputs(train_paths, fmt, corpus, config.seed, draws)
    dev_docs = read_inputs((dev_path,), fmt, corpus, config.seed + 1000, 1) if dev_path else []
    result = train(train_docs, dev_docs, config, out_dir)
    click.echo(
        f"model saved to {result.model_dir}: best dev token F1 {result.best_dev_f1} at epoch {result.best_epoch}; "
        f"{result.epochs_run} epochs, {result.steps} steps, stop: {result.stop_reason}, {result.seconds:.0f} s",
        err=True,
    )


@click.command()
@click.argument("input_path", metavar="INPUT", type=click.Path(exists=True, path_type=Path))
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(path_type=Path),
    help="Output corpus (format from --to).",
)
@click.option(
    "--to", "dst_fmt", default="jsonl", show_default=True, help="Output format (jsonl, brat, conll, i2b2)."
)
@click.option("--model", default="default", show_default=True, help="Model folder or 'default'.")
@click.option("--rules/--no-rules", default=True, show_default=True, help="Add the rule detectors.")
@click.option("--lexicon/--no-lexicon", default=False, show_default=True, help="Add the lexicon detector.")
@click.option(
    "--propagate/--no-propagate",
    default=True,
    show_default=True,
    help="Tag other occurrences of detected names in the same note.",
)
@click.option("--format", "fmt", default=None, help="Input format (default: guess).")
@click.option("--corpus", default=None, help="Label mapping of the input.")
@click.option("--lang", default="en", show_default=True)
@click.option("--batch-size", default=16, show_default=True)
def predict(
    input_path: Path,
    out: Path,
    dst_fmt: str,
    model: str,
    rules: bool,
    lexicon: bool,
    propagate: bool,
    fmt: str | None,
    corpus: str | None,
    lang: str,
    batch_size: int,
) -> None:
    """Detect PHI in a corpus and write the predicted spans (the input text is unchanged)."""
    from tqdm import tqdm

    from phiscrub.deid import Deidentifier
    from phiscrub.detect.base import Detector
    from phiscrub.detect.lexicon import LexiconDetector
    from phiscrub.detect.rules import default_detectors
    from phiscrub.io import get_writer

    docs = read_inputs((input_path,), fmt, corpus, 0, 1)
    dets: list[Detector] = list(default_detectors(lang=lang)) if rules else []
    if lexicon:
        dets.append(LexiconDetector(lang=lang))
    deid = Deidentifier(
        mode="placeholder",
        labels="fine",
        model=None if model == "none" else model,
        detectors=dets,
        propagate=propagate,
        lang=lang,
    )
    predicted: list[Document] = []
    bar = tqdm(total=len(docs), desc="predict", unit="doc", file=sys.stderr, delay=1.0)
    for i in range(0, len(docs), batch_size):
        batch = docs[i : i + batch_size]
        for d, spans in zip(batch, deid.detect_many(batch)):
            predicted.append(d.with_spans(spans))
        bar.update(len(batch))
    bar.close()
    get_writer(dst_fmt).write(predicted, out)
    n = sum(len(d.spans) for d in predicted)
    click.echo(f"predicted {n} spans in {len(predicted)} documents -> {out}", err=True)
