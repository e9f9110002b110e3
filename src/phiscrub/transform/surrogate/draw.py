"""Seeded drawing for one note: the note's language, its invented people and dates, the word lists.

Placeholder filling and augmentation draw invented values from a :class:`random.Random` (a seeded
:class:`~phiscrub.transform.surrogate.source.Source`). A :class:`NoteDraw` holds what the draws of
one note share, so the note stays coherent: the patient is one invented person, relatives may share
the surname, dates cluster around one invented admission date, one date format is the note's usual.

``vocab="train"`` / ``"test"`` restricts the open lists (names, towns, hospitals, companies, streets,
facility words) to a fixed hash-defined part of their entries (:func:`vocab_part`, 80% / 20%).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from dataclasses import dataclass, field

from phiscrub.errors import ConfigError
from phiscrub.langid import detect_language
from phiscrub.resources import load_lexicon
from phiscrub.transform.surrogate.cues import ELISION_BEFORE
from phiscrub.transform.surrogate.source import weighted
from phiscrub.transform.surrogate.wordlists import (
    CA_SHARE,
    DATE_FORMATS,
    US_FEMALE,
    US_LAST,
    US_MALE,
    US_NAME_SHARE,
    VOWEL_START,
)

__all__ = [
    "FILL_LANGS",
    "PLACEHOLDER_RE",
    "VOCABS",
    "VOCAB_TEST_SHARE",
    "NoteDraw",
    "Person",
    "detect_lang",
    "vocab_part",
]

#: Languages with their own fill formats; ``auto`` detects one per note.
FILL_LANGS: tuple[str, ...] = ("en", "es", "ca", "zh", "auto")
#: A placeholder-like token: upper-case letters and underscores in square brackets.
PLACEHOLDER_RE = re.compile(r"\[([A-Z][A-Z_]*)\]")
#: Fill vocabularies: ``all`` entries, or a fixed ``train`` / ``test`` part of every open name list.
VOCABS: tuple[str, ...] = ("all", "train", "test")
#: Share of the entries of each open list (names, towns, hospitals, companies, streets, facility
#: words) in the ``test`` vocabulary. A tagger trained on ``train`` fills and scored on ``test``
#: fills meets only names it never saw, as on real notes.
VOCAB_TEST_SHARE = 0.2
_VOCAB_SALT = "phiscrub-vocab-v1"
_VOCAB_CACHE: dict[tuple[int, int, str], tuple[str, ...]] = {}
#: Open lists (bundled lexicon stems) that the vocabulary split applies to.
_OPEN_LISTS = frozenset({"first_names_female", "first_names_male", "last_names", "cities", "hospitals", "companies",
                         "street_names", "first_names_female_ca", "first_names_male_ca", "last_names_ca",
                         "cities_ca", "hospitals_ca", "street_names_ca"})  # fmt: skip
_FILL_CANDIDATES = ("en", "es", "ca", "zh")


def vocab_part(entry: str) -> str:
    """``test`` or ``train``: the fixed part of the fill vocabulary an entry belongs to (hash of it)."""
    digest = hashlib.sha256(f"{_VOCAB_SALT}:{entry}".encode()).hexdigest()
    return "test" if int(digest[:8], 16) / 16**8 < VOCAB_TEST_SHARE else "train"


def _vocab_filter(entries: tuple[str, ...], vocab: str) -> tuple[str, ...]:
    """The entries of ``vocab`` (all of them for ``all``, or when the part would be empty)."""
    if vocab == "all":
        return entries
    key = (id(entries), len(entries), vocab)
    cached = _VOCAB_CACHE.get(key)
    if cached is None:
        cached = tuple(e for e in entries if vocab_part(e) == vocab) or entries
        _VOCAB_CACHE[key] = cached
    return cached


def _spanish_departments() -> tuple[str, ...]:
    """The Spanish/Catalan department list without its Catalan spellings."""
    catalan = set(load_lexicon("departments_ca", "ca"))
    return tuple(d for d in load_lexicon("departments", "es") if d not in catalan)


def detect_lang(text: str) -> str:
    """The fill language of a note (en, es, ca or zh): :func:`phiscrub.langid.detect_language`
    over those four, reading words of two letters or more and keeping English unless Spanish or
    Catalan has two hits or more (telegraphic English and short contexts stay English)."""
    return detect_language(text, _FILL_CANDIDATES, "en", min_word_len=2, min_evidence=2.0)


@dataclass
class Person:
    """An invented person of one note."""

    first: str
    last: str
    gender: str  # f | m
    middle: str = ""
    second_last: str = ""  # Spanish second surname


@dataclass
class NoteState:
    """What one note's fills share: the patient, pools of people, the index date."""

    base: dt.date
    patient: Person | None = None
    patient_gender: str | None = None
    doctors: list[Person] = field(default_factory=list)
    relatives: list[Person] = field(default_factory=list)
    usernames: list[str] = field(default_factory=list)
    patient_age: int = 60
    house_format: str = ""  # the note's usual date format, used for about half of its dates
    last_city: str | None = None  # for "[CITY] ([STATE])" and "[STATE][CITY]"
    last_state: str | None = None


def _note_gender(text: str) -> str | None:
    if re.search(r"性别[：:]\s*女", text):
        return "f"
    if re.search(r"性别[：:]\s*男", text):
        return "m"
    low = f" {text.lower()} "
    she = len(re.findall(r"\b(?:she|her|hers|mrs|ms|la paciente|la pacient|sra)\b", low))
    he = len(re.findall(r"\b(?:he|his|him|mr|el paciente|el pacient)\b", low))
    if she > he:
        return "f"
    if he > she:
        return "m"
    return None


class NoteDraw:
    """The seeded source, language, word lists and shared state of one note's draws.

    Args:
        text: the note (its language and the patient's gender are read from it).
        rng: the seeded source.
        lang: ``en``, ``es``, ``ca``, ``zh`` or ``auto`` (detected from ``text``).
        vocab: ``all``, ``train`` or ``test`` part of the open lists.

    Raises:
        ConfigError: unknown language or vocabulary.
    """

    def __init__(self, text: str, rng: random.Random, lang: str, vocab: str = "all") -> None:
        if vocab not in VOCABS:
            raise ConfigError(f"unknown fill vocabulary {vocab!r}; use one of {', '.join(VOCABS)}")
        self.vocab = vocab
        if lang == "auto":
            lang = detect_lang(text)
        if lang not in FILL_LANGS:
            raise ConfigError(f"unknown fill language {lang!r}; use one of {', '.join(FILL_LANGS)}")
        self.rng = rng
        self.text = text
        self.lang = lang
        self.lex = {"es": "es", "ca": "es", "zh": "zh"}.get(lang)
        base = dt.date(2012, 1, 1) + dt.timedelta(days=rng.randrange(365 * 13))
        self.state = NoteState(base, patient_gender=_note_gender(text))
        self.state.patient_age = self.draw_age()
        self.state.house_format = weighted(rng, [f for f in DATE_FORMATS[lang] if "Y" in f[0]])

    @property
    def key(self) -> str:
        """The format family of the language: ``en``, ``zh``, or ``es`` (Spanish and Catalan)."""
        return "en" if self.lang == "en" else "zh" if self.lang == "zh" else "es"

    def lexicon(self, name: str) -> tuple[str, ...]:
        """The bundled list ``name`` of the note's language, in the fill vocabulary."""
        if self.lang == "ca" and name in CA_SHARE and self.rng.random() < CA_SHARE[name]:
            return self.part(load_lexicon(f"{name}_ca", "ca"), f"{name}_ca")
        if self.lang == "es" and name == "departments":
            return _spanish_departments()
        return self.part(load_lexicon(name, self.lex), name)

    def part(self, entries: tuple[str, ...], name: str = "") -> tuple[str, ...]:
        """``entries`` restricted to this draw's vocabulary part (open lists only)."""
        if self.vocab == "all" or (name and name not in _OPEN_LISTS):
            return entries
        return _vocab_filter(entries, self.vocab)

    def en_list(self, name: str) -> tuple[str, ...]:
        """A top-level (English, multi-locale) bundled list in this draw's vocabulary part."""
        return self.part(load_lexicon(name), name)

    def person(self, gender: str | None = None, surname: str | None = None) -> Person:
        """A new invented person (common US names for part of the English draws)."""
        rng = self.rng
        gender = gender or rng.choice("fm")
        firsts = self.lexicon("first_names_female" if gender == "f" else "first_names_male")
        lasts = self.lexicon("last_names")
        if self.lang == "en" and rng.random() < US_NAME_SHARE:
            firsts = self.part(US_FEMALE if gender == "f" else US_MALE)
            lasts = self.part(US_LAST)
        person = Person(rng.choice(firsts), surname or rng.choice(lasts), gender)
        if self.lang != "zh":
            if rng.random() < 0.2:
                person.middle = rng.choice(
                    self.lexicon("first_names_female" if gender == "f" else "first_names_male")
                )
            if self.lang in ("es", "ca") and rng.random() < 0.6:
                person.second_last = rng.choice(lasts)
        return person

    def pick(self, name: str, before: str = "") -> str:
        """One entry of the bundled list ``name`` (Catalan: a vowel after an elided "l'" / "d'")."""
        pool = self.lexicon(name)
        if self.lang == "ca" and ELISION_BEFORE.search(before):
            pool = tuple(w for w in pool if w.lower().startswith(VOWEL_START)) or pool
        return self.rng.choice(pool)

    def draw_age(self) -> int:
        """An invented age: mostly adults, some children, some over 89."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.06:
            return rng.randint(90, 104)
        if roll < 0.12:
            return rng.randint(1, 17)
        return int(rng.triangular(18, 89, 64))
