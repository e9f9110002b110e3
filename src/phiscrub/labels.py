"""PHI label sets and corpus mappings, all in one place.

Three granularities:

* ``fine``: i2b2-2014-style types (PATIENT, DOCTOR, ..., IDNUM) plus RELATIVE, SSN, IPADDRESS, and
  OTHER (annotated but not PHI for our purposes, e.g. MEDDOCAN's SEXO_SUJETO_ASISTENCIA).
* ``coarse``: the 7 categories NAME, LOCATION, DATE, ID, CONTACT, AGE, PROFESSION (Amin et al. 2022).
* ``phicon5``: the 5 categories of PHICON and Kim et al.: NAME, LOCATION, DATE, ID, CONTACT
  (AGE and PROFESSION are not PHI there).

Corpus-native labels (i2b2 2006, i2b2 2014, MEDDOCAN, Wang et al.'s Chinese set, the zero-shot
placeholders) are first mapped to fine labels by :func:`to_fine`, then folded by :func:`fold`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Literal

from phiscrub.errors import LabelError

__all__ = [
    "COARSE_LABELS",
    "CORPUS_MAPPINGS",
    "FINE_LABELS",
    "FINE_TO_COARSE",
    "PHICON5_LABELS",
    "PLACEHOLDER_LABELS",
    "Granularity",
    "fold",
    "label_digest",
    "labels_of",
    "to_fine",
]

Granularity = Literal["fine", "coarse", "phicon5"]

COARSE_LABELS: tuple[str, ...] = ("AGE", "CONTACT", "DATE", "ID", "LOCATION", "NAME", "PROFESSION")
PHICON5_LABELS: tuple[str, ...] = ("CONTACT", "DATE", "ID", "LOCATION", "NAME")

FINE_TO_COARSE: dict[str, str | None] = {
    # NAME
    "PATIENT": "NAME",
    "DOCTOR": "NAME",
    "RELATIVE": "NAME",
    "USERNAME": "NAME",
    # PROFESSION
    "PROFESSION": "PROFESSION",
    # LOCATION
    "HOSPITAL": "LOCATION",
    "DEPARTMENT": "LOCATION",
    "ROOM": "LOCATION",
    "ORGANIZATION": "LOCATION",
    "STREET": "LOCATION",
    "CITY": "LOCATION",
    "STATE": "LOCATION",
    "COUNTRY": "LOCATION",
    "ZIP": "LOCATION",
    "LOCATION": "LOCATION",
    # AGE, DATE
    "AGE": "AGE",
    "DATE": "DATE",
    # CONTACT
    "PHONE": "CONTACT",
    "FAX": "CONTACT",
    "EMAIL": "CONTACT",
    "URL": "CONTACT",
    "IPADDRESS": "CONTACT",
    # ID
    "SSN": "ID",
    "MEDICALRECORD": "ID",
    "HEALTHPLAN": "ID",
    "ACCOUNT": "ID",
    "LICENSE": "ID",
    "VEHICLE": "ID",
    "DEVICE": "ID",
    "BIOID": "ID",
    "IDNUM": "ID",
    # annotated in some corpora, not PHI here
    "OTHER": None,
}

FINE_LABELS: tuple[str, ...] = tuple(k for k in FINE_TO_COARSE if k != "OTHER")

#: Placeholders of the zero-shot notes and Kim et al.'s prompts: ``[PATIENT]`` etc. ``ID`` is Kim's
#: generic identifier placeholder.
PLACEHOLDER_LABELS: tuple[str, ...] = (*FINE_LABELS, "ID")

CORPUS_MAPPINGS: dict[str, dict[str, str]] = {
    "i2b2-2006": {
        "PATIENT": "PATIENT",
        "DOCTOR": "DOCTOR",
        "LOCATION": "LOCATION",
        "HOSPITAL": "HOSPITAL",
        "DATE": "DATE",
        "ID": "IDNUM",
        "PHONE": "PHONE",
        "AGE": "AGE",
    },
    "i2b2-2014": {
        **{lab: lab for lab in FINE_LABELS},
        "LOCATION-OTHER": "LOCATION",
        "IPADDR": "IPADDRESS",
        "OTHER": "LOCATION",
    },
    # Amin et al. (2022) Table A.4; OTHER types are kept as fine OTHER and fold to nothing.
    "meddocan": {
        "NOMBRE_SUJETO_ASISTENCIA": "PATIENT",
        "NOMBRE_PERSONAL_SANITARIO": "DOCTOR",
        "EDAD_SUJETO_ASISTENCIA": "AGE",
        "FECHAS": "DATE",
        "NUMERO_TELEFONO": "PHONE",
        "NUMERO_FAX": "FAX",
        "CORREO_ELECTRONICO": "EMAIL",
        "URL_WEB": "URL",
        "ID_ASEGURAMIENTO": "HEALTHPLAN",
        "NUMERO_BENEF_PLAN_SALUD": "HEALTHPLAN",
        "ID_CONTACTO_ASISTENCIAL": "ACCOUNT",
        "IDENTIF_VEHICULOS_NRSERIE_PLACAS": "VEHICLE",
        "IDENTIF_DISPOSITIVOS_NRSERIE": "DEVICE",
        "IDENTIF_BIOMETRICOS": "BIOID",
        "ID_SUJETO_ASISTENCIA": "MEDICALRECORD",
        "ID_TITULACION_PERSONAL_SANITARIO": "LICENSE",
        "ID_EMPLEO_PERSONAL_SANITARIO": "IDNUM",
        "OTRO_NUMERO_IDENTIF": "IDNUM",
        "HOSPITAL": "HOSPITAL",
        "INSTITUCION": "ORGANIZATION",
        "CALLE": "STREET",
        "TERRITORIO": "LOCATION",
        "PAIS": "COUNTRY",
        "CENTRO_SALUD": "HOSPITAL",
        "PROFESION": "PROFESSION",
        "SEXO_SUJETO_ASISTENCIA": "OTHER",
        "FAMILIARES_SUJETO_ASISTENCIA": "OTHER",
        "OTROS_SUJETO_ASISTENCIA": "OTHER",
        "DIREC_PROT_INTERNET": "IPADDRESS",  # an IP address: PHI (Safe Harbor identifier 15)
    },
    # Wang et al. (2022), Chinese EHRs.
    "wang2022": {"PER": "PATIENT", "LOC": "LOCATION", "ORG": "ORGANIZATION", "DAT": "DATE"},
    "placeholder": {**{lab: lab for lab in FINE_LABELS}, "ID": "IDNUM"},
}

# Labels accepted without naming a corpus: fine, coarse, and every corpus's native label.
_ANY: dict[str, str] = {}
for _mapping in CORPUS_MAPPINGS.values():
    for _k, _v in _mapping.items():
        _ANY.setdefault(_k, _v)
_ANY.update({lab: lab for lab in FINE_TO_COARSE})
_ANY.update({lab: lab for lab in COARSE_LABELS})
_ANY["LOCATION-OTHER"] = "LOCATION"


def _canon(label: str) -> str:
    return label.strip().upper().replace(" ", "_")


def label_digest(label: str) -> str:
    """A stand-in for a label read from user data, for messages: ``sha256:`` and 8 hex digits.

    Labels come from user files (an annotation column, a ``.ann`` file) and may hold anything, a
    name typed in the wrong column included, so errors and problem reports show this digest, never
    the label. ``printf %s 'LABEL' | sha256sum`` finds which label it was.
    """
    return "sha256:" + hashlib.sha256(label.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def to_fine(label: str, corpus: str | None = None) -> str:
    """Map a corpus-native label to a fine label (coarse labels pass through unchanged).

    Args:
        label: the label as written in the input.
        corpus: a key of :data:`CORPUS_MAPPINGS`, or None to accept any known label.

    Raises:
        LabelError: the label is unknown (the error gives its :func:`label_digest`, never the label).
    """
    key = _canon(label)
    if corpus is not None:
        if corpus not in CORPUS_MAPPINGS:
            raise LabelError(f"unknown corpus mapping {corpus!r}; known: {sorted(CORPUS_MAPPINGS)}")
        mapping = CORPUS_MAPPINGS[corpus]
        if key in mapping:
            return mapping[key]
    if key in _ANY:
        return _ANY[key]
    raise LabelError(f"unknown PHI label ({label_digest(label)})")


def fold(label: str, granularity: Granularity = "fine") -> str | None:
    """Fold a fine (or coarse) label to ``granularity``; None means "not PHI at this granularity".

    Raises:
        LabelError: unknown label or granularity.
    """
    fine = to_fine(label)
    if granularity == "fine":
        return None if fine == "OTHER" else fine
    coarse = fine if fine in COARSE_LABELS else FINE_TO_COARSE.get(fine)
    if granularity == "coarse":
        return coarse
    if granularity == "phicon5":
        return coarse if coarse in PHICON5_LABELS else None
    raise LabelError(f"unknown label granularity {granularity!r}; use fine, coarse or phicon5")


def labels_of(granularity: Granularity) -> tuple[str, ...]:
    """The label inventory of a granularity, sorted."""
    if granularity == "fine":
        return tuple(sorted(FINE_LABELS))
    if granularity == "coarse":
        return COARSE_LABELS
    if granularity == "phicon5":
        return PHICON5_LABELS
    raise LabelError(f"unknown label granularity {granularity!r}; use fine, coarse or phicon5")


def known(labels: Iterable[str]) -> tuple[set[str], set[str]]:
    """Split labels into (known, unknown) sets."""
    good: set[str] = set()
    bad: set[str] = set()
    for lab in labels:
        try:
            to_fine(lab)
            good.add(lab)
        except LabelError:
            bad.add(lab)
    return good, bad
