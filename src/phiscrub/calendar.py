"""Calendar words of every supported language: month, weekday and season names (one concept: data).

Each month or weekday has a tuple of spellings; the first is the written form (what a shifted or
filled date is written with), the others are spellings read in notes ("setiembre", "Jänner",
"Sept"). Date detection (:mod:`phiscrub.detect.rules.dates`, the language packs of
:mod:`phiscrub.detect.rules.langpacks`) and date parsing, shifting and formatting
(:mod:`phiscrub.transform.dates`) read these tables; none keeps its own.
"""

from __future__ import annotations

__all__ = ["CALENDAR_LANGS", "MONTH_ABBRS", "MONTH_NAMES", "SEASONS", "WEEKDAY_ABBRS", "WEEKDAY_NAMES"]

Spellings = tuple[tuple[str, ...], ...]

#: Full month names, January first.
MONTH_NAMES: dict[str, Spellings] = {
    "en": (
        ("January",), ("February",), ("March",), ("April",), ("May",), ("June",), ("July",), ("August",),
        ("September",), ("October",), ("November",), ("December",),
    ),
    "es": (
        ("enero",), ("febrero",), ("marzo",), ("abril",), ("mayo",), ("junio",), ("julio",),
        ("agosto",), ("septiembre", "setiembre"), ("octubre",), ("noviembre",), ("diciembre",),
    ),
    "ca": (
        ("gener",), ("febrer",), ("març", "marc"), ("abril",), ("maig",), ("juny",), ("juliol",),
        ("agost",), ("setembre",), ("octubre",), ("novembre",), ("desembre",),
    ),
    "de": (
        ("Januar", "Jänner"), ("Februar", "Feber"), ("März", "Maerz"), ("April",), ("Mai",), ("Juni",),
        ("Juli",), ("August",), ("September",), ("Oktober",), ("November",), ("Dezember",),
    ),
    "fr": (
        ("janvier",), ("février", "fevrier"), ("mars",), ("avril",), ("mai",), ("juin",), ("juillet",),
        ("août", "aout"), ("septembre",), ("octobre",), ("novembre",), ("décembre", "decembre"),
    ),
    "nl": (
        ("januari",), ("februari",), ("maart",), ("april",), ("mei",), ("juni",), ("juli",),
        ("augustus",), ("september",), ("oktober",), ("november",), ("december",),
    ),
    # Norwegian (bokmål and nynorsk spell the months alike), Danish, Swedish: issue 27.
    "nb": (
        ("januar",), ("februar",), ("mars",), ("april",), ("mai",), ("juni",), ("juli",), ("august",),
        ("september",), ("oktober",), ("november",), ("desember",),
    ),
    "da": (
        ("januar",), ("februar",), ("marts",), ("april",), ("maj",), ("juni",), ("juli",), ("august",),
        ("september",), ("oktober",), ("november",), ("december",),
    ),
    "sv": (
        ("januari",), ("februari",), ("mars",), ("april",), ("maj",), ("juni",), ("juli",), ("augusti",),
        ("september",), ("oktober",), ("november",), ("december",),
    ),
}  # fmt: skip
#: Month abbreviations, January first.
MONTH_ABBRS: dict[str, Spellings] = {
    "en": (
        ("Jan",), ("Feb",), ("Mar",), ("Apr",), ("May",), ("Jun",), ("Jul",), ("Aug",), ("Sep", "Sept"),
        ("Oct",), ("Nov",), ("Dec",),
    ),
    "es": (
        ("ene",), ("feb",), ("mar",), ("abr",), ("may",), ("jun",), ("jul",), ("ago",),
        ("sep", "sept", "set"), ("oct",), ("nov",), ("dic",),
    ),
    "ca": (
        ("gen",), ("febr", "feb"), ("març", "mar"), ("abr",), ("maig",), ("juny",), ("jul",), ("ag", "ago"),
        ("set",), ("oct",), ("nov",), ("des",),
    ),
    "de": (
        ("Jan", "Jän"), ("Feb",), ("Mär", "Mrz"), ("Apr",), ("Mai",), ("Jun",), ("Jul",), ("Aug",),
        ("Sep", "Sept"), ("Okt",), ("Nov",), ("Dez",),
    ),
    "fr": (
        ("janv", "jan"), ("févr", "fevr", "fév", "fev"), ("mars",), ("avr",), ("mai",), ("juin",),
        ("juil",), ("août", "aout"), ("sept", "sep"), ("oct",), ("nov",), ("déc", "dec"),
    ),
    "nl": (
        ("jan",), ("feb",), ("mrt", "maa"), ("apr",), ("mei",), ("jun",), ("jul",), ("aug",),
        ("sep", "sept"), ("okt",), ("nov",), ("dec",),
    ),
    "nb": (
        ("jan",), ("feb",), ("mar", "mars"), ("apr",), ("mai",), ("jun",), ("jul",), ("aug",),
        ("sep", "sept"), ("okt",), ("nov",), ("des",),
    ),
    "da": (
        ("jan",), ("feb",), ("mar", "marts"), ("apr",), ("maj",), ("jun",), ("jul",), ("aug",),
        ("sep", "sept"), ("okt",), ("nov",), ("dec",),
    ),
    "sv": (
        ("jan",), ("feb",), ("mar", "mars"), ("apr",), ("maj",), ("jun",), ("jul",), ("aug",),
        ("sep", "sept"), ("okt",), ("nov",), ("dec",),
    ),
}  # fmt: skip
#: Full weekday names, Monday first.
WEEKDAY_NAMES: dict[str, Spellings] = {
    "en": (("Monday",), ("Tuesday",), ("Wednesday",), ("Thursday",), ("Friday",), ("Saturday",), ("Sunday",)),
    "es": (
        ("lunes",), ("martes",), ("miércoles", "miercoles"), ("jueves",), ("viernes",),
        ("sábado", "sabado"), ("domingo",),
    ),
    "ca": (
        ("dilluns",), ("dimarts",), ("dimecres",), ("dijous",), ("divendres",), ("dissabte",),
        ("diumenge",),
    ),
    "de": (
        ("Montag",), ("Dienstag",), ("Mittwoch",), ("Donnerstag",), ("Freitag",), ("Samstag", "Sonnabend"),
        ("Sonntag",),
    ),
    "fr": (("lundi",), ("mardi",), ("mercredi",), ("jeudi",), ("vendredi",), ("samedi",), ("dimanche",)),
    "nl": (
        ("maandag",), ("dinsdag",), ("woensdag",), ("donderdag",), ("vrijdag",), ("zaterdag",),
        ("zondag",),
    ),
    "nb": (
        ("mandag", "måndag"), ("tirsdag", "tysdag"), ("onsdag",), ("torsdag",), ("fredag",),
        ("lørdag", "laurdag"), ("søndag", "sundag"),
    ),
    "da": (("mandag",), ("tirsdag",), ("onsdag",), ("torsdag",), ("fredag",), ("lørdag",), ("søndag",)),
    "sv": (("måndag",), ("tisdag",), ("onsdag",), ("torsdag",), ("fredag",), ("lördag",), ("söndag",)),
}  # fmt: skip
#: Weekday abbreviations, Monday first.
WEEKDAY_ABBRS: dict[str, Spellings] = {
    "en": (("Mon",), ("Tue", "Tues"), ("Wed",), ("Thu", "Thur", "Thurs"), ("Fri",), ("Sat",), ("Sun",)),
    "es": (("lun",), ("mar",), ("mié",), ("jue",), ("vie",), ("sáb",), ("dom",)),
    "ca": (("dl",), ("dt",), ("dc",), ("dj",), ("dv",), ("ds",), ("dg",)),
    "de": (("Mo",), ("Di",), ("Mi",), ("Do",), ("Fr",), ("Sa",), ("So",)),
    "fr": (("lun",), ("mar",), ("mer",), ("jeu",), ("ven",), ("sam",), ("dim",)),
    "nl": (("ma",), ("di",), ("wo",), ("do",), ("vr",), ("za",), ("zo",)),
    "nb": (("man",), ("tir",), ("ons",), ("tor",), ("fre",), ("lør",), ("søn",)),
    "da": (("man",), ("tir",), ("ons",), ("tor",), ("fre",), ("lør",), ("søn",)),
    "sv": (("mån",), ("tis",), ("ons",), ("tor",), ("fre",), ("lör",), ("sön",)),
}  # fmt: skip
#: Season names: spring, summer, autumn, winter (``uk`` writes "autumn" where ``en`` writes "fall").
SEASONS: dict[str, tuple[str, str, str, str]] = {
    "en": ("spring", "summer", "fall", "winter"),
    "uk": ("spring", "summer", "autumn", "winter"),
    "es": ("primavera", "verano", "otoño", "invierno"),
    "ca": ("primavera", "estiu", "tardor", "hivern"),
}
#: Languages with month and weekday tables.
CALENDAR_LANGS: tuple[str, ...] = tuple(MONTH_NAMES)
