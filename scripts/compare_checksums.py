"""The hand-written check-digit code that ``python-stdnum`` replaced, against the validators now used.

Issue 27, item 3: ``detect/rules/checksums.py`` uses ``stdnum`` where it has the number. This script
keeps the replaced code (from commit 085eeff) and checks both on seeded random numbers, about half of
them valid; it prints, per identifier, how many were valid and on how many the two disagree.

Usage: ``python scripts/compare_checksums.py``
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable

from phiscrub.detect.rules.checksums import bsn_ok, compact, dni_ok, nie_ok, nir_ok

_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def old_dni(value: str) -> bool:
    v = compact(value)
    return bool(re.fullmatch(r"\d{8}[A-Z]", v)) and _LETTERS[int(v[:8]) % 23] == v[8]


def old_nie(value: str) -> bool:
    v = compact(value)
    if not re.fullmatch(r"[XYZ]\d{7}[A-Z]", v):
        return False
    return _LETTERS[int(str("XYZ".index(v[0])) + v[1:8]) % 23] == v[8]


def old_nir(value: str) -> bool:
    v = compact(value)
    if not re.fullmatch(r"[1-478]\d{4}(?:\d{2}|2A|2B)\d{8}", v):
        return False
    month = int(v[3:5])
    if not (1 <= month <= 12 or 20 <= month <= 99):
        return False
    body = v[:13].replace("2A", "19", 1).replace("2B", "18", 1) if v[5:7] in ("2A", "2B") else v[:13]
    return 97 - int(body) % 97 == int(v[13:])


def old_bsn(value: str) -> bool:
    v = compact(value)
    if not re.fullmatch(r"\d{9}", v) or v == "000000000":
        return False
    return (sum(int(d) * w for d, w in zip(v[:8], range(9, 1, -1))) - int(v[8])) % 11 == 0


def main() -> int:
    rng = random.Random(27)

    def dni() -> str:
        n = rng.randint(0, 99_999_999)
        return f"{n:08d}{_LETTERS[n % 23] if rng.random() < 0.5 else rng.choice(_LETTERS)}"

    def nie() -> str:
        return rng.choice("XYZ") + f"{rng.randint(0, 9_999_999):07d}" + rng.choice(_LETTERS)

    def bsn() -> str:
        return f"{rng.randint(0, 999_999_999):09d}"

    def nir() -> str:
        dept = rng.choice(["75", "2A", "2B", "13", "99", "97"])
        body = f"{rng.choice('12')}{rng.randint(0, 99):02d}{rng.randint(1, 12):02d}{dept}{rng.randint(0, 999_999):06d}"
        num = body.replace("2A", "19").replace("2B", "18") if dept in ("2A", "2B") else body
        key = 97 - int(num) % 97 if rng.random() < 0.5 else rng.randint(1, 97)
        return f"{body}{key:02d}"

    cases: list[tuple[str, Callable[[str], bool], Callable[[str], bool], Callable[[], str], int]] = [
        ("Spanish DNI", old_dni, dni_ok, dni, 20_000),
        ("Spanish NIE", old_nie, nie_ok, nie, 100_000),
        ("Dutch BSN", old_bsn, bsn_ok, bsn, 100_000),
        ("French NIR", old_nir, nir_ok, nir, 100_000),
    ]
    print("| identifier | numbers | valid (old) | disagreements |")
    print("|---|---:|---:|---:|")
    for name, old, new, gen, n in cases:
        values = [gen() for _ in range(n)]
        valid = sum(old(v) for v in values)
        differ = sum(old(v) != new(v) for v in values)
        print(f"| {name} | {n} | {valid} | {differ} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
