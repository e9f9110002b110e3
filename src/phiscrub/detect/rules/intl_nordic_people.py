"""More NAME forms of Nordic notes (``nb``, ``nn``, ``da``, ``sv``), beside :mod:`.intl_nordic_names`.

* **initials before a surname** after a title, role or field (``overlege T.E. Lie``, ``Overlege K.A.
  Strand``, ``Op.spl.: R. Holm``, ``spl. H. Rønning``) -> DOCTOR; the shared scanner reads one initial;
* a name after a **nursing or social-work abbreviation** (``spl. Tesfaye Haile``, ``Spl. Máret``,
  ``ssk Johan Niemi``, ``sosionom Lan Nguyen``, ``Op.spl.: Randi H.``) -> DOCTOR;
* a **patient field** with ``Surname, N.A.``, ``SURNAME Given Given`` or ``SURNAME, GIVEN GIVEN`` before
  a wide gap or the line end (``Pas.: Balto, N.A.    Dato``, ``Pasient: TRAN Thi Hoa     PID``) -> PATIENT;
* the **patient opening a line** before an age (``Kjell Ove Berntsen, 62 år.``, ``Sivertsen, 95 år``,
  ``Opplysningar: Hagen, 83 år``, ``mikkel 13 år, kommer``) or a birth date or number (``Fagerlie, Oddvar
  (PID 2764055)``, ``Rasmussen, Emma, f. 27.05.03``, ``EPIKRISE - Abdirahman Hassan Warsame, f.nr.``)
  -> PATIENT;
* a **lower-case name after a kin word** whose first word is a listed given name (``ringte datter inger
  anne bongo i Karasjok``; an unlisted last word only before a clause end, a town or a phone number)
  -> RELATIVE;
* in a note written **all in lower case**, a lower-case name after a title or a patient word whose first
  word is a listed given name (``pas oddvar berg (kalles Odd)``, ``turnuslege vegard``) -> PATIENT or
  DOCTOR, and a listed name before a role in brackets (``ringt nilsen (bakvakt)``) -> DOCTOR;
* the **caller** of a telephone note (``Innringer: Trond Å. Eliassen, HMS-ansvarlig``) -> RELATIVE, and the
  author of a **cited note** (``(Utsi, okt. -23)``, ``(Hansen, 12.03.24)``) -> DOCTOR.

The first word of a name is never a common Nordic word (:func:`.intl_nordic_places.common_word`) or a
stop word of the pack; a lower-case name must open with a listed given name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_common import lower_case_note
from phiscrub.detect.rules.intl_name_scan import NameLexicon, name_lexicon
from phiscrub.detect.rules.intl_names_data import NAME_WORDS
from phiscrub.detect.rules.intl_nordic_places import acronym_ok, common_word

_RX = pattern_data("intl_nordic_people")


__all__ = ["nordic_people_rules"]

_UP = "A-ZÆØÅÄÖÁÉČŠŽŃŚ"
_LOW = "a-zæøåäöéüáčšžńśï"
_TOK = rf"[{_UP}][{_LOW}]+(?:-[{_UP}][{_LOW}]+)?"
_CAPS = rf"[{_UP}]{{2,}}(?:-[{_UP}]{{2,}})?"
_INITIALS = rf"(?:[{_UP}]\.[ ]?){{1,3}}"
#: Nursing and social-work abbreviations and roles that Nordic notes write before a name.
_ABBR = r"(?i:[a-zæøå.]*spl\.|spl(?=[ ])|ssk\.?|sosionom|socionom|kurator)"
_NAME_END = r"(?=[ \t]*(?:[.,;:)(\n/]|[ ]{2}|\t|\Z)|[ ][a-zæøå])"
#: Birth information after a name: "f.nr.", "fnr", "f. 27.05.03", "født", "PID 123".
_BIRTH = r"(?:f\.[ ]?nr\.?|fnr\.?|f\.|født|fødd|född|pnr\.?|personnummer|PID|D-nr)"


@cache
def _titles(code: str) -> str:
    words = NAME_WORDS[code]
    return trie_pattern((*words.doctor_titles, *words.roles), ignore_case=False)


@cache
def _low_titles(code: str) -> str:
    words = NAME_WORDS[code]
    low = {w.lower() for w in (*words.doctor_titles, *words.roles) if "," not in w and len(w) > 2}
    return trie_pattern(sorted(low | {"bakvakt", "forvakt", "mellomvakt", "lis1", "lis2"}), ignore_case=False)


def _kin(code: str) -> str:
    return trie_pattern(NAME_WORDS[code].kin, ignore_case=False)


@cache
def _patterns(code: str) -> dict[str, re.Pattern[str]]:
    pfields = trie_pattern((*NAME_WORDS[code].patient_fields, "Pas.", "PAS"), ignore_case=True)
    return {
        "initials": re.compile(
            rf"(?<![\w\-])(?:{_titles(code)}|{_ABBR})[ \t]*:?[ \t]+(?P<n>{_INITIALS}[ ]?(?:{_TOK}|{_CAPS})){_NAME_END}"
        ),
        "abbr": re.compile(
            rf"(?<![\w\-]){_ABBR}[ \t]*:?[ \t]+(?P<n>{_TOK}(?:[ ]{_TOK}){{0,2}}(?:[ ][{_UP}]\.)?)"
            rf"(?![\w\-])(?![ ][{_UP}])"
        ),
        "pfield": re.compile(
            rf"(?:^|(?<=\n)|(?<=[ ]{{2}}))[ \t]*(?:{pfields})\.?[ \t]*:[ \t]*"
            rf"(?P<n>{_TOK},[ ]{_INITIALS}|{_CAPS}(?:[ ]{_TOK}){{1,2}}|{_CAPS}(?:[ ]{_CAPS})?,[ ]{_CAPS}(?:[ ]{_CAPS})?"
            rf"|{_CAPS}(?:[ ]{_CAPS}){{1,2}}|{_TOK}(?:[ ]{_TOK}){{1,2}}(?=[ ]\(\d{{6}}))"
            rf"(?=[ \t]*(?:\n|\Z)|[ ]{{2}}|\t|,[ ](?:{_BIRTH})(?![\w])|[ ]\(\d{{6}})"
        ),
        # "Pas. (TEL) møtte", "Gjelder: Emil (E.V.), f. 03.03.2019": the patient's initials in brackets
        "pinitials": re.compile(
            rf"(?:^|(?<=\n)|(?<=[ ]{{2}})|(?<=[.!?][ ]))[ \t]*(?:{pfields})\.?[ \t]*:?[ \t]*(?:{_TOK}(?:[ ]{_TOK}){{0,2}}[ ])?"
            rf"\((?P<n>(?:[{_UP}]\.){{2,3}}|[{_UP}]\.?[ ]?[{_UP}]\.|[{_UP}]{{2,3}})\)"
        ),
        "age": re.compile(
            rf"(?:^|(?<=\n)|(?<=[a-zæøå]:[ ]))(?P<n>{_TOK}(?:[ ]{_TOK}){{0,3}}|[{_LOW}]{{3,}}),?[ ](?:(?:er|var)[ ])?\d{{1,3}}[ ]år(?![\w])"
        ),
        # "Innringer: Trond Å. Eliassen, HMS-ansvarlig": the caller of a telephone note
        "caller": re.compile(
            rf"(?<![\w\-])(?i:innringer|innringar|opringer|uppringare|ringer)[ \t]*:[ \t]*"
            rf"(?P<n>{_TOK}(?:[ ](?:[{_UP}]\.|{_TOK})){{0,3}})(?=[ \t]*(?:[,.(\n]|\Z))"
        ),
        # "(Utsi, okt. -23)", "(Hansen, 12.03.24)": a note cited by its author and date
        "cited": re.compile(
            rf"\((?P<n>{_TOK}),[ ](?=(?:[a-zæøå]{{3}}\.?[ ]?[-–']\d{{2}}|\d{{1,2}}[./]\d{{1,2}}(?:[./]\d{{2,4}})?)\))"
        ),
        # "ringte datter inger anne bongo i Karasjok": a lower-case name after a kin word
        "kin_lower": re.compile(
            rf"(?<![\w\-])(?i:{trie_pattern(NAME_WORDS[code].kin, ignore_case=False)})[ ]"
            rf"(?P<n>[{_LOW}]{{2,}}(?:-[{_LOW}]{{2,}})?(?:[ ][{_LOW}]{{2,}}(?:-[{_LOW}]{{2,}})?){{0,2}})(?![\w\-])"
        ),
        # a note written all in lower case: "pas oddvar berg (kalles Odd)", "turnuslege vegard",
        # "ringt nilsen (bakvakt)"
        "low_title": re.compile(
            rf"(?<![\w\-])(?P<t>{_low_titles(code)}|pas\.?|pasient|pasienten|pt\.?)[ ]"
            rf"(?P<n>[{_LOW}]{{2,}}(?:[ ][{_LOW}]{{2,}}){{0,2}})(?![\w\-])"
        ),
        "low_role": re.compile(rf"(?<![\w\-])(?P<n>[{_LOW}]{{3,}})[ ]\((?:{_low_titles(code)})\)"),
        # "- Tove Bals, søster", "Ragna Berg, helsesykepleier (vikar)", "Fra: Ola Nordmann, fastlege": a
        # name opening a line or a list item before its role, kin word or "(bruker)"
        "item": re.compile(
            rf"(?m)(?:^[ \t]*(?:[-•*][ \t]+|(?:Fra|Frå|Til|Kopi|Forfall)[ \t]*:[ \t]*)?|(?<=[.!?][ ]))"
            rf"(?P<n>{_TOK}(?:[ ]{_TOK}){{1,2}})(?:,[ ]|[ ]\()(?P<r>{_RX.text('ITEM_ROLE')}|{_kin(code)})(?![\w\-])"
        ),
        # "Mor: Kari, far: Ola.": a kin word as a field label and the relative's name
        "kin_field": re.compile(
            rf"(?:^|(?<=\n)|(?<=[,;.][ ]))[ \t]*(?i:{_kin(code)})[ \t]*:[ \t]*(?P<n>{_TOK}(?:[ ]{_TOK}){{0,2}})"
            rf"(?=[ \t]*(?:[,.;(\n]|\Z))"
        ),
        # "ola nordmann, tilbake fra ...": a name opening a line of a note written in lower case
        "low_line": re.compile(rf"(?m)^(?P<n>[{_LOW}]{{2,}}(?:[ ][{_LOW}]{{2,}}){{1,2}})(?=,[ ])"),
        # "\na.b." or "\nFR" closing the note: the writer's initials on the last line
        "last": _RX["LAST_INITIALS_RE"],
        # "natt: Tove / Jarle": the staff of a shift, named after its label
        "shift": _RX["SHIFT_STAFF_RE"],
        # "sign. ANH", "sign. ev / ms", "Registrert av: elvas": the writer's initials or user name
        "sign": _RX["SIGN_INITIALS_RE"],
        # "Mvh F. Rahimi, direkte tlf": a closing and the writer's name on the same line
        "closing": re.compile(
            rf"(?<![\w\-])(?:{trie_pattern(NAME_WORDS[code].closings, ignore_case=False)})[ \t]*,?[ \t]+"
            rf"(?P<n>{_INITIALS}[ ]?{_TOK}|{_TOK}(?:[ ]{_TOK}){{1,2}})(?=[ \t]*(?:[,\n]|\Z))"
        ),
        # "Barn: Ola Nordmann   f. 05.11.23": also after a field label and a wide gap
        "birth": re.compile(
            rf"(?:^|(?<=\n)|(?<=[ ][-–][ ])|(?<=[a-zæøå]:[ ]))(?P<n>{_TOK}(?:,?[ ]{_TOK}){{1,3}})"
            rf"(?:,[ ]|[ ]\(|[ ]{{2,4}})(?:{_BIRTH})[ ]?\d"
        ),
        # "heimesjukepleia v/ Kari Hansen,": the person a service is reached through
        "vslash": re.compile(rf"(?<![\w/])v/[ ]?(?P<n>{_TOK}(?:[ ]{_TOK}){{0,2}})(?=[ \t]*(?:[,.;)\n]|\Z))"),
    }


_LABELS = {
    "initials": "DOCTOR",
    "item": "DOCTOR",
    "sign": "DOCTOR",
    "kin_field": "RELATIVE",
    "shift": "DOCTOR",
    "vslash": "DOCTOR",
    "last": "DOCTOR",
    "closing": "DOCTOR",
    "abbr": "DOCTOR",
    "caller": "RELATIVE",
    "cited": "DOCTOR",
    "kin_lower": "RELATIVE",
    "low_title": "DOCTOR",
    "low_role": "DOCTOR",
}
#: Endings of findings in a family history (``Mor: Brystkreft``, ``Far: Diabetes``), never of a given name.
_FINDING_ENDINGS = (
    "kreft", "infarkt", "sykdom", "slag", "tes", "ose", "itt", "emi", "isme", "ma", "svikt", "lidelse", "død",
    "frisk", "ukjent", "ing", "else", "het", "sjon",
)  # fmt: skip
#: Words after a signature word that sign nothing ("sign. ok").
_NOT_SIGNS = frozenset(("ok", "ja", "nei", "ua", "kl", "se", "dag", "natt", "kveld", "lege", "spl"))
_PATIENT_WORDS = frozenset(("pas", "pas.", "pasient", "pasienten", "pt", "pt."))


def _lower_name(text: str, s: int, e: int, code: str, lex: NameLexicon) -> int | None:
    """The end of a lower-case name at ``s``: a listed given name, then listed names, and an unlisted
    surname only when a clause end, a town or a phone number follows it; ``None`` if there is none."""
    stop = {w.lower() for w in NAME_WORDS[code].stopwords}
    words = list(re.finditer(r"\S+", text[s:e]))
    if not words or words[0].group() not in lex.first:
        return None
    end = None
    for i, w in enumerate(words):
        word = w.group()
        if common_word(word) or word in stop:
            break
        if word in lex.first or word in lex.last:
            end = s + w.end()
            continue
        if i > 0 and _RX["LOWER_END_RE"].match(text, s + w.end()):
            end = s + w.end()
        break
    if end is None or not _RX["LOWER_END_RE"].match(text, end):
        return None
    return end


@cache
def _person_titles(code: str) -> frozenset[str]:
    words = NAME_WORDS[code]
    return frozenset((*words.person_titles, *words.doctor_titles, *words.patient_fields))


def _listed(words: list[str], lex: NameLexicon) -> bool:
    return any(w.lower() in lex.first or w.lower() in lex.last for w in words)


def _first_ok(word: str, code: str, lex: NameLexicon) -> bool:
    low = word.lower().strip(".,")
    stop = {w.lower() for w in NAME_WORDS[code].stopwords}
    if word[:1].islower():
        return low in lex.first
    return not (common_word(low) or low in stop)


@dataclass(frozen=True)
class NordicPeopleRule(PatternRule):
    """One of the name forms above; ``kind`` picks its pattern's label."""

    lang: str = "nb"
    kind: str = "initials"

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of every name of this rule's form."""
        lex = name_lexicon(NAME_WORDS[self.lang].lexicon)
        for m in self.pattern.finditer(text):
            if self.kind in _OWN_READERS:
                yield from _OWN_READERS[self.kind](self, text, m, lex)
                continue
            s, e = m.span("n")
            label = self._label(text, m, lex)
            if not label:
                continue
            e = s + len(text[s:e].rstrip())
            lead = re.match(r"(?P<t>[^\W\d_]+\.?)[ ]", text[s:e])
            if lead is not None and lead.group("t") in _person_titles(self.lang):
                s += lead.end()  # "Fru Bakke, 93 år": the title is no part of the name
            words = re.findall(rf"[{_UP}{_LOW}]+", text[s:e])
            if not words:
                continue
            first = words[0] if len(words[0]) > 1 or self.kind not in ("initials", "pfield") else words[-1]
            if self.kind == "pfield":
                first = words[0]
                if "," not in text[s:e] and text[s:e].isupper() and not _listed(words, lex):
                    continue  # "Pasient: KOLS EKSASERBASJON": capitals without a comma need a listed name
            if self.kind == "pinitials":
                if text[s:e].isalpha() and not acronym_ok(text[s:e], "unit"):
                    continue  # "Pasient (KOLS)": clinical shorthand, no initials
                yield s, e, label
                continue
            if len(first) > 1 and not _first_ok(first, self.lang, lex):
                continue
            if any(len(w) > 1 and common_word(w) for w in words):
                continue
            yield s, e, label

    def _sign(self, text: str, m: re.Match[str], lex: NameLexicon) -> Iterator[tuple[int, int, str]]:
        """Each set of initials or user name after a signature word (``sign. ev / ms``)."""
        stop = {w.lower() for w in NAME_WORDS[self.lang].stopwords}
        for part in re.finditer(r"[^\s/]+", m.group("u")):
            word = part.group()
            if (
                word.lower() in _NOT_SIGNS
                or word.lower() in stop
                or (word.isupper() and not acronym_ok(word, "unit"))
            ):
                continue
            s = m.start("u") + part.start()
            yield s, s + len(word), "DOCTOR"

    def _low_line(self, text: str, m: re.Match[str], lex: NameLexicon) -> Iterator[tuple[int, int, str]]:
        """``ola nordmann, tilbake fra ...``: a listed given name opening a line of a lower-case note."""
        if not lower_case_note(text):
            return
        s, e = m.span("n")
        end = _lower_name(text, s, e, self.lang, lex)
        if end is not None:
            yield s, end, "PATIENT"

    def _kin_lower(self, text: str, m: re.Match[str], lex: NameLexicon) -> Iterator[tuple[int, int, str]]:
        """``ringte datter inger anne bongo``: a lower-case name after a kin word."""
        s, e = m.span("n")
        end = _lower_name(text, s, e, self.lang, lex)
        if end is not None:
            yield s, end, "RELATIVE"

    def _label(self, text: str, m: re.Match[str], lex: NameLexicon) -> str:
        """The label of a match, or ``""`` to drop it. A list item: ``(bruker)`` the patient, ``, søster``
        a relative, ``, psykolog`` a clinician."""
        if self.kind == "kin_field" and not self._kin_name_ok(text, m, lex):
            return ""
        if self.kind != "item":
            return _LABELS.get(self.kind, "PATIENT")
        role = m.group("r")
        if role in NAME_WORDS[self.lang].kin:
            return "RELATIVE"
        return "PATIENT" if role in ("bruker", "brukar", "pasient", "pasienten") else "DOCTOR"

    def _kin_name_ok(self, text: str, m: re.Match[str], lex: NameLexicon) -> bool:
        """A relative after a kin label: a listed given name, or a line of two or more kin labels with one
        name each (``Mor: Kari, far: Ola``) that read as no finding (``Mor: Diabetes, far: Frisk``)."""
        if m.group("n").split(" ")[0].lower() in lex.first:
            return True
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        fields = list(self.pattern.finditer(text[line_start : len(text) if line_end < 0 else line_end]))
        names = [f.group("n").lower() for f in fields]
        return len(fields) >= 2 and not any(
            common_word(n) or n.endswith(_FINDING_ENDINGS) or " " in n for n in names
        )

    def _shift(self, text: str, m: re.Match[str], lex: NameLexicon) -> Iterator[tuple[int, int, str]]:
        """The names after a shift label: two or more joined by ``/``, or one listed given name."""
        parts = list(re.finditer(rf"[{_UP}][{_LOW}]+", m.group("u")))
        if any(common_word(p.group()) for p in parts):
            return
        if len(parts) == 1 and parts[0].group().lower() not in lex.first:
            return
        for p in parts:
            s = m.start("u") + p.start()
            yield s, s + len(p.group()), "DOCTOR"

    def _low(self, text: str, m: re.Match[str], lex: NameLexicon) -> Iterator[tuple[int, int, str]]:
        """A name in a note written all in lower case, after a title or before a role in brackets."""
        if not lower_case_note(text):
            return
        s, e = m.span("n")
        if self.kind == "low_role":
            word = text[s:e]
            stop = {w.lower() for w in NAME_WORDS[self.lang].stopwords}
            if (word in lex.last or word in lex.first) and not (common_word(word) or word in stop):
                yield s, e, "DOCTOR"
            return
        end = _lower_name(text, s, e, self.lang, lex)
        if end is not None:
            yield s, end, "PATIENT" if m.group("t") in _PATIENT_WORDS else "DOCTOR"


_OWN_READERS: dict[
    str, Callable[[NordicPeopleRule, str, re.Match[str], NameLexicon], Iterator[tuple[int, int, str]]]
] = {
    "sign": NordicPeopleRule._sign,
    "shift": NordicPeopleRule._shift,
    "kin_lower": NordicPeopleRule._kin_lower,
    "low_line": NordicPeopleRule._low_line,
    "last": NordicPeopleRule._sign,
    "low_title": NordicPeopleRule._low,
    "low_role": NordicPeopleRule._low,
}


def nordic_people_rules(lang: str) -> tuple[PatternRule, ...]:
    """The name rules of this module for a Nordic language (``nb``, ``nn``, ``da``, ``sv``)."""
    code = "nb" if lang == "nn" else lang
    return tuple(
        NordicPeopleRule(_LABELS.get(kind, "PATIENT"), pattern, name=f"nordic_{kind}_{lang}", score=0.8,
                         lang=code, kind=kind, extra_labels=("PATIENT",) if kind == "low_title" else ())
        for kind, pattern in _patterns(code).items()
    )  # fmt: skip
