"""German names of Swiss, Austrian and German ward notes (third fresh German set), wired through
:func:`.intl_german.german_name_rules` (German only):

* an initial and a surname before a comma and a staff role, whatever opens the field (``Notiert: C.
  Steiner, Hebamme``, ``E. Leitner, DSA``);
* a given name in brackets after a care role or a kinship word (``Bezugspflege (Jonas)``, ``ehefrau
  (renate) ruft an``), a relative's given name between a kinship word and a verb (``Die Ehefrau Vreni
  wünscht``), relatives and nurses of notes written in capitals (``SOHN RETO (TEL. ...)``,
  ``PFLEGEFACHFRAU SANDRA``);
* a patient named by given name and initial before the age (``Lea V., 14 J.``), the given names listed
  in a meeting's participants field (``Teilnehmende: Lea, Mutter, Vater``);
* the signature of a lower-case note (``f. roth`` alone on a line) and a login after a slash closing a
  signature (``Dr. med. M. Brunner / mbrunner``).
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_common import lower_case_note
from phiscrub.detect.rules.intl_german_common import CAPW, NAME, name_word, stop_word, stopwords
from phiscrub.detect.rules.intl_name_scan import name_lexicon
from phiscrub.detect.rules.intl_names_data import NAME_WORDS

__all__ = ["german_people_rules"]

#: Staff roles after a name and a comma: the pack's roles and the Swiss and Austrian ones.
_ROLES = trie_pattern(
    (
        *NAME_WORDS["de"].roles, "DSA", "DGKP", "DGKS", "Psychiater", "Psychiaterin", "Therapeut", "Therapeutin",
        "Bezugspflege", "Unterassistent", "Unterassistentin", "Pflegeexpertin", "Pflegeexperte",
        "Sozialpädagogin", "Sozialpädagoge", "Pflegehelferin", "Pflegehelfer", "Fachfrau Gesundheit",
    ),
    ignore_case=False,
)  # fmt: skip
#: Kinship words (not "Frau"/"Mann", which are also titles and nouns).
_KIN = trie_pattern((w for w in NAME_WORDS["de"].kin if w not in ("Frau", "Mann")), ignore_case=False)

_RX = pattern_data("intl_german_people", {"CAPW": CAPW, "NAME": NAME, "_ROLES": _ROLES, "_KIN": _KIN})

#: Time words that sign no note ("f. früh" is no initial and surname).
_TIME_WORDS = frozenset(
    ("früh", "spät", "abend", "abends", "nacht", "nachts", "mittag", "mittags", "morgens")
)


def _surname_ok(m: re.Match[str]) -> bool:
    return name_word(m.group("n").split(" ")[-1].split(".")[-1])


def _bracket_given_ok(m: re.Match[str]) -> bool:
    return m.group("n").lower() in name_lexicon("de").first


def _bracket_label(m: re.Match[str]) -> str:
    kin = {w.lower() for w in NAME_WORDS["de"].kin}
    before = m.group(0).split("(")[0].strip().lower()
    return "RELATIVE" if before in kin else "DOCTOR"


def _kin_given_ok(m: re.Match[str]) -> bool:
    return name_word(m.group("n"))


def _caps_name_ok(m: re.Match[str]) -> bool:
    """A listed given name, or any word before a telephone number in brackets ("SOHN RETO (TEL. ...)")."""
    n = m.group("n")
    if n.lower() in name_lexicon("de").first:
        return True
    phone_after = m.string.startswith(" (", m.end()) and m.string[m.end() + 2 : m.end() + 7].isupper()
    return phone_after and _upper_case_note(m.string) and not stop_word(n.title())


def _upper_case_note(text: str) -> bool:
    """A note written (almost) all in capitals: "PAT. MOBILISIERT MIT PHYSIO"."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 40 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def _caps_label(m: re.Match[str]) -> str:
    return "DOCTOR" if m.group("k").startswith(("PFLEG", "HEBAMME", "SR", "PFL", "DGK")) else "RELATIVE"


def _given_initial_ok(m: re.Match[str]) -> bool:
    return m.group("n").split(" ")[0].lower() in name_lexicon("de").first


def _participant_ok(m: re.Match[str]) -> bool:
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    field = _RX["PARTICIPANTS_RE"].search(m.string, line_start, m.end() + 1)
    if field is None or field.start("list") > m.start():
        return False
    return m.group("n").lower() in name_lexicon("de").first and m.group("n").lower() not in stopwords()


def _lower_sign_ok(m: re.Match[str]) -> bool:
    """A listed surname, or any name word on the note's last line ("f. roth" signing the note)."""
    surname = m.group("n").split(".")[-1].strip()
    if not lower_case_note(m.string) or surname in _TIME_WORDS or not name_word(surname):
        return False
    return surname in name_lexicon("de").last or not m.string[m.end() :].strip()


def _login_ok(m: re.Match[str]) -> bool:
    n = m.group("n")
    last = name_lexicon("de").last
    return n not in stopwords() and (n[1:] in last or n[2:] in last)


def german_people_rules(lang: str) -> tuple[PatternRule, ...]:
    """The name rules of the third German set (none for other languages)."""
    if lang != "de":
        return ()
    return (
        PatternRule("DOCTOR",   _RX["NAME_BEFORE_ROLE_RE"],  group="n", validator=_surname_ok,                                                                score=0.75, name="name_before_role_de"),
        PatternRule("DOCTOR",   _RX["ROLE_BRACKET_NAME_RE"], group="n", validator=_bracket_given_ok, labeler=_bracket_label, extra_labels=("RELATIVE",), score=0.75, name="role_bracket_name_de"),
        PatternRule("RELATIVE", _RX["KIN_GIVEN_VERB_RE"],    group="n", validator=_kin_given_ok,                                                              score=0.7,  name="kin_given_verb_de"),
        PatternRule("RELATIVE", _RX["CAPS_KIN_NAME_RE"],     group="n", validator=_caps_name_ok,     labeler=_caps_label,    extra_labels=("DOCTOR",),   score=0.7,  name="caps_kin_name_de"),
        PatternRule("PATIENT",  _RX["GIVEN_INITIAL_RE"],     group="n", validator=_given_initial_ok,                                                          score=0.75, name="given_initial_de"),
        PatternRule("PATIENT",  _RX["LIST_WORD_RE"],         group="n", validator=_participant_ok,                                                            score=0.7,  name="participant_de"),
        PatternRule("DOCTOR",   _RX["LOWER_SIGN_RE"],        group="n", validator=_lower_sign_ok,                                                             score=0.7,  name="lower_signature_de"),
        PatternRule("DOCTOR",   _RX["LOGIN_RE"],             group="n", validator=_login_ok,                                                                  score=0.7,  name="login_de"),
    )  # fmt: skip
