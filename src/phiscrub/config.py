"""One loader for every typed configuration of phiscrub: TOML or JSON files, or plain mappings.

phiscrub's settings are frozen dataclasses with typed fields and nested dataclass sections
(:class:`~phiscrub.train.config.TrainConfig` with its ``bilstm`` and ``gguf`` sections, the
experiment file of :mod:`phiscrub.experiment.config`, :class:`~phiscrub.synth.config.SynthConfig`,
:class:`~phiscrub.augment.chat.settings.LLMSettings` ...). :func:`load_config` reads any of them:

* from a ``.toml`` or ``.json`` file, or from a mapping (parsed TOML/JSON, keyword arguments);
* a nested table becomes the nested dataclass of its field, recursively;
* every value is checked against its field's annotation (``int``, ``float`` (an int is accepted
  and stored as a float), ``bool``, ``str``, ``Path``, ``Literal``, ``X | None``, ``tuple[X, ...]``,
  ``dict[str, X]``, nested dataclasses);
* unknown keys and missing required keys are errors;
* a field may bring its own check instead (``field(metadata={"check": fn})``, ``fn(value, key)``
  returns the value or raises), e.g. a label granularity that is a ``Literal`` or a native scheme.

Every problem is a :class:`~phiscrub.errors.ConfigError` that names the key by its dotted path
(``train.bilstm.hidden``) and the file, never the offending value (a config value may be a path
or a name that should not reach a log). Range rules stay with each class, in ``__post_init__``;
:func:`check_fields` gives those classes the same type checks when they are built directly.

A class that renamed flat keys into sections lists them in a ``FLAT_PREFIXES`` class variable
(``{"bilstm_": "bilstm"}``): the flat ``bilstm_hidden`` of an older file is read as ``bilstm.hidden``.

Written here rather than taken from pydantic: pydantic is not a dependency of the core package, and
the rules above fit in one small module.
"""

from __future__ import annotations

import json
import math
import types
from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, fields, is_dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from phiscrub.errors import ConfigError

__all__ = ["check_fields", "dotted", "load_config", "read_config_file"]

T = TypeVar("T")


def dotted(prefix: str, key: str) -> str:
    """``prefix.key`` (just ``key`` at the top level)."""
    return f"{prefix}.{key}" if prefix else key


def read_config_file(path: str | Path, what: str = "config") -> dict[str, Any]:
    """The top-level table of a ``.toml`` or ``.json`` file.

    Raises:
        ConfigError: unreadable file, another suffix, bad syntax, or a top level that is not a table.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise ConfigError(f"{what} {p}: use a .toml or .json file")
    try:
        text = p.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {what} {p}: {exc.__class__.__name__}") from exc
    loads: Callable[[str], Any] = json.loads
    error: type[ValueError] = json.JSONDecodeError
    if suffix == ".toml":
        try:
            import tomllib
        except ImportError:  # Python 3.10
            raise ConfigError(f"TOML files need Python 3.11 or later; write {p} as JSON") from None
        loads, error = tomllib.loads, tomllib.TOMLDecodeError
    try:
        data = loads(text)
    except error as exc:  # its message holds a line and column, not the text
        raise ConfigError(f"{what} {p} is not valid {suffix[1:].upper()}: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{what} {p} must hold a table (a JSON object)")
    return data


def load_config(source: str | Path | Mapping[str, Any], cls: type[T], where: str = "") -> T:
    """Build the dataclass ``cls`` from a TOML/JSON file or a mapping, checking every key.

    Args:
        source: a ``.toml``/``.json`` path, or the parsed table.
        cls: the (frozen) dataclass to build; nested dataclass fields take nested tables.
        where: dotted path of ``source`` inside a larger file, for messages (``"train"``).

    Raises:
        ConfigError: unreadable file, unknown or missing key, wrong type, or a value the class rejects;
            the message names the key (and the file), never the value.
    """
    if isinstance(source, Mapping):
        return build(cls, source, where)
    data = read_config_file(source)
    try:
        return build(cls, data, where)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None


def build(cls: type[T], data: Any, where: str = "") -> T:
    """``cls(**data)`` with nested tables built, values type-checked, unknown keys refused."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where or 'the config'} must be a table (an object)")
    data = _fold_flat_keys(cls, data, where)
    hints = _hints(cls)
    init = {f.name: f for f in fields(cls) if f.init}  # type: ignore[arg-type]
    unknown = sorted(str(k) for k in data if k not in init)
    if unknown:
        names = ", ".join(dotted(where, k) for k in unknown)
        raise ConfigError(f"unknown config key(s): {names}; known: {', '.join(sorted(init))}")
    for name, f in init.items():
        if name not in data and f.default is MISSING and f.default_factory is MISSING:
            raise ConfigError(f"{dotted(where, name)} is missing")
    kwargs = {
        name: _convert_field(init[name], value, hints[name], dotted(where, name))
        for name, value in data.items()
    }
    try:
        return cls(**kwargs)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}" if where else str(exc)) from None


def check_fields(obj: Any) -> None:
    """Type-check (and normalise: int -> float, list -> tuple, table -> dataclass) the fields of a
    dataclass instance in place; for ``__post_init__`` of frozen config classes.

    Raises:
        ConfigError: a field of the wrong type, named by its key.
    """
    hints = _hints(type(obj))
    for f in fields(obj):
        value = getattr(obj, f.name)
        checked = _convert_field(f, value, hints[f.name], f.name)
        if checked is not value:
            object.__setattr__(obj, f.name, checked)


def _convert_field(f: Field[Any], value: Any, tp: Any, where: str) -> Any:
    """A field's own check (``metadata={"check": fn}``, ``fn(value, where)``) or :func:`convert`."""
    check = f.metadata.get("check")
    return check(value, where) if check is not None else convert(value, tp, where)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved field annotations of a dataclass (cached: config classes do not change)."""
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls)
    return _HINTS[cls]


def _fold_flat_keys(cls: type, data: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    """Read ``<prefix><key>`` as ``<section>.<key>`` for the prefixes in ``cls.FLAT_PREFIXES``."""
    prefixes: Mapping[str, str] = getattr(cls, "FLAT_PREFIXES", {})
    if not prefixes or not any(isinstance(k, str) and k.startswith(tuple(prefixes)) for k in data):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        prefix = next((p for p in prefixes if isinstance(key, str) and key.startswith(p)), None)
        if prefix is None:
            out[key] = value
            continue
        section, sub = prefixes[prefix], key[len(prefix) :]
        section_cls = _hints(cls).get(section)
        known = {f.name for f in fields(section_cls)} if is_dataclass(section_cls) else {sub}
        if sub not in known:
            raise ConfigError(
                f"unknown config key(s): {dotted(where, key)} (nor {dotted(where, section)}.{sub})"
            )
        table = out.setdefault(section, {})
        if not isinstance(table, dict):
            raise ConfigError(f"{dotted(where, section)} must be a table (an object)")
        table[sub] = value
    for section in set(prefixes.values()) & set(data):
        given = data[section]
        if not isinstance(given, Mapping):
            raise ConfigError(f"{dotted(where, section)} must be a table (an object)")
        both = sorted(set(given) & set(out[section]))
        if both:
            raise ConfigError(f"{dotted(where, section)}.{both[0]} is given twice (also as a flat key)")
        out[section] = {**out[section], **given}
    return out


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def convert(value: Any, tp: Any, where: str) -> Any:
    """``value`` checked against the annotation ``tp`` (nested tables built); ConfigError if it does not fit."""
    origin = get_origin(tp)
    if tp is Any:
        return value
    if origin is Union or origin is types.UnionType:
        return _convert_union(value, get_args(tp), where)
    if value is None:
        raise ConfigError(f"config key {where!r} must not be null")
    if origin is Literal:
        if value not in get_args(tp) or isinstance(value, bool):
            raise ConfigError(f"config key {where!r} must be one of {', '.join(map(str, get_args(tp)))}")
        return value
    if isinstance(tp, type) and is_dataclass(tp):
        return value if isinstance(value, tp) else build(tp, value, where)
    if origin is tuple or origin is list:
        return _convert_sequence(value, tp, where)
    if origin is dict or origin is Mapping:
        return _convert_table(value, get_args(tp)[1], where)
    return _convert_scalar(value, tp, where)


def _convert_union(value: Any, options: tuple[Any, ...], where: str) -> Any:
    if value is None:
        if type(None) in options:
            return None
        raise ConfigError(f"config key {where!r} must not be null")
    candidates = [a for a in options if a is not type(None)]
    if len(candidates) == 1:
        return convert(value, candidates[0], where)
    for option in candidates:
        try:
            return convert(value, option, where)
        except ConfigError:
            continue
    names = " or ".join(_type_name(a) for a in candidates)
    raise ConfigError(f"config key {where!r} expects {names}, got {type(value).__name__}")


def _convert_sequence(value: Any, tp: Any, where: str) -> Any:
    if not isinstance(value, (list, tuple)):
        raise ConfigError(f"config key {where!r} expects a list, got {type(value).__name__}")
    args = get_args(tp)
    if get_origin(tp) is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        if len(args) != len(value):
            raise ConfigError(f"config key {where!r} expects {len(args)} values")
        return tuple(convert(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args)))
    item = args[0] if args else Any
    items = [convert(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    return tuple(items) if get_origin(tp) is tuple else items


def _convert_table(value: Any, item: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a table (an object)")
    return {str(k): convert(v, item, dotted(where, str(k))) for k, v in value.items()}


def _convert_scalar(value: Any, tp: Any, where: str) -> Any:
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"config key {where!r} expects float, got {type(value).__name__}")
        if not math.isfinite(value):
            raise ConfigError(f"config key {where!r} must be a finite number")
        return value if isinstance(value, float) else float(value)
    if tp is Path:
        if isinstance(value, (str, Path)):
            return value if isinstance(value, Path) else Path(value)
        raise ConfigError(f"config key {where!r} expects a path, got {type(value).__name__}")
    if not isinstance(tp, type):
        return value  # an annotation this loader does not check (a Protocol, a TypeVar ...)
    # bool is an int subclass: refuse True where a number is expected.
    if not isinstance(value, tp) or (isinstance(value, bool) and tp is not bool):
        raise ConfigError(f"config key {where!r} expects {_type_name(tp)}, got {type(value).__name__}")
    return value
