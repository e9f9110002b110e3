"""The ``phiscrub`` group: subcommands are imported on use, and every one of them resolves."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from phiscrub.cli.app import _COMMANDS, cli


def test_every_listed_command_resolves_under_its_name() -> None:
    ctx = click.Context(cli)
    names = cli.list_commands(ctx)
    assert names == sorted(_COMMANDS)
    for name in names:
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command)
        assert command.name == name
    assert cli.get_command(ctx, "no-such-command") is None


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    listed = {line.split()[0] for line in result.output.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(_COMMANDS)


def test_redact_does_not_import_the_other_commands() -> None:
    code = (
        "import sys\n"
        "from phiscrub.cli.app import cli\n"
        "import click\n"
        "cli.get_command(click.Context(cli), 'redact')\n"
        "print(sorted(m for m in sys.modules if m.startswith('phiscrub.cli.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    for other in ("augment", "train", "serve", "distill", "experiment", "synth"):
        assert f"'phiscrub.cli.{other}'" not in out
    assert "'phiscrub.cli.redact'" in out
