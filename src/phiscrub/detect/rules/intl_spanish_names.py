"""NAME rules of the Spanish and Catalan packs for Spanish hospital notes (``es``, ``ca``).

The shared pack engine (:mod:`.intl_names`) reads names after titles, fields, kinship words and before
roles. This module adds the forms of ward, nursing and discharge notes that need more, wired in the way
:mod:`.intl_german` is (:func:`spanish_name_rules` returns nothing for other languages):

* **a name in capitals** after a patient field (``Paciente: MUÑOZ DELGADO, ENCARNACIÓN``, ``Nombre: ENCARNA
  MUÑOZ DELGADO``) and, surnames first, on a line of its own before the age or record number (``REY
  PALACIOS, MARCOS, 30 años``, with a listed given name and surname);
* **nicknames**: a quoted name in brackets after a name (``Dolores Vidal Serrano ("Lola")``), a name in
  brackets after a patient word (``Llamo al pte (Paco)``), or after ``alias``, ``apodado``, ``conocido
  como``, ``le llaman``;
* **a name opening brackets before a role** (``Valorada por Fisioterapia (Pablo, fisio de planta)``);
* **an initial and a surname after a staff field** (``Circulante: D. Arroyo``: after a staff field
  ``D.`` is an initial, not *Don*);
* **names in notes written all in lower case** (nursing notes): after a patient word (``pte encarna``), a
  doctor's or a nurse's title (``(dra. salcedo)``, ``enf. lola``) or a kinship word (``llamo a su hija
  marta``), and the signature on the last line (``rocio c.``); names are looked up without accents
  (``rocio`` is ``Rocío``).

* **a name alone in brackets after a person noun** of its clause (``compañero de trabajo (Dorin)``,
  ``ESPOSA (MERCEDES)``): after a kinship word only a listed given name (a family history names diseases);
* **surnames, a comma and given names** in mixed case after a patient field (``Paciente: Ríos Cárdenas,
  Jhonatan``, ``Pac. WANG, Lihua, 41a``) and **a patient's initials** (``pac. L.M.R.``).

:func:`letter_title_is_no_name` keeps the title rule from reading a drug or a word after a vitamin as a
name (``Calcio + vit D. Omeprazol 20``: ``D.`` is the vitamin, not *Don*).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib import resources

from phiscrub.detect.clinical_vocab import is_clinical_word
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_common import lower_case_note
from phiscrub.detect.rules.intl_name_scan import name_lexicon
from phiscrub.detect.rules.intl_names_data import NAME_WORDS
from phiscrub.detect.rules.intl_places import listed_town
from phiscrub.resources import stopword_list

__all__ = ["letter_title_is_no_name", "spanish_name_rules"]

_UP = "A-ZÁÉÍÓÚÑÜÀÈÒÏÇ"
_LOW = "a-záéíóúñüàèòïç"
_TITLE = rf"[{_UP}][{_LOW}]+(?:-[{_UP}][{_LOW}]+)?"

_RX = pattern_data("intl_spanish_names", globals())

#: A word in capitals ("MUÑOZ", "PÉREZ-LLORCA", "D'ORS").
_UPPER = rf"[{_UP}](?:[{_UP}]|['’\-][{_UP}])+"
_UPPER_NAME = rf"{_UPPER}(?:[ ](?:DE[ ]LA[ ]|DE[ ]LOS[ ]|DEL[ ]|DE[ ]|Y[ ]|I[ ])?{_UPPER}){{0,3}}"


def _fold(word: str) -> str:
    """Lower case without accents ("Rocío" -> "rocio")."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


@cache
def _folded_lexicon() -> tuple[frozenset[str], frozenset[str]]:
    lex = name_lexicon("es")
    return frozenset(_fold(w) for w in lex.first), frozenset(_fold(w) for w in lex.last)


def _given(word: str) -> bool:
    return _fold(word) in _folded_lexicon()[0]


def _surname(word: str) -> bool:
    return _fold(word) in _folded_lexicon()[1]


@cache
def _stopwords() -> frozenset[str]:
    words = NAME_WORDS["es"]
    return frozenset(
        {_fold(w) for w in words.stopwords}
        | {_fold(w) for role in words.roles for w in role.split()}
        | {_fold(w) for w in words.kin}
    )


@cache
def _drugs() -> frozenset[str]:
    """Drug names of the bundled medical lexicon (lower case)."""
    path = resources.files("phiscrub.resources").joinpath("medical", "drugs.txt")
    if not path.is_file():
        return frozenset()
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith(("#", "[")))


# ------------------------------------------------------------------------------------------------
# Names in capitals, surnames first
def _field_words() -> str:
    return trie_pattern(NAME_WORDS["es"].patient_fields, ignore_case=True)


@cache
def _upper_comma_re() -> re.Pattern[str]:
    return re.compile(
        rf"(?:(?P<f>(?<![\w])(?:{_field_words()}|Pte|PTE|Pac)\.?[ \t]*:[ \t]*)|(?:^|(?<=\n))[ \t]*)"
        rf"(?P<n>{_UPPER_NAME}(?:,[ ](?P<g>{_UPPER}(?:[ ]{_UPPER})?|(?P<tg>{_TITLE}(?:[ ]{_TITLE}){{0,2}})))?)"
        r"(?=[ \t]*(?:,|$|[ ]{2,}|\t|\(|[ ][-–][ ]))",
        re.MULTILINE,
    )


def _upper_comma_ok(m: re.Match[str]) -> bool:
    given = (m.group("g") or "").split()
    surnames = [
        w for w in m.group("n").split(",")[0].split() if w not in ("DE", "LA", "LOS", "DEL", "Y", "I")
    ]
    if any(_fold(w) in _stopwords() for w in (*given, *surnames)):
        return False
    if m.group("f") is not None:
        # after a patient field: "MUÑOZ DELGADO, ENCARNACIÓN", "MUÑOZ, Encarnación" or "ENCARNACIÓN MUÑOZ
        # DELGADO" (two words or more)
        return bool(given) or len(surnames) >= 2
    if not given or m.group("tg") is not None:
        return False
    # On a line of its own: a listed given name after the comma and a listed surname before it.
    return all(_given(w) for w in given) and any(_surname(w) for w in surnames)


def _nickname_ok(m: re.Match[str]) -> bool:
    name = m.group("q") or m.group("p") or m.group("a") or m.group("c") or m.group("l")
    if _fold(name) in _stopwords() or name.lower() in _drugs():
        return False
    if m.group("l") is not None:
        return _given(name)  # 'varón de 60 años ("Paco")': a listed given name in quotes
    if m.group("q") is not None:
        # after a capitalised name: the word before the bracket starts with a capital
        before = m.string[max(0, m.start() - 30) : m.start()].split()
        return (bool(before) and before[-1][:1].isupper()) or _given(name)
    if m.group("p") is not None:
        return _given(name)
    return True


# ------------------------------------------------------------------------------------------------
# Names around roles and staff fields
@cache
def _roles() -> str:
    """The staff roles of the Spanish pack, as one alternation."""
    return trie_pattern(NAME_WORDS["es"].roles, ignore_case=True)


@cache
def _bracket_role_re() -> re.Pattern[str]:
    return re.compile(rf"\((?P<n>{_TITLE}(?:[ ]{_TITLE}){{0,2}}),[ ](?:{_roles()})(?![\w\-])")


def _bracket_role_ok(m: re.Match[str]) -> bool:
    words = m.group("n").split()
    return (len(words) >= 2 or _given(words[0])) and _fold(words[0]) not in _stopwords()


@cache
def _staff_initial_re() -> re.Pattern[str]:
    fields = trie_pattern(NAME_WORDS["es"].doctor_fields, ignore_case=True)
    # "Circulante: D. Arroyo", "ENF.: M.J. GAVELA": initials and a surname, in capitals too
    word = rf"(?:{_TITLE}|{_UPPER})"
    return re.compile(
        rf"(?:(?<=\n)|(?<=\A)|(?<=[ \t]{{2}})|(?<=\t))[ \t]*(?:{fields})[ \t]*:[ \t]*"
        rf"(?P<n>[{_UP}]\.(?:[ ]?[{_UP}]\.)?[ ]{word}(?:[ ]{word})?)(?![\w\-])"
    )


@cache
def _name_role_bracket_re() -> re.Pattern[str]:
    """``Mamen (instrumentista)``: a given name before a role in brackets."""
    return re.compile(rf"(?<![\w\-.])(?P<n>{_TITLE})[ ]\((?:{_roles()})\)")


@cache
def _role_comma_name_re() -> re.Pattern[str]:
    """``su psicóloga de referencia, Maite.``: a given name after a role and a comma, closing the clause."""
    return re.compile(
        rf"(?<![\w\-])(?:{_roles()})(?:[ ]de[ ](?:referencia|referència|guardia|planta|zona|cabecera))?,[ ]"
        rf"(?P<n>{_TITLE}(?:[ ]{_TITLE})?)(?=[ \t]*(?:[.;)\n]|\Z))"
    )


def _given_first_ok(m: re.Match[str]) -> bool:
    first = m.group("n").split(" ")[0]
    return _given(first) and _fold(first) not in _stopwords()


#: Sentence openers before a living verb that name nobody ("Actualmente vive sola").
_NOT_SUBJECTS = frozenset(
    (
        "actualmente", "ahora", "tambien", "todavia", "aun", "ya", "hoy", "sola", "solo", "antes", "nadie",
        "quien", "cada", "uno", "una", "ella", "el", "ambos", "ambas", "todos", "todas", "nunca", "siempre",
    )
)  # fmt: skip


def _subject_name_ok(m: re.Match[str]) -> bool:
    name = m.group("n")
    folded = _fold(name)
    return not (folded in _stopwords() or folded in _NOT_SUBJECTS or folded.endswith("mente"))


def _lower_name_ok(m: re.Match[str]) -> bool:
    name = m.group("n")
    if not lower_case_note(m.string) or _fold(name) in _stopwords():
        return False
    if m.group("t") is not None:
        return _surname(name) or _given(name)  # "(dra. salcedo)"
    return _given(name)  # "pte encarna", "su hija marta"


def _lower_name_label(m: re.Match[str]) -> str:
    if m.group("t") is not None:
        return "DOCTOR"
    return "RELATIVE" if m.group("k") is not None else "PATIENT"


def _lower_signature_ok(m: re.Match[str]) -> bool:
    return lower_case_note(m.string) and _given(m.group("g")) and _fold(m.group("g")) not in _stopwords()


# ------------------------------------------------------------------------------------------------
# A name in brackets after a person noun; surnames, a comma and given names in mixed case
#: Person nouns outside the family ("compañero de trabajo (Ionel)"): a family history names diseases in
#: brackets after a kinship word ("madre (Sintrom)"), so after those only a listed given name is taken.
_PERSON_NOUNS = (
    "amiga", "amigo", "amigas", "amigos", "compañera", "compañero", "cuñada", "cuñado", "enf.", "enfermera",
    "enfermero", "traductora", "traductor", "intérprete", "mediadora", "mediador", "auxiliar", "auxiliares",
    "vecina", "vecino",
)  # fmt: skip


#: Words in brackets after a staff noun that say when or how the person works ("enfermera (noche)").
_NOT_BRACKET_NAMES = frozenset(
    (
        "noche", "tarde", "manana", "turno", "guardia", "planta", "domicilio", "urgencias", "refuerzo", "suplente",
        "fija", "fijo", "eventual", "interina", "interino", "jefa", "jefe", "supervisora", "supervisor", "referente",
    )
)  # fmt: skip
#: Endings of Spanish clinical nouns, never of a given name ("Pac. HTA, Dislipemia").
_CLINICAL_END_RE = re.compile(r"(?:emia|itis|osis|patía|algia|oma|ismo|ción|sión|dad|ia)$")


@cache
def _person_bracket_re() -> re.Pattern[str]:
    words = NAME_WORDS["es"]
    nouns = trie_pattern([*words.kin, *words.roles, *_PERSON_NOUNS], ignore_case=True)
    return re.compile(
        rf"(?<![\w])(?P<k>{nouns})(?<=[\w.])(?P<gap>(?:[ ](?!\()[^\s().;:,]+){{0,3}})[ ]\((?P<n>{_TITLE}|{_UPPER})\)"
    )


def _person_bracket_ok(m: re.Match[str]) -> bool:
    """``compañero de trabajo (Ionel)``, ``ESPOSA (REMEDIOS)``: a single name in brackets after a person
    noun of its clause; in capitals only a listed given name, else no clinical, drug or common word."""
    name = m.group("n")
    folded = _fold(name)
    if (
        folded in _stopwords()
        or folded in _NOT_BRACKET_NAMES
        or name.lower() in _drugs()
        or is_clinical_word(name)
        or listed_town(name)
    ):
        return False
    if _given(name):
        return True
    return (
        m.group("k").lower() in _PERSON_NOUNS
        and name[1:].islower()
        and len(name) >= 3
        and folded not in _spanish_stopwords()
    )


@cache
def _spanish_stopwords() -> frozenset[str]:
    return frozenset(_fold(w) for w in stopword_list("es"))


_WORD = rf"(?:{_UPPER}|{_TITLE})"


@cache
def _mixed_comma_re() -> re.Pattern[str]:
    """``Paciente: Ramírez Ospina, Jhon Fredy``, ``Pac. CHEN, Meiling``: surnames, a comma, given names."""
    return re.compile(
        rf"(?:(?<![\w])(?:{_field_words()})\.?[ \t]*:[ \t]*|(?<![\w])(?:Pac|Pte|PAC|PTE)\.[ \t]*)"
        rf"(?P<n>{_WORD}(?:[ ](?:de[ ]la[ ]|del[ ]|de[ ]|y[ ])?{_WORD}){{0,2}},[ ](?P<g>{_TITLE}(?:[ ]{_TITLE})?))"
        r"(?=[ \t]*(?:,|$|[ ]{2,}|\t|\(|[ ][-–—][ ]))",
        re.MULTILINE,
    )


def _mixed_comma_ok(m: re.Match[str]) -> bool:
    surnames, given = m.group("n").split(",")[0].split(), m.group("g").split()
    words = [w for w in (*surnames, *given) if w not in ("de", "la", "del", "y")]
    if any(_fold(w) in _stopwords() or is_clinical_word(w) or listed_town(w) for w in words):
        return False
    if any(_CLINICAL_END_RE.search(w.lower()) and not _given(w) for w in given):
        return False  # "Pac. HTA, Dislipemia, 70a": diagnoses, not a name
    # "CHEN, Meiling, 30a": surnames in capitals and a given name before the age or the record number.
    after = m.string[m.end() : m.end() + 30]
    capitals = all(w.isupper() and len(w) > 1 for w in surnames) and bool(
        re.match(
            r"[ \t]*(?:,[ \t]*\d{1,3}[ \t]*(?:a|años)(?![\w])|[,–—\-]?[ \t]*(?:NHC|HC|DNI|NIE|CIP))", after
        )
    )
    return capitals or _given(given[0]) or any(_surname(w) for w in surnames) or len(surnames) >= 2


def letter_title_is_no_name(text: str, title_start: int, name_start: int, name_end: int) -> bool:
    """True when a one-letter title (``D.``) at ``title_start`` is no title of the name after it.

    ``Calcio + vit D. Omeprazol 20``: the letter names a vitamin (a group, a stage ...) or the word after
    it is a drug.
    """
    title = text[title_start:name_start].strip()
    if not re.fullmatch(r"[A-ZÀ-Þ]\.", title):
        return False
    if _RX["LETTER_LABEL_BEFORE_RE"].search(text, max(0, title_start - 20), title_start):
        return True
    name = text[name_start:name_end]
    return " " not in name and name.lower() in _drugs()


def spanish_name_rules(lang: str) -> tuple[PatternRule, ...]:
    """The extra NAME rules of Spanish and Catalan (none for other languages; see the module doc)."""
    if lang not in ("es", "ca"):
        return ()
    return (
        PatternRule("PATIENT", _upper_comma_re(),         group="n", validator=_upper_comma_ok,                                                                       score=0.85, name=f"upper_comma_name_es_{lang}"),
        PatternRule("PATIENT", _RX["NICKNAME_RE"],        group=("q", "p", "a", "c", "l"), validator=_nickname_ok,                                                              score=0.75, name=f"nickname_es_{lang}"),
        PatternRule("DOCTOR",  _bracket_role_re(),        group="n", validator=_bracket_role_ok,                                                                      score=0.75, name=f"bracket_role_name_es_{lang}"),
        PatternRule("DOCTOR",  _name_role_bracket_re(),   group="n", validator=_given_first_ok,                                                                       score=0.75, name=f"name_role_bracket_es_{lang}"),
        PatternRule("DOCTOR",  _role_comma_name_re(),     group="n", validator=_given_first_ok,                                                                       score=0.75, name=f"role_comma_name_es_{lang}"),
        PatternRule("PATIENT", _RX["NAME_AGE_LINE_RE"],   group="n", validator=_given_first_ok,                                                                       score=0.8,  name=f"name_age_line_es_{lang}"),
        PatternRule("RELATIVE", _RX["SUBJECT_NAME_RE"],   group="n", validator=_subject_name_ok,                                                                      score=0.7,  name=f"subject_name_es_{lang}"),
        PatternRule("DOCTOR",  _staff_initial_re(),       group="n",                                                                                                  score=0.8,  name=f"staff_initial_es_{lang}"),
        PatternRule("PATIENT", _RX["LOWER_NAME_RE"],      group="n", validator=_lower_name_ok,    labeler=_lower_name_label, extra_labels=("RELATIVE", "DOCTOR"), score=0.7,  name=f"lower_case_names_es_{lang}"),
        PatternRule("DOCTOR",  _RX["LOWER_SIGNATURE_RE"], group="n", validator=_lower_signature_ok,                                                                   score=0.7,  name=f"lower_case_signature_es_{lang}"),
        PatternRule("PATIENT", _RX["PATIENT_INITIALS_RE"], group="n",                                                                                             score=0.75, name=f"patient_initials_es_{lang}"),
        PatternRule("RELATIVE", _person_bracket_re(),     group="n", validator=_person_bracket_ok,                                                                    score=0.7,  name=f"person_bracket_es_{lang}"),
        PatternRule("PATIENT", _mixed_comma_re(),         group="n", validator=_mixed_comma_ok,                                                                       score=0.8,  name=f"mixed_comma_name_es_{lang}"),
    )  # fmt: skip
