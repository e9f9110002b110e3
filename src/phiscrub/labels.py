"""PHI label sets and corpus mappings, all in one place.

Three granularities:

* ``fine``: i2b2-2014-style types (PATIENT, DOCTOR, ..., IDNUM) plus RELATIVE, SSN, IPADDRESS, and
  OTHER (annotated but not PHI for our purposes, e.g. MEDDOCAN's SEXO_SUJETO_ASISTENCIA).
* ``coarse``: the 7 categories NAME, LOCATION, DATE, ID, CONTACT, AGE, PROFESSION (Amin et al. 2022).
* ``phicon5``: the 5 categories of PHICON and Kim et al.: NAME, LOCATION, DATE, ID, CONTACT
  (AGE and PROFESSION are not PHI there).

Corpus-native labels (i2b2 2006, i2b2 2014, MEDDOCAN, Wang et al.'s Chinese set, the zero-shot
placeholders) are first mapped to fine labels by :func:`to_fine`, then folded by :func:`fold`.

A fourth, corpus-native granularity keeps the labels as the corpus writes them (``--labels native
--corpus meddocan``): its name is ``native:<corpus>``, optionally followed by ``+A,B`` for labels
met in the data beyond the corpus's inventory (a ``brat`` corpus has no fixed inventory, all its
labels come this way). :func:`fold` to a native granularity returns the label as written (upper
case, spaces as ``_``) and never drops one: unknown labels stay their own type.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Literal, get_args

from phiscrub.errors import LabelError

__all__ = [
    "COARSE_LABELS",
    "CORPUS_MAPPINGS",
    "FINE_LABELS",
    "FINE_TO_COARSE",
    "GRANULARITIES",
    "NATIVE_CORPORA",
    "PHICON5_LABELS",
    "PLACEHOLDER_LABELS",
    "Granularity",
    "fold",
    "is_native",
    "label_digest",
    "labels_of",
    "native_granularity",
    "native_labels",
    "to_fine",
    "to_native",
]

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

COARSE_LABELS: tuple[str, ...] = ("AGE", "CONTACT", "DATE", "ID", "LOCATION", "NAME", "PROFESSION")
PHICON5_LABELS: tuple[str, ...] = ("CONTACT", "DATE", "ID", "LOCATION", "NAME")

Granularity = Literal["fine", "coarse", "phicon5"]
#: The granularity names (of :data:`Granularity`), for choices and checks; native schemes aside.
GRANULARITIES: tuple[str, ...] = get_args(Granularity)

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

#: The label inventory of each corpus with ``--labels native`` (``brat``: none fixed, the labels of
#: the data). MEDDOCAN's 22 types are its annotation guideline's (DIREC_PROT_INTERNET included).
NATIVE_INVENTORIES: dict[str, tuple[str, ...]] = {
    "meddocan": tuple(sorted(CORPUS_MAPPINGS["meddocan"])),
    "i2b2-2006": tuple(sorted(CORPUS_MAPPINGS["i2b2-2006"])),
    "i2b2-2014": tuple(
        sorted((set(FINE_LABELS) - {"RELATIVE", "IPADDRESS", "LOCATION"}) | {"LOCATION-OTHER", "IPADDR"})
    ),
    "brat": (),
}
NATIVE_CORPORA: tuple[str, ...] = tuple(NATIVE_INVENTORIES)


def is_native(granularity: str) -> bool:
    """True for a corpus-native granularity (``native:<corpus>[+A,B]``)."""
    return granularity.startswith("native:")


def native_granularity(corpus: str, extra: Iterable[str] = ()) -> str:
    """The native granularity of ``corpus``, extended by the labels of ``extra`` it lacks.

    Raises:
        LabelError: ``corpus`` has no native inventory.
    """
    if corpus not in NATIVE_INVENTORIES:
        raise LabelError(f"no native label set for corpus {corpus!r}; known: {list(NATIVE_CORPORA)}")
    base = set(NATIVE_INVENTORIES[corpus])
    more = sorted({_canon(lab) for lab in extra} - base)
    return f"native:{corpus}" + ("+" + ",".join(more) if more else "")


def native_labels(granularity: str) -> tuple[str, ...]:
    """The sorted label inventory of a native granularity.

    Raises:
        LabelError: not a native granularity, or an unknown corpus.
    """
    if not is_native(granularity):
        raise LabelError(f"{granularity!r} is not a native label granularity")
    corpus, _, more = granularity[len("native:") :].partition("+")
    if corpus not in NATIVE_INVENTORIES:
        raise LabelError(f"no native label set for corpus {corpus!r}; known: {list(NATIVE_CORPORA)}")
    return tuple(sorted(set(NATIVE_INVENTORIES[corpus]) | {m for m in more.split(",") if m}))


#: Fine label -> native label where several native labels map to one fine label, or none does
#: (the rules and lexicon detectors speak fine labels; ``predict --labels native`` writes these).
_NATIVE_PREFERRED: dict[str, dict[str, str]] = {
    "meddocan": {
        "HEALTHPLAN": "ID_ASEGURAMIENTO",
        "IDNUM": "OTRO_NUMERO_IDENTIF",
        "SSN": "ID_ASEGURAMIENTO",  # Spanish NSS / NAF numbers are social-insurance numbers
        "LOCATION": "TERRITORIO",
        "CITY": "TERRITORIO",
        "STATE": "TERRITORIO",
        "ZIP": "TERRITORIO",
        "DEPARTMENT": "HOSPITAL",
        "ROOM": "HOSPITAL",
        "RELATIVE": "FAMILIARES_SUJETO_ASISTENCIA",
        "USERNAME": "OTROS_SUJETO_ASISTENCIA",
    },
    "i2b2-2006": {
        "IDNUM": "ID",
        "MEDICALRECORD": "ID",
        "CITY": "LOCATION",
        "STATE": "LOCATION",
        "STREET": "LOCATION",
        "ZIP": "LOCATION",
        "COUNTRY": "LOCATION",
    },
    "i2b2-2014": {"LOCATION": "LOCATION-OTHER", "IPADDRESS": "IPADDR", "RELATIVE": "PATIENT"},
}


def to_native(label: str, corpus: str) -> str:
    """The native label of ``corpus`` for ``label`` (a fine label from the rules, or native already).

    A label already in the corpus's inventory, or one with no native counterpart, is returned as
    written (upper case): it stays its own type.
    """
    key = _canon(label)
    inventory = NATIVE_INVENTORIES.get(corpus, ())
    if key in inventory:
        return key
    preferred = _NATIVE_PREFERRED.get(corpus, {})
    if key in preferred:
        return preferred[key]
    for native, fine in CORPUS_MAPPINGS.get(corpus, {}).items():
        if fine == key and native in inventory:
            return native
    return key


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

    A native granularity (:func:`is_native`) returns the label as written when it is in the
    scheme, a fine label (from the rules) as the corpus's type (:func:`to_native`), and any other
    label as written: nothing is dropped.

    Raises:
        LabelError: unknown label or granularity.
    """
    if is_native(granularity):
        key = _canon(label)
        if key in native_labels(granularity):
            return key
        return to_native(key, granularity[len("native:") :].partition("+")[0])
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
    if is_native(granularity):
        return native_labels(granularity)
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
