"""English name rules around staff roles, nicknames, spelled-out names and sign-offs.

Forms found on notes written by people who never saw the rules (``docs/model.md``, "Fresh notes"):

* a name in brackets after a role, or a role in brackets after a name, in any case: ``renal fellow
  (Bhatt)``, ``d/w anjali (fellow)``, ``charge rn (kelly)``;
* a role abbreviation before a name: ``CM Dana following``, ``SW Maria aware``, ``PA Ochoa``; ``RT``,
  ``PA`` and ``SW`` are also *right*, a state and *south-west*, so the word after must be a listed
  given name or a capitalised word that is neither a common word, clinical vocabulary nor a place;
* a nickname after ``goes by``, ``prefers to be called``, ``known as``, ``aka``: ``pt (goes by frank)``,
  ``Pt goes by "Chuy"``; common words are taken there (the cue says a name follows) when they are
  listed given names or written with a capital; a nickname in quotes after a name in brackets or after
  ``prefers``: ``Harold Rice ("Bud")``, ``stuckey, eugene ("gene")``, ``pt prefers "bud"``;
* a name spelled out letter by letter in dictation, right after the name: ``Opal, O-P-A-L`` (one
  misheard letter allowed from five letters: ``Stringor, S-T-R-I-N-G-E-R``);
* a lower-case given name after ``pt`` (``pt arlene, vent day 3``, ``pt (lorretta) sah``) and a given
  name that is also a common word after a talk verb, before where the person works or what was
  discussed (``spoke w/ sue in pharmacy``, ``d/w mark re: plan``);
* a writer naming themselves in a message (``this is DeShawn M``, ``its keyana``) and a reply opening on
  the name of whom it answers (``Keyana, with a headache ...``), for a listed given name or a word no
  dictionary has;
* initials signing a message at its end (a credential may follow: ``-KM LPN``), on a line of their own or after its last sentence:
  ``- TC``, ``go to the ED. - TC``.
"""

from __future__ import annotations

import re

from phiscrub.detect.clinical_cues import SIGNOFF_CREDENTIALS
from phiscrub.detect.clinical_vocab import clinical_vocabulary, word_set
from phiscrub.detect.english_words import lowercase_ok
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule
from phiscrub.detect.rules.names_data import NAME_STOPWORDS

_RX = pattern_data("names_roles", {"SIGNOFF_CREDENTIALS": SIGNOFF_CREDENTIALS})


__all__ = ["ROLE_NAME_RULES_EN"]

#: Transport and everyday words after "goes by" that name no one ("goes by ambulance").
_NOT_NICKNAMES = word_set(
    """
    ambulance car bus taxi van train foot walker wheelchair cane scooter plane bike bicycle truck
    the a an his her their its my our your both either first last middle full maiden legal
    """
)


def _listed_given_name(word: str) -> bool:
    """A given name on the bundled lists that is no common English word ("kate", not "frank")."""
    vocab = clinical_vocabulary()
    low = word.lower()
    return low in vocab.first_names and low not in vocab.common


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


def _quoted_nickname_ok(m: re.Match[str]) -> bool:
    """A quoted word after a name in brackets ('Rice ("Bud")') or after "prefers" ('prefers "bud"')
    that is no clinical or stop word."""
    pre, word = m.group("pre"), m.group("n")
    vocab = clinical_vocabulary()
    cue = pre.lower().startswith(("prefer", "call"))
    bracketed = "(" in m.group()
    if bracketed and not cue and pre.lower() in vocab.common and pre[:1].islower():
        return False  # 'confusion ("sundowning")': a term in quotes after an everyday word
    if not cue and not (bracketed and (pre[:1].isupper() or pre.lower() in vocab.first_names)):
        return False
    low = word.lower()
    # The form says a name is quoted ("Bud", "bud", "Sonny"): any word but clinical and stop words.
    return not (low in NAME_STOPWORDS or low in vocab.clinical or low in _NOT_NICKNAMES)


def _quoted_kin_ok(m: re.Match[str]) -> bool:
    """A quoted word that is no clinical, stop or everyday word ('friend "Dre"', not 'friend "help"')."""
    vocab = clinical_vocabulary()
    words = (m.group("n") or m.group("m")).split()
    return not any(
        w.lower() in NAME_STOPWORDS
        or w.lower() in vocab.clinical
        or (_plain(w) and w.lower() not in vocab.first_names)
        for w in words
    )


def _therapy_with_ok(m: re.Match[str]) -> bool:
    """A listed given name after a therapy cue; before a credential, any word that is not plain."""
    vocab = clinical_vocabulary()
    word = m.group("n") or m.group("m")
    low = word.lower()
    if low in NAME_STOPWORDS or low in vocab.clinical or low in vocab.care_units:
        return False
    return _listed_given_name(word) or (m.group("m") is not None and not _plain(word))


def _pt_lower_ok(m: re.Match[str]) -> bool:
    """A listed given name that is no common word; in brackets, any word no dictionary has."""
    vocab = clinical_vocabulary()
    low = m.group("n")
    if low in NAME_STOPWORDS or low in vocab.clinical or low in vocab.care_units:
        return False
    if _listed_given_name(low):
        return True
    if re.search(r"(?:ed|ing|ly|tion|ment|ness|able|ible|ous|ive)\Z", low):
        return False  # "pt (intubated)", "pt (sedated)": a state, not a name
    return m.group("p") is not None and low not in vocab.wordnet and low not in vocab.common


def _talk_name_ok(m: re.Match[str]) -> bool:
    """A listed given name (common words allowed: "sue", "mark", "bill"), no stop or clinical word."""
    vocab = clinical_vocabulary()
    low = (m.group("n") or m.group("m")).lower()
    return low in vocab.first_names and low not in NAME_STOPWORDS and low not in vocab.clinical


def _unknown_word(word: str) -> bool:
    """No dictionary, clinical or stop word: a name where the form says a person is meant."""
    vocab = clinical_vocabulary()
    low = word.lower()
    return not (
        low in NAME_STOPWORDS
        or low in vocab.clinical
        or low in vocab.wordnet
        or low in vocab.common
        or low in vocab.care_units
        or word.upper() in vocab.abbreviations
    )


def _self_intro_ok(m: re.Match[str]) -> bool:
    word = m.group("n")
    return _listed_given_name(word) or (
        _unknown_word(word) and (word[:1].isupper() or m.group(0)[:2].lower() == "it")
    )


def _vocative_ok(m: re.Match[str]) -> bool:
    word = m.group("n")
    return _listed_given_name(word) or _unknown_word(word)


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
    before = _RX["WORD_BEFORE_RE"].search(m.string, max(0, m.start() - 40), m.start())
    if before is None:
        return False
    word, letters = before.group(1).lower(), m.group("s").replace("-", "").lower()
    vocab = clinical_vocabulary()
    if word.upper() in vocab.abbreviations or word in vocab.clinical:
        return False  # "ABC, A-B-C": a clinical word spelled out
    return word == letters or (len(letters) >= 5 and _one_edit(word, letters))


def _signoff_ok(m: re.Match[str]) -> bool:
    initials = m.group("i")
    if initials.lower() in NAME_STOPWORDS:
        return False
    if initials.islower():
        # "-bg rn": the credential vouches for any letters; "-ga" alone: not a word in use ("-ok")
        return m.end() > m.end("i") or lowercase_ok(initials)
    return initials not in clinical_vocabulary().abbreviations


ROLE_NAME_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("DOCTOR",  _RX["ROLE_PAREN_RE"], name="role_paren",   score=0.7, group=("n", "m"), validator=_role_paren_ok),
    PatternRule("DOCTOR",  _RX["ROLE_ABBR_RE"],  name="role_abbr",    score=0.7, group="n", validator=_role_abbr_ok),
    PatternRule("PATIENT", _RX["NICKNAME_RE"],   name="nickname",     score=0.7, group="n", validator=_nickname_ok),
    PatternRule("PATIENT", _RX["QUOTED_NICKNAME_RE"], name="nickname_quoted", score=0.7, group="n", validator=_quoted_nickname_ok),
    PatternRule("RELATIVE", _RX["QUOTED_KIN_RE"], name="quoted_kin", score=0.6, group=("n", "m"), validator=_quoted_kin_ok),
    PatternRule("DOCTOR",  _RX["THERAPY_WITH_RE"], name="therapy_with", score=0.6, group=("n", "m"), validator=_therapy_with_ok),
    PatternRule("PATIENT", _RX["SPELLED_RE"],    name="spelled_name", score=0.7, group="s", validator=_spelled_ok),
    PatternRule("PATIENT", _RX["PT_LOWER_RE"],   name="pt_lower",     score=0.6, group="n", validator=_pt_lower_ok),
    PatternRule("PATIENT", _RX["SELF_INTRO_RE"], name="self_intro",   score=0.6, group=("n", "i"), validator=_self_intro_ok),
    PatternRule("PATIENT", _RX["VOCATIVE_RE"],   name="vocative",     score=0.5, group="n", validator=_vocative_ok),
    PatternRule("DOCTOR",  _RX["TALK_COMMON_NAME_RE"], name="talk_name", score=0.6, group=("n", "m"), validator=_talk_name_ok),
    PatternRule("DOCTOR",  _RX["SIGNOFF_RE"],    name="signoff",      score=0.6, group="i", validator=_signoff_ok),
    PatternRule("DOCTOR",  _RX["SIGNOFF_LOWER_NAME_RE"], name="signoff_lower_name", score=0.6, group="n"),
)  # fmt: skip
