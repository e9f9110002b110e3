"""ID rules compiled from the language packs (es, ca, de, fr, nl, zh).

National identifiers checked by their check digits (Spanish DNI/NIE/NASS, Catalan CIP, German
KVNR and pension number, French NIR, Dutch BSN, Chinese resident ID, Chinese and Spanish plates),
and values after identifier keywords of the language (``NHC: 2748903``, ``NºCol: 28 28 70973``,
``Fallnummer 1234567``, ``住院号：3853795``). :func:`~phiscrub.detect.rules.ids.id_rules` adds
these to the language-neutral ID rules for a pack language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import followed_by_unit, nfd_words, pack_rules, text_after
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.checksums import (
    bsn_ok,
    cn_resident_id_ok,
    dni_ok,
    kvnr_ok,
    nass_ok,
    nie_ok,
    nir_ok,
    rvnr_ok,
)
from phiscrub.detect.rules.id_values import (
    CHUNK,
    MORE,
    VALUE,
    VALUE_END,
    checked_label,
    first_value,
    item_ok,
    value_ok,
)
from phiscrub.detect.rules.intl_nordic import nordic_id_rules
from phiscrub.detect.rules.intl_spanish_ids import spanish_id_rules
from phiscrub.detect.rules.langpacks import LANGUAGE_PACKS, LanguagePack

_RX = pattern_data("intl_ids")


__all__ = ["pack_id_rules"]

_ASCII_END = r"(?![0-9A-Za-z]|[\-/.][0-9A-Za-z])"
_ZH_PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼使领"

# Shape alternatives per language: group name -> (regex, label, check).
_Shape = tuple[str, str, Callable[[str], bool]]


def _always(_: str) -> bool:
    return True


_SHAPES: dict[str, dict[str, _Shape]] = {
    "es": {
        "dni": (r"\d{2}\.?\d{3}\.?\d{3}[ \-]?[A-Z]", "SSN", dni_ok),
        "nie": (r"[XYZ][ \-]?\d{7}[ \-]?[A-Z]", "SSN", nie_ok),
        "nass": (r"\d{2}(?P<nsep>[ /\-]?)\d{8}(?P=nsep)\d{2}", "HEALTHPLAN", nass_ok),
        # CIP of a health card, also printed in groups ("BBBB 1 234567 89 0").
        "cip": (r"[A-Z]{4}[ ]?\d{10}|[A-Z]{4}[ ]\d[ ]\d{6}[ ]\d{2}[ ]\d", "HEALTHPLAN", _always),
        "plate": (r"\d{4}[ \-]?[BCDFGHJKLMNPRSTVWXYZ]{3}", "VEHICLE", _always),
    },
    "de": {
        "kvnr": (r"[A-Z]\d{9}", "HEALTHPLAN", kvnr_ok),
        "rvnr": (r"\d{2}[ ]?\d{6}[ ]?[A-Z][ ]?\d{3}", "SSN", rvnr_ok),
    },
    "fr": {
        "nir": (r"[1-478][ ]?\d{2}[ ]?\d{2}[ ]?(?:\d{2}|2[AB])[ ]?\d{3}[ ]?\d{3}[ ]?\d{2}", "SSN", nir_ok),
    },
    "nl": {
        "bsn": (r"\d{4}\.\d{2}\.\d{3}|\d{3}[ ]\d{3}[ ]\d{3}|\d{9}", "SSN", bsn_ok),
    },
    "zh": {
        "cnid": (r"[1-8]\d{16}[\dXx]", "SSN", cn_resident_id_ok),
        "cnplate": (rf"[{_ZH_PROVINCES}][A-Z][·•]?[A-Z0-9]{{5,6}}", "VEHICLE", _always),
    },
}
_SHAPES["ca"] = _SHAPES["es"]


def _shape_rule(code: str) -> PatternRule | None:
    shapes = _SHAPES.get(code)
    if not shapes:
        return None
    pattern = re.compile(
        "|".join(rf"(?P<{name}>{regex})" for name, (regex, _, _) in shapes.items()) + _ASCII_END
    )
    labels = {name: label for name, (_, label, _) in shapes.items()}

    def which(m: re.Match[str]) -> str:
        for name in shapes:
            if m.group(name) is not None:
                return name
        raise AssertionError("no shape group matched")

    def ok(m: re.Match[str]) -> bool:
        name = which(m)
        if name == "plate" and not _RX["VEHICLE_NEAR_RE"].search(m.string, max(0, m.start() - 40), m.start()):
            return False
        return shapes[name][2](m.group(name))

    def label(m: re.Match[str]) -> str:
        return labels[which(m)]

    extra = tuple(sorted(set(labels.values()) - {"SSN"}))
    return PatternRule(
        "SSN",
        pattern,
        validator=ok,
        labeler=label,
        extra_labels=extra,
        not_after=r"[0-9A-Za-z\-/.]",
        score=0.9,
        name=f"national_id_{code}",
    )


_LIST_WORDS = {"es": "y|e", "ca": "i", "de": "und", "fr": "et", "nl": "en"}
# Digit groups written with single spaces, hyphens or slashes ("NºCol: 28 28 70973",
# "NASS: 26 37482910 04"); a group right before a lower-case word ("45 años") is not taken.
_DIGIT_GROUPS = r"\d{1,10}(?:[ \-/]\d{1,10}(?![ \t]*[a-zà-ÿ])){1,6}(?![\w])"
_RV_GROUPS = r"\d{2}[ ]\d{6}[ ][A-Z][ ]\d{3}(?![\w])"


def _keyword_rule(pack: LanguagePack) -> PatternRule:
    table = {" ".join(w.lower().split()): lab for lab, words in pack.id_keywords.items() for w in words}
    list_sep = rf"[ \t]*(?:,|;|&|\b(?i:{_LIST_WORDS.get(pack.code, 'and')})\b)[ \t]*"
    # A German pension insurance number keeps its letter and serial ("12 345678 A 123").
    groups = rf"{_RV_GROUPS}|{_DIGIT_GROUPS}" if pack.code == "de" else _DIGIT_GROUPS
    # Spanish police and court references end in a slash and letters ("atestado nº AT-2024-0319/TT").
    suffix = r"(?:/[A-Z]{1,4}(?![\w/]))?" if pack.code in ("es", "ca") else ""
    value_list = rf"(?:{groups}|{VALUE}{suffix}(?:{list_sep}{CHUNK}{MORE}{VALUE_END}){{0,8}})"
    connect = (
        r"(?:[ \t]*\([^()\n\d]{1,30}\))?[ \t:#=.\-]*"
        rf"(?:(?i:{nfd_words(pack.id_connectors)})\.?[ \t:#=.\-]*){{0,3}}\(?[ \t]*"
    )
    pattern = re.compile(
        rf"(?<![\w\-/])(?P<kw>{nfd_words(list(table))})(?![\w]){connect}(?P<v>{value_list}){VALUE_END}"
    )
    item = re.compile(rf"(?<![\w\-.])(?:{groups}|{VALUE}{suffix}{VALUE_END})")

    # Spanish writes thousands with a dot: "HC 448.213", "M.P. 118.442" are identifiers, not decimals.
    grouped = pack.code in ("es", "ca")

    def ok(m: re.Match[str]) -> bool:
        value = first_value(item, m)
        return (
            value_ok(value, 2, dates_ok=True)
            or (grouped and _RX["THOUSANDS_RE"].fullmatch(value) is not None)
        ) and not followed_by_unit(m.string, m.end("v"))

    def label(m: re.Match[str]) -> str | None:
        # A date after "informe" is a date, after "NHC" an identifier.
        kw = table.get(" ".join(m.group("kw").lower().split()))
        value = first_value(item, m)
        if grouped and kw is not None and _RX["THOUSANDS_RE"].fullmatch(value):
            return kw
        return checked_label(kw, value)

    return PatternRule(
        "IDNUM",
        pattern,
        group="v",
        item=item,
        item_validator=item_ok,
        validator=ok,
        labeler=label,
        extra_labels=tuple(sorted({lab for lab in table.values() if lab != "IDNUM"})),
        score=0.85,
        name=f"id_keyword_{pack.code}",
    )


def _zh_value_ok(m: re.Match[str]) -> bool:
    # "编号3.5" is a measurement, not an identifier.
    return not followed_by_unit(m.string, m.end("v")) and text_after(m, 2)[:1] != "."


def _zh_keyword_rule(pack: LanguagePack) -> PatternRule:
    table = {w: lab for lab, words in pack.id_keywords.items() for w in words}
    pattern = re.compile(
        rf"(?P<kw>{trie_pattern(list(table), ignore_case=False)})(?:码|号码)?[ \t]*[:：#]?[ \t]*"
        r"(?P<v>(?=[A-Za-z0-9\-]*\d)[A-Za-z0-9][A-Za-z0-9\-]{2,39})(?![A-Za-z0-9])",
    )

    def label(m: re.Match[str]) -> str | None:
        lab = table.get(m.group("kw"))
        if lab is None or not value_ok(m.group("v"), dates_ok=lab != "IDNUM"):
            return None
        return lab

    return PatternRule(
        "IDNUM",
        pattern,
        group="v",
        validator=_zh_value_ok,
        labeler=label,
        extra_labels=tuple(sorted({lab for lab in table.values() if lab != "IDNUM"})),
        score=0.85,
        name="id_keyword_zh",
    )


@cache
def pack_id_rules(lang: str) -> tuple[PatternRule, ...]:
    """The ID rules of the language pack of ``lang`` (empty for languages without a pack)."""
    return pack_rules(LANGUAGE_PACKS, _id_rules, lang)


def _id_rules(code: str, pack: LanguagePack) -> tuple[PatternRule, ...]:
    rules: list[PatternRule] = []
    shape = _shape_rule(code)
    if shape is not None:
        rules.append(shape)
    if pack.id_keywords:
        rules.append(_zh_keyword_rule(pack) if code == "zh" else _keyword_rule(pack))
    rules.extend(spanish_id_rules(code))  # Latin American identity numbers and registrations
    rules.extend(nordic_id_rules(code))  # "Pasient: X   091029 40317", "sign. shau07"
    if code in _PLATES:
        plate, context = _PLATES[code]
        rules.append(
            PatternRule(
                "VEHICLE",
                re.compile(rf"(?<![\w\-])(?:{plate})(?![\w\-])"),
                context=context,
                window=40,
                score=0.85,
                name=f"plate_{code}",
            )
        )
    return tuple(rules)


# Licence plates: German "HH-AB 1234" / "B AB 123E", French "AB-123-CD", Dutch "12-ABC-3"; taken only
# after a vehicle word (a plate shape alone is too close to codes and lot numbers).
_PLATES: dict[str, tuple[str, tuple[str, ...]]] = {
    "de": (
        r"[A-ZÄÖÜ]{1,3}[\- ][A-Z]{1,2}[ ]?\d{1,4}[EH]?",
        (
            "Fahrzeug",
            "Kennzeichen",
            "Kfz",
            "KFZ",
            "RTW",
            "KTW",
            "NEF",
            "NAW",
            "Pkw",
            "PKW",
            "Wagen",
            "Fahrzeugs",
        ),
    ),
    "fr": (
        r"[A-Z]{2}-\d{3}-[A-Z]{2}|\d{1,4}[ ][A-Z]{2,3}[ ]\d{2}",
        (
            "immatriculation",
            "immatriculé",
            "immatriculée",
            "véhicule",
            "VSL",
            "ambulance",
            "plaque",
            "voiture",
        ),
    ),
    "nl": (
        r"[A-Z0-9]{1,3}-[A-Z0-9]{2,3}-[A-Z0-9]{1,2}",
        ("kenteken", "voertuig", "ambulance", "auto", "wagen"),
    ),
}
