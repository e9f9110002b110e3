"""Option tables: a family of click options written as rows (flags, type, default, help), one decorator.

A command with many options of one family (the LLM endpoint, DAGA training) lists them as :class:`Opt`
rows and applies :func:`options` once, instead of a stack of ``@click.option`` calls that differ only in
their values. The options appear in ``--help`` in row order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import click
from click import Path as _Path

__all__ = ["SITE_OPTIONS", "Opt", "options", "site_options"]

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


def options(*rows: Opt) -> Callable[[F], F]:
    """One decorator that adds the options of ``rows`` to a command, in row order."""

    def apply(func: F) -> F:
        for row in reversed(rows):
            func = row.decorator()(func)
        return func

    return apply


#: ``--site-lists``, ``--registry`` and ``--allow-list`` (``redact``, ``predict``; docs/site-lists.md).
SITE_OPTIONS = (
    Opt(
        "--site-lists site_lists",
        _Path(exists=True),
        None,
        "The site's own lists: a folder of facilities.txt, units.txt, staff.txt, places.txt (or "
        "LABEL.txt) or one .json {list: [entries]}; every match is PHI (docs/site-lists.md).",
    ),
    Opt(
        "--registry",
        _Path(exists=True, dir_okay=False),
        None,
        "Patient registry CSV (patient_id,first,last,mrn,dob,...): each note's patient (--patient-field) "
        "is found by name, MRN and date of birth. It is PHI: keep it protected.",
    ),
    Opt(
        "--allow-list allow_list",
        _Path(exists=True, dir_okay=False),
        None,
        "File of terms (one per line) never redacted: a span whose text is one of them is dropped.",
    ),
)


def site_options() -> Callable[[F], F]:
    """The :data:`SITE_OPTIONS` (parameters ``site_lists``, ``registry``, ``allow_list``: str or None)."""
    return options(*SITE_OPTIONS)
