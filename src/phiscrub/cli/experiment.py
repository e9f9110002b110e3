"""``phiscrub experiment``: run an augmentation grid and write a Kim et al. Table 2 style table and plot."""

from __future__ import annotations

from pathlib import Path

import click

from phiscrub.cli._common import output_option

__all__ = ["experiment"]


@click.command("experiment")
@click.argument("config_path", metavar="CONFIG", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@output_option("out_dir", "Results folder (default: runs/experiments/<name>).", required=False, folder=True)
@click.option(
    "--resume/--no-resume",
    default=True,
    show_default=True,
    help="Skip cells already finished with the same settings (--no-resume: run every cell again).",
)
@click.option(
    "--dry-run", is_flag=True, help="Check the config and corpora and list the cells; train nothing."
)
def experiment(config_path: Path, out_dir: Path | None, resume: bool, dry_run: bool) -> None:
    """Train and score one tagger per cell of the grid in CONFIG (TOML or JSON).

    Cells are (training fraction, augmentation method, alpha, seed); "none" runs once per fraction
    and seed. Each cell writes OUTDIR/cells/<id>/result.json; at the end OUTDIR/table.md (B/T/E F1
    per test corpus, mean ± std over seeds) and OUTDIR/f1-vs-alpha.png are written.
    """
    from phiscrub.experiment.config import load_config
    from phiscrub.experiment.runner import run_experiment

    config = load_config(config_path)
    out = out_dir if out_dir is not None else Path("runs") / "experiments" / config.name
    report = run_experiment(config, out, resume=resume, dry_run=dry_run)
    finished = set(report.skipped)
    if dry_run:
        for split in report.splits:
            click.echo(
                f"fraction {split['fraction']:g} seed {split['seed']}: {split['train_docs']} training "
                f"documents ({split['train_spans']} spans), {split['dev_docs']} dev documents",
                err=True,
            )
        for cell in report.cells:
            click.echo(f"{'done' if cell.id in finished else 'todo'}  {cell.id}")
        click.echo(
            f"experiment {config.name}: {len(report.cells)} cells, {len(finished)} finished, "
            f"{len(report.cells) - len(finished)} to run; output {out} (dry run: nothing trained)",
            err=True,
        )
        return
    click.echo(
        f"experiment {config.name}: {len(report.cells)} cells, ran {len(report.ran)}, "
        f"{len(report.skipped)} already finished; table -> {report.table_path}",
        err=True,
    )
    if report.plot_path is not None:
        click.echo(f"plot -> {report.plot_path}", err=True)
    else:
        click.echo("plot skipped: matplotlib is not installed", err=True)
