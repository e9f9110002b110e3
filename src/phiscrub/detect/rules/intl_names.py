"""NAME rules of the language packs: German, French, Dutch, Spanish and Catalan.

As for English (:mod:`.names`), a name is only taken next to a trigger, never as a bare capitalised
word (German capitalises every noun), with one exception: a listed given name followed by a listed
surname (``Klaus Müller``, from the bundled ``de/``, ``fr/``, ``nl/``, ``es/`` lexicons).

Triggers, per language (``NameWords``):

* **titles**, alone or chained: ``Herr``, ``Frau``, ``Hr.``, ``Fr.``, ``Dr. med.``, ``Prof. Dr.``,
  ``PD Dr.``, ``OA``; ``M.``, ``Mme``, ``Pr``, ``Dr``; ``dhr.``, ``mevr.``, ``dr.``; ``Sr.``, ``Sra.``,
  ``Dña.``, ``Dra.``. A chain with a doctor title gives DOCTOR, else PATIENT; a kinship word right
  before (``die Tochter, Frau ...``, ``sa fille, Mme ...``) gives RELATIVE.
* **field labels** at the start of a line or a table cell: ``Patient:``, ``Name:``, ``Pat.:``,
  ``Patiente :``, ``Operateur:``, ``Einsender:``, ``Mère :``, ``Paciente:`` (``Surname, Given``
  accepted after patient fields).
* **kinship words** before a name (``seiner Ehefrau Anna``, ``son neveu, M. ...``): with a title, a
  comma or parenthesis, or a listed name after.
* **a role after the name**: ``X, Oberarzt``, ``X, Assistenzärztin``, ``X, radiologue``,
  ``X, huisarts``, or the role alone on the next line (signature blocks).
* **closing formulas**: the name on the line after ``Mit freundlichen Grüßen``, ``Bien amicalement``,
  ``Met vriendelijke groet``, ``Atentamente``; ``gez.``, ``signé``, ``Firmado por``.

A name is one to four tokens (five in Spanish, for two surnames) in one case style (Title or UPPER),
single spaces apart, with lower-case particles inside (``van den Berg``, ``von Arx``, ``de la Fuente``)
and initials (``K. Schmidt``); it stops at a stop word of the language (``Herr Kollege``,
``Dr. med.``, ``Frau Doktor``, ``Praxis``) or at a change of case.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import pack_rules
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_german import german_name_rules
from phiscrub.detect.rules.intl_name_scan import (
    LETTER,
    NameLexicon,
    NameScanner,
    name_lexicon,
    name_scanner,
    with_upper,
)
from phiscrub.detect.rules.intl_names_data import (
    NAME_LANGUAGES,
    NAME_WORDS,
    NOT_JOBS,
    NOUN_TITLES,
    PARTICLES,
    PROFESSION_RES,
    NameWords,
)
from phiscrub.detect.rules.intl_nordic import NORDIC_LANGUAGES
from phiscrub.detect.rules.intl_nordic_names import (
    cut_at_preposition,
    name_before_role,
    nordic_name_rules,
    upper_name_ok,
)
from phiscrub.detect.rules.intl_spanish_names import letter_title_is_no_name, spanish_name_rules

_RX = pattern_data("intl_names")


__all__ = ["NAME_LANGUAGES", "NameWords", "PackNameRule", "pack_name_rules"]


def _words_re(words: tuple[str, ...], *, ignore_case: bool = True) -> str:
    return trie_pattern(words, ignore_case=ignore_case)


@dataclass(frozen=True)
class PackNameRule(PatternRule):
    """Name triggers of one language; ``find`` scans the name around each trigger (see module doc)."""

    lang: str = "de"

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of every name next to a trigger."""
        found = self._find(text)
        if self.lang == "de":
            lex = name_lexicon(NAME_WORDS["de"].lexicon)
            found = ((s, _genitive_end(text, s, e, lex), label) for s, e, label in found)
        elif self.lang in NORDIC_LANGUAGES:  # "PAS. SOVET MESTEPARTEN AV DAGEN", "SPL DAG": no names
            lex = name_lexicon(name_scanner(self.lang).words.lexicon)
            found = ((s, e, label) for s, e, label in found if upper_name_ok(text, s, e, lex))
        yield from found

    def _find(self, text: str) -> Iterator[tuple[int, int, str]]:
        sc = name_scanner(self.lang)
        lex = name_lexicon(sc.words.lexicon)
        for m in self.pattern.finditer(text):
            kind = m.lastgroup
            if kind in _USER_GROUPS:
                group = _USER_GROUPS[kind]
                yield m.start(group), m.end(group), "USERNAME"
            elif kind is not None and kind in _TRIGGER_HANDLERS:
                yield from _TRIGGER_HANDLERS[kind](self, text, m, sc, lex)
        if self.name.startswith("names_listed"):
            yield from self._signature_cells(text, sc, lex)

    def _after_title(
        self, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
    ) -> Iterator[tuple[int, int, str]]:
        """``Dr. Müller``, ``Frau Mai``: the name after a (chain of) title(s)."""
        if m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] in ".-/"):
            return
        pos, doctor = sc.skip_titles(text, m.start())
        if pos == m.start():
            return
        span = sc.forward(text, pos, comma_ok=True) or sc.month_surname(text, pos)
        if span is None or (
            self.lang in ("es", "ca") and letter_title_is_no_name(text, m.start(), pos, span[1])
        ):
            return  # "vit D. Omeprazol": a vitamin and a drug
        span = self._given_after_comma(text, span, lex, strict=True)
        chain = text[m.start() : pos].split()
        if all(t.lower() in NOUN_TITLES for t in chain) and not (
            self._listed(text, span, lex) or len(self._tokens(text, span)) >= 2
        ):
            return  # "Der Patient Zustand nach ...": a noun title needs a clear name after it
        label = "DOCTOR" if doctor else self._kin_label(text, m.start())
        plural = any(t.lower() in _PLURAL_TITLES for t in chain)
        for part in _split_listed(text, span, sc) if plural else (span,):
            yield part[0], part[1], label
        yield from self._slash_names(text, span[1], sc, label, listed=plural)

    def _after_field(
        self, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
    ) -> Iterator[tuple[int, int, str]]:
        """``Patient: Müller, Hans``: the name after a patient, doctor or relative field label."""
        kind = m.lastgroup
        start_pos = m.end()
        nordic = self.lang in NORDIC_LANGUAGES
        if nordic and kind == "rfield":  # "Pårørende: Sønn Terje Bakke": the kin word is no part of the name
            kin = _kin_word(self.lang).match(text, start_pos)
            start_pos = kin.end() if kin is not None else start_pos
        pos, doctor = sc.skip_titles(text, start_pos)
        titled = pos != start_pos
        span = sc.forward(text, pos, comma_ok=True, upper_ok=titled or self._upper_line(text, pos))
        if span is not None:
            # After a patient field an unlisted given name ends the line or the field.
            loose = re.match(r"[ \t]*(?:$|\n|,|\(|\*|geb|né|nac)", text[span[1] :]) is not None
            # Spanish forms: a wide gap ends the field too ("Paciente: García López, Abundio   Edad: 45").
            loose = loose or (
                self.lang in ("es", "ca", *NORDIC_LANGUAGES)
                and re.match(r"[ ]{2,}|\t", text[span[1] :]) is not None
            )
            span = self._given_after_comma(text, span, lex, strict=not loose)
        if span is None:
            return
        label = {"pfield": "PATIENT", "dfield": "DOCTOR", "rfield": "RELATIVE"}[str(kind)]
        label = "DOCTOR" if doctor and kind != "rfield" else label
        yield span[0], span[1], label
        yield from self._slash_names(text, span[1], sc, label)

    def _after_kin(
        self, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
    ) -> Iterator[tuple[int, int, str]]:
        """``Ehefrau, Anna``: a relative after a kinship word (a comma, parenthesis, title or listed name)."""
        start_pos = m.end()
        pos, _doctor = sc.skip_titles(text, start_pos)
        titled = pos != start_pos
        nordic = self.lang in NORDIC_LANGUAGES
        # "BOR MED KONA BJØRG I HELLA": a Nordic capital line names in capitals; "I" is the preposition.
        upper_ok = titled or (nordic and self._upper_line(text, pos))
        span = sc.forward(text, pos, upper_ok=upper_ok, comma_ok=nordic)
        if nordic:
            span = cut_at_preposition(text, span)
        if span is None:
            return
        if self.lang in ("es", "ca"):  # "la mamá de Tiago León": the preposition is no part of the name
            lead = re.match(r"(?:de|del)[ ](?=[A-ZÀ-Þ])", text[span[0] : span[1]])
            span = (span[0] + lead.end(), span[1]) if lead else span
        if nordic:  # "Hustrun Lindström, Maria": a listed given name after the comma
            span = self._given_after_comma(text, span, lex, strict=True)
        sep = text[m.start("kinword") + len(m.group("kinword")) : start_pos]
        field = text[max(0, m.start() - 3) : m.start()].rstrip().endswith(":")
        initial = (
            re.match(r"[A-ZÄÖÜ]\.[ ][A-ZÄÖÜ]", text[span[0] : span[1]]) is not None
        )  # "der Sohn J. Rautenberg"
        # Spanish, Catalan and the Nordic languages write common nouns in lower case: a capitalised
        # word after "su hija", "sønnen", "dottern" is a name.
        spanish = (
            self.lang in ("es", "ca", *NORDIC_LANGUAGES)
            and re.match(r"[A-ZÀ-Þ][a-zß-ÿ]{2,}(?![\w])", text[span[0] : span[1]]) is not None
        )
        if not titled and not (
            "," in sep
            or "(" in sep
            or ":" in sep
            or field
            or initial
            or spanish
            or self._listed(text, span, lex)
        ):
            return
        yield span[0], span[1], "RELATIVE"

    def _before_role(
        self, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
    ) -> Iterator[tuple[int, int, str]]:
        """``Müller, Oberarzt``: the name before a role word."""
        nordic = self.lang in NORDIC_LANGUAGES
        # "Overgaard, Birthe, overlæge": the Nordic signature form, when the part after the comma is a
        # listed given name.
        span = sc.backward(text, m.start(), comma_ok=nordic)
        if nordic:
            # "Hilsen Emil, sykepleier", "Godkjent 14.03.2024 I. Solberg, overlege"
            span = name_before_role(text, m.start(), sc, span)
        if span is not None and nordic:
            span = self._given_after_comma(text, span, lex, strict=True)
        if span is not None and self._signature_ok(text, span, lex):
            yield span[0], span[1], "DOCTOR"
        if nordic:
            # "Södersjukhuset, läkare Ekholm-Nilsson": the role word is also a title before a name.
            letter = re.search(r"[^\W\d_]", m.group())
            title = sc.title_re.match(text, m.start() + letter.start()) if letter is not None else None
            if title is not None:
                yield from self._after_title(text, title, sc, lex)

    def _before_person(
        self, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
    ) -> Iterator[tuple[int, int, str]]:
        """``Ana Díaz, mujer de 23 años``: the patient named before a person noun and an age."""
        span = sc.backward(text, m.start())
        if span is not None:
            yield span[0], span[1], "PATIENT"

    def _after_closing(
        self, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
    ) -> Iterator[tuple[int, int, str]]:
        """The signature name after a closing formula or ``gez.``."""
        start_pos = m.end()
        pos, _doctor = sc.skip_titles(text, start_pos)
        span = sc.forward(text, pos, upper_ok=pos != start_pos, comma_ok=True)
        if span is not None and (pos != start_pos or self._signature_ok(text, span, lex)):
            yield span[0], span[1], "DOCTOR"

    def _bare_listed(
        self, text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
    ) -> Iterator[tuple[int, int, str]]:
        """A listed name inside a run of capitalised words."""
        listed = self._listed_name(text, m, lex)
        if listed is None and self.lang == "de":
            listed = self._given_then_verb(text, m, sc, lex)
        if listed is not None:
            yield listed[0], listed[1], "PATIENT"

    @staticmethod
    def _given_then_verb(
        text: str, m: re.Match[str], sc: NameScanner, lex: NameLexicon
    ) -> tuple[int, int] | None:
        """``Monika Grabowski wurde ... verlegt``: a listed given name and one unlisted capitalised word
        as the subject of a verb (German prose names a patient without a title)."""
        toks = m.group().split(" ")
        if len(toks) != 2 or toks[0].lower() not in lex.first or toks[1].lower() in sc.stop:
            return None
        if toks[1].lower() in lex.first or _RX["NOUN_END_RE"].search(toks[1]):
            return None
        after_cue = _RX["AGENT_CUE_RE"].search(text, max(0, m.start() - 12), m.start()) is not None
        if not (
            _RX["SUBJECT_VERB_RE"].match(text, m.end())
            or (after_cue and _RX["LOWER_NEXT_RE"].match(text, m.end()))
        ):
            return None
        return m.start(), m.end()

    def _signature_cells(
        self, text: str, sc: NameScanner, lex: NameLexicon
    ) -> Iterator[tuple[int, int, str]]:
        """Names in signature rows: the cells of a line beside a titled name (``Prof. Dr. A    B``),
        above a row of roles (``A    B`` / ``Chefarzt    Stationsarzt``), and a lone name closing the
        note (a listed name, or ``Surname, Given``)."""
        lines = [(m.start(), m.group()) for m in re.finditer(r"[^\n]+", text) if m.group().strip()]
        for k, (start, line) in enumerate(lines):
            last_line = k == len(lines) - 1
            multi = _RX["CELL_GAP_RE"].search(line) is not None
            if not (multi or last_line) or len(line) > 160:
                continue  # prose lines hold no signature cells (cheap test first: notes are long)
            cells = (
                [(start + c.start(), c.group()) for c in _RX["CELL_RE"].finditer(line)]
                if multi
                else [(start + len(line) - len(line.lstrip()), line.strip())]
            )
            names = []
            for c_start, cell in cells:
                pos, doctor = sc.skip_titles(text, c_start)
                span = sc.forward(text, pos, comma_ok=True)
                whole = span is not None and text[span[1] : c_start + len(cell)].strip(" ,.") == ""
                names.append((span if whole else None, doctor))
            if not any(n for n, _ in names):
                continue
            nxt = lines[k + 1][1] if k + 1 < len(lines) else ""
            roles_below = bool(nxt.strip()) and all(
                _role_cell(self.lang).fullmatch(c.group().strip(" ,")) for c in _RX["CELL_RE"].finditer(nxt)
            )
            titled_row = len(cells) >= 2 and any(doctor and n for n, doctor in names)
            last_line = last_line and len(cells) == 1
            for span, _doctor in names:
                if span is None:
                    continue
                if (
                    titled_row
                    or (roles_below and len(cells) >= 2)
                    or (
                        last_line
                        and (self._listed(text, span, lex) or "," in text[span[0] : span[1]])
                        and len(self._tokens(text, span)) >= 2
                    )
                ):
                    yield span[0], span[1], "DOCTOR"

    @staticmethod
    def _slash_names(
        text: str, end: int, sc: NameScanner, label: str, *, listed: bool = False
    ) -> Iterator[tuple[int, int, str]]:
        """Names joined by a slash to a found one: ``Dr. A / Dr. B``, ``Praxis A / B``; after a plural
        title (``listed``) also by a comma or "and": ``los Dres. Pérez y Gómez``, ``Dres. A, B und C``."""
        while True:
            joint = _JOINT_RE.match(text, end) if listed else _RX["SLASH_RE"].match(text, end)
            if joint is None:
                return
            pos = joint.end()
            pos, _ = sc.skip_titles(text, pos)
            span = sc.forward(text, pos)
            if span is None or (
                joint.group().startswith(",") and not _AND_RE.search(text, span[0], span[1] + 5)
            ):
                return  # "Dres. A und B, Köln": a comma lists a name only before or with "and"
            for part in _split_listed(text, span, sc) if listed else (span,):
                yield part[0], part[1], label
            end = span[1]

    # -- checks ---------------------------------------------------------------------------------
    @staticmethod
    def _given_after_comma(
        text: str, span: tuple[int, int], lex: NameLexicon, *, strict: bool
    ) -> tuple[int, int]:
        """``Surname, Given``: keep the part after the comma only when it reads as given names (after a
        patient field any capitalised word; elsewhere listed given names only)."""
        surface = text[span[0] : span[1]]
        if ", " not in surface:
            return span
        head, _, tail = surface.partition(", ")
        if text[span[1] : span[1] + 1].isalnum() or re.match(r"[A-ZÀ-Þ]\.[ ][A-ZÀ-Þ]", tail):
            return span[0], span[0] + len(head)  # "Ibai Echenique, R.M. 513659", "Dra. X Y, I. López (MIR)"
        from phiscrub.detect.rules.intl_places import listed_town

        if listed_town(tail):
            return span[0], span[0] + len(head)  # "Dr. Ferrandon, Angers": the town is no given name
        if not strict or all(
            t.strip(".").lower() in lex.first or len(t.strip(".")) == 1 for t in tail.split()
        ):
            return span
        return span[0], span[0] + len(head)

    @staticmethod
    def _upper_line(text: str, pos: int) -> bool:
        """Capital names are taken after a field label only on an all-capitals line."""
        line_start = text.rfind("\n", 0, pos) + 1
        line_end = text.find("\n", pos)
        line = text[line_start : len(text) if line_end < 0 else line_end]
        letters = [c for c in line if c.isalpha()]
        return bool(letters) and sum(c.isupper() for c in letters) / len(letters) > 0.8

    @staticmethod
    def _tokens(text: str, span: tuple[int, int]) -> list[str]:
        return [t.strip(".,").lower() for t in text[span[0] : span[1]].replace(",", " ").split()]

    def _listed(self, text: str, span: tuple[int, int], lex: NameLexicon) -> bool:
        return any(t in lex.first or t in lex.last for t in self._tokens(text, span))

    def _signature_ok(self, text: str, span: tuple[int, int], lex: NameLexicon) -> bool:
        toks = self._tokens(text, span)
        # Nordic nouns are lower case: one capitalised word before a role or after a closing is a name.
        return len(toks) >= 2 or self._listed(text, span, lex) or self.lang in NORDIC_LANGUAGES

    @staticmethod
    def _listed_name(text: str, m: re.Match[str], lex: NameLexicon) -> tuple[int, int] | None:
        """The listed name inside a run of capitalised words: a listed given name, then given names and
        surnames of the lists with at least one surname ("Francisco Javier Torres Gómez")."""
        toks = [
            (t.start(), t.end(), t.group().lower())
            for t in re.finditer(r"[^\W\d_]+(?:-[^\W\d_]+)*", m.group())
        ]
        start = next((i for i, t in enumerate(toks) if t[2] in lex.first), None)
        if start is None:
            return None
        end = start
        surname = False
        for i in range(start + 1, len(toks)):
            word = toks[i][2]
            parts = word.split("-")
            is_last = word in lex.last or all(p in lex.last for p in parts)
            if word in PARTICLES and i + 1 < len(toks):
                continue
            if not (is_last or word in lex.first):
                break
            surname = surname or is_last
            end = i
        if end == start or not surname:
            return None
        return m.start() + toks[start][0], m.start() + toks[end][1]

    def _kin_label(self, text: str, start: int) -> str:
        before = text[max(0, start - 30) : start]
        return "RELATIVE" if _kin_before(self.lang).search(before) else "PATIENT"


#: Trigger group -> the method of :class:`PackNameRule` that reads the name around it.
_Handler = Callable[
    [PackNameRule, str, re.Match[str], NameScanner, NameLexicon], Iterator[tuple[int, int, str]]
]
_TRIGGER_HANDLERS: dict[str, _Handler] = {
    "title": PackNameRule._after_title,
    "ptitle": PackNameRule._after_title,
    "pfield": PackNameRule._after_field,
    "dfield": PackNameRule._after_field,
    "rfield": PackNameRule._after_field,
    "kin": PackNameRule._after_kin,
    "role": PackNameRule._before_role,
    "close_before": PackNameRule._before_role,
    "pbefore": PackNameRule._before_person,
    "closing": PackNameRule._after_closing,
    "signed": PackNameRule._after_closing,
    "bare": PackNameRule._bare_listed,
}
#: Username trigger group -> the group holding the user name.
_USER_GROUPS: dict[str, str] = {"user": "userv", "user_sig": "usersv", "user_before": "userb"}


def _genitive_end(text: str, start: int, end: int, lex: NameLexicon) -> int:
    """End of a German name without its genitive ``s`` ("Herrn Webers Ehefrau" -> "Weber"); a listed
    surname ending in s keeps it ("Frau Fuchs")."""
    word = text[start:end].rsplit(" ", 1)[-1]
    listed_s = word.lower() in lex.last and word[:-1].lower() not in lex.last
    if (
        not listed_s
        and len(word) > 3
        and word.endswith("s")
        and word[-2] not in "sßS"
        and not word.isupper()
        and _RX["GENITIVE_HEAD_RE"].match(text, end)
    ):
        return end - 1
    return end


@cache
def _role_cell(lang: str) -> re.Pattern[str]:
    return re.compile(rf"(?:{_words_re(NAME_WORDS[lang].roles)})(?:[ ]\S+){{0,3}}", re.IGNORECASE)


@cache
def _kin_word(lang: str) -> re.Pattern[str]:
    """A kinship word and the space after it (``Sønn `` after ``Pårørende:``)."""
    return re.compile(rf"(?:{_words_re(NAME_WORDS[lang].kin)})[ \t]+(?=[^\W\d_])", re.IGNORECASE)


@cache
def _kin_before(lang: str) -> re.Pattern[str]:
    words = NAME_WORDS[lang]
    return re.compile(rf"(?<!\w)(?:{_words_re(words.kin)})(?:[ \t]*[,(:])?[ \t]*\Z", re.IGNORECASE)


def _trigger_re(words: NameWords) -> re.Pattern[str]:
    titles = trie_pattern(with_upper((*words.doctor_titles, *words.person_titles)), ignore_case=False)
    field_start = (
        r"(?:(?<=\n)|(?<=\A)|(?<=[ \t]{2})|(?<=\t)|(?<=\|)|(?<=·)|(?<=; )|(?<=/ ))[ \t]*(?:\d{1,2}\.[ \t]*)?"
    )
    colon = r"[ \t]*:[ \t]*"
    name_start = r"(?=[^\W\d_])"
    # "Validiert: 15.07.2024, A. Zimmermann": a signed field may put the date before the name.
    field_date = r"(?:\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})(?:[ \t]+\d{1,2}:\d{2})?[ \t]*,[ \t]*)?"
    kin_colon = r"[ \t]*:[ \t]*|" if words.lexicon == "es" else ""  # "Tiene dos hijos: Ana y ..."
    person_before = (
        r"|(?P<pbefore>(?<=[^\s,]),[ \t]*(?:varón|mujer|hombre|niña|niño|paciente)[ \t]+de[ \t]+\d)"
        if words.lexicon == "es"
        else ""
    )
    return re.compile(
        rf"(?P<title>(?<![\w.\-]){titles}(?![\w\-])[ \t]+{name_start})"
        rf"|(?P<pfield>{field_start}(?:{_words_re(words.patient_fields)}){colon}{name_start})"
        rf"|(?P<dfield>{field_start}(?:{_words_re(words.doctor_fields)}){colon}{field_date}{name_start})"
        rf"|(?P<rfield>{field_start}(?:{_words_re(words.relative_fields)}){colon}{name_start})"
        rf"|(?P<kin>(?<![\w\-])(?P<kinword>{_words_re(words.kin)})(?![\w\-])(?:[ \t]*,[ \t]*|[ \t]*\([ \t]*|{kin_colon}[ \t]+){name_start})"
        rf"|(?P<role>(?<=[^\s,]),[ \t]*(?:{_words_re(words.roles)})(?![\w\-]))"
        rf"|(?P<close_before>(?<=[^\s,])[ \t]*\n[ \t]*(?:{_words_re(words.roles)})(?![\w\-])[ \t]*(?:\n|\Z|[ \t]{{2}}|,|\.|$|für[ ]))"
        rf"|(?P<closing>(?<![\w])(?:{_words_re(words.closings)})(?:[ \t]+(?:aus|from|de|uit|desde)[ \t][^\n]{{1,40}})?"
        rf"[ \t]*[,.!]?[ \t]*(?:\n[ \t]*)+{name_start})"
        rf"|(?P<user>(?<![\w])(?:usuario|usuaria|usuari|usuària|user|login|Benutzer|Benutzername|Kürzel|utilisateur|"
        rf"identifiant|gebruiker|gebruikersnaam|(?i:signat[ ]electrònicament[ ]per|firmado[ ]electrónicamente[ ]por)|"
        rf"(?i:elektronisch[ ]signiert[ ]von|signé[ ]électroniquement[ ]par|elektronisch[ ]ondertekend[ ]door))"
        rf"[ \t:]*[ \t]+(?P<userv>[A-Za-z][A-Za-z0-9._\-]{{2,24}})(?![\w@]))"
        rf"|(?P<user_sig>(?<![\w])(?:Firma|Signatura|(?i:signat[ ]digitalment|firmado[ ]digitalmente|signiert))"
        rf"[ \t]*[:(][ \t]*(?P<usersv>[a-z][a-z0-9._\-]{{2,24}})(?![\w@]))"
        rf"|(?P<user_before>(?:^|(?<=\n))[ \t]*(?P<userb>[a-z][a-z0-9._\-]{{2,24}})(?=,[ \t]*(?:{_words_re(words.roles)})(?![\w\-])|[ \t]+\((?:{_words_re(words.roles)})\)))"
        rf"|(?P<signed>(?<![\w])(?:{_words_re(words.signed)})[ \t:]*[ \t]+{name_start})" + person_before,
        re.MULTILINE,
    )


# Plural titles ("Dres. A und B", "los Dres. A y B") and what joins the names after them.
_PLURAL_TITLES = frozenset({"dres.", "dres", "dras.", "dras", "drs.", "drs", "profs."})
_AND_RE = re.compile(r"[ ](?:y|e|und|et|en|i)[ ]")
_JOINT_RE = re.compile(rf"[ ]/[ ]|/|,[ ]|{_AND_RE.pattern}")


def _split_listed(text: str, span: tuple[int, int], sc: NameScanner) -> list[tuple[int, int]]:
    """The names of a span after a plural title, split where "and" joins two (``Pérez y Gómez``);
    a part that is a common word (``Dres. Weber und Partner``) is left out."""
    common = {w.lower() for w in (*sc.words.stopwords, *sc.words.kin, *sc.words.roles)}
    parts: list[tuple[int, int]] = []
    start = span[0]
    for m in _AND_RE.finditer(text, span[0], span[1]):
        parts.append((start, m.start()))
        start = m.end()
    parts.append((start, span[1]))
    return [(s, e) for s, e in parts if e > s and text[s:e].lower() not in common]


def _bare_re() -> re.Pattern[str]:
    # A run of two to six capitalised words, particles between them (checked against the lexicons).
    tok = rf"[A-ZÀ-ÖØ-Þ]{LETTER}+(?:-[A-ZÀ-ÖØ-Þ]{LETTER}+)?"
    part = r"(?:van|de|von|van den|van der|de la|del|le|du|dos|da|y|i)"
    return re.compile(rf"(?<![\w\-.]){tok}(?:[ ](?:{part}[ ])?{tok}){{1,5}}(?![\w\-])")


PROFESSION_RES["ca"] = PROFESSION_RES["es"]


def _job_ok(m: re.Match[str]) -> bool:
    return m.group("p").split()[0].lower() not in NOT_JOBS


@cache
def pack_name_rules(lang: str) -> tuple[PatternRule, ...]:
    """The NAME rules of ``lang`` (``de``, ``fr``, ``nl``, ``es``, ``ca``; empty for others)."""
    return pack_rules(NAME_WORDS, _name_rules, lang)


def _name_rules(code: str, words: NameWords) -> tuple[PatternRule, ...]:
    nordic = nordic_name_rules(code) if code in NORDIC_LANGUAGES else ()
    return nordic + (
        PackNameRule("PATIENT",    _trigger_re(words),                             name=f"names_{code}",        score=0.85, extra_labels=("DOCTOR", "RELATIVE", "USERNAME"), lang=code),
        PackNameRule("PATIENT",    re.compile(rf"(?P<bare>{_bare_re().pattern})"), name=f"names_listed_{code}", score=0.7,  lang=code),
        PatternRule("PROFESSION", PROFESSION_RES[code],                           name=f"profession_{code}",   score=0.75, group="p", validator=_job_ok),
    ) + german_name_rules(code) + spanish_name_rules(code)  # fmt: skip
