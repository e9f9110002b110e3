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
    from phiscrub.experiment.runner import default_out_dir, run_experiment

    config = load_config(config_path)
    out = out_dir if out_dir is not None else default_out_dir(config)
    report = run_experiment(config, out, resume=resume, dry_run=dry_run)
    if dry_run:
        for line in report.split_lines():
            click.echo(line, err=True)
        for line in report.cell_lines():
            click.echo(line)
        click.echo(report.summary(config.name, dry_run=True), err=True)
        return
    click.echo(report.summary(config.name, dry_run=False), err=True)
    if report.plot_path is not None:
        click.echo(f"plot -> {report.plot_path}", err=True)
    else:
        click.echo("plot skipped: matplotlib is not installed", err=True)
