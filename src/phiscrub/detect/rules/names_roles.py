"""English name rules around staff roles, nicknames, spelled-out names and sign-offs.

Forms found on notes written by people who never saw the rules (``docs/model.md``, "Fresh notes"):

* a name in brackets after a role, or a role in brackets after a name, in any case: ``renal fellow
  (Bhatt)``, ``d/w anjali (fellow)``, ``charge rn (kelly)``;
* a role abbreviation before a name: ``CM Dana following``, ``SW Maria aware``, ``PA Ochoa``; ``RT``,
  ``PA`` and ``SW`` are also *right*, a state and *south-west*, so the word after must be a listed
  given name or a capitalised word that is neither a common word, clinical vocabulary nor a place;
* a nickname after ``goes by``, ``prefers to be called``, ``known as``, ``aka``: ``pt (goes by frank)``,
  ``Pt goes by "Chuy"``; common words are taken there (the cue says a name follows) when they are
  listed given names or written with a capital;
* a name spelled out letter by letter in dictation, right after the name: ``Opal, O-P-A-L`` (one
  misheard letter allowed from five letters: ``Stringor, S-T-R-I-N-G-E-R``);
* initials signing a message at its end, on a line of their own or after its last sentence:
  ``- TC``, ``go to the ED. - TC``.
"""

from __future__ import annotations

import re

from phiscrub.detect.clinical_vocab import clinical_vocabulary, word_set
from phiscrub.detect.rules.base import PatternRule
from phiscrub.detect.rules.names_data import NAME_STOPWORDS

__all__ = ["ROLE_NAME_RULES_EN"]

_NAME = r"[A-Za-z][a-z'’-]+"
_ROLES = (
    r"fellow|resident|intern|attending|hospitalist|np|pa|pa-c|rn|charge[ \t]+rn|charge[ \t]+nurse|nurse"
    r"|cm|case[ \t]+manager|sw|social[ \t]+worker|pharmacist|chaplain|rt|pt|ot|slp|therapist|pgy-?\d|ms-?\d"
)
# "renal fellow (Bhatt)", "the resident (Dr. Park)" is the title rule's; "charge rn (kelly)".
_ROLE_PAREN_RE = re.compile(
    rf"(?<![\w-])(?i:{_ROLES})[ \t]*\((?P<n>{_NAME}(?:[ \t][A-Z][a-z'’-]+)?)\)"
    # "d/w anjali (fellow)", "Marsh (intern) paged" (the trainee rule takes the title-case ones).
    rf"|(?<![\w'’.-])(?P<m>{_NAME})[ \t]*\((?i:{_ROLES})\)"
)
# "CM Dana following", "SW Maria aware", "PA Ochoa", not after a number ("3 CM Mass").
_ROLE_ABBR_RE = re.compile(
    r"(?<![\w/.\-])(?:CM|SW|CN|OT|SLP|RT|RRT|PA|MSW|LCSW|LICSW|NP|RN)[ \t]+(?P<n>[A-Z][a-z'’-]+(?:[ \t][A-Z][a-z'’-]+)?)"
    r"(?![\w'’-])"
)
# "(goes by frank)", 'goes by "Chuy"', "prefers to be called Bud", "known as Junior", "aka Lupe".
_NICKNAME_RE = re.compile(
    r"\b(?i:goes[ \t]+by|go[ \t]+by|going[ \t]+by|prefers[ \t]+to[ \t]+be[ \t]+called|likes[ \t]+to[ \t]+be[ \t]+called"
    r"|prefers[ \t]+the[ \t]+name|known[ \t]+as|a\.?k\.?a\.?|nicknamed?)[ \t]*:?[ \t]+[\"'“‘]?(?P<n>[A-Za-z][a-z'’-]+)"
)
# "Opal, O-P-A-L": three or more capitals joined by hyphens.
_SPELLED_RE = re.compile(r"(?<![\w-])(?P<s>[A-Z](?:-[A-Z]){2,})(?![\w-])")
_WORD_BEFORE_RE = re.compile(r"([A-Za-z'’]+)[ \t]*[,:]?[ \t]*(?:\(?[ \t]*)?\Z")
# "- TC" (or "-TC", "~JS") on a line of its own or after a sentence, ending the note or before a blank
# line or a rule.
_SIGNOFF_RE = re.compile(
    r"(?:(?m:^)[ \t]*|(?<=[.!?])[ \t]+)[-–—~][ \t]?(?P<i>[A-Z]{2,3})(?=[ \t]*(?:\n[ \t]*)*\Z|[ \t]*\n[ \t]*(?:\n|[-=_*]{3}))"
)
#: Transport and everyday words after "goes by" that name no one ("goes by ambulance").
_NOT_NICKNAMES = word_set(
    """
    ambulance car bus taxi van train foot walker wheelchair cane scooter plane bike bicycle truck
    the a an his her their its my our your both either first last middle full maiden legal
    """
)


def _plain(word: str) -> bool:
    """A common word, clinical vocabulary, a place word or a stop word: evidence of no name."""
    vocab = clinical_vocabulary()
    low = word.lower()
    return (
        low in NAME_STOPWORDS
        or low in vocab.clinical
        or low in vocab.care_units
        or (low in vocab.common and low not in vocab.first_names)
        or (low in vocab.places and low not in vocab.names)
    )


def _role_paren_ok(m: re.Match[str]) -> bool:
    if m.group("n") is not None:
        words = m.group("n").split()
        return not any(_plain(w) for w in words)
    word = m.group("m")
    if word[:1].isupper() and not word.isupper():
        return False  # title case is the trainee rule's (names.py)
    return not _plain(word) and word.lower() not in clinical_vocabulary().wordnet


def _role_abbr_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if re.search(r"\d[ \t]*\Z", text[max(0, start - 4) : start]):
        return False  # "3 CM Mass", "2 RN staff"
    return not any(_plain(w) for w in m.group("n").split())


def _nickname_ok(m: re.Match[str]) -> bool:
    word = m.group("n")
    low = word.lower()
    vocab = clinical_vocabulary()
    if low in _NOT_NICKNAMES or low in NAME_STOPWORDS or low in vocab.clinical:
        return False
    return low in vocab.first_names or word[:1].isupper() or low not in vocab.wordnet


def _one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by at most one substituted, added or dropped letter."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _spelled_ok(m: re.Match[str]) -> bool:
    """The letters spell the word right before them (a misheard letter allowed from five letters)."""
    before = _WORD_BEFORE_RE.search(m.string, max(0, m.start() - 40), m.start())
    if before is None:
        return False
    word, letters = before.group(1).lower(), m.group("s").replace("-", "").lower()
    vocab = clinical_vocabulary()
    if word.upper() in vocab.abbreviations or word in vocab.clinical:
        return False  # "ABC, A-B-C": a clinical word spelled out
    return word == letters or (len(letters) >= 5 and _one_edit(word, letters))


def _signoff_ok(m: re.Match[str]) -> bool:
    initials = m.group("i")
    vocab = clinical_vocabulary()
    return initials not in vocab.abbreviations and initials.lower() not in NAME_STOPWORDS


ROLE_NAME_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("DOCTOR",  _ROLE_PAREN_RE, name="role_paren",   score=0.7, group=("n", "m"), validator=_role_paren_ok),
    PatternRule("DOCTOR",  _ROLE_ABBR_RE,  name="role_abbr",    score=0.7, group="n", validator=_role_abbr_ok),
    PatternRule("PATIENT", _NICKNAME_RE,   name="nickname",     score=0.7, group="n", validator=_nickname_ok),
    PatternRule("PATIENT", _SPELLED_RE,    name="spelled_name", score=0.7, group="s", validator=_spelled_ok),
    PatternRule("DOCTOR",  _SIGNOFF_RE,    name="signoff",      score=0.6, group="i", validator=_signoff_ok),
)  # fmt: skip
