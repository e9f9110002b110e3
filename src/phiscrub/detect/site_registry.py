"""The patient registry (an MPI export): each note's own patient, found in every form notes write.

A :class:`Registry` is read from a CSV file with the columns ``patient_id``, ``first``, ``last``,
``mrn`` and ``dob`` (each optional but the id) and any others: every other column's values are
identifiers of that patient, labelled by the column name when it is a fine label (``SSN``,
``PHONE``, ``HEALTHPLAN``...) and ``IDNUM`` otherwise.

For a note whose ``metadata["patient_id"]`` is in the registry (:meth:`Registry.spans`):

* the patient's names (PATIENT): full, "Last, First", "H. Webb", the first and last names alone
  (English words only in a name context, :mod:`phiscrub.detect.site_match`), the initials
  "H.W." (in capitals) and "HW" (after a title), a lone initial after a title or "Pt" ("Mr. W",
  "Pt H. reports"), and one-letter misspellings (a letter changed,
  added, dropped or two swapped) of names of five letters or more that are no English word;
* the MRN (MEDICALRECORD) with any separators ("441-9283", "441 9283", "#4419283");
* the date of birth (DATE) in the usual formats (1941-03-14, 3/14/1941, 03/14/41, 3-14-41,
  14 Mar 1941, March 14, 1941...);
* the other columns' values.

Every registry patient's full name ("First Last", "Last, First") is PATIENT in every note: a
full name is precise enough to be found without knowing whose note it is.

The registry is PHI: nothing of it is logged; errors name the file and line numbers only.
"""

from __future__ import annotations

import csv
import io
import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.site_match import Kind, PhraseMatcher, Variant, best_hits, is_ambiguous_word
from phiscrub.detect.site_variants import PERSON_LABELS, name_variants
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.labels import FINE_LABELS

_RX = pattern_data("site_registry")


__all__ = ["REGISTRY_SOURCE", "PatientRecord", "Registry", "dob_pattern", "id_pattern", "one_edit"]

#: Source of the registry's spans.
REGISTRY_SOURCE = "site:registry"

_ALIASES = {
    "patient_id": ("patient_id", "patientid", "pid", "id"),
    "first": ("first", "first_name", "firstname", "given", "given_name"),
    "last": ("last", "last_name", "lastname", "surname", "family", "family_name"),
    "mrn": ("mrn", "medical_record", "medicalrecord", "medical_record_number"),
    "dob": ("dob", "birth_date", "date_of_birth", "birthdate"),
}
_CACHE_SIZE = 1024
_MONTHS = (
    "jan(?:uary)?", "feb(?:ruary)?", "mar(?:ch)?", "apr(?:il)?", "may", "june?", "july?",
    "aug(?:ust)?", "sept?(?:ember)?", "oct(?:ober)?", "nov(?:ember)?", "dec(?:ember)?",
)  # fmt: skip


@dataclass(frozen=True)
class PatientRecord:
    """One registry row: names, MRN, date of birth and the other columns as ``(label, value)``."""

    first: str = ""
    last: str = ""
    mrn: str = ""
    dob: date | None = None
    extras: tuple[tuple[str, str], ...] = ()


def one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by exactly one substitution, insertion, deletion or swap."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


def id_pattern(value: str) -> re.Pattern[str] | None:
    """A pattern of an identifier with any separators (spaces, dashes, dots, slashes) between its
    characters and optional leading zeros; None for values of fewer than 4 letters and digits."""
    chars = [c for c in value if c.isalnum()]
    if len(chars) < 4:
        return None
    body = r"[\s.\-/]?".join(re.escape(c) for c in chars)
    lead = r"(?:0[\s.\-]?)*" if chars[0].isdigit() else ""
    return re.compile(rf"(?<![A-Za-z0-9]){lead}{body}(?![A-Za-z0-9])", re.IGNORECASE)


def dob_pattern(day: date) -> re.Pattern[str]:
    """A pattern of one date in the numeric (US, ISO, day-first) and month-name formats."""
    y4, y2 = f"{day.year:04d}", f"{day.year % 100:02d}"
    m = f"0?{day.month}" if day.month < 10 else str(day.month)
    d = f"0?{day.day}" if day.day < 10 else str(day.day)
    year = rf"(?:{y4}|'?{y2})"
    sep = r"[/.\-]"
    mon = rf"{_MONTHS[day.month - 1]}\.?"
    dth = rf"{d}(?:st|nd|rd|th)?"
    forms = [
        rf"{m}{sep}{d}{sep}{year}",
        rf"{d}{sep}{m}{sep}{year}",
        rf"{y4}{sep}{m}{sep}{d}",
        rf"{y4}{day.month:02d}{day.day:02d}",
        rf"{dth}[\s\-]+(?:of[ \t]+)?{mon}[\s,\-]+{year}",
        rf"{mon}[ \t]+{dth},?[ \t]+{year}",
        rf"{mon}{sep}{d}{sep}{year}",
    ]
    return re.compile(rf"(?<![\w/.\-])(?:{'|'.join(forms)})(?![\w]|[/.\-]\d)", re.IGNORECASE)


def _parse_date(value: str, where: str) -> date | None:
    value = value.strip()
    if not value:
        return None
    m = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", value) or re.fullmatch(
        r"(\d{4})(\d{2})(\d{2})", value
    )
    us = re.fullmatch(r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})", value)
    try:
        if m:
            return date(int(m[1]), int(m[2]), int(m[3]))
        if us:
            return date(int(us[3]), int(us[1]), int(us[2]))
    except ValueError:
        pass
    raise ConfigError(f"registry {where}: the dob is not a date (YYYY-MM-DD or M/D/YYYY)")


def _column_roles(header: list[str], path: Path) -> dict[str, int]:
    names = [h.strip().lower() for h in header]
    roles: dict[str, int] = {}
    for role, aliases in _ALIASES.items():
        for i, name in enumerate(names):
            if name in aliases and role not in roles:
                roles[role] = i
    if "patient_id" not in roles:
        raise ConfigError(f"registry {path} has no patient_id column")
    return roles


@dataclass
class Registry:
    """Patients by id; :meth:`spans` finds a note's patient in it (see the module docstring).

    Args:
        patients: patient id -> record.
        all_names: also find every registry patient's full name in every note.
    """

    patients: dict[str, PatientRecord]
    all_names: bool = True
    _everyone: PhraseMatcher | None = field(default=None, init=False, repr=False, compare=False)
    _cache: OrderedDict[str, _PatientMatcher] = field(
        default_factory=OrderedDict, init=False, repr=False, compare=False
    )

    def __len__(self) -> int:
        return len(self.patients)

    @classmethod
    def from_csv(cls, path: str | Path) -> Registry:
        """Read a registry CSV (header row first).

        Raises:
            ConfigError: unreadable, no ``patient_id`` column, a repeated id or a bad date of birth
                (line numbers only).
        """
        p = Path(path)
        if not p.is_file():
            raise ConfigError(f"registry {p} does not exist or is not a file")
        try:
            text = p.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"registry {p} cannot be read: {type(exc).__name__}") from None
        rows = csv.reader(io.StringIO(text))
        header = next(rows, None)
        if header is None:
            raise ConfigError(f"registry {p} is empty")
        roles = _column_roles(header, p)
        taken = set(roles.values())
        extras = [(i, _extra_label(header[i])) for i in range(len(header)) if i not in taken]
        patients: dict[str, PatientRecord] = {}
        for lineno, row in enumerate(rows, start=2):
            if not any(c.strip() for c in row):
                continue

            def get(role: str, row: list[str] = row) -> str:
                i = roles.get(role)
                return row[i].strip() if i is not None and i < len(row) else ""

            pid = get("patient_id")
            if not pid:
                raise ConfigError(f"registry {p} line {lineno}: no patient_id")
            if pid in patients:
                raise ConfigError(f"registry {p} line {lineno}: repeated patient_id")
            more = tuple((lab, row[i].strip()) for i, lab in extras if i < len(row) and row[i].strip())
            dob = _parse_date(get("dob"), f"{p} line {lineno}")
            patients[pid] = PatientRecord(get("first"), get("last"), get("mrn"), dob, more)
        return cls(patients)

    # -- matching ----------------------------------------------------------------------------------
    @property
    def everyone(self) -> PhraseMatcher:
        """The automaton of every patient's full names; built on first use."""
        if self._everyone is None:
            matcher = PhraseMatcher()
            if self.all_names:
                for rec in self.patients.values():
                    if rec.first and rec.last:
                        for key, variant in name_variants(rec.first, rec.last, "PATIENT", lone=False):
                            if variant.rank == 0:  # full forms only, not "H. Webb"
                                matcher.add(key, variant)
            self._everyone = matcher.build()
        return self._everyone

    def matcher_of(self, patient_id: str) -> _PatientMatcher | None:
        """The matcher of one patient (cached for the most recent patients); None if unknown."""
        found = self._cache.get(patient_id)
        if found is not None:
            self._cache.move_to_end(patient_id)
            return found
        rec = self.patients.get(patient_id)
        if rec is None:
            return None
        made = _PatientMatcher(rec)
        self._cache[patient_id] = made
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return made

    def spans(self, doc: Document) -> list[Span]:
        """The registry's spans in ``doc`` (its patient: ``doc.metadata["patient_id"]``)."""
        hits = list(self.everyone.find(doc.text))
        pid = doc.metadata.get("patient_id")
        own = self.matcher_of(str(pid)) if pid is not None else None
        spans = [Span(h.start, h.end, h.label, 1.0, REGISTRY_SOURCE) for h in best_hits(hits)]
        if own is not None:
            spans.extend(own.spans(doc.text))
        return spans


def _extra_label(column: str) -> str:
    name = column.strip().upper().replace(" ", "_")
    return name if name in FINE_LABELS else "IDNUM"


class _PatientMatcher:
    """One patient's names (automaton and misspellings) and identifier patterns."""

    def __init__(self, rec: PatientRecord) -> None:
        self.names = PhraseMatcher()
        for key, variant in name_variants(rec.first, rec.last, "PATIENT"):
            self.names.add(key, variant)
        if rec.first and rec.last:
            a, b = rec.first[0].upper(), rec.last[0].upper()
            for form in (f"{a}.{b}.", f"{a}. {b}.", f"{a}.{b}"):
                self.names.add(form, Variant("PATIENT", Kind.UPPER, 1))
            self.names.add(f"{a}{b}", Variant("PATIENT", Kind.WEAK, 3))
        self.patterns: list[tuple[str, re.Pattern[str]]] = []
        for lab, value in (("MEDICALRECORD", rec.mrn), *rec.extras):
            if lab in PERSON_LABELS:
                parts = value.split()
                for key, variant in name_variants(parts[0], parts[-1], lab, lone=False, full=value):
                    self.names.add(key, variant)
                continue
            pat = id_pattern(value) if any(c.isdigit() for c in value) else _literal(value)
            if pat is not None:
                self.patterns.append((lab, pat))
        if rec.dob is not None:
            self.patterns.append(("DATE", dob_pattern(rec.dob)))
        self.fuzzy = [n.lower() for n in (rec.first, rec.last) if len(n) >= 5]
        letters = "".join(sorted({n[0].upper() for n in (rec.first, rec.last) if n}))
        # "Mr. W", "Pt H. reports": the patient's lone initial after a title or "Pt".
        self.lone = (
            re.compile(
                rf"\b(?:Mr|Mrs|Ms|Miss|Mx|MRS|Pt|pt|Patient|patient)\.?[ \t]+(?P<i>[{letters}])(?![\w'’&/]|\.\w)"
            )
            if letters
            else None
        )
        self.names.build()

    def spans(self, text: str) -> Iterator[Span]:
        """The patient's spans in ``text``."""
        for h in best_hits(self.names.find(text)):
            yield Span(h.start, h.end, h.label, 1.0, REGISTRY_SOURCE)
        for lab, pat in self.patterns:
            for m in pat.finditer(text):
                yield Span(m.start(), m.end(), lab, 1.0, REGISTRY_SOURCE)
        if self.lone is not None:
            for m in self.lone.finditer(text):
                yield Span(m.start("i"), m.end("i"), "PATIENT", 1.0, REGISTRY_SOURCE)
        if self.fuzzy:
            for m in _RX["TOKEN"].finditer(text):
                word = m.group().lower()
                fuzzy = len(word) >= 4 and any(one_edit(word, n) for n in self.fuzzy)
                if fuzzy and not is_ambiguous_word(word):
                    yield Span(m.start(), m.end(), "PATIENT", 1.0, REGISTRY_SOURCE)


def _literal(value: str) -> re.Pattern[str] | None:
    value = " ".join(value.split())
    if len(value) < 3:
        return None
    body = r"\s+".join(re.escape(w) for w in value.split())
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)
