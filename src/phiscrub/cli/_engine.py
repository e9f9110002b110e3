"""The engine flags of ``phiscrub redact`` and ``phiscrub serve``, declared from :class:`DeidConfig`.

Each field of :class:`~phiscrub.engine_config.DeidConfig` carries its :class:`~phiscrub.engine_config.Flag`
(flag, help, choices, path, bounds); :func:`engine_options` turns them into click options and
hands the command one ``config`` argument. The older flags (``--rules-only``, ``--keep-ages``:
:data:`~phiscrub.engine_config.LEGACY_FLAGS`) are declared here too and mapped by
:func:`~phiscrub.engine_config.from_options`. A new engine option therefore needs no change here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, fields
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from phiscrub.cli._options import Opt, stack
from phiscrub.engine_config import LEGACY_FLAGS, RESOURCE_FIELDS, DeidConfig, Flag, from_options

__all__ = ["engine_options", "site_options"]

F = TypeVar("F", bound=Callable[..., Any])

_ENGINE_CONFIG = Opt(
    "--engine-config engine_config",
    click.Path(exists=True, dir_okay=False),
    None,
    "TOML or JSON file of engine options (the fields of phiscrub.engine_config.DeidConfig); "
    "flags given here override it.",
)


def _click_option(name: str, flag: Flag, default: Any, help: str, choices: Sequence[str] | None) -> Any:
    """The ``click.option`` of one field (its parameter name is the field's name)."""
    attrs: dict[str, Any] = {"help": help}
    if "/" in flag.decls:  # --x/--no-x
        return click.option(flag.decls, name, default=default, show_default=True, **attrs)
    if isinstance(default, bool):  # a lone switch, off by default
        return click.option(flag.decls, name, is_flag=True, **attrs)
    if choices is not None:
        attrs["type"] = click.Choice(list(choices))
    elif flag.path is not None:
        attrs["type"] = click.Path(exists=True, dir_okay=flag.path == "any")
    elif flag.bounds is not None:
        attrs["type"] = click.FloatRange(*flag.bounds)
    if default is not None:
        attrs["show_default"] = True
    return click.option(flag.decls, name, default=default, **attrs)


def site_options() -> Callable[[F], F]:
    """``--site-lists``, ``--registry`` and ``--allow-list`` as :func:`engine_options` declares them
    (parameters ``site_lists``, ``registry``, ``allow_list``: str or None), for a command that builds
    its :class:`DeidConfig` itself (``predict``; docs/site-lists.md)."""
    flags = DeidConfig.flags()
    return stack([_click_option(name, flags[name], None, flags[name].help, None) for name in RESOURCE_FIELDS])


def _typed(name: str) -> bool:
    """Whether the parameter ``name`` of the current command was given on the command line (or by
    an environment variable), not left at its default."""
    ctx = click.get_current_context()
    source = ctx.get_parameter_source(name)
    return source is not None and source not in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


def _as_options(config: DeidConfig) -> dict[str, Any]:
    return {f.name: getattr(config, f.name) for f in fields(config)}


def engine_options(
    *,
    helps: Mapping[str, str] | None = None,
    choices: Mapping[str, Sequence[str]] | None = None,
    skip: Sequence[str] = (),
    resolve: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> Callable[[F], F]:
    """Every engine flag (one per :class:`DeidConfig` field, plus the older ones) and
    ``--engine-config FILE``, passed to the command as one argument, ``config`` (a :class:`DeidConfig`).

    ``--engine-config`` reads a TOML or JSON file of field names (:func:`phiscrub.config.load_config`);
    the flags given on the command line override its values.

    Args:
        helps: a command's own help text of some fields (e.g. ``lang``: the languages it offers).
        choices: a command's own choices of some fields (e.g. ``labels`` with ``native``).
        skip: fields the command does not offer (they keep their defaults).
        resolve: a hook that rewrites the gathered values before the config is built (e.g.
            ``labels="native"`` read from the model).

    Raises:
        click.UsageError: the values do not make a valid config (the message names the option).
    """
    helps = helps or {}
    chosen = choices or {}
    decorators = []
    for f in fields(DeidConfig):
        flag = f.metadata.get("flag")
        if flag is None or f.name in skip:
            continue
        default = f.default if f.default is not MISSING else None
        decorators.append(
            _click_option(
                f.name, flag, default, helps.get(f.name, flag.help), chosen.get(f.name, flag.choices)
            )
        )
    for name, (decl, help) in LEGACY_FLAGS.items():
        decorators.append(click.option(decl, name, is_flag=True, help=help))
    decorators.append(_ENGINE_CONFIG.decorator())
    names = [f.name for f in fields(DeidConfig) if "flag" in f.metadata and f.name not in skip]

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def gathered(*args: Any, **kwargs: Any) -> Any:
            from phiscrub.errors import ConfigError

            given = {name: kwargs.pop(name) for name in [*names, *LEGACY_FLAGS]}
            path = kwargs.pop("engine_config")
            try:
                base = None
                if path is not None:
                    from phiscrub.config import load_config

                    base = load_config(path, DeidConfig)
                    given = {k: v for k, v in given.items() if _typed(k)}
                if resolve is not None:
                    given = resolve({**({} if base is None else _as_options(base)), **given})
                config = from_options(given, base)
            except ConfigError as exc:
                raise click.UsageError(str(exc)) from None
            return command(*args, config=config, **kwargs)

        out: Any = gathered
        return stack(decorators)(out)  # type: ignore[no-any-return]

    return decorate
