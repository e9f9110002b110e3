"""Check digits of national identifiers, so that bare numbers are taken only when they validate.

Each function takes the surface as written (spaces, dots, hyphens and slashes are ignored) and says
whether it is a well-formed identifier of its kind. They never raise on odd input.

* Spanish DNI (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter): letter = number mod 23.
* Spanish NASS (Seguridad Social affiliation, 12 digits): last two digits = first ten mod 97.
* French NIR (sécurité sociale, 13 characters + 2-digit key): key = 97 - number mod 97 (Corsica's
  ``2A``/``2B`` count as 19/18).
* Dutch BSN (9 digits): the "eleven test".
* German KVNR (health insurance number, letter + 9 digits) and Rentenversicherungsnummer (12
  characters with the birth date and the initial of the birth name): weighted cross sums mod 10.
* Chinese resident identity number (18 characters, ISO 7064 MOD 11-2).
"""

from __future__ import annotations

import datetime as dt
import re

__all__ = [
    "bsn_ok",
    "cn_resident_id_ok",
    "compact",
    "dni_ok",
    "kvnr_ok",
    "nass_ok",
    "nie_ok",
    "nir_ok",
    "rvnr_ok",
]

_SEPARATORS = re.compile(r"[\s.\-/]")
_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def compact(value: str) -> str:
    """``value`` without spaces, dots, hyphens and slashes, upper-cased."""
    return _SEPARATORS.sub("", value).upper()


def dni_ok(value: str) -> bool:
    """Spanish DNI: ``12345678Z``, ``12.345.678-Z``."""
    v = compact(value)
    if not re.fullmatch(r"\d{8}[A-Z]", v):
        return False
    return _DNI_LETTERS[int(v[:8]) % 23] == v[8]


def nie_ok(value: str) -> bool:
    """Spanish NIE (foreigners' number): ``X1234567L``."""
    v = compact(value)
    if not re.fullmatch(r"[XYZ]\d{7}[A-Z]", v):
        return False
    number = int(str("XYZ".index(v[0])) + v[1:8])
    return _DNI_LETTERS[number % 23] == v[8]


def nass_ok(value: str) -> bool:
    """Spanish Social Security affiliation number: ``28 12345678 40`` (province, number, control)."""
    v = compact(value)
    if not re.fullmatch(r"\d{12}", v):
        return False
    province, number, control = int(v[:2]), int(v[2:10]), int(v[10:])
    if province == 0 or province > 66:
        return False
    base = province * 10_000_000 + number if number < 10_000_000 else int(v[:10])
    return base % 97 == control


def nir_ok(value: str) -> bool:
    """French NIR with its key: ``1 84 12 76 451 089 46`` (sex, year, month, department, ...)."""
    v = compact(value)
    if not re.fullmatch(r"[1-478]\d{4}(?:\d{2}|2A|2B)\d{8}", v):
        return False
    month = int(v[3:5])
    if not (1 <= month <= 12 or 20 <= month <= 99):
        return False
    body = v[:13].replace("2A", "19", 1).replace("2B", "18", 1) if v[5:7] in ("2A", "2B") else v[:13]
    return 97 - int(body) % 97 == int(v[13:])


def bsn_ok(value: str) -> bool:
    """Dutch burgerservicenummer (9 digits, eleven test)."""
    v = compact(value)
    if not re.fullmatch(r"\d{9}", v) or v == "000000000":
        return False
    total = sum(int(d) * w for d, w in zip(v[:8], range(9, 1, -1))) - int(v[8])
    return total % 11 == 0


def _cross_sum(n: int) -> int:
    return sum(int(d) for d in str(n))


def kvnr_ok(value: str) -> bool:
    """German health insurance number (Krankenversichertennummer): ``A123456780``."""
    v = compact(value)
    if not re.fullmatch(r"[A-Z]\d{9}", v):
        return False
    digits = f"{ord(v[0]) - 64:02d}" + v[1:9]
    total = sum(_cross_sum(int(d) * (1 if i % 2 == 0 else 2)) for i, d in enumerate(digits))
    return total % 10 == int(v[9])


_RVNR_WEIGHTS = (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1)


def rvnr_ok(value: str) -> bool:
    """German pension insurance number: ``65 170839 J 003`` (area, birth date, initial, serial, check)."""
    v = compact(value)
    if not re.fullmatch(r"\d{8}[A-Z]\d{3}", v):
        return False
    day, month = int(v[2:4]), int(v[4:6])
    if not (1 <= month <= 12 and (1 <= day <= 31 or 51 <= day <= 81)):
        return False
    digits = v[:8] + f"{ord(v[8]) - 64:02d}" + v[9:11]
    total = sum(_cross_sum(int(d) * w) for d, w in zip(digits, _RVNR_WEIGHTS))
    return total % 10 == int(v[11])


_CN_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_CHECK = "10X98765432"


def cn_resident_id_ok(value: str) -> bool:
    """Chinese resident identity number: 6-digit region, birth date YYYYMMDD, 3 digits, check."""
    v = compact(value)
    if not re.fullmatch(r"[1-8]\d{16}[\dX]", v):
        return False
    try:
        born = dt.date(int(v[6:10]), int(v[10:12]), int(v[12:14]))
    except ValueError:
        return False
    if not 1900 <= born.year <= 2100:
        return False
    total = sum(int(d) * w for d, w in zip(v[:17], _CN_WEIGHTS))
    return _CN_CHECK[total % 11] == v[17]
