"""The secret of the commands that take one (``redact``, ``reidentify``): ``--key``, ``$PHISCRUB_KEY``, ``--key-file``.

The secret is never logged, written or echoed. ``--key`` on the command line works but warns: any
user of the machine can read a process's arguments (``ps``); the environment variable or a key file
(readable by its owner only) do not show it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from phiscrub.errors import ConfigError
from phiscrub.keys import KEY_ENV_VAR, read_key_file

__all__ = ["KEY_ON_COMMAND_LINE_WARNING", "key_file_option", "key_option", "read_secret"]

F = TypeVar("F", bound=Callable[..., Any])

#: Printed when the secret was given as ``--key`` on the command line.
KEY_ON_COMMAND_LINE_WARNING = (
    "warning: --key on the command line is visible to other users in the process list (ps); "
    f"prefer ${KEY_ENV_VAR} or --key-file"
)


def key_option(help: str = f"Secret (or ${KEY_ENV_VAR}; --key-file is safer).") -> Callable[[F], F]:
    """``--key``: the secret, or ``$PHISCRUB_KEY`` when not given."""
    return click.option("--key", envvar=KEY_ENV_VAR, default=None, show_envvar=False, help=help)


def key_file_option() -> Callable[[F], F]:
    """``--key-file``: a file holding the secret (one trailing line break is dropped, :mod:`phiscrub.keys`)."""
    return click.option(
        "--key-file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        default=None,
        help="File holding the secret (less one trailing line break); not shown in the process list.",
    )


def read_secret(key: str | None, key_file: Path | None) -> str | None:
    """The secret from ``--key`` / ``$PHISCRUB_KEY`` or ``--key-file``; warns when ``--key`` was typed.

    Raises:
        click.UsageError: both ``--key`` (typed) and ``--key-file``; an unreadable, non-UTF-8 or blank
            key file (the message names the file, never its content).
    """
    ctx = click.get_current_context(silent=True)
    typed = ctx is not None and ctx.get_parameter_source("key") == ParameterSource.COMMANDLINE
    if typed:
        click.echo(KEY_ON_COMMAND_LINE_WARNING, err=True)
    if key_file is None:
        return key
    if typed:
        raise click.UsageError("give the secret once: --key or --key-file, not both")
    try:
        return read_key_file(key_file)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
