"""Randomness sources of the surrogate engine, and the shape drawing both kinds of source share.

Every generator of :mod:`phiscrub.transform.surrogate` draws through a :class:`Source`: anything with
``choice`` and ``randrange``. Two kinds exist:

* keyed (:class:`KeyedSource`): integers from HMAC-SHA256(key, parts || block counter), where the
  parts name the label and the original value; redaction uses it, so one original always gets one
  surrogate and nobody without the key can recompute the mapping;
* seeded: a plain :class:`random.Random`, for placeholder filling and augmentation, where values are
  invented and only need to be reproducible from a seed.

A :data:`Streams` callable hands out the keyed source of one ``(tag, value, ...)`` tuple within a
consistency scope (patient or global).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import string
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from phiscrub.transform.surrogate.text import CJK

__all__ = [
    "DIGITS",
    "KeyedSource",
    "Source",
    "Streams",
    "keyed_streams",
    "pattern_of",
    "shape",
    "shape_digit_runs",
    "shape_like",
    "weighted",
]

_T = TypeVar("_T")

DIGITS = string.digits
_NONZERO = "123456789"
# Pattern characters of :func:`shape` and the characters each draws from.
_PATTERN_CLASSES: dict[str, str] = {
    "#": string.digits,
    "N": "23456789",
    "~": "3456789",
    "%": string.ascii_uppercase,
    "^": string.ascii_lowercase,
    "&": string.digits + string.ascii_uppercase,
    "!": _NONZERO,
}


class Source(Protocol):
    """A randomness source: :class:`random.Random` and :class:`KeyedSource` both are one."""

    def choice(self, seq: Sequence[_T], /) -> _T:
        """One element of ``seq``."""
        ...

    def randrange(self, n: int, /) -> int:
        """An integer in ``[0, n)``."""
        ...


class KeyedSource:
    """Deterministic pseudo-random integers from HMAC-SHA256(key, parts || block counter)."""

    def __init__(self, key: bytes, parts: Sequence[str]) -> None:
        self._key = key
        self._msg = "\x1f".join(parts).encode("utf-8")
        self._block = 0
        self._buf = b""

    def randrange(self, n: int, /) -> int:
        """An integer in ``[0, n)`` from the next 8 bytes of the stream."""
        if n <= 0:
            raise ValueError("empty range")
        if len(self._buf) < 8:
            block = self._msg + b"\x1e" + str(self._block).encode()
            self._buf += hmac.new(self._key, block, hashlib.sha256).digest()
            self._block += 1
        value = int.from_bytes(self._buf[:8], "big")
        self._buf = self._buf[8:]
        return value % n

    def choice(self, seq: Sequence[_T], /) -> _T:
        """One element of ``seq``."""
        return seq[self.randrange(len(seq))]


#: Hands out the source of one ``(tag, value, ...)`` tuple (keyed: a fresh stream per tuple).
Streams = Callable[..., Source]


def keyed_streams(key: bytes, scope: Sequence[str]) -> Streams:
    """A :data:`Streams` of keyed sources: HMAC of ``key`` over ``scope`` and the given parts."""

    def streams(*parts: str) -> Source:
        return KeyedSource(key, (*scope, *parts))

    return streams


def weighted(rng: random.Random, options: Sequence[tuple[str, int]]) -> str:
    """One option, drawn with the given integer weights."""
    return rng.choices([o for o, _ in options], weights=[w for _, w in options], k=1)[0]


def shape(src: Source, pattern: str) -> str:
    """'#' digit, '!' digit 1-9, 'N' digit 2-9, '~' digit 3-9, '%' A-Z, '^' a-z, '&' digit or A-Z; a backslash makes
    the next character literal (``"\\MR\\N-#"``); anything else literal."""
    out = []
    escaped = False
    for c in pattern:
        if escaped:
            out.append(c)
            escaped = False
        elif c == "\\":
            escaped = True
        elif c in _PATTERN_CLASSES:
            out.append(src.choice(_PATTERN_CLASSES[c]))
        else:
            out.append(c)
    return "".join(out)


def pattern_of(text: str, *, keep_case: bool = True, nonzero_first: bool = False) -> str:
    """The :func:`shape` pattern of ``text``: ASCII digits -> ``#`` (the first ``!`` with
    ``nonzero_first``), Latin letters -> ``%`` / ``^`` (upper case only with ``keep_case``), the rest
    literal ("AB-12" -> ``"%%-##"``)."""
    out: list[str] = []
    first_digit = True
    for c in text:
        if c.isdigit() and c.isascii():
            out.append("!" if nonzero_first and first_digit else "#")
            first_digit = False
        elif c.isalpha() and not CJK.match(c):
            out.append("%" if c.isupper() and keep_case else "^")
        else:
            out.append("\\" + c if c in _PATTERN_CLASSES or c == "\\" else c)
    return "".join(out)


def shape_like(text: str, src: Source, *, keep_case: bool = True, nonzero_first: bool = False) -> str:
    """Digits -> drawn digits, Latin letters -> drawn ASCII letters (same case), the rest kept: the
    :func:`shape` of :func:`pattern_of` ``text``."""
    return shape(src, pattern_of(text, keep_case=keep_case, nonzero_first=nonzero_first))


def shape_digit_runs(text: str, src: Source) -> str:
    """Each digit run -> drawn digits of the same length (no leading zero); letters kept."""
    out = []
    for m in re.finditer(r"\d+|\D+", text):
        run = m.group(0)
        out.append(shape_like(run, src, nonzero_first=True) if run.isdigit() else run)
    return "".join(out)
