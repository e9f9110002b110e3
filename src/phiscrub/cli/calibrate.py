"""``phiscrub calibrate``: fit a model folder's span-score calibration on labelled dev notes."""

from __future__ import annotations

from pathlib import Path

import click

from phiscrub.cli._common import (
    batch_size_option,
    corpus_option,
    draws_option,
    existing_path_option,
    input_format_option,
    policy_option,
    read_with_problems,
    seed_option,
)

__all__ = ["calibrate_cmd"]


@click.command("calibrate")
@click.option(
    "--model",
    required=True,
    help="Model folder to calibrate (its meta.json gets the calibration), or 'default' for the bundled one.",
)
@existing_path_option(
    "--dev", "dev_paths", required=True, multiple=True, help="Labelled dev corpus (repeatable)."
)
@input_format_option()
@corpus_option(help="Label mapping of the dev corpus.")
@seed_option("Seed of the surrogate fill of placeholder notes.", default=1)
@draws_option()
@policy_option("PHI policy of the gold when fitting (docs/policy.md).", default="safe-harbor")
@click.option("--dry-run", is_flag=True, help="Print the fitted map without writing it.")
@batch_size_option()
def calibrate_cmd(
    model: str,
    dev_paths: tuple[Path, ...],
    fmt: str | None,
    corpus: str | None,
    seed: int,
    draws: int,
    policy: str,
    dry_run: bool,
    batch_size: int,
) -> None:
    """Fit the map from the model's raw span scores to the share of PHI tokens (isotonic).

    Use dev notes that are neither trained on nor part of the reported test. The map is stored in
    MODEL/meta.json under "calibration" and applied to every model span from then on; run it again
    after every retraining.
    """
    from phiscrub.detect.tagger import bundled_model_path, calibrate_model
    from phiscrub.errors import ModelError

    folder: Path | None = Path(model)
    if model == "default":
        folder = bundled_model_path()
        if folder is None:
            raise ModelError("no tagger model is bundled with this installation; pass a model folder")
    assert folder is not None
    docs = []
    for path in dev_paths:
        got, problems, used = read_with_problems(path, fmt, corpus, seed, draws)
        click.echo(f"read {len(got)} documents from {path} ({used}); problems: {len(problems)}", err=True)
        docs.extend(got)
    cal = calibrate_model(folder, docs, policy=policy, batch_size=batch_size, write=not dry_run)
    click.echo(
        f"raw -> calibrated ({cal.n_spans} spans, {cal.n_tokens} tokens, PHI share {cal.phi_rate:.3f}):"
    )
    for x, y in zip(cal.x, cal.y):
        click.echo(f"  {x:.4f} -> {y:.4f}")
    if not dry_run:
        click.echo(f"calibration written to {folder / 'meta.json'}", err=True)
