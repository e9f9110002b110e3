"""Consistent surrogates: the same PHI value always gets the same realistic stand-in.

Every choice is drawn from a keyed HMAC-SHA256 stream, so the same key and value (and the same
patient, with ``scope="patient"``) give the same surrogate in every document and every run, and a
different key gives different surrogates. Without the key the mapping cannot be recomputed.

What each kind of PHI becomes:

* names (PATIENT, DOCTOR, RELATIVE, USERNAME): first names and surnames are mapped one component at a
  time, so "John Smith", "Smith", "SMITH", "J. Smith", "Smith, John" and "jsmith" all point at one
  surrogate person, written in the original form (initials, case, comma order, hyphenated parts,
  possessive 's). The surrogate's initial is a keyed function of the original initial (so "J." and
  "John" agree); it always differs from the original initial, so a surrogate never equals its
  original. First names keep their gender when the bundled lists know it.
* dates: shifted back by a per-patient (else per-document) number of days, a multiple of 7, and
  written in the original format (:mod:`phiscrub.transform.dates`); unparseable dates get keyed
  digits of the same shape.
* identifiers, phones, fax numbers, ZIP codes: same shape (digits for digits, letters for letters,
  separators kept); US phone area and exchange codes never start with 0 or 1; IPv4 octets stay valid;
  e-mails and URLs keep their structure, scheme and top-level domain.
* ages over 89 become "90+" (HIPAA Safe Harbor); younger ages are kept, or moved a few years.
* places, organizations, professions, departments: keyed picks from the bundled lexicons, in the
  original case pattern; streets keep number + name + suffix; rooms keep their shape.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from typing import Literal

from phiscrub.errors import ConfigError
from phiscrub.labels import to_fine
from phiscrub.transform.surrogate import coherent, contacts, identifiers, names, places, when
from phiscrub.transform.surrogate.coherent import NoteGeo
from phiscrub.transform.surrogate.geo import state_code
from phiscrub.transform.surrogate.kinds import read_facility, surface_kind
from phiscrub.transform.surrogate.locale import Locale, resolve_locale
from phiscrub.transform.surrogate.source import KeyedSource, Streams, keyed_streams
from phiscrub.transform.surrogate.text import CJK, normalize_component
from phiscrub.transform.surrogate.wordlists import NAME_LABELS, PICK_LEXICON, SHAPE_LABELS

#: Date offsets above this many days move a yearless date by under 4 weeks in the calendar ...
_NEAR_A_YEAR = 336
#: ... and are moved back by this many days (44 weeks: 343..364 -> 35..56).
_YEAR_FOLD = 308
#: The redraw a surrogate is computed for (0: the first draw); a context variable, so threads and
#: tasks of the service never see each other's.
_ATTEMPT: ContextVar[int] = ContextVar("phiscrub_surrogate_attempt", default=0)
# "Springfield, IL 62704" in one LOCATION span.
_TOWN_STATE_ZIP = re.compile(
    r"(?P<town>[^\W\d_][^\W\d_ .'-]*(?:[ .'-]+[^\W\d_]+){0,2}),(?P<gap>\s*)(?P<st>[A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
    r"(?:(?P<sp>\s+)(?P<zip>\d{5}(?:-\d{4})?))?"
)

__all__ = ["NAME_LABELS", "SHAPE_LABELS", "Scope", "SurrogateGenerator", "normalize_component"]

Scope = Literal["patient", "global"]


class SurrogateGenerator:
    """Keyed, consistent surrogate values for PHI surfaces.

    Args:
        key: the secret (bytes, or text encoded as UTF-8); required and non-empty.
        scope: ``"patient"``: mappings also depend on the patient id when one is given, so the same
            name in two patients' notes gets two surrogates; ``"global"``: one mapping everywhere
            (dates then share one offset too).
        date_shift_range: smallest and largest shift back in days; the shift is a multiple of 7.
        age_over_89: ``"bucket"`` writes ages over 89 as "90+"; ``"keep"`` leaves them.
        age_perturb: move ages of 89 and under by up to this many years (0: keep them).
        lang: the notes' language when a call names none (date order, surrogate lists).
        locale: the surrogate locale of every note (``en_US``, ``es_ES``, ...); None: each note's
            from its language (:func:`~phiscrub.transform.surrogate.locale.resolve_locale`).
            Chinese surfaces always get Chinese surrogates.
        fictional_contacts: phone and fax numbers in the reserved fictional range (555-01xx).

    Raises:
        ConfigError: empty key, unknown scope, or a bad range.
    """

    def __init__(
        self,
        key: bytes | str,
        scope: Scope = "patient",
        *,
        date_shift_range: tuple[int, int] = (28, 364),
        age_over_89: Literal["bucket", "keep"] = "bucket",
        age_perturb: int = 0,
        lang: str | None = None,
        locale: str | None = None,
        fictional_contacts: bool = False,
    ) -> None:
        if isinstance(key, str):
            key = key.encode("utf-8")
        if not key:
            raise ConfigError("surrogate mode needs a non-empty key: use --key or the PHISCRUB_KEY env var")
        if scope not in ("patient", "global"):
            raise ConfigError(f"unknown surrogate scope {scope!r}; use patient or global")
        lo, hi = date_shift_range
        if lo < 0 or hi < lo or math.ceil(lo / 7) > hi // 7:
            raise ConfigError(f"date_shift_range {date_shift_range} holds no positive multiple of 7")
        if age_over_89 not in ("bucket", "keep"):
            raise ConfigError(f"age_over_89 must be 'bucket' or 'keep', not {age_over_89!r}")
        if age_perturb < 0:
            raise ConfigError("age_perturb must be >= 0")
        if locale is not None:
            resolve_locale(locale, lang)  # fails early on an unknown locale
        self._key = key
        self.scope: Scope = scope
        self.date_shift_range = (lo, hi)
        self.age_over_89 = age_over_89
        self.age_perturb = age_perturb
        self.lang = lang
        self.locale = None if locale is None else resolve_locale(locale, lang).code
        self.fictional_contacts = fictional_contacts

    def __repr__(self) -> str:  # never show the key
        return f"SurrogateGenerator(scope={self.scope!r}, lang={self.lang!r})"

    # ---------------------------------------------------------------------------------------
    # plumbing

    def _streams(self, patient_id: str | None) -> Streams:
        """Keyed sources of the consistency scope of ``patient_id`` (of a redraw, see ``attempt``)."""
        scope: tuple[str, ...] = (
            ("patient", patient_id) if self.scope == "patient" and patient_id is not None else ("global",)
        )
        attempt = _ATTEMPT.get()
        return keyed_streams(self._key, (*scope, "redraw", str(attempt)) if attempt else scope)

    def locale_of(self, lang: str | None = None) -> Locale:
        """The surrogate locale of a note of language ``lang`` (the generator's own when given)."""
        return resolve_locale(self.locale, lang or self.lang)

    def _lang_folder(self, surface: str, lang: str | None = None) -> str | None:
        """The lexicon folder of the note's locale; Chinese surfaces always draw Chinese lists."""
        if CJK.search(surface):
            return "zh"
        return self.locale_of(lang).folder

    # ---------------------------------------------------------------------------------------
    # dispatch

    def surrogate(
        self,
        label: str,
        surface: str,
        *,
        patient_id: str | None = None,
        doc_id: str | None = None,
        lang: str | None = None,
        name_roles: Mapping[str, str] | None = None,
        start: int | None = None,
        geo: NoteGeo | None = None,
        attempt: int = 0,
    ) -> str:
        """A surrogate for ``surface`` of PHI type ``label`` (fine, coarse or corpus label).

        The surface decides its kind before the label does (:func:`~.surrogate.kinds.surface_kind`):
        a facility keeps its head noun, a known town gets a town, a known state a state, a place
        label on a person's name a name. Towns, ZIP codes and phones of a US note lie in the state
        of their "Town, ST ZIP" group, else the note's home state (``geo``).

        Args:
            label: the PHI label; coarse labels (NAME, ID, CONTACT, LOCATION) are handled by form.
            surface: the original text.
            patient_id: the patient the note belongs to (consistency scope and date offset).
            doc_id: the document, for the date offset when there is no patient id.
            lang: language hint of the document (date order, word lists).
            name_roles: roles of the note's name words (:meth:`name_roles`), for names.
            start: the span's offset in the note (its place in ``geo``).
            geo: the note's geography (:meth:`note_geography`); None: the patient's keyed state.
            attempt: 0, or the number of a redraw: the transformer draws again when a surrogate
                would write another original value of the same note (:mod:`.operators`).
        """
        if attempt:
            token = _ATTEMPT.set(attempt)
            try:
                return self.surrogate(
                    label, surface, patient_id=patient_id, doc_id=doc_id, lang=lang, name_roles=name_roles,
                    start=start, geo=geo,
                )  # fmt: skip
            finally:
                _ATTEMPT.reset(token)
        fine = to_fine(label)
        if not surface.strip():
            return surface
        if fine == "DATE":
            return self.date(surface, patient_id=patient_id, doc_id=doc_id, lang=lang)
        typed = self._typed(fine, surface, patient_id, lang, name_roles, start, geo)
        if typed is not None:
            return typed
        if (
            fine in NAME_LABELS
            or fine == "USERNAME"
            and (re.search(r"[\s,]", surface.strip()) or CJK.search(surface))
        ):
            if fine == "RELATIVE":
                name_roles = _relative_roles(surface, name_roles)
            return self.name(surface, patient_id=patient_id, lang=lang, roles=name_roles)
        if fine in PICK_LEXICON and not (fine == "LOCATION" and re.search(r"\d", surface)):
            return self.pick(fine, surface, patient_id=patient_id, lang=lang)
        if fine in ("STREET", "LOCATION") and (
            fine == "STREET" or re.match(r"^\s*\d+[A-Za-z]?\s+[^\W\d_]", surface)
        ):
            return self.street(surface, patient_id=patient_id, lang=lang)
        kind = _contact_kind(surface) if fine == "CONTACT" else fine
        method = _BY_FORM.get(kind)
        if method is not None:
            return method(self, surface, patient_id=patient_id, lang=lang)
        return self.shape(surface, patient_id=patient_id, label=fine)

    # ---------------------------------------------------------------------------------------
    # places and contacts by kind, coherent within the note

    def home_state(self, patient_id: str | None = None) -> str:
        """The state of a US note that names none: one keyed by the patient (else global)."""
        return coherent.keyed_state(self._streams(patient_id), "home")

    def note_geography(
        self,
        text: str,
        spans: Sequence[tuple[int, int, str]],
        *,
        patient_id: str | None = None,
        lang: str | None = None,
    ) -> NoteGeo | None:
        """The states of a note's towns, ZIP codes and phones (US locale; None for others).

        Args:
            text: the note.
            spans: (start, end, fine label) of the spans to be replaced, in text order.
            patient_id: consistency scope of the state surrogates.
            lang: the note's language.
        """
        if self.locale_of(lang).country != "US":
            return None
        streams = self._streams(patient_id)
        return coherent.plan_geography(
            text, spans, lambda code: coherent.keyed_state(streams, code), self.home_state(patient_id)
        )

    def _typed(
        self,
        fine: str,
        surface: str,
        patient_id: str | None,
        lang: str | None,
        roles: Mapping[str, str] | None,
        start: int | None,
        geo: NoteGeo | None,
    ) -> str | None:
        """The surrogate of a place, facility, phone or ZIP code by its kind; None: by its label."""
        if CJK.search(surface):
            return None
        loc = self.locale_of(lang)
        us = loc.country == "US"
        kind = _kind_of(fine, surface, loc)
        if kind == "person":
            return self.name(surface, patient_id=patient_id, lang=lang, roles=roles)
        streams = self._streams(patient_id)
        state = (geo.target(start) if geo is not None else self.home_state(patient_id)) if us else None
        if kind is not None:
            return self._by_kind(kind, fine, streams, surface, loc, state, patient_id, lang)
        if state is not None and fine in ("LOCATION", "ZIP"):
            return self._us_address(streams, surface, loc, state, start, geo)
        if (_contact_kind(surface) if fine == "CONTACT" else fine) in ("PHONE", "FAX"):
            if state is not None:
                return coherent.keyed_us_phone(streams, surface, state, self.fictional_contacts)
            return coherent.keyed_locale_phone(streams, surface, loc.country)
        if fine == "DEPARTMENT" and loc.folder != "zh":
            return coherent.keyed_ward(streams, surface, loc)
        if fine == "HOSPITAL" and us and re.fullmatch(r"[A-Z]{2,5}", surface.strip()):
            return coherent.keyed_acronym(streams, surface)
        return None

    def _by_kind(
        self,
        kind: str,
        fine: str,
        streams: Streams,
        surface: str,
        loc: Locale,
        state: str | None,
        patient_id: str | None,
        lang: str | None,
    ) -> str | None:
        """The surrogate of a facility, organization, town, state or name-like place by its kind."""
        stripped = surface.strip()
        if kind == "facility":
            fac = read_facility(stripped)
            assert fac is not None
            return coherent.keyed_facility(streams, surface, fac, loc, state)
        if kind == "organization":
            return coherent.keyed_organization(streams, surface, loc, state)
        if kind == "city":
            return coherent.keyed_town(streams, surface, loc, state)
        if kind == "place-name":
            new = coherent.keyed_place_name(streams, stripped, loc, state, org=fine == "ORGANIZATION")
            return surface.replace(stripped, new)
        if kind == "state":
            code = state_code(stripped)
            if state is not None and code is not None:
                return coherent.render_state(surface, coherent.keyed_state(streams, code))
            return self.pick("STATE", surface, patient_id=patient_id, lang=lang)
        return None

    def _us_address(
        self,
        streams: Streams,
        surface: str,
        loc: Locale,
        state: str,
        start: int | None,
        geo: NoteGeo | None,
    ) -> str | None:
        """A ZIP code of the group's (surrogate) town and state, or a whole "Town, ST 12345"."""
        m = _TOWN_STATE_ZIP.fullmatch(surface.strip())
        code = None if m is None else state_code(m.group("st"))
        if m is not None and code is not None:
            new_state = coherent.keyed_state(streams, code)
            town = coherent.keyed_town(streams, m.group("town"), loc, new_state)
            new = f"{town},{m.group('gap')}{coherent.render_state(m.group('st'), new_state)}"
            if m.group("zip"):
                zip_code = coherent.keyed_zip(streams, m.group("zip"), new_state, town)
                new += m.group("sp") + (zip_code or self.shape(m.group("zip"), label="ZIP"))
            return surface.replace(surface.strip(), new)
        town_before = geo.town_of_zip.get(start) if geo is not None and start is not None else None
        new_town = None if town_before is None else coherent.keyed_town(streams, town_before, loc, state)
        return coherent.keyed_zip(streams, surface, state, new_town)

    # ---------------------------------------------------------------------------------------
    # names

    def name(
        self,
        surface: str,
        *,
        patient_id: str | None = None,
        lang: str | None = None,
        roles: Mapping[str, str] | None = None,
    ) -> str:
        """Surrogate for a person's name, component by component, in the original form.

        Components are keyed by their case- and accent-folded form, so "John", "JOHN" and "john"
        get one surrogate, written in each original's case; hyphenated parts are mapped one by one.

        Args:
            surface: the name as written ("John Smith", "SMITH, J.", "张伟").
            patient_id: consistency scope (with ``scope="patient"``).
            lang: document language; Spanish/Catalan documents (or a generator built with such a
                ``lang``) draw from the Spanish/Catalan lists, Chinese names always from Chinese ones.
                Consistency holds within one list, i.e. within one language.
            roles: first/last roles of name words read from the note's other names
                (:meth:`name_roles`): a lone word ("JOHN") takes the role it has in a full name of
                the same note ("John Smith") instead of a guess from the name lists.
        """
        streams = self._streams(patient_id)
        new = names.keyed_name(streams, surface, self._lang_folder(surface, lang), roles)
        return new if new is not None else identifiers.keyed_shape(streams, surface, "NAME")

    def name_roles(self, surface: str) -> dict[str, str]:
        """First/last role of each name part of a full name: ``{"john": "first", "smith": "last"}``.

        Only names of two or more name words (or the comma form) say something about roles; a
        lone word, initials and CJK names give ``{}``. Keys are :func:`normalize_component` forms.
        """
        return names.name_roles(surface)

    def handle(self, surface: str, *, patient_id: str | None = None, lang: str | None = None) -> str:
        """Surrogate for a user name or e-mail local part ("jsmith2" -> "mlawson7"), ASCII only.

        Name-like pieces map through the same components as :meth:`name`, so "jsmith" and
        "John Smith" stay one surrogate person.
        """
        return contacts.keyed_handle(self._streams(patient_id), surface, self.locale_of(lang).folder)

    # ---------------------------------------------------------------------------------------
    # dates and ages

    def date_offset(self, patient_id: str | None = None, doc_id: str | None = None) -> int:
        """Days to move this patient's (else document's) dates back: a multiple of 7 in range."""
        if self.scope == "global":
            parts: tuple[str, ...] = ("date-offset", "global")
        elif patient_id is not None:
            parts = ("date-offset", "patient", patient_id)
        elif doc_id is not None:
            parts = ("date-offset", "doc", doc_id)
        else:
            parts = ("date-offset", "global")
        lo, hi = math.ceil(self.date_shift_range[0] / 7), self.date_shift_range[1] // 7
        lo = max(lo, 1)
        days = 7 * (lo + KeyedSource(self._key, parts).randrange(hi - lo + 1))
        if days > _NEAR_A_YEAR and days - _YEAR_FOLD >= 7 * lo:
            # 49 to 52 weeks move a date without a year ("1/6", "August") by under 4 weeks in the
            # calendar, or not at all ("1/6" -> "1/5": another original of the same note): such
            # offsets fold to 5 to 8 weeks instead.
            days -= _YEAR_FOLD
        return days

    def date(
        self,
        surface: str,
        *,
        patient_id: str | None = None,
        doc_id: str | None = None,
        lang: str | None = None,
    ) -> str:
        """The date moved back by :meth:`date_offset`, in its original format.

        A year alone, a season or a weekday name may come out unchanged (the shift moves a mid-year
        reference day, and whole weeks keep weekdays). Dates that cannot be parsed get keyed digits
        of the same shape, never the original.
        """
        offset = self.date_offset(patient_id, doc_id)
        if _ATTEMPT.get() and not re.search(r"\d", surface):
            offset += 28 * _ATTEMPT.get()  # a redrawn month or season name: no interval to keep
        streams = self._streams(patient_id)
        return when.keyed_date(streams, surface, offset, doc_id=doc_id, lang=lang or self.lang)

    def age(self, surface: str, *, patient_id: str | None = None, lang: str | None = None) -> str:
        """Ages over 89 -> "90+" (unless ``age_over_89="keep"``); others kept or moved by ``age_perturb``."""
        return when.keyed_age(
            self._streams(patient_id), surface, over_89=self.age_over_89, perturb=self.age_perturb
        )

    # ---------------------------------------------------------------------------------------
    # shapes and contacts

    def shape(self, surface: str, *, patient_id: str | None = None, label: str = "ID") -> str:
        """Same-shape keyed replacement (identifiers, ZIP codes, anything without a better rule)."""
        return identifiers.keyed_shape(self._streams(patient_id), surface, label)

    def phone(self, surface: str, *, patient_id: str | None = None, lang: str | None = None) -> str:
        """Same-shape phone/fax number; country code kept; US area/exchange codes start 2-9."""
        return contacts.keyed_phone(self._streams(patient_id), surface)

    def ip(self, surface: str, *, patient_id: str | None = None, lang: str | None = None) -> str:
        """A valid IPv4 address with octets of the same widths (IPv6 and others: same shape)."""
        return contacts.keyed_ip(self._streams(patient_id), surface)

    def email(self, surface: str, *, patient_id: str | None = None, lang: str | None = None) -> str:
        """local@domain.tld with a new local part and domain; the top-level domain is kept."""
        return contacts.keyed_email(self._streams(patient_id), surface, self.locale_of(lang).folder)

    def url(self, surface: str, *, patient_id: str | None = None, lang: str | None = None) -> str:
        """Same scheme and top-level domain; other host labels and path words replaced."""
        return contacts.keyed_url(self._streams(patient_id), surface, self.locale_of(lang).folder)

    # ---------------------------------------------------------------------------------------
    # places and other lexicon labels

    def pick(
        self, label: str, surface: str, *, patient_id: str | None = None, lang: str | None = None
    ) -> str:
        """A keyed pick from the label's bundled list, in the surface's case pattern.

        Short all-caps abbreviations ("MGH", "MICU", "MA") get an abbreviation back.
        """
        folder = self._lang_folder(surface, lang)
        return places.keyed_pick(self._streams(patient_id), to_fine(label), surface, folder)

    def street(self, surface: str, *, patient_id: str | None = None, lang: str | None = None) -> str:
        """House number (same digit count) + street name + suffix, tail numbers reshaped."""
        return places.keyed_street(self._streams(patient_id), surface, self._lang_folder(surface, lang))

    def room(self, surface: str, *, patient_id: str | None = None, lang: str | None = None) -> str:
        """Room/bed: tokens with digits reshaped, single letters remapped, words kept."""
        return identifiers.keyed_room(self._streams(patient_id), surface)


def _relative_roles(surface: str, roles: Mapping[str, str] | None) -> Mapping[str, str] | None:
    """A relative named by one word no list knows is named by a given name ("Married to Abena",
    "daughter Kiki"): unless the note's full names say otherwise, the word maps as a first name."""
    words = re.findall(r"[^\W\d_]+", surface)
    if len(words) != 1 or len(words[0]) < 2:
        return roles
    key = normalize_component(words[0])
    female, male, last = names.name_sets()
    if (roles and key in roles) or key in female or key in male or key in last:
        return roles
    return {**(roles or {}), key: "first"}


def _kind_of(fine: str, surface: str, loc: Locale) -> str | None:
    """The kind of a surface (:func:`surface_kind`); else towns for town labels and, in US notes,
    facility names for hospital and organization labels (abbreviations keep the label's picks)."""
    kind = surface_kind(fine, surface, loc)
    stripped = surface.strip()
    if kind is not None or re.search(r"\d", stripped):
        return kind
    if fine in ("CITY", "LOCATION"):
        return "city"
    if (
        fine in ("HOSPITAL", "ORGANIZATION")
        and loc.country == "US"
        and not re.fullmatch(r"[A-Z&]{2,6}", stripped)
    ):
        return "place-name"
    return None


def _contact_kind(surface: str) -> str:
    """The fine label a CONTACT surface reads as: EMAIL, URL, IPADDRESS or PHONE."""
    if "@" in surface:
        return "EMAIL"
    if "://" in surface or surface.lower().startswith("www."):
        return "URL"
    if contacts.IPV4.match(surface.strip()):
        return "IPADDRESS"
    return "PHONE"


# Labels whose surrogate depends on the surface alone (and the patient scope).
_BY_FORM: dict[str, Callable[..., str]] = {
    "USERNAME": SurrogateGenerator.handle,
    "AGE": SurrogateGenerator.age,
    "PHONE": SurrogateGenerator.phone,
    "FAX": SurrogateGenerator.phone,
    "EMAIL": SurrogateGenerator.email,
    "URL": SurrogateGenerator.url,
    "IPADDRESS": SurrogateGenerator.ip,
    "ROOM": SurrogateGenerator.room,
}
