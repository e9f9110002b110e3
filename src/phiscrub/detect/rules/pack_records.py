"""Read the language-pack vocabulary bundled as JSON in ``phiscrub/resources/langpacks/``.

Each file maps a language code to one record of a dataclass (:class:`.langpacks.LanguagePack`
in ``packs.json``, :class:`.intl_places_data.PlaceWords` in ``places.json``,
:class:`.intl_names_data.NameWords` in ``names.json``):

- a JSON list becomes a tuple (nested lists: tuples of tuples), an object keeps its keys;
- a list given for a ``str`` field is joined (long patterns are written one piece per line);
- ``{NAME}`` in a ``str`` field is replaced by the template piece ``NAME`` the caller passes;
- a string in place of a record names the language whose record is shared (``"ca": "es"``);
- keys that start with ``_`` are notes and are skipped.

JSON keeps the vocabulary apart from the code that compiles it and needs no parser beyond the
standard library on Python 3.10 (``tomllib`` arrives in 3.11).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, TypeVar

from phiscrub.errors import ConfigError
from phiscrub.resources import load_json

__all__ = ["build_records", "load_records"]

T = TypeVar("T")

_FOLDER = "langpacks"


def _read(name: str) -> dict[str, Any]:
    return load_json(_FOLDER, name, "language codes")


def _value(raw: Any, is_str: bool, templates: Mapping[str, str]) -> Any:
    if is_str:
        text = "".join(raw) if isinstance(raw, list) else raw
        for key, piece in templates.items():
            text = text.replace("{" + key + "}", piece)
        return text
    if isinstance(raw, list):
        return tuple(_value(item, False, templates) for item in raw)
    if isinstance(raw, dict):
        return {key: _value(item, False, templates) for key, item in raw.items()}
    return raw


def load_records(
    name: str,
    cls: type[T],
    *,
    templates: Mapping[str, str] | None = None,
    extra: Callable[[str], dict[str, Any]] | None = None,
) -> dict[str, T]:
    """Build one ``cls`` record per language from ``resources/langpacks/<name>.json``.

    Args:
        name: file stem (``packs``, ``places``, ``names``).
        cls: the record dataclass.
        templates: ``{NAME}`` pieces substituted in ``str`` fields.
        extra: ``code -> fields`` added to each record (fields kept in code, e.g. the calendar).

    Returns:
        Records by language code, in file order; a shared record is the same object.

    Raises:
        ConfigError: the file is unreadable, names an unknown field or lacks a required one.
    """
    return build_records(_read(name), cls, where=f"{_FOLDER}/{name}.json", templates=templates, extra=extra)


def build_records(
    data: Mapping[str, Any],
    cls: type[T],
    *,
    where: str,
    templates: Mapping[str, str] | None = None,
    extra: Callable[[str], dict[str, Any]] | None = None,
) -> dict[str, T]:
    """Build the records of already-parsed ``data`` (see :func:`load_records`; ``where`` names it
    in errors)."""
    known = {f.name: f.type in ("str", str) for f in fields(cls)}  # type: ignore[arg-type]
    out: dict[str, T] = {}
    for code, record in data.items():
        if code.startswith("_"):
            continue
        if isinstance(record, str):
            if record not in out:
                raise ConfigError(f"{where}: {code} shares unknown language {record!r}")
            out[code] = out[record]
            continue
        kwargs = dict(extra(code) if extra else {})
        for key, raw in record.items():
            if key.startswith("_"):
                continue
            if key not in known:
                raise ConfigError(f"{where}: {code}: unknown field {key!r}")
            kwargs[key] = _value(raw, known[key], templates or {})
        try:
            out[code] = cls(**kwargs)
        except TypeError as exc:
            raise ConfigError(f"{where}: {code}: {exc}") from exc
    return out
