"""Reading a name forward or backward from a position with one language's words (for :mod:`.intl_names`).

Name tokens and their case, titles, particles, stop words, and the bundled first- and last-name
lists of the language packs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import trie_pattern
from phiscrub.detect.rules.intl_names_data import (
    CAP_PARTICLES,
    ENGLISH_ABBREVIATIONS,
    MONTH_WORDS,
    NAME_WORDS,
    NameWords,
)
from phiscrub.detect.rules.names_data import NAME_STOPWORDS

_RX = pattern_data("intl_name_scan")


__all__ = [
    "LETTER",
    "NAME_TOKEN_RE",
    "NameLexicon",
    "NameScanner",
    "name_lexicon",
    "name_scanner",
    "token_case",
    "with_upper",
]

LETTER = r"[^\W\d_]"

NAME_TOKEN_RE = re.compile(
    rf"(?P<tok>{LETTER}\.(?!{LETTER})|(?:[dDlL]['’]|[oO]['’](?={LETTER}{{2}}))?{LETTER}+(?:['’]{LETTER}+)?(?:-{LETTER}+)*\.?)"
)


def token_case(tok: str) -> str:
    """Case style of a name token: ``initial``, ``upper``, ``lower`` or ``title``."""
    core = tok.rstrip(".")
    if len(core) == 1:
        return "initial" if core.isupper() else "lower"
    if core.isupper():
        return "upper"
    if core[0].islower():
        # "d'Arc", "l'Hermite" are name parts; "de" is a particle.
        return "title" if len(core) > 2 and core[1] in "'’" and core[2:3].isupper() else "lower"
    return "title"


@dataclass(frozen=True)
class NameLexicon:
    """The bundled given names (``first``) and surnames (``last``) of one language, lower case."""

    first: frozenset[str]
    last: frozenset[str]


@cache
def name_lexicon(folder: str) -> NameLexicon:
    """The name lists of ``lexicons/<folder>/`` (cached)."""
    first = {w.lower() for stem in ("first_names_female", "first_names_male") for w in _read(folder, stem)}
    last = {w.lower() for w in _read(folder, "last_names")}
    return NameLexicon(frozenset(first), frozenset(last))


def _read(folder: str, stem: str) -> tuple[str, ...]:
    """A bundled list of ``lexicons/<folder>/`` (read directly: the pack folders are the rules' own)."""
    path = resources.files("phiscrub.resources").joinpath("lexicons", folder, f"{stem}.txt")
    if not path.is_file():
        return ()
    return tuple(line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


class NameScanner:
    """Reads a name forward or backward from a position, with one language's words."""

    def __init__(self, words: NameWords) -> None:
        self.words = words
        self.max_tokens = words.max_tokens
        self.comma_tokens = 2 if words.lexicon == "es" else 1
        self.stop = (
            (NAME_STOPWORDS - ENGLISH_ABBREVIATIONS)
            | frozenset(words.stopwords)
            | frozenset(t.lower().rstrip(".") for t in (*words.doctor_titles, *words.person_titles))
            | frozenset(w.lower() for role in words.roles for w in role.split() if len(w) > 2)
        )
        if words.lexicon in ("nb", "da", "sv"):
            # English stop words that are common Nordic given names (Per, Line) name people here.
            self.stop -= {"per", "line", "my"}
        self.particles = frozenset(words.particles)
        self.doctor_titles = frozenset(with_upper(words.doctor_titles))
        self.title_re = re.compile(
            rf"(?:{trie_pattern(with_upper((*words.doctor_titles, *words.person_titles)), ignore_case=False)})"
            rf"(?![\w\-])[ \t]+"
        )

    def skip_titles(self, text: str, pos: int) -> tuple[int, bool]:
        """Position after any titles at ``pos`` and whether one was a doctor title."""
        doctor = False
        doctor_titles = self.doctor_titles
        while True:
            m = self.title_re.match(text, pos)
            if m is None:
                return pos, doctor
            if m.group().strip() in doctor_titles:
                doctor = True
            pos = m.end()

    def _particle_at(self, text: str, pos: int) -> int:
        """End of a particle run starting at ``pos`` ("van den "), or -1."""
        best = -1
        for p in self.particles:
            if text.startswith(p, pos):
                end = pos + len(p)
                if p.endswith("'"):
                    best = max(best, end)
                elif text.startswith(" ", end) and end + 1 > best:
                    best = end + 1
        return best

    def _cap_particle(self, text: str, core: str, tok_end: int) -> bool:
        """ "Le Goff", "De Smet", "Van Dijk": a capitalised particle before a capitalised name word."""
        if core.lower() not in CAP_PARTICLES:
            return False
        nxt = NAME_TOKEN_RE.match(text, tok_end + 1)
        return (
            nxt is not None
            and text.startswith(" ", tok_end)
            and token_case(nxt.group("tok")) == "title"
            and nxt.group("tok").rstrip(".").lower() not in self.stop
        )

    def _ends_name(self, style: str, core: str, *, upper_ok: bool) -> bool:
        """A token that cannot be part of a name: lower case, a stop word, "Nº", or UPPER when not allowed."""
        return (
            style == "lower"
            or (style != "initial" and core.lower() in self.stop)
            or any(c in "ºª°" for c in core)
            or (style == "upper" and not upper_ok)
        )

    def forward(
        self, text: str, pos: int, *, comma_ok: bool = False, upper_ok: bool = True
    ) -> tuple[int, int] | None:
        """The name starting at ``pos`` (after at most one space or tab run already skipped)."""
        start = end = -1
        style = ""
        count = 0
        commas = 0
        while count < self.max_tokens and pos < len(text):
            # Particles inside a name: "van den Berg", "de la Fuente" (never first and last).
            part_end = self._particle_at(text, pos)
            tok_pos = part_end if part_end > 0 else pos
            m = NAME_TOKEN_RE.match(text, tok_pos)
            if m is None:
                break
            tok = m.group("tok")
            st = token_case(tok)
            core = tok.rstrip(".")
            if tok.endswith(".") and st not in ("initial",):
                # "Müller." ends a sentence: keep the word, drop the period.
                tok = core
            tok_end = m.start("tok") + len(tok)
            if st == "title" and self._cap_particle(text, core, tok_end):
                if start < 0:
                    start = m.start("tok")
                pos = tok_end + 1
                continue
            if (
                self._ends_name(st, core, upper_ok=upper_ok)
                or _street_abbreviation(st, text, tok_end)
                or _RX["SUSPENDED_RE"].match(text, tok_end) is not None
            ):
                break
            if st != "initial":
                if style and st != style:
                    break
                style = st
            if start < 0:
                start = pos if part_end > 0 else m.start("tok")  # "van Dijk" as the whole name
            end = tok_end
            count += 1
            pos = tok_end
            if text.startswith(" ", pos) and not text.startswith("  ", pos):
                pos += 1
                continue
            # "Surname, Given"; Spanish names carry two surnames ("García López, Ana").
            if comma_ok and not commas and text.startswith(", ", pos) and count <= self.comma_tokens:
                commas = 1
                pos += 2
                continue
            break
        if not style:
            return None
        return start, end

    def month_surname(self, text: str, pos: int) -> tuple[int, int] | None:
        """A month name right after a title is a surname ("Frau Mai", "Dr. August")."""
        m = NAME_TOKEN_RE.match(text, pos)
        if m is None or m.group("tok").lower() not in MONTH_WORDS:
            return None
        if re.match(r"[ \t]+\d", text[m.end() : m.end() + 3]):
            return None  # "Frau Mai 2019" is no name reading
        return m.start("tok"), m.end("tok")

    def backward(self, text: str, end: int, *, comma_ok: bool = False) -> tuple[int, int] | None:
        """The name ending at ``end`` (for ``X, Oberarzt`` and signature lines); ``comma_ok`` also
        reads ``Surname, Given``."""
        line_start = text.rfind("\n", 0, end) + 1
        segment = text[line_start:end]
        # A name follows the titles of its line, or starts the line or a table cell.
        cell = re.split(r"[ \t]{2,}|\t|\|", segment)[-1]
        cell_start = end - len(cell)
        pos, _ = self.skip_titles(text, cell_start + (len(cell) - len(cell.lstrip())))
        span = self.forward(text, pos, comma_ok=comma_ok)
        if span is None or span[1] != end:
            return None
        return span


def _street_abbreviation(style: str, text: str, tok_end: int) -> bool:
    """An initial before a slash is a street word ("Reche Sainz C/ Guzmán el Bueno"), not a name part."""
    return style == "initial" and text.startswith("/", tok_end)


@cache
def name_scanner(lang: str) -> NameScanner:
    """The (cached) scanner of a pack language."""
    return NameScanner(NAME_WORDS[lang])


def with_upper(words: tuple[str, ...]) -> list[str]:
    """Titles as written and in capitals ("Dr." and "DR.", "Oberarzt" and "OBERARZT")."""
    out = list(words)
    out += [w.upper() for w in words if w.upper() not in out and len(w.rstrip(".")) > 1]
    return out
