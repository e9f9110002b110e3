"""The ``phiscrub`` command line: a thin layer over the Python API."""

from __future__ import annotations

import logging
import sys

import click

from phiscrub import __version__
from phiscrub.errors import PhiscrubError

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="phiscrub")
@click.option("-v", "--verbose", count=True, help="More log output (ids, offsets and labels only).")
def cli(verbose: int) -> None:
    """phiscrub: offline clinical text de-identification."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


def _register() -> None:
    from phiscrub.cli import augment, convert, evaluate, redact, train
    from phiscrub.cli import synth_eval as synth_eval_cli
    from phiscrub.cli.calibrate import calibrate_cmd
    from phiscrub.cli.distill import distill_cmd
    from phiscrub.cli.experiment import experiment
    from phiscrub.cli.export_onnx import export_onnx_cmd
    from phiscrub.cli.fewshot import fewshot_sample_cmd
    from phiscrub.cli.reidentify import reidentify
    from phiscrub.cli.report import report_cmd
    from phiscrub.cli.serve import serve
    from phiscrub.cli.synth import synth

    cli.add_command(redact.redact)
    cli.add_command(reidentify)
    cli.add_command(augment.augment)
    cli.add_command(train.train_cmd)
    cli.add_command(train.predict)
    cli.add_command(convert.convert)
    cli.add_command(evaluate.evaluate_cmd)
    cli.add_command(calibrate_cmd)
    cli.add_command(fewshot_sample_cmd)
    cli.add_command(synth_eval_cli.synth_eval)
    cli.add_command(synth)
    cli.add_command(experiment)
    cli.add_command(export_onnx_cmd)
    cli.add_command(serve)
    cli.add_command(distill_cmd)
    cli.add_command(report_cmd)


_register()


def main() -> None:
    """Entry point: runs the CLI, turning phiscrub errors into a one-line message and exit code 2."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except PhiscrubError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except SystemExit:
        raise
