"""Fill placeholder notes (``[PATIENT]``, ``[DATE]``, ...) with random realistic values.

The zero-shot notes (Kim et al. 2024) write every PHI value as a bracketed label. To train a tagger
on them, each placeholder is replaced by a surrogate of its type and the span is recorded as gold.
Because a tagger learns the surface forms it sees, the fills vary on purpose: dates in many formats
(and a bare year after "quit", "since", "in"), names in several forms (full name, surname after a
title, "J. Smith", "Smith, John", ALL CAPS on upper-case lines), phones and identifiers in realistic
shapes, ages as numbers (sometimes over 89, in months where the note says "months old").

English fills also write what real US notes write and tidy LLM notes never do (issue 11): the
commonest US names; initial + surname in capitals after role cues ("per K. JONES", "d/w J SMITH");
lower-case first names after kinship words ("daughter mary") and lower-case fills on all-lower-case
lines; facility names made of common words ("St. Mary's", "Good Samaritan", "Lakeside Nursing Home",
"X Rehab", "University of X Medical Center") and their initials ("SJH", "BMC"), bare before "ED" /
"LTC"; named wards ("Ellison 4", "Blake 7") for rooms, departments and units; month/day dates in
running text ("BCx 3/14", "since 4/7", "jan 3", "Mar 14th"); month/two-digit-year and bare years
after a diagnosis or in a history list ("CABG 2004", "CVA 3/98"). Care-unit abbreviations (ICU, ED,
PACU) are never drawn as gold PHI: real notes do not treat them as PHI.

``vocab="train"`` / ``"test"`` restricts the open lists (names, towns, hospitals, companies, streets,
facility words) to a fixed hash-defined part of their entries (:func:`vocab_part`, 80% / 20%), so
that a test set filled from ``test`` holds only names a tagger trained on ``train`` fills never saw.

Fills are seeded random draws (:class:`random.Random`), not keyed: the values are invented, not
derived from any real PHI. Within a note the patient is one invented person and dates cluster
around one invented admission date, so notes stay coherent.

:func:`fill_text` is the core (also used on LLM output); :func:`draw_surrogate` draws one value
for augmentation; :class:`phiscrub.transform.placeholders.PlaceholderReader` reads ``.txt`` notes and
yields gold :class:`~phiscrub.document.Document` objects, one or several draws per note. The
generators of every label live in :mod:`phiscrub.transform.surrogate`, next to their keyed twins.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from phiscrub.document import Span
from phiscrub.errors import ConfigError
from phiscrub.labels import PLACEHOLDER_LABELS, to_fine
from phiscrub.transform.surrogate import contacts, identifiers, people, places, when
from phiscrub.transform.surrogate.cues import CASE_FOLLOWING
from phiscrub.transform.surrogate.draw import (
    FILL_LANGS,
    PLACEHOLDER_RE,
    VOCAB_TEST_SHARE,
    VOCABS,
    NoteDraw,
    detect_lang,
    vocab_part,
)
from phiscrub.transform.surrogate.wordlists import ID_SHAPES, PICK_LEXICON

__all__ = [
    "FILL_LANGS",
    "PLACEHOLDER_RE",
    "VOCABS",
    "VOCAB_TEST_SHARE",
    "detect_lang",
    "draw_surrogate",
    "fill_note",
    "fill_text",
    "vocab_part",
]

_KNOWN = frozenset(PLACEHOLDER_LABELS) | {"ID", "LOCATION"}

_Drawer = Callable[[NoteDraw, str, str], str]


def _pick(lexicon: str, ctx: NoteDraw, before: str, after: str) -> str:
    return ctx.pick(lexicon, before)


#: The seeded generator of each fine label.
_DRAWERS: dict[str, _Drawer] = {
    "PATIENT": people.draw_patient,
    "DOCTOR": people.draw_doctor,
    "RELATIVE": people.draw_relative,
    "USERNAME": people.draw_username,
    "DATE": when.draw_date,
    "AGE": when.draw_age_value,
    "PHONE": contacts.draw_phone,
    "FAX": contacts.draw_phone,
    "EMAIL": contacts.draw_email,
    "URL": contacts.draw_url,
    "IPADDRESS": contacts.draw_ip,
    "ZIP": identifiers.draw_zip,
    "STATE": places.draw_state,
    "DEPARTMENT": places.draw_department,
    "PROFESSION": places.draw_profession,
    "ROOM": identifiers.draw_room,
    "STREET": places.draw_street,
    "LOCATION": places.draw_location,
    "CITY": places.draw_city,
    "HOSPITAL": places.draw_hospital,
    # Plain picks from the label's bundled list (the lists keyed redaction picks from too).
    **{label: partial(_pick, PICK_LEXICON[label]) for label in ("ORGANIZATION", "COUNTRY")},
}


class _Filler(NoteDraw):
    """Draws a fill for each placeholder of one note."""

    def fill(self, label: str, before: str, after: str) -> str:
        """A value for the fine label ``label`` given the text before and after the placeholder."""
        value = self._draw(label, before, after)
        line_start = before.rfind("\n") + 1
        line_end = after.find("\n")
        line = PLACEHOLDER_RE.sub(" ", before[line_start:] + (after if line_end < 0 else after[:line_end]))
        letters = [c for c in line if c.isalpha() and c.isascii()]
        if (
            len(letters) >= 6
            and sum(c.isupper() for c in letters) / len(letters) > 0.8
            and label not in ("EMAIL", "URL")
        ):
            value = value.upper()
        elif (
            self.lang == "en"
            and len(letters) >= 12
            and not any(c.isupper() for c in letters)
            and label in CASE_FOLLOWING
            and self.rng.random() < 0.8
        ):
            value = value.lower()  # an all-lower-case line: "pt seen at st marys, dtr mary at bedside"
        return value

    def _draw(self, label: str, before: str, after: str) -> str:
        drawer = _DRAWERS.get(label)
        if drawer is not None:
            return drawer(self, before, after)
        if label in ID_SHAPES or label == "IDNUM":
            return identifiers.draw_identifier(self, label, before, after)
        raise ConfigError(f"no filler for label {label}")


def fill_note(
    text: str, rng: random.Random, lang: str, vocab: str = "all"
) -> tuple[str, list[Span], list[tuple[int, int]], str]:
    """:func:`fill_text` that also returns unknown placeholders' output offsets and the note's language."""
    filler = _Filler(text, rng, lang, vocab)
    pieces: list[str] = []
    spans: list[Span] = []
    unknown: list[tuple[int, int]] = []
    pos = 0
    out_len = 0
    for m in PLACEHOLDER_RE.finditer(text):
        gap = text[pos : m.start()]
        pieces.append(gap)
        out_len += len(gap)
        pos = m.end()
        if m.group(1) not in _KNOWN:
            unknown.append((out_len, out_len + len(m.group(0))))
            pieces.append(m.group(0))
            out_len += len(m.group(0))
            continue
        label = to_fine(m.group(1), "placeholder")
        before = text[max(0, m.start() - 60) : m.start()]
        after = text[m.end() : m.end() + 60]
        value = filler.fill(label, before, after)
        pieces.append(value)
        spans.append(Span(out_len, out_len + len(value), label, source="fill"))
        out_len += len(value)
    pieces.append(text[pos:])
    return "".join(pieces), spans, unknown, filler.lang


def fill_text(text: str, rng: random.Random, lang: str = "en", vocab: str = "all") -> tuple[str, list[Span]]:
    """Replace every known placeholder in ``text`` with a random surrogate of its type.

    Args:
        text: a note with ``[LABEL]`` placeholders (the zero-shot labels, Kim's ``[ID]``).
        rng: the random source (seed it for reproducible fills).
        lang: ``en``, ``es``, ``ca``, ``zh``, or ``auto`` (detected from the text).
        vocab: ``all`` names, towns, hospitals ... of the bundled lists, or their fixed ``train`` or
            ``test`` part (:func:`vocab_part`): fill training notes from ``train`` and test notes
            from ``test`` so that a test never meets a name the tagger was trained on.

    Returns:
        The filled text and one fine-labelled span per filled placeholder, in order.
        Unknown ``[SOMETHING]`` tokens are left as they are, without a span.

    Raises:
        ConfigError: unknown language or vocabulary.
    """
    filled, spans, _unknown, _lang = fill_note(text, rng, lang, vocab)
    return filled, spans


#: The fine label drawn for a coarse label (a coarse label names no single surface shape).
_COARSE_STAND_IN: dict[str, str] = {
    "NAME": "PATIENT",
    "LOCATION": "LOCATION",
    "DATE": "DATE",
    "ID": "IDNUM",
    "CONTACT": "PHONE",
    "AGE": "AGE",
    "PROFESSION": "PROFESSION",
}


def draw_surrogate(
    label: str, rng: random.Random, lang: str = "en", *, before: str = "", after: str = ""
) -> str:
    """One random surrogate value for ``label``, drawn like a placeholder fill.

    Each call stands alone (no note-level memory of the patient or the admission date); callers that
    want one surrogate per original value keep their own table.

    Args:
        label: a fine, coarse or corpus-native label; coarse labels draw a representative fine type
            (NAME -> PATIENT, ID -> IDNUM, CONTACT -> PHONE).
        rng: the random source.
        lang: ``en``, ``es``, ``ca``, ``zh`` or ``auto`` (detected from ``before`` + ``after``).
        before: text just before the value: a title makes a name a surname, "DOB:" a birth date,
            "since" a year; an upper-case line gives an upper-case value.
        after: text just after the value ("months old", "MD", a clock time).

    Returns:
        The surrogate text (never empty).

    Raises:
        LabelError: unknown label.
        ConfigError: unknown language, or a label with no surrogate (``OTHER``).
    """
    fine = to_fine(label)
    fine = _COARSE_STAND_IN.get(fine, fine)
    if fine == "OTHER":
        raise ConfigError("label OTHER has no surrogate")
    return _Filler(before + after, rng, lang).fill(fine, before, after)
