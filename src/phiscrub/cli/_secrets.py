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

from phiscrub.deid import KEY_ENV_VAR

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
    """``--key-file``: a file holding the secret (one trailing line break is dropped)."""
    return click.option(
        "--key-file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        default=None,
        help="File holding the secret (its first line); not shown in the process list.",
    )


def read_secret(key: str | None, key_file: Path | None) -> str | None:
    """The secret from ``--key`` / ``$PHISCRUB_KEY`` or ``--key-file``; warns when ``--key`` was typed.

    Raises:
        click.UsageError: both ``--key`` (typed) and ``--key-file``; an unreadable or non-UTF-8 key
            file (the message names the file, never its content).
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
        content = key_file.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.UsageError(f"cannot read the key file {key_file} ({type(exc).__name__})") from None
    lines = content.splitlines()
    return lines[0] if lines else ""
