"""NAME rules of the Nordic packs beyond the shared pack triggers (:mod:`.intl_names`).

Norwegian (``nb``; ``nn`` shares it), Danish (``da``) and Swedish (``sv``) notes name people in forms
the shared triggers do not read:

* **compound role words** as titles, in any case: a word ending in ``-sykepleier``, ``-sjukepleiar``,
  ``-lege``, ``-terapeut``, ``-koordinator``, ``-olog``, ``-iater``, ``-oped`` (``-sygeplejerske``,
  ``-læge``; ``-sjuksköterska``, ``-läkare``) before a capitalised name: ``Diabetessykepleier Kari-Anne
  Moen``, ``Sykehjemslege Hege X``, ``Kardiolog Trond Ask``; duty and role words of their own
  (``bakvakt Torstein X``, ``klinisk farmasøyt Nils X``) -> DOCTOR;
* **role and duty labels** with a colon, also after a sentence (``Teamleder: Magnus Bø (kir. bakvakt).
  Anestesi: Fredrik X. Ortoped: Tiril.``) -> DOCTOR; one unlisted word must close the field;
* a **nickname** after ``kalt``/``kalles``/``kaldet``/``kaldes``/``kallad``/``kallas``
  (``ØNSKER Å BLI KALT KJELL``) -> PATIENT;
* a **lower-case name** after a patient field whose first word is a listed given name
  (``Pasient: ingeborg lie``) -> PATIENT;
* a listed **given name opening a sentence** before a verb (``Tone innlagt for symptomlindring``,
  ``Kari har ...``) -> PATIENT;
* **signature lines**: an initial and a surname alone on a line (``O. Rypdal``), cells of names with a
  role or an initial (``J. AASEN LIS1 / I. SOLBERG``), initials before or after a role alone on a line
  (``KAM diabetessykepleier``), hyphenated initials before a surname (``L-E Lindqvist``) and the
  writer's initials alone on the note's last line after a blank line (``ØN``) -> DOCTOR;
* the initials, abbreviation, patient-field, age and birth forms of :mod:`.intl_nordic_people`
  (``overlege T.E. Lie``, ``spl. Tesfaye Haile``, ``Pas.: Balto, N.A.``, ``Sivertsen, 95 år``).

:func:`name_before_role` serves :meth:`.intl_names.PackNameRule._before_role`: the name before
``, overlege`` after a date, a time, a closing or a signing word (``Godkjent 14.03.2024 I. Solberg,
overlege``, ``Hilsen Emil, sykepleier``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_name_scan import NameLexicon, NameScanner, name_lexicon, name_scanner
from phiscrub.detect.rules.intl_names_data import NAME_WORDS
from phiscrub.detect.rules.intl_nordic_people import nordic_people_rules
from phiscrub.detect.rules.intl_nordic_places import acronym_ok, common_word

__all__ = ["cut_at_preposition", "name_before_role", "nordic_name_rules", "upper_name_ok"]

#: Endings of compound role words ("diabetessykepleier", "sykehjemslege", "ergoterapeut", "kardiolog").
_ROLE_ENDINGS = {
    "nb": (
        "sykepleier", "sjukepleiar", "sykepleiar", "lege", "legen", "terapeut", "koordinator", "kirurg", "jordmor",
        "olog", "iater", "oped", "ograf", "sosionom", "vernepleier", "hjelpepleier", "helsesøster", "fagarbeider",
    ),
    "da": (
        "sygeplejerske", "læge", "lægen", "terapeut", "koordinator", "kirurg", "jordemoder", "olog", "iater",
        "oped", "ograf", "sundhedsassistent", "sundhedshjælper",
    ),
    "sv": (
        "sjuksköterska", "sköterska", "läkare", "läkaren", "terapeut", "koordinator", "kirurg", "barnmorska",
        "olog", "iater", "oped", "ograf", "kurator",
    ),
}  # fmt: skip
#: Duties and roles written as one word of their own before a name, in any case ("bakvakt Torstein Vik",
#: "klinisk farmasøyt Nils Ove X"); compounds of them are read by the role endings.
_DUTY_ROLES = {
    "nb": ("bakvakt", "forvakt", "mellomvakt", "primærvakt", "tertiærvakt", "farmasøyt", "logoped", "kiropraktor"),
    "da": ("bagvagt", "forvagt", "mellemvagt", "farmaceut", "logopæd", "kiropraktor"),
    "sv": ("bakjour", "primärjour", "mellanjour", "farmaceut", "apotekare", "logoped", "kiropraktor"),
}  # fmt: skip
#: Labels of a duty or a specialty before a colon that a clinician's name follows (besides the pack's
#: doctor fields): "Teamleder: Magnus Bø", "Anestesi: Fredrik Rønning", "Ortoped: Tiril."
_ROLE_LABELS = {
    "nb": (
        "Teamleder", "Traumeleder", "Bakvakt", "Forvakt", "Mellomvakt", "Primærvakt", "Vakthavende", "Anestesi",
        "Ortopedi", "Kirurgi", "Spl", "Spl.", "LIS", "LIS1", "LIS2", "LIS3", "Prest", "Lege", "Overlege",
    ),
    "da": ("Teamleder", "Traumeleder", "Bagvagt", "Forvagt", "Mellemvagt", "Anæstesi", "Ortopæd", "Spl", "Spl.", "Læge", "Overlæge"),
    "sv": ("Teamledare", "Traumaledare", "Bakjour", "Primärjour", "Anestesi", "Ortoped", "Ssk", "Usk", "Läkare", "Överläkare"),
}  # fmt: skip
#: Nickname cues ("ønsker å bli kalt Kjell", "kaldes Bent", "vill bli kallad Lasse").
_NICK_CUES = (
    "kalt",
    "kaldt",
    "kalles",
    "kallenavn",
    "kallenamn",
    "kalla",
    "kaldet",
    "kaldes",
    "kælenavn",
    "kallad",
    "kallas",
    "smeknamn",
)
#: Verbs after a given name opening a sentence ("Tone innlagt ...", "Kari har ...").
_VERBS = {
    "nb": (
        "innlagt", "innlagd", "innlegges", "inneliggende", "utskrevet", "utskrives", "overflyttet", "har", "hadde",
        "er", "var", "ble", "blir", "vart", "får", "fikk", "kommer", "kom", "kjem", "ønsker", "ønsket", "ynskjer",
        "sier", "seier", "sa", "forteller", "fortel", "fortalte", "klager", "klaget", "ringer", "ringte", "sover",
        "sov", "spiser", "spiste", "drikker", "virker", "trenger", "tar", "tok", "bor", "går", "gikk", "ligger",
        "ligg", "lå", "sitter", "satt", "vil", "skal", "kan", "må", "mobiliseres", "mobilisert", "reiser", "døde",
        "opplyser", "angir", "beskriver", "uttrykker", "føler", "nekter", "mottatt", "ankom", "fremstår", "framstår",
    ),
    "da": (
        "indlagt", "indlægges", "udskrevet", "udskrives", "har", "havde", "er", "var", "blev", "bliver", "får", "fik",
        "kommer", "kom", "ønsker", "siger", "sagde", "fortæller", "klager", "ringer", "sover", "spiser", "drikker",
        "virker", "tager", "tog", "bor", "går", "ligger", "sidder", "vil", "skal", "kan", "må", "døde", "føler",
    ),
    "sv": (
        "inlagd", "inlagt", "inskriven", "utskriven", "har", "hade", "är", "var", "blev", "blir", "får", "fick",
        "kommer", "kom", "önskar", "säger", "sa", "berättar", "klagar", "ringer", "sover", "äter", "dricker",
        "verkar", "tar", "tog", "bor", "går", "ligger", "sitter", "vill", "ska", "kan", "måste", "dog", "känner",
    ),
}  # fmt: skip
#: Listed given names that are as often a common noun opening a sentence ("Stein i nyren", "Dag 2").
_NOT_GIVEN = frozenset(
    ["dag", "stein", "sten", "per", "ask", "sol", "vår", "storm", "rose", "lilje", "bo", "bror", "mai", "may", "finn",
     "stig", "tom", "gro", "odd", "else", "siv", "kim", "frank", "rut", "viking", "sune"]
)  # fmt: skip
#: Endings of adjectives and nouns, never of a given name ("Spinal", "Generell", "Mobilisering", "Samtale").
_NOUN_ENDINGS = (
    "al",
    "ale",
    "ell",
    "ig",
    "lig",
    "ende",
    "ert",
    "et",
    "ing",
    "sjon",
    "het",
    "else",
    "ment",
    "tet",
    "isk",
)
#: Signing words without "av" that may open a signature line before the name ("Godkjent 14.03.2024 X").
_SIGNING = (
    "godkjent",
    "signert",
    "vidimert",
    "diktert",
    "skrevet",
    "godkendt",
    "signeret",
    "signerad",
    "vidimerad",
)

_NAME_TOK = r"[A-ZÆØÅÄÖ](?:[a-zæøåäöéü]+|[A-ZÆØÅÄÖ]+)(?:-[A-ZÆØÅÄÖ](?:[a-zæøåäöéü]+|[A-ZÆØÅÄÖ]+))*"
_INITIAL = r"[A-ZÆØÅÄÖÁ]\."
#: Initials of a double given name joined by a hyphen ("L-E Lindqvist" for Lars-Erik).
_HYPHEN_INITIALS = r"[A-ZÆØÅÄÖ]-[A-ZÆØÅÄÖ]"
_FIELD_START = r"(?:(?<=\n)|(?<=\A)|(?<=[.;)][ ])|(?<=[ ]{2})|(?<=\t)|(?<=\|))[ \t]*"


def _pack(lang: str) -> str:
    return "nb" if lang == "nn" else lang


def _role_word(code: str) -> str:
    """A (compound) role word in any case: a word ending in one of the language's role endings."""
    endings = trie_pattern(_ROLE_ENDINGS[code], ignore_case=False)
    return rf"[A-ZÆØÅÄÖa-zæøåäö][a-zæøåäö]*{endings}(?![\w\-])"


def _upper_line(text: str, pos: int) -> bool:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    letters = [c for c in text[start : len(text) if end < 0 else end] if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) / len(letters) > 0.8


def cut_at_preposition(text: str, span: tuple[int, int] | None) -> tuple[int, int] | None:
    """``BJØRG I HELLA`` -> ``BJØRG``: a bare ``I``/``Å`` (no period) is the preposition, not an initial."""
    if span is None:
        return None
    m = re.search(r"(?:^|[ ])(?:I|Å|PÅ)(?=[ ]|$)", text[span[0] : span[1]])
    if m is None:
        return span
    end = span[0] + m.start()
    return (span[0], end) if end > span[0] else None


#: Shift and time words that follow a role or a field on capital lines ("SPL DAG", "LEGE I MORGEN").
_SHIFT_WORDS = frozenset(
    (
        "dag",
        "dagen",
        "natt",
        "natten",
        "kveld",
        "kvelden",
        "aften",
        "aftenen",
        "morgen",
        "morgenen",
        "formiddag",
        "ettermiddag",
        "vakt",
        "dagvakt",
        "kveldsvakt",
        "nattevakt",
        "seinvakt",
        "senvakt",
    )
)


def upper_name_ok(text: str, start: int, end: int, lex: NameLexicon) -> bool:
    """A name written in capitals (``PAS: MOE, KJELL-ARNE``) needs a listed word and no common or shift word.

    On a Nordic capital line every word is capitalised, so a capital run after ``PAS.``, ``SPL`` or
    ``LEGE`` is a sentence (``PAS. SOVET MESTEPARTEN AV DAGEN``, ``SPL DAG``, ``AV LEGE I MORGEN``)
    unless the lists know one of its words. Names with lower-case letters are not judged here.
    """
    surface = text[start:end]
    if any(c.islower() for c in surface):
        return True
    words = [w for w in re.split(r"[\s,.\-]+", surface.lower()) if len(w) > 1]
    if not words:
        return True
    if any(w in _SHIFT_WORDS or common_word(w) for w in words):
        return False
    if any(w in lex.first or w in lex.last for w in words):
        return True
    # An unlisted surname closing a clause: "(VAKTH. ANESTESILEGE DEMIR)"
    return len(words) <= 2 and re.match(r"[ \t]*(?:[),.;:]|\n|\Z)", text[end:]) is not None


def _tokens(text: str, span: tuple[int, int]) -> list[str]:
    return [t.strip(".,") for t in text[span[0] : span[1]].replace(",", " ").split()]


def _plausible(text: str, span: tuple[int, int], sc: NameScanner) -> bool:
    """A name whose first word is no sentence word, specialty adjective or stop word."""
    toks = _tokens(text, span)
    return bool(toks) and not common_word(toks[0]) and toks[0].lower() not in sc.stop


def _listed(toks: list[str], lex: NameLexicon) -> bool:
    return any(t.lower() in lex.first or t.lower() in lex.last for t in toks)


def _name_after_titles(text: str, m: re.Match[str], sc: NameScanner) -> tuple[tuple[int, int] | None, bool]:
    """The name after the trigger and any titles, cut before a preposition; whether a title was a doctor's."""
    pos, doctor = sc.skip_titles(text, m.end())
    return cut_at_preposition(text, sc.forward(text, pos, upper_ok=_upper_line(text, pos))), doctor


# ------------------------------------------------------------------------------------------------
def _after_role_word(
    rule: NordicNameRule, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
) -> Iterator[tuple[int, int, str]]:
    """``Diabetessykepleier Kari-Anne Moen gir ...``: the name after a compound role word."""
    span, _ = _name_after_titles(text, m, sc)
    if span is not None and _plausible(text, span, sc):
        yield span[0], span[1], "DOCTOR"


def _after_role_label(
    rule: NordicNameRule, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
) -> Iterator[tuple[int, int, str]]:
    """``Ortoped: Tiril.``, ``Teamleder: Magnus Bø``: the clinician after a role label and a colon."""
    span, titled = _name_after_titles(text, m, sc)
    if span is None or not _plausible(text, span, sc):
        return
    toks = _tokens(text, span)
    closes = re.match(r"[ \t]*(?:[.,;(\n]|\Z)", text[span[1] :]) is not None
    single_ok = closes and not toks[0].lower().endswith(_NOUN_ENDINGS)
    if len(toks) >= 2 or titled or _listed(toks, lex) or single_ok:
        yield span[0], span[1], "DOCTOR"


def _nickname(
    rule: NordicNameRule, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
) -> Iterator[tuple[int, int, str]]:
    """``ØNSKER Å BLI KALT KJELL``: the name after a nickname cue."""
    pos = m.end()
    upper = _upper_line(text, pos)
    span = cut_at_preposition(text, sc.forward(text, pos, upper_ok=upper))
    if span is None or not _plausible(text, span, sc):
        return
    toks = _tokens(text, span)[:2]
    quoted = text[pos - 1 : pos] in "\"«'“"
    if upper and not (quoted or toks[0].lower() in lex.first):
        return  # "KALT INN TIL KONTROLL": on a capital line only a listed given name
    end = span[0] + len(" ".join(toks)) if len(_tokens(text, span)) > 2 else span[1]
    yield span[0], end, "PATIENT"


def _lower_patient(
    rule: NordicNameRule, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
) -> Iterator[tuple[int, int, str]]:
    """``Pasient: ingeborg lie``: a lower-case name whose first word is a listed given name."""
    s, e = m.span("low")
    words = text[s:e].split()
    stop = {w.lower() for w in sc.words.stopwords}
    if words[0] in lex.first and not any(w in stop or common_word(w) for w in words):
        yield s, e, "PATIENT"


def _given_then_verb(
    rule: NordicNameRule, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
) -> Iterator[tuple[int, int, str]]:
    """``Tone innlagt for symptomlindring``: a listed given name opening a sentence before a verb."""
    s, e = m.span("gv")
    toks = text[s:e].split(" ")
    if toks[0].lower() not in lex.first or toks[0].lower() in _NOT_GIVEN:
        return
    if len(toks) == 2 and (toks[1].lower() in sc.stop or common_word(toks[1])):
        return
    yield s, e, "PATIENT"


def _signature_lines(
    rule: NordicNameRule, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
) -> Iterator[tuple[int, int, str]]:
    """Signature lines: ``O. Rypdal``, ``J. AASEN LIS1 / I. SOLBERG``, ``KAM diabetessykepleier``."""
    line_start = m.start()
    line = m.group()
    if len(line) > 100:
        return
    if _closing_initials(text, m):
        yield line_start + len(line) - len(line.lstrip()), line_start + len(line.rstrip()), "DOCTOR"
        return
    ini = _initials_role_re(rule.lang).fullmatch(line)
    if ini is not None:
        word = ini.group("ini") or ini.group("ini2")
        group = "ini" if ini.group("ini") else "ini2"
        if acronym_ok(word, "unit") and word.lower() not in _SHIFT_WORDS:  # "SPL DAG": the day shift
            yield line_start + ini.start(group), line_start + ini.end(group), "DOCTOR"
        return
    cells = [c for c in re.finditer(r"[^/\t|]+?(?=[ ]*(?:/|\t|\||[ ]{2,}|\Z))", line) if c.group().strip()]
    found: list[tuple[int, int]] = []
    initials: list[tuple[int, int]] = []
    for c in cells:
        offset = line_start + c.start() + (len(c.group()) - len(c.group().lstrip()))
        # "Hilsen Emil, sykepleier": a closing or signing word before the name is no part of it
        lead = _prefix_re(rule.lang).match(text, offset, line_start + c.end())
        offset = lead.end() if lead is not None else offset
        cell = _cell_re(rule.lang).fullmatch(text[offset : line_start + c.end()].rstrip())
        bare = text[offset : line_start + c.end()].rstrip()
        if cell is None and re.fullmatch(r"[A-ZÆØÅÄÖ]{2,4}", bare):
            initials.append((offset, offset + len(bare)))  # "T-E Berg / TEB": the writer's initials
            continue
        if cell is None:
            return  # a line of other text: no signature row
        toks = cell.group("name").split()
        if not (cell.group("role") or toks[0].endswith(".") or re.fullmatch(_HYPHEN_INITIALS, toks[0])):
            return
        if common_word(toks[-1]) or toks[-1].lower() in sc.stop:
            return
        found.append((offset + cell.start("name"), offset + cell.end("name")))
    # the initials cell: no clinical abbreviation, or the initials of a name of the row
    own = {"".join(w[0] for w in re.findall(r"[^\W\d_]+", text[s:e])).upper() for s, e in found}
    initials = [(s, e) for s, e in initials if acronym_ok(text[s:e], "unit") or text[s:e] in own]
    for s, e in found + (initials if found else []):
        yield s, e, "DOCTOR"


def _closing_initials(text: str, m: re.Match[str]) -> bool:
    """``\n\nØN`` closing the note: the writer's initials alone on the last line, after a blank line."""
    word = m.group().strip()
    if not re.fullmatch(r"[A-ZÆØÅÄÖ]{2,3}", word) or text[m.end() :].strip():
        return False
    return text[: m.start()].rstrip(" \t").endswith("\n\n") and acronym_ok(word, "unit")


@cache
def _cell_re(code: str) -> re.Pattern[str]:
    roles = trie_pattern(
        (*NAME_WORDS[code].roles, *NAME_WORDS[code].doctor_titles, "spl.", "spl"), ignore_case=True
    )
    return re.compile(
        rf"(?P<name>(?:{_INITIAL}[ ]?){{1,2}}{_NAME_TOK}|{_HYPHEN_INITIALS}[ ]{_NAME_TOK}|{_NAME_TOK}(?:[ ]{_NAME_TOK}){{1,2}})"
        rf"(?:,?[ ](?P<role>(?:{roles}|{_role_word(code)})\d?))?[ ]*\.?"
    )


@cache
def _initials_role_re(code: str) -> re.Pattern[str]:
    roles = trie_pattern(
        (*NAME_WORDS[code].roles, *NAME_WORDS[code].doctor_titles, "spl.", "spl"), ignore_case=True
    )
    role = rf"(?:{roles}|{_role_word(code)})"
    return re.compile(
        rf"[ \t]*(?:(?P<ini>[A-ZÆØÅÄÖ]{{2,4}})[ ]*[,/]?[ ]*{role}|{role}[ ]*[.,:/]?[ ]*(?P<ini2>[A-ZÆØÅÄÖ]{{2,4}}))[ \t.]*"
    )


# ------------------------------------------------------------------------------------------------
def name_before_role(
    text: str, end: int, sc: NameScanner, span: tuple[int, int] | None
) -> tuple[int, int] | None:
    """The name before a role trigger at ``end``: the engine's reading ``span`` without closing or
    signing words at its start (``Hilsen Emil``), or, when it read none, the name after a date, a time,
    a closing or a signing word (``Godkjent 14.03.2024 I. Solberg, overlege``)."""
    line_start = text.rfind("\n", 0, end) + 1
    cell = re.split(r"[ \t]{2,}|\t|\|", text[line_start:end])[-1]
    cell_start = end - len(cell)
    m = _prefix_re(_pack_of(sc)).match(text, cell_start, end)
    if m is None or m.end() == cell_start:
        return span
    pos, _ = sc.skip_titles(text, m.end())
    found = sc.forward(text, pos, comma_ok=False, upper_ok=True)
    if found is None or found[1] != end:
        return span
    return found


def _pack_of(sc: NameScanner) -> str:
    return sc.words.lexicon


@cache
def _prefix_re(code: str) -> re.Pattern[str]:
    words = NAME_WORDS[code]
    cue = trie_pattern((*words.closings, *words.signed, *_SIGNING), ignore_case=True)
    date = r"\d{1,2}[./]\d{1,2}(?:[./](?:\d{4}|\d{2}))?\.?"
    time = r"(?:kl\.?[ ]?)?\d{1,2}[:.]\d{2}"
    return re.compile(rf"[ \t]*(?:(?:{cue}|{date}|{time}|kl\.?)(?![\w])[ \t,:]*)+")


# ------------------------------------------------------------------------------------------------
_Handler = Callable[
    ["NordicNameRule", str, re.Match[str], NameScanner, NameLexicon], Iterator[tuple[int, int, str]]
]
_HANDLERS: dict[str, _Handler] = {
    "role_word": _after_role_word,
    "role_label": _after_role_label,
    "nick": _nickname,
    "lower": _lower_patient,
    "given_verb": _given_then_verb,
    "signature": _signature_lines,
}


@dataclass(frozen=True)
class NordicNameRule(PatternRule):
    """One Nordic name trigger; ``kind`` names the handler that reads the name (see module doc)."""

    lang: str = "nb"
    kind: str = "role_word"

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of every name next to this rule's trigger."""
        sc = name_scanner(self.lang)
        lex = name_lexicon(sc.words.lexicon)
        handler = _HANDLERS[self.kind]
        for m in self.pattern.finditer(text):
            yield from handler(self, text, m, sc, lex)


def _patterns(code: str) -> dict[str, re.Pattern[str]]:
    words = NAME_WORDS[code]
    labels = trie_pattern((*words.doctor_fields, *_ROLE_LABELS[code]), ignore_case=False)
    pfields = trie_pattern(words.patient_fields, ignore_case=True)
    low = r"[a-zæøåäö]+(?:-[a-zæøåäö]+)?"
    verbs = trie_pattern(_VERBS[code], ignore_case=False)
    return {
        "role_word": re.compile(
            rf"(?<![\w\-])(?:{_role_word(code)}|{trie_pattern(_DUTY_ROLES[code], ignore_case=True)}(?![\w\-]))"
            rf"[ \t]+(?=[A-ZÆØÅÄÖ])"
        ),
        "role_label": re.compile(
            rf"{_FIELD_START}(?:{labels}|{_role_word(code)})[ \t]*:[ \t]*(?=[A-ZÆØÅÄÖ])"
        ),
        "nick": re.compile(
            rf"(?<![\w\-])(?i:{trie_pattern(_NICK_CUES)})[ \t]*:?[ \t]+[\"«'“]?(?=[A-ZÆØÅÄÖ])"
        ),
        "lower": re.compile(
            rf"(?:(?<=\n)|(?<=\A)|(?<=[ ]{{2}})|(?<=\t))[ \t]*(?:{pfields})[ \t]*:[ \t]*"
            rf"(?P<low>{low}(?:[ ]{low}){{0,3}})(?=[ \t]*(?:\n|\Z|,|\(|[ ]{{2}}|\t))"
        ),
        "given_verb": re.compile(
            rf"(?:(?<=\n)|(?<=\A)|(?<=[.!?][ ])|(?<=[.!?][ ]{{2}})|(?<=[a-zæøå][ ][-–][ ]))(?:[-•*][ ])?"
            rf"(?P<gv>[A-ZÆØÅÄÖ][a-zæøåäöé]+(?:-[A-ZÆØÅÄÖ][a-zæøåäöé]+)?(?:[ ][A-ZÆØÅÄÖ][a-zæøåäöé]+)?)"
            rf"(?=[ ](?:{verbs})(?![\w\-]))"
        ),
        "signature": re.compile(r"(?m)^[^\n]*\S[^\n]*$"),
    }


@cache
def nordic_name_rules(lang: str) -> tuple[PatternRule, ...]:
    """The name rules of this module for a Nordic language (``nb``, ``nn``, ``da``, ``sv``)."""
    code = _pack(lang)
    labels = {"nick": "PATIENT", "lower": "PATIENT", "given_verb": "PATIENT"}
    return tuple(
        NordicNameRule(
            labels.get(kind, "DOCTOR"), pattern, name=f"nordic_{kind}_{lang}", score=0.8, lang=code, kind=kind
        )
        for kind, pattern in _patterns(code).items()
    ) + nordic_people_rules(lang)
