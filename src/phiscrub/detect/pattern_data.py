"""The regular expressions of the rule modules, kept as data in ``phiscrub/resources/patterns/``.

A rule module keeps its logic (validators, rule tables, context checks) in Python and reads its
patterns from ``resources/patterns/<module>.json``, one entry per name, in the order the module
used to define them:

- ``"NAME": {"re": ..., "flags": "IGNORECASE|MULTILINE"}`` is compiled (``flags`` optional);
- ``"NAME": "..."``, a list of pieces, or ``{"text": ...}`` is a piece of pattern text;
- a list stands for its pieces joined (long patterns are written one piece per line);
- ``{NAME}`` in any text stands for the piece ``NAME`` defined earlier in the file or given by the
  module: ``"given": [...]`` lists the module-level strings the file takes from the module
  (pieces built in code: word alternations, another module's pattern text), which passes its
  ``globals()``;
- keys that start with ``_`` are notes (``"_note"`` inside an entry says what it matches).

This is the shape of :mod:`phiscrub.detect.rules.pack_records` (the language-pack vocabulary)
applied to patterns: someone adapting the rules to a site or a language edits the patterns without
reading the code around them, and the code reads as logic. JSON (not TOML) because the package
supports Python 3.10, which has no TOML parser in its standard library.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from phiscrub.errors import ConfigError
from phiscrub.resources import load_json

__all__ = ["PatternData", "pattern_data"]

_FOLDER = "patterns"
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_FLAGS = {
    "IGNORECASE": re.IGNORECASE,
    "MULTILINE": re.MULTILINE,
    "DOTALL": re.DOTALL,
    "VERBOSE": re.VERBOSE,
    "ASCII": re.ASCII,
}


class PatternData:
    """The compiled patterns and the pattern pieces of one file (see the module docstring)."""

    def __init__(self, name: str, data: Mapping[str, Any], given: Mapping[str, str]) -> None:
        self.name = name
        where = f"{_FOLDER}/{name}.json"
        pieces: dict[str, str] = dict(given)
        self._compiled: dict[str, re.Pattern[str]] = {}
        for key, raw in data.items():
            if key.startswith("_") or key == "given":
                continue
            if key in pieces or key in self._compiled:
                raise ConfigError(f"{where}: {key} is defined twice")
            entry = raw if isinstance(raw, dict) else {"text": raw}
            if ("re" in entry) == ("text" in entry):
                raise ConfigError(f"{where}: {key} needs one of 're' or 'text'")
            text = _fill(_joined(entry.get("re", entry.get("text")), where, key), pieces, where, key)
            if "text" in entry:
                pieces[key] = text
                continue
            flags = 0
            for flag in filter(None, str(entry.get("flags", "")).split("|")):
                if flag.strip() not in _FLAGS:
                    raise ConfigError(f"{where}: {key}: unknown flag {flag.strip()!r}")
                flags |= _FLAGS[flag.strip()]
            try:
                self._compiled[key] = re.compile(text, flags)
            except re.error as exc:
                raise ConfigError(f"{where}: {key} is not a valid pattern: {exc}") from None
        self._pieces = {k: v for k, v in pieces.items() if k not in given}

    def __getitem__(self, key: str) -> re.Pattern[str]:
        """The compiled pattern ``key``."""
        return self._compiled[key]

    def text(self, key: str) -> str:
        """The pattern piece ``key`` (placeholders filled)."""
        return self._pieces[key]

    def names(self) -> list[str]:
        """The compiled patterns' names, in file order."""
        return list(self._compiled)


def _joined(raw: Any, where: str, key: str) -> str:
    if isinstance(raw, list) and all(isinstance(p, str) for p in raw):
        return "".join(raw)
    if isinstance(raw, str):
        return raw
    raise ConfigError(f"{where}: {key} must be a string or a list of strings")


def _fill(text: str, pieces: Mapping[str, str], where: str, key: str) -> str:
    def piece(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in pieces:
            raise ConfigError(f"{where}: {key} uses {{{name}}}, which is neither defined above nor given")
        return pieces[name]

    return _PLACEHOLDER.sub(piece, text)


def pattern_data(name: str, scope: Mapping[str, Any] | None = None) -> PatternData:
    """The patterns of ``resources/patterns/<name>.json``; the pieces its ``"given"`` list names
    are read from ``scope`` (the calling module's ``globals()``).

    Raises:
        ConfigError: an unreadable file, a bad entry, or a given piece that ``scope`` lacks.
    """
    data = load_json(_FOLDER, name, "patterns")
    given: dict[str, str] = {}
    for key in data.get("given", []):
        value = (scope or {}).get(key)
        if not isinstance(value, str):
            raise ConfigError(f"{_FOLDER}/{name}.json: the module gives no text piece {key}")
        given[key] = value
    return PatternData(name, data, given)
