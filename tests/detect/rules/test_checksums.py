"""Each check-digit validator with a valid and an invalid number (issue 27: python-stdnum where it fits)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phiscrub.detect.rules.checksums import (
    bsn_ok,
    cn_resident_id_ok,
    codice_fiscale_ok,
    cpr_ok,
    dni_ok,
    fodselsnummer_ok,
    hetu_ok,
    iban_ok,
    kvnr_ok,
    nass_ok,
    nhs_ok,
    nie_ok,
    nir_ok,
    personnummer_ok,
    rvnr_ok,
)

# (validator, valid numbers as notes write them, invalid numbers of the same shape)
CASES: list[tuple[Callable[[str], bool], list[str], list[str]]] = [
    (fodselsnummer_ok, ["15108695088", "151086 95088"], ["15108695077", "32108695088", "1510869508"]),
    (personnummer_ok, ["880320-0016", "19880320-0016", "8803200016"], ["880320-0018", "881320-0016"]),
    (cpr_ok, ["211062-5629", "2110625629"], ["321062-5629", "211362-5629"]),
    (hetu_ok, ["131052-308T", "131052A308T"], ["131052-308U", "321052-308T"]),
    (codice_fiscale_ok, ["RCCMNL83S18D969H"], ["RCCMNL83S18D969X", "RCCMNL83S18D96"]),
    (bsn_ok, ["111222333", "1112.22.333"], ["111222334", "000000000"]),
    (nir_ok, ["1 84 12 76 451 089 46", "2 55 08 14 168 025 38"], ["1 84 12 76 451 089 47", "2 55 13 14 168 025 38"]),
    (dni_ok, ["12345678Z", "12.345.678-Z"], ["12345678A", "1234567Z"]),
    (nie_ok, ["X1234567L", "Y-1234567-X"], ["X1234567M", "W1234567L"]),
    (kvnr_ok, ["A123456780"], ["A123456781"]),
    (nhs_ok, ["943 476 5919", "9434765919"], ["943 476 5910", "94347659"]),
    (iban_ok, ["NO93 8601 1117 947", "DE89370400440532013000", "GB82 WEST 1234 5698 7654 32"],
     ["NO93 8601 1117 948", "DE89370400440532013001", "XX00 1234 5678"]),
    (nass_ok, ["28 12345678 40"], ["28 12345678 41"]),
    (rvnr_ok, ["65 170839 J 003"], ["65 170839 J 004"]),
    (cn_resident_id_ok, ["11010519491231002X"], ["110105194912310021"]),
]  # fmt: skip


@pytest.mark.parametrize(("check", "valid", "invalid"), CASES, ids=[c[0].__name__ for c in CASES])
def test_valid_and_invalid(check: Callable[[str], bool], valid: list[str], invalid: list[str]) -> None:
    for value in valid:
        assert check(value), value
    for value in invalid:
        assert not check(value), value


@pytest.mark.parametrize("check", [c[0] for c in CASES], ids=[c[0].__name__ for c in CASES])
def test_never_raises_on_odd_input(check: Callable[[str], bool]) -> None:
    for value in ("", " ", "-", "ÆØÅ", "12" * 40, "+++", "0" * 18, "X" * 16):
        assert check(value) in (True, False)
