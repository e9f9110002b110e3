"""Feature extraction for synthetic letters (Ren et al. 2025, sections 3.3.4 and 3.4.3).

Every whitespace-separated word of a letter gets a *role*: either ``eligible`` (a plain word that a
masking strategy may pick) or the reason it is kept as it is. Following the paper's principles:

* ``phi``: inside a PHI span (these are replaced separately, by surrogates or a refill, never by a
  masking strategy);
* ``entity``: inside a gold entity span given with the input (annotated clinical concepts);
* ``structure``: document structure: heading lines (mostly capitals, few words, or a short
  capitalised line after a blank line) and ``Label:`` prefixes at the start of a line or after a
  wide gap;
* ``clinical``: a term of the bundled medical lexicon (:mod:`phiscrub.resources` ``medical/``: drug
  names, problem/procedure terms, case-sensitive abbreviations, units and dosing shorthand), or an
  abbreviation-like word (two or more capitals in a mixed-case line, inner capitals as in ``MoCA``);
* ``cue``: negations, laterality and titles ("no", "denies", "left", "Dr"), whose change would flip
  the clinical meaning or break a name;
* ``pattern``: anything that is not a plain word: numbers, doses, units glued to numbers, dates,
  punctuation, ``40 mg/0.4 ml``, ``b.i.d.``, hyphenated or possessive forms; and a word right after a
  number ("6 ft", "3 days"), which is a unit or what is counted;
* ``blank``: de-identification blanks (``___``, ``[**...**]``), refilled in post-processing.

Words also carry a part of speech from the offline WordNet tagger
(:func:`phiscrub.augment.context.pos_tag`: ``n`` ``v`` ``a`` ``r``, ``x`` for function words; English
only) and a stopword flag, which the POS and stopword strategies use: an NLTK-style English list, or
the letter's language's bundled list (``resources/stopwords/<lang>.txt``, Spanish for now) via
:func:`load_stopwords`. Spanish letters also keep Spanish negations, laterality and titles as cues
(:data:`CUE_WORDS_ES`).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from phiscrub.augment.context import pos_tag
from phiscrub.document import Span
from phiscrub.errors import ConfigError
from phiscrub.resources import stopword_list

__all__ = [
    "BLANK_RE",
    "CUE_WORDS",
    "CUE_WORDS_ES",
    "ROLES",
    "STOPWORDS",
    "LetterFeatures",
    "MedicalLexicon",
    "Word",
    "extract_features",
    "load_medical_lexicon",
    "load_stopwords",
    "structure_ranges",
]

#: Every role a word can have; only ``eligible`` words are masked by the strategies.
ROLES: tuple[str, ...] = ("eligible", "phi", "entity", "structure", "clinical", "cue", "pattern", "blank")

#: De-identification blanks: three or more underscores, MIMIC ``[**...**]`` tags.
BLANK_RE = re.compile(r"_{3,}|\[\*\*[^\]\n]{0,80}?\*\*\]")

#: English stopwords (function words) for the stopword strategy, in the spirit of NLTK's list, minus
#: the negations, which are cues.
STOPWORDS: frozenset[str] = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "also",
        "may",
        "might",
        "must",
        "shall",
        "upon",
        "via",
        "per",
    ]
)

#: Words kept for clinical soundness or to keep names whole: negations, laterality, titles.
CUE_WORDS: frozenset[str] = frozenset(
    [
        "no",
        "not",
        "none",
        "never",
        "neither",
        "nor",
        "without",
        "denies",
        "denied",
        "deny",
        "denying",
        "negative",
        "positive",
        "absent",
        "cannot",
        "unable",
        "nothing",
        "left",
        "right",
        "bilateral",
        "bilaterally",
        "unilateral",
        "dr",
        "mr",
        "mrs",
        "ms",
        "miss",
        "prof",
        "mx",
    ]
)

#: Spanish cues, added to :data:`CUE_WORDS` for Spanish letters: negations, laterality, titles.
CUE_WORDS_ES: frozenset[str] = frozenset(
    [
        "no",
        "ni",
        "sin",
        "nunca",
        "nada",
        "nadie",
        "ninguno",
        "ninguna",
        "ningun",
        "tampoco",
        "niega",
        "negaba",
        "negativo",
        "negativa",
        "positivo",
        "positiva",
        "ausente",
        "ausencia",
        "izquierdo",
        "izquierda",
        "izquierdos",
        "izquierdas",
        "derecho",
        "derecha",
        "derechos",
        "derechas",
        "bilateral",
        "bilaterales",
        "dr",
        "dra",
        "sr",
        "sra",
        "srta",
    ]
)

_WORD_RE = re.compile(r"\S+")
_LEAD = "([{\"'*•‘“<"
_TRAIL = ")]}\"',.;:!?*’”>"
_LEX_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:[-'’.][A-Za-z0-9]+)*")
_MAX_TERM_WORDS = 6
_LABEL_AT_LINE = re.compile(r"(?m)^[ \t]*(?:[-*•][ \t]*)?[A-Za-z][A-Za-z0-9 /&'().#+-]{0,48}?[ \t]*:(?!\d)")
_LABEL_INLINE = re.compile(
    r"(?:(?<=[ \t]{2})|(?<=\t))[A-Z][A-Za-z0-9/&.#+-]*(?: [A-Za-z0-9/&.#+-]+){0,3}:(?!\d)"
)


@dataclass(frozen=True)
class Word:
    """One word of a letter.

    Attributes:
        start: first character of the word's core (leading/trailing punctuation stripped).
        end: one past its last character.
        text: the core text.
        role: one of :data:`ROLES`.
        pos: ``n``, ``v``, ``a``, ``r`` (content words), ``x`` (function word) or ``""``.
        stopword: whether the lower-cased word is a stopword of the letter's language.
    """

    start: int
    end: int
    text: str
    role: str
    pos: str = ""
    stopword: bool = False

    @property
    def eligible(self) -> bool:
        """Whether a masking strategy may pick this word."""
        return self.role == "eligible"


@dataclass(frozen=True)
class LetterFeatures:
    """The features of one letter.

    Attributes:
        words: every word, in order (plain words and kept patterns).
        blanks: character ranges of de-identification blanks.
        structure: character ranges of document structure (headings, labels).
        clinical: character ranges of medical lexicon matches.
    """

    words: tuple[Word, ...]
    blanks: tuple[tuple[int, int], ...]
    structure: tuple[tuple[int, int], ...]
    clinical: tuple[tuple[int, int], ...]

    def eligible(self) -> list[Word]:
        """The words a masking strategy may pick."""
        return [w for w in self.words if w.eligible]

    def role_counts(self) -> dict[str, int]:
        """How many words have each role."""
        counts = dict.fromkeys(ROLES, 0)
        for w in self.words:
            counts[w.role] += 1
        return counts


@dataclass(frozen=True)
class MedicalLexicon:
    """Offline clinical vocabulary: case-insensitive terms and case-sensitive abbreviations.

    Attributes:
        terms: lower-case terms of one to six words (drugs, problems, procedures, units).
        abbreviations: case-sensitive abbreviations and units (``BP``, ``MoCA``, ``mL``).
    """

    terms: frozenset[str]
    abbreviations: frozenset[str]

    def find(self, text: str) -> list[tuple[int, int]]:
        """Character ranges of lexicon matches in ``text``, longest match first, left to right."""
        words = list(_LEX_WORD_RE.finditer(text))
        out: list[tuple[int, int]] = []
        i = 0
        while i < len(words):
            matched = 0
            for n in range(min(_MAX_TERM_WORDS, len(words) - i), 0, -1):
                group = words[i : i + n]
                if any(not text[a.end() : b.start()].isspace() for a, b in itertools.pairwise(group)):
                    continue
                phrase = " ".join(m.group().lower() for m in group)
                if phrase in self.terms or (n == 1 and self._single(group[0].group())):
                    matched = n
                    break
            if matched:
                out.append((words[i].start(), words[i + matched - 1].end()))
                i += matched
            else:
                i += 1
        return out

    def _single(self, word: str) -> bool:
        if word in self.abbreviations:
            return True
        low = word.lower()
        # Plurals of terms ("seizures", "stents") count as the term.
        return len(low) > 4 and low.endswith("s") and low[:-1] in self.terms


def _read_medical(name: str) -> list[str]:
    path = resources.files("phiscrub.resources").joinpath("medical", name)
    if not path.is_file():
        raise ConfigError(f"missing bundled medical lexicon file medical/{name}; reinstall phiscrub")
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@cache
def load_medical_lexicon() -> MedicalLexicon:
    """The bundled medical lexicon (``resources/medical``, see its NOTICE), loaded once.

    Raises:
        ConfigError: a bundled file is missing.
    """
    terms = {t.lower() for t in _read_medical("drugs.txt") + _read_medical("terms.txt")}
    abbrevs = set(_read_medical("abbreviations.txt"))
    for unit in _read_medical("units.txt"):
        # Lower-case units match in any case except all capitals ("MG" is also myasthenia gravis).
        abbrevs.add(unit)
        if unit.islower() and unit.isalpha():
            terms.add(unit)
    return MedicalLexicon(frozenset(terms), frozenset(abbrevs))


@cache
def load_stopwords(lang: str = "en") -> frozenset[str]:
    """The stopwords of a language: :data:`STOPWORDS` for English, else the bundled list.

    Args:
        lang: language code (``en``, ``es``, ...). A language without a bundled list
            (``resources/stopwords/<lang>.txt``) gets the English list.

    Returns:
        Lower-case stopwords.
    """
    if lang == "en":
        return STOPWORDS
    return stopword_list(lang) or STOPWORDS


def _upper_line(text: str, start: int, end: int) -> bool:
    letters = [c for c in text[start:end] if c.isalpha()]
    return len(letters) >= 3 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def structure_ranges(text: str) -> list[tuple[int, int]]:
    """Document structure: heading lines and ``Label:`` prefixes, as character ranges.

    A heading is a line of at most six words, mostly capitals, not ending in a full stop
    ("HOSPITAL COURSE", "DISCHARGE MEDICATIONS"), or a capitalised line of at most four words after a
    blank line, ending in a letter or digit ("Current medications"). A label is the text before a colon at the start of
    a line (at most five words: "Chief Complaint:", "Reason for Orthopedics Consult:") or after a wide
    gap within a line ("Patient: ...      MRN: ...").
    """
    out: list[tuple[int, int]] = []
    pos = 0
    prev_blank = True
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        stripped = body.strip()
        n_words = len(stripped.split())
        heading = 0 < n_words <= 6 and not stripped.endswith(".") and _upper_line(body, 0, len(body))
        # A short capitalised line after a blank line, without final punctuation: "Current medications".
        titled = prev_blank and 0 < n_words <= 4 and stripped[:1].isupper() and stripped[-1:].isalnum()
        if heading or titled:
            lead = len(body) - len(body.lstrip())
            out.append((pos + lead, pos + lead + len(stripped)))
        prev_blank = not stripped
        pos += len(line)
    for regex in (_LABEL_AT_LINE, _LABEL_INLINE):
        for m in regex.finditer(text):
            label = m.group().strip(" \t-*•:")
            if label and len(label.split()) <= 5:
                lead = len(m.group()) - len(m.group().lstrip(" \t"))
                out.append((m.start() + lead, m.end()))
    return sorted(out)


class _RangeIndex:
    """Overlap queries against character ranges (merged into disjoint sorted intervals)."""

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for s, e in sorted(ranges):
            if merged and s <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        self.starts = [s for s, _ in merged]
        self.ends = [e for _, e in merged]

    def hits(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` shares a character with any range."""
        i = bisect.bisect_left(self.starts, end) - 1  # last interval starting before ``end``
        return i >= 0 and self.ends[i] > start


def _after_number(text: str, start: int) -> bool:
    """The word follows a number directly ("6 ft", "4 L", "3 days"): a unit or a count, kept."""
    before = text[max(0, start - 12) : start].rstrip(" ")
    return bool(before) and before[-1].isdigit() and start - len(before) <= 1


def _abbreviation_like(word: str, text: str, start: int) -> bool:
    """Two or more capitals in a mixed-case line ("CAM", "ED"), or inner capitals ("MoCA", "pH")."""
    if any(c.isupper() for c in word[1:]) and not word.isupper():
        return True
    if len(word) >= 2 and word.isupper():
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        return not _upper_line(text, line_start, line_end if line_end >= 0 else len(text))
    return False


def extract_features(
    text: str,
    phi: Sequence[Span] = (),
    entities: Sequence[Span] = (),
    *,
    lexicon: MedicalLexicon | None = None,
    blanks: bool = True,
    lang: str = "en",
) -> LetterFeatures:
    """Give every word of ``text`` its role, part of speech and stopword flag.

    Args:
        text: the letter.
        phi: PHI spans of ``text`` (their words get the role ``phi``).
        entities: gold clinical entity spans to keep (role ``entity``).
        lexicon: the medical lexicon; the bundled one when None.
        blanks: find de-identification blanks (role ``blank``); when False they are ``pattern``.
        lang: the letter's language: picks the stopword list (:func:`load_stopwords`) and, for
            ``es``, adds the Spanish cues (:data:`CUE_WORDS_ES`).

    Returns:
        The letter's :class:`LetterFeatures`.
    """
    lex = lexicon if lexicon is not None else load_medical_lexicon()
    stopwords = load_stopwords(lang)
    cues = CUE_WORDS | CUE_WORDS_ES if lang == "es" else CUE_WORDS
    blank_ranges = [(m.start(), m.end()) for m in BLANK_RE.finditer(text)] if blanks else []
    structure = structure_ranges(text)
    clinical = lex.find(text)
    blank_idx = _RangeIndex(blank_ranges)
    phi_idx = _RangeIndex((s.start, s.end) for s in phi)
    ent_idx = _RangeIndex((s.start, s.end) for s in entities)
    struct_idx = _RangeIndex(structure)
    clin_idx = _RangeIndex(clinical)
    tags = {(t.start, t.end): t.pos for t in pos_tag(text)}
    words: list[Word] = []
    for m in _WORD_RE.finditer(text):
        raw = m.group()
        core = raw.lstrip(_LEAD)
        start = m.start() + (len(raw) - len(core))
        core = core.rstrip(_TRAIL)
        if not core:
            continue  # punctuation only
        end = start + len(core)
        low = core.lower()
        plain = core.isascii() and core.isalpha()
        if blank_idx.hits(m.start(), m.end()):
            role = "blank"
        elif phi_idx.hits(start, end):
            role = "phi"
        elif ent_idx.hits(start, end):
            role = "entity"
        elif struct_idx.hits(start, end):
            role = "structure"
        elif not plain or _after_number(text, m.start()):
            role = "pattern"
        elif clin_idx.hits(start, end) or _abbreviation_like(core, text, start):
            role = "clinical"
        elif low in cues:
            role = "cue"
        else:
            role = "eligible"
        words.append(Word(start, end, core, role, tags.get((start, end), ""), plain and low in stopwords))
    return LetterFeatures(tuple(words), tuple(blank_ranges), tuple(structure), tuple(clinical))
