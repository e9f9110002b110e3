"""``phiscrub distill``: distil a trained tagger into a smaller student (fewer encoder layers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from phiscrub.cli._common import (
    choice_option,
    corpus_option,
    draws_option,
    existing_path_option,
    input_format_option,
    output_option,
    seed_option,
)
from phiscrub.train.config import INIT_SOURCES

__all__ = ["distill_cmd"]


def _layer_map(value: str | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    try:
        return tuple(int(part) for part in value.split(","))
    except ValueError as exc:
        raise click.BadParameter("give comma-separated layer numbers, e.g. 0,2,5") from exc


@click.command("distill")
@existing_path_option(
    "--teacher", "teacher_dir", required=True, file_okay=False, help="Teacher model folder."
)
@existing_path_option("--train", "train_paths", multiple=True, help="Training corpus (repeatable).")
@existing_path_option("--dev", "dev_path", help="Dev corpus for model selection (token micro F1).")
@output_option("out_dir", "Student model folder.", folder=True, long="--out")
@click.option(
    "--layers", type=click.IntRange(min=1), default=3, show_default=True, help="Student encoder layers."
)
@click.option(
    "--layer-map", default=None, help="Source layers to start from, e.g. 0,2,5 (default: evenly spaced)."
)
@choice_option(
    "--init",
    choices=INIT_SOURCES,
    default="teacher",
    help="Start from the teacher's fine-tuned layers, or from a pretrained encoder's (--encoder).",
)
@click.option(
    "--encoder", default=None, help="With --init encoder: the pretrained encoder folder (default: MiniLM)."
)
@existing_path_option(
    "--resume",
    "resume",
    file_okay=False,
    help="Continue from an earlier student of the same teacher (its layers, head and CRF).",
)
@click.option("--temperature", type=float, default=2.0, show_default=True, help="Soft-label temperature.")
@click.option("--alpha", type=float, default=0.5, show_default=True, help="Weight of the soft-label loss.")
@click.option("--epochs", type=int, default=3, show_default=True)
@click.option("--lr", type=float, default=1e-4, show_default=True, help="Encoder learning rate.")
@click.option("--head-lr", type=float, default=5e-4, show_default=True, help="Head and CRF learning rate.")
@click.option("--batch-size", type=int, default=16, show_default=True)
@click.option("--patience", type=click.IntRange(min=1), default=3, show_default=True)
@click.option(
    "--time-budget", "time_budget_s", type=float, default=None, help="Stop after N seconds (all of it)."
)
@click.option("--max-steps", type=click.IntRange(min=1), default=None, help="Stop after N optimiser steps.")
@click.option("--threads", "num_threads", type=int, default=None, help="torch threads.")
@input_format_option(help="Input format of every corpus (default: guess).")
@corpus_option()
@draws_option()
@seed_option(default=7)
def distill_cmd(
    teacher_dir: Path,
    train_paths: tuple[Path, ...],
    dev_path: Path | None,
    out_dir: Path,
    layer_map: str | None,
    fmt: str | None,
    corpus: str | None,
    draws: int,
    **options: Any,
) -> None:
    """Distil the tagger in --teacher into a student with --layers encoder layers.

    The student keeps the teacher's tokenizer, head, features and CRF, starts from some of the
    teacher's layers (or a pretrained encoder's), and learns the teacher's per-word label
    distributions (CRF marginals at --temperature) together with the gold tags of --train.
    """
    from phiscrub.cli.train import read_inputs
    from phiscrub.train.config import distill_configs
    from phiscrub.train.distill import distill

    if not train_paths:
        raise click.UsageError("give at least one --train corpus")
    # the other options are DistillConfig keys (layers, init, encoder, temperature, alpha) or the
    # student's TrainConfig keys (epochs, lr, head_lr, batch_size, patience, budgets, threads, seed)
    resume = options.pop("resume", None)
    dconfig, config = distill_configs(
        {**options, "layer_map": _layer_map(layer_map), "resume": str(resume) if resume else None}
    )
    train_docs = read_inputs(train_paths, fmt, corpus, config.seed, draws)
    dev_docs = read_inputs((dev_path,), fmt, corpus, config.seed, draws) if dev_path is not None else []
    result = distill(teacher_dir, train_docs, dev_docs, out_dir, dconfig, config)
    click.echo(
        f"student {result.student_params:,} parameters (teacher {result.teacher_params:,}), layers "
        f"{list(result.distill_config.layer_map or ())}; best dev token F1 {result.best_dev_f1} at epoch "
        f"{result.best_epoch}; {result.steps} steps, stopped by {result.stop_reason}; {result.seconds:.0f} s "
        f"-> {out_dir}",
        err=True,
    )
