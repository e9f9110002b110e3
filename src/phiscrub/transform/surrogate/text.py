"""Text helpers of the surrogate engine: case patterns, accent folding, script tests."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["CJK", "ascii_letters", "ascii_word", "match_case", "normalize_component", "splice_stripped"]

#: A CJK ideograph (Chinese names, places and dates get Chinese surrogates).
CJK = re.compile(r"[\u3400-\u9fff]")


def normalize_component(text: str) -> str:
    """Casefolded, accent-stripped form of a name component ("José" and "JOSE" -> "jose")."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def ascii_letters(text: str) -> str:
    """The a-z letters of the normalized form ("Núñez" -> "nunez", "Groß" -> "gross")."""
    return "".join(c for c in normalize_component(text) if "a" <= c <= "z")


def ascii_word(text: str) -> str:
    """The ASCII letters of ``text`` after accent decomposition, lower-cased ("Núñez" -> "nunez")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if c.isascii() and c.isalpha()).lower()


def match_case(original: str, new: str) -> str:
    """Write ``new`` in the case pattern of ``original`` (UPPER, lower, or as listed)."""
    letters = [c for c in original if c.isalpha()]
    if not letters:
        return new
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return new.upper()
    if all(c.islower() for c in letters):
        return new.lower()
    if len(letters) == 1:
        return new.upper() if letters[0].isupper() else new.lower()
    return new


def splice_stripped(surface: str, new: str) -> str:
    """``new`` with the leading and trailing white space of ``surface`` put back around it."""
    lead = surface[: len(surface) - len(surface.lstrip())]
    return lead + new + surface[len(surface.rstrip()) :]
