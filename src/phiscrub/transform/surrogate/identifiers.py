"""Identifiers: record numbers, SSNs, plans, accounts, licences, devices, vehicles, ZIP codes, rooms.

Keyed (redaction): the same shape as the original (digits for digits, letters for letters,
separators kept; SSNs never start 000, 666 or 9; ZIP codes never start 0). Seeded (filling): the
usual shapes of the note's language, Spanish DNI/NIE and Social Security numbers and Chinese
resident numbers with valid check characters, named wards for some rooms.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import string

from phiscrub.transform.surrogate.cues import ROOM_CUE_BEFORE
from phiscrub.transform.surrogate.draw import NoteDraw
from phiscrub.transform.surrogate.places import ward
from phiscrub.transform.surrogate.source import Streams, shape, shape_like
from phiscrub.transform.surrogate.wordlists import (
    CN_ID_WEIGHTS,
    DNI_LETTERS,
    ID_SHAPES,
    ROOM_SHAPES,
    UNIT_SHAPES,
    ZH_PLATE_PREFIX,
)

__all__ = ["draw_identifier", "draw_room", "draw_zip", "keyed_room", "keyed_shape"]


# --- keyed ---------------------------------------------------------------------------------------


def keyed_shape(streams: Streams, surface: str, label: str = "ID") -> str:
    """Same-shape keyed replacement (identifiers, ZIP codes, anything without a better rule)."""
    stream = streams("shape", label, surface)
    ssn = label == "SSN" and re.fullmatch(r"\d{3}-?\d{2}-?\d{4}", surface)
    for _ in range(20):
        result = shape_like(surface, stream, nonzero_first=bool(ssn) or label == "ZIP")
        if ssn and result[:3] in ("000", "666") or (ssn and result[0] == "9"):
            continue
        if result != surface:
            return result
    return shape_like(surface, stream) if surface.strip() else surface


def keyed_room(streams: Streams, surface: str) -> str:
    """Room/bed: tokens with digits reshaped, single letters remapped, words kept."""
    stream = streams("room", surface)
    for _ in range(20):
        out = []
        for m in re.finditer(r"[A-Za-z0-9]+|.", surface, re.DOTALL):
            token = m.group(0)
            if any(c.isdigit() for c in token) or (len(token) == 1 and token.isalpha()):
                out.append(shape_like(token, stream, nonzero_first=token[0] != "0"))
            else:
                out.append(token)
        result = "".join(out)
        if result != surface:
            return result
    return keyed_shape(streams, surface, "ROOM")


# --- seeded --------------------------------------------------------------------------------------


def draw_identifier(ctx: NoteDraw, label: str, before: str, after: str) -> str:
    """An identifier of the label in a usual shape of the note's language (valid check characters)."""
    rng = ctx.rng
    if label == "VEHICLE" and re.search(
        r"(?:unit|medic|ambulance|ambulancia|ambulància|救护车)\W*$", before, re.IGNORECASE
    ):
        return shape(rng, rng.choice(UNIT_SHAPES))
    if label == "VEHICLE" and ctx.lang == "zh":
        return (
            rng.choice(ZH_PLATE_PREFIX)
            + rng.choice(string.ascii_uppercase)
            + rng.choice(["", "·"])
            + shape(rng, "&&&&&")
        )
    if label == "SSN" and ctx.lang == "zh":
        birth = ctx.state.base - dt.timedelta(days=rng.randint(365 * 18, 365 * 90))
        return cn_resident_id(rng, birth)
    if label == "SSN" and ctx.lang in ("es", "ca"):
        return dni(rng)
    if label == "HEALTHPLAN" and ctx.lang in ("es", "ca") and rng.random() < 0.4:
        return nass(rng) if ctx.lang == "es" or rng.random() < 0.5 else shape(rng, "%%%%##########")
    shapes = ID_SHAPES.get(label, ID_SHAPES["IDNUM"])
    return shape(rng, rng.choice(shapes.get(ctx.key) or shapes["en"]))


def draw_zip(ctx: NoteDraw, before: str, after: str) -> str:
    """A postal code of the note's country."""
    rng = ctx.rng
    if ctx.lang == "zh":
        return shape(rng, "N#####")
    if ctx.lang in ("es", "ca"):
        return f"{rng.randint(1, 52):02d}{rng.randint(0, 999):03d}"
    return shape(rng, "#####" if rng.random() < 0.85 else "#####-####")


def draw_room(ctx: NoteDraw, before: str, after: str) -> str:
    """A room or bed number, or in English sometimes a named ward."""
    if ctx.key == "en" and not ROOM_CUE_BEFORE.search(before) and ctx.rng.random() < 0.3:
        return ward(ctx)  # "placed in Blake 7", "transferred to Ellison 12"
    return shape(ctx.rng, ctx.rng.choice(ROOM_SHAPES[ctx.key]))


def dni(rng: random.Random) -> str:
    """A Spanish DNI or NIE with a valid check letter, in one of the usual spellings."""
    if rng.random() < 0.2:
        prefix = rng.choice("XYZ")
        number = rng.randrange(10**7)
        letter = DNI_LETTERS[int(f"{'XYZ'.index(prefix)}{number:07d}") % 23]
        return f"{prefix}{number:07d}{letter}"
    number = rng.randrange(10**6, 10**8)
    digits, letter = f"{number:08d}", DNI_LETTERS[number % 23]
    return rng.choice(
        [f"{digits}{letter}", f"{digits}-{letter}", f"{digits[:2]}.{digits[2:5]}.{digits[5:]}-{letter}"]
    )


def nass(rng: random.Random) -> str:
    """A Spanish Social Security affiliation number with its two control digits."""
    province, number = rng.randint(1, 52), rng.randrange(10**8)
    base = province * 10_000_000 + number if number < 10_000_000 else int(f"{province:02d}{number:08d}")
    a, b, c = f"{province:02d}", f"{number:08d}", f"{base % 97:02d}"
    return rng.choice([f"{a} {b} {c}", f"{a}/{b}/{c}", f"{a}{b}{c}", f"{a}-{b}-{c}"])


def cn_resident_id(rng: random.Random, birth: dt.date) -> str:
    """A Chinese resident identity number: province code, birth date, sequence, ISO 7064 check."""
    body = rng.choice(["11", "12", "13", "31", "32", "33", "35", "37", "42", "44", "50", "51", "61"])
    body += shape(rng, "####") + birth.strftime("%Y%m%d") + shape(rng, "###")
    return body + "10X98765432"[sum(int(d) * w for d, w in zip(body, CN_ID_WEIGHTS)) % 11]
