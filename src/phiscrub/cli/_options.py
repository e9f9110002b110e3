"""Option tables: a family of click options written as rows (flags, type, default, help), one decorator.

A command with many options of one family (the LLM endpoint, DAGA training) lists them as :class:`Opt`
rows and applies :func:`options` once, instead of a stack of ``@click.option`` calls that differ only in
their values. The options appear in ``--help`` in row order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import click

__all__ = ["Opt", "options", "stack"]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Opt:
    """One click option.

    Attributes:
        decls: the flags and, optionally, the parameter name, space-separated (``"--sr p_sr"``).
        type: the click type (None: a string).
        default: the default value.
        help: the help text (None: none).
        show_default: show the default in ``--help`` (a None default is never shown).
    """

    decls: str
    type: Any = None
    default: Any = None
    help: str | None = None
    show_default: bool = True

    def decorator(self) -> Callable[[F], F]:
        """The ``click.option`` decorator of this row."""
        return click.option(
            *self.decls.split(),
            type=self.type,
            default=self.default,
            help=self.help,
            show_default=self.show_default,
        )


def stack(decorators: Sequence[Callable[[F], F]]) -> Callable[[F], F]:
    """One decorator that applies ``decorators`` as if written one above the other, in order."""

    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


def options(*rows: Opt) -> Callable[[F], F]:
    """One decorator that adds the options of ``rows`` to a command, in row order."""
    return stack([row.decorator() for row in rows])
