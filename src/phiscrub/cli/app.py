"""The ``phiscrub`` command line: a thin layer over the Python API."""

from __future__ import annotations

import importlib
import logging
import sys

import click

from phiscrub import __version__
from phiscrub.errors import PhiscrubError

__all__ = ["cli", "main"]


# Subcommands by name: (module, attribute), imported when the command is looked up, so that
# ``phiscrub redact`` does not import the training, augmentation and serving code at start-up.
_COMMANDS: dict[str, tuple[str, str]] = {
    "redact": ("phiscrub.cli.redact", "redact"),
    "reidentify": ("phiscrub.cli.reidentify", "reidentify"),
    "augment": ("phiscrub.cli.augment", "augment"),
    "train": ("phiscrub.cli.train", "train_cmd"),
    "predict": ("phiscrub.cli.train", "predict"),
    "convert": ("phiscrub.cli.convert", "convert"),
    "evaluate": ("phiscrub.cli.evaluate", "evaluate_cmd"),
    "calibrate": ("phiscrub.cli.calibrate", "calibrate_cmd"),
    "fewshot-sample": ("phiscrub.cli.fewshot", "fewshot_sample_cmd"),
    "synth-eval": ("phiscrub.cli.synth_eval", "synth_eval"),
    "synth": ("phiscrub.cli.synth", "synth"),
    "experiment": ("phiscrub.cli.experiment", "experiment"),
    "export-onnx": ("phiscrub.cli.export_onnx", "export_onnx_cmd"),
    "serve": ("phiscrub.cli.serve", "serve"),
    "distill": ("phiscrub.cli.distill", "distill_cmd"),
    "report": ("phiscrub.cli.report", "report_cmd"),
}


class _LazyGroup(click.Group):
    """A group whose subcommands (:data:`_COMMANDS`) are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*_COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        spec = _COMMANDS.get(cmd_name)
        if spec is not None and cmd_name not in self.commands:
            command: click.Command = getattr(importlib.import_module(spec[0]), spec[1])
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="phiscrub")
@click.option("-v", "--verbose", count=True, help="More log output (ids, offsets and labels only).")
def cli(verbose: int) -> None:
    """phiscrub: offline clinical text de-identification."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


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
