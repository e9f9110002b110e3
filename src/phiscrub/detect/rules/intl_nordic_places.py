"""LOCATION rules of the Nordic packs beyond the shared pack engine (:mod:`.intl_places`).

Norwegian (``nb``; ``nn`` shares it), Danish (``da``) and Swedish (``sv``) notes name wards, local
hospitals, towns and employers in forms the shared triggers do not read, mostly without a listed
town. Norwegian nouns are written in lower case, so a capitalised word inside a sentence after one
of these cues is a proper name:

* **wards**: ``Post 3B``, ``Innlegges Post 4A``, ``Post Fjellsyn``, ``avd. Solsikken``, ``afsnit R2``,
  ``avdelning 54``, a unit named before its kind (``Sjøglimt, lindrende enhet``) or as the number to
  ring (``ring Sjøglimt direkte``) -> DEPARTMENT;
* **hospitals**: an acronym next to a hospital or unit word (``Helse X HF - SFV``, ``SFV akuttmottak``,
  ``hjertesviktpoliklinikken SFV``, ``Post 2C, SFV``) or shaped like a hospital's (``ved VUS 18/3``,
  ``(kardiolog X, VUS)``); a building before a floor (``Tårnbygget 2. etg``); a facility with an
  adjective (``Fjordvik interkommunale legevakt``) -> HOSPITAL;
* **towns** without a listed name: ``<Town> kommune``, a service, facility or relative and ``i <Town>``
  (``Hjemmetjenesten i X``, ``omsorgssenter i X``, ``datter Hanne Lunde i X``, ``BOR MED KONA BJØRG I X``),
  ``bor i X``, ``kom til X fra Y``, a facility and ``, <Town>`` closing the line (``X sykehjem, Kvernes``),
  a street and ``, [postcode] <Town>`` (``Skoleveien 7, 6812 Straumsnes``) -> CITY and ZIP;
* **organisations**: ``<Name> AS``/``ASA``/``A/S``/``ApS``/``AB``, ``<Name> skole``/``kirke``/
  ``barnehage``/``skola``/``kyrka``, and the employer after a work verb (``jobbet mange år på X``,
  ``Jobber som bussjåfør i X AS``), the employer after its word (``arbeidsgiver (X Sjømat)``), a
  pharmacy (``Apotek Sjøhagen``) -> ORGANIZATION;
* **countries** after a preposition (``kom til Norge fra Somalia``, ``Kona Marta i Polen``) -> COUNTRY.

A town that is a country name (:func:`phiscrub.policy.region_label`) is labelled COUNTRY. Words that
open a sentence or name a kind of unit (:data:`NORDIC_COMMON`) are never taken as names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_common import lower_case_note
from phiscrub.detect.rules.intl_name_scan import name_lexicon
from phiscrub.detect.rules.intl_names_data import NAME_WORDS
from phiscrub.detect.rules.intl_places_data import WORDS

__all__ = ["NORDIC_COMMON", "acronym_ok", "common_word", "nordic_extra_place_rules", "nordic_towns"]


def _word_set(words: str) -> frozenset[str]:
    """The whitespace-separated words of a block of text."""
    return frozenset(words.split())


#: Capitalised words that open a sentence, label a field or name a kind of unit in Nordic notes:
#: never a ward, town, building or person (lower case; bokmål and nynorsk, then Danish, then Swedish).
NORDIC_COMMON = _word_set(
    """
    ikke ingen ingenting ja nei ukjent usikker normal normalt generell lokal spinal total ua se ved via
    kontakt kontakte ring ringe ta tas send sendes meld henvis henvises vurder vurderes avtalt planlagt
    kontroll time status plan tiltak vurdering konklusjon diagnose diagnoser anamnese funn medisiner
    hjemme hjemmet hjem sykehuset sykehus sjukehus sjukehuset avdeling avdelingen post posten enhet enheten
    pasient pasienten pas lege legen sykepleier fastlege kommune kommunen ny nye nytt gammel gamle egen eget
    egne hans hennes deres sin sitt sine denne dette disse den det de samme annen annet andre hver alle
    mange flere noen begge hele første siste neste forrige medisinsk kirurgisk ortopedisk akutt akuttmottak
    mottak mottaket intensiv poliklinikk poliklinikken sengepost legevakt legevakten omsorgssenter sykehjem
    sykehjemmet hjemmetjenesten hjemmesykepleien og eller men samt for fra til i på med uten etter før under
    over om hos mot evt ev ca kl pga iht dvs mvh hilsen mandag tirsdag onsdag torsdag fredag lørdag søndag
    januar februar mars april mai juni juli august september oktober november desember bygg bygget bygning
    blokk fløy fløyen inngang heis trapp plan etasje etg rom sal stue leilighet hus enebolig rekkehus bolig
    omsorgsbolig hybel villa hvilken hvilket hvilke hvem hva hvor min mitt mine din ditt dine vår vårt våre
    nåværende tidligere aktuell aktuelle ansvarlig ansvarlige riktig lokale ikkje inga heime sjukeheim
    intet patient læge lægen sygeplejerske afdeling afdelingen afsnit hjemmeplejen lejlighed
    inte läkare läkaren sjuksköterska avdelning avdelningen mottagning vårdcentralen lägenhet måndag tisdag
    lördag söndag hun han ho hon hen jeg eg jag vi dei rask behandling legevisitt visitt gutt jente pike
    """
)


def common_word(word: str) -> bool:
    """A word that is no name: listed in :data:`NORDIC_COMMON` or an adjective (``Medisinsk``)."""
    low = word.lower()
    # "Pasientens kommune": the genitive of a common word
    return (
        low in NORDIC_COMMON
        or (low.endswith(("isk", "iske")) and not low.endswith(("fisk", "fiske")))  # "Nordfisk AS"
        or (low.endswith("s") and low[:-1] in NORDIC_COMMON)
    )


# A name token: Title case ("Fjordvik", "Nord-Fron") or capitals ("KVERNES", on capital lines only).
_TITLE = r"[A-ZÆØÅÄÖ][a-zæøåäöéü]+(?:-[A-ZÆØÅÄÖa-zæøåäö][a-zæøåäöéü]+)*"
_TOK = r"[A-ZÆØÅÄÖ](?:[a-zæøåäöéü]+|[A-ZÆØÅÄÖ]+)(?:-[A-ZÆØÅÄÖa-zæøåäö][a-zæøåäöéüA-ZÆØÅÄÖ]+)*"
_PLACE = rf"{_TOK}(?:[ ]{_TOK})?"
_END = r"(?![\w\-])"
#: A hospital or unit acronym ("SFV", "VUS", "OUS"); checked against clinical abbreviations.
_ACR = r"[A-ZÆØÅ]{2,5}"

#: Acronyms of Nordic clinical shorthand that look like a hospital's.
_CLINICAL_ACRONYMS = _word_set(
    """
    KOLS LIS MIO AMK HLR PVK KAD NEWS ESAS NIV BT RF AT EKG CRP HB INR LPK SPO ASA VAS PCI LAD MR CT
    UL RTG ABG ADL DM AF MI KMI TNT GCS ECOG MMSE CAM NSTEMI STEMI DES EF TIA SMS IV SC PO CPAP BIPAP
    UVI OBS OP US SFO SOS STD SSRI SNRI FNR DNR HPR DIPS NAV DPS AS ASA AB HF IKS DA ANS BA SA KF
    """
)


@cache
def _abbreviations() -> frozenset[str]:
    path = resources.files("phiscrub.resources").joinpath("medical", "abbreviations.txt")
    return frozenset(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def _hospital_shaped(word: str) -> bool:
    """``..US`` (universitetssykehus), ``..SH`` (sykehus), ``..HF`` (helseforetak), ``S..`` (Sykehuset X)."""
    return word.endswith(("US", "SH", "HF", "DPS")) or (word.startswith("S") and len(word) == 3)


def acronym_ok(word: str, cue: str = "strong") -> bool:
    """An acronym that may name a hospital after a cue: never Nordic clinical shorthand; before a unit
    noun (``cue="unit"``) no English abbreviation either unless it has a hospital's shape (``HIV
    poliklinikk``); after a preposition (``cue="weak"``) a hospital's shape and, for ``S..``, no English
    abbreviation (``ved SVT``; ``ved VUS`` is the hospital, not a variant of uncertain significance)."""
    if word in _CLINICAL_ACRONYMS:
        return False
    if cue == "unit":
        return _hospital_shaped(word) or word not in _abbreviations()
    if cue == "weak":
        return _hospital_shaped(word) and not (word.startswith("S") and word in _abbreviations())
    return True


def _upper_line(text: str, pos: int) -> bool:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    letters = [c for c in text[start : len(text) if end < 0 else end] if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) / len(letters) > 0.8


def _name_ok(text: str, start: int, end: int, lang: str) -> bool:
    """Every word of ``text[start:end]`` may be part of a place or unit name."""
    words = re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", text[start:end])
    if not words or any(common_word(w) for w in words):
        return False
    stop = {w.lower() for w in NAME_WORDS[lang].stopwords}
    if any(w.lower() in stop for w in words):
        return False
    return not (any(w.isupper() and len(w) > 1 for w in words) and not _upper_line(text, start))


def _place_label(surface: str) -> str:
    from phiscrub.policy import region_label

    return "COUNTRY" if region_label(surface, "COUNTRY") == "COUNTRY" else "CITY"


def _words(words: tuple[str, ...] | list[str]) -> str:
    return trie_pattern(words, ignore_case=True)


# ------------------------------------------------------------------------------------------------
# Wards and units.
_WARD_WORDS = {
    "nb": ("avd.", "avd", "avdeling", "avdelingen"),
    "da": ("afd.", "afd", "afsnit", "afdeling", "afdelingen"),
    "sv": ("avd.", "avd", "avdelning", "avdelningen"),
}
_UNIT_KINDS = {
    "nb": ("enhet", "avdeling", "sengepost", "post", "seksjon", "tun", "bogruppe", "sengetun", "eining"),
    "da": ("enhed", "afdeling", "afsnit", "sengeafsnit"),
    "sv": ("enhet", "avdelning", "vårdavdelning"),
}
_CODE = r"(?:\d{1,2}[A-ZÆØÅ]|[A-ZÆØÅ]\d{1,2})"
_CODE_END = r"(?![\w\-])(?![ ]?\d)"


@cache
def _ward_re(lang: str) -> re.Pattern[str]:
    lang = _pack(lang)
    digits = r"|\d{1,3}" if lang in ("da", "sv") else ""
    return re.compile(
        # "Avdeling: Aurora 3", "sengepost Fjellbu 2": a ward named by a word and its number
        rf"(?<![\w\-])(?i:sengepost|post|avdeling|avd\.?)[ \t]*:?[ \t]*(?P<wn>{_TITLE}[ ]\d{{1,2}})(?![\w\-]|[.,]\d)|"
        # "Ungdomsenheten Stjerna", "Barneavdelingen Tusenfryd": a unit and its name
        rf"(?<![\w\-])(?P<wu>[A-ZÆØÅ][a-zæøå]*(?:enheten|avdelingen|posten)[ ](?P<wun>{_TITLE}))(?![\w\-])|"
        rf"(?<![\w\-])(?:(?P<post>(?:Post|Sengepost|POST)[ ](?:{_CODE}|\d{{1,2}}(?=[ \t]*(?:[,.;:)\n]|\Z))|(?!Covid|Op\b|Mortem|Partum){_TITLE})"
        rf"|(?:post|sengepost)[ ]{_CODE}){_CODE_END}"
        rf"|(?:{_words(_WARD_WORDS[lang])})[ ](?P<wv>{_CODE}{digits}|{_TITLE}){_CODE_END})"
        rf"(?:,[ ](?P<wh>{_ACR})(?![\w\-]))?"
    )


@cache
def _unit_re(lang: str) -> re.Pattern[str]:
    lang = _pack(lang)
    return re.compile(
        rf"(?:^|(?<=\n)|(?<=[-–:][ ]))(?P<un>{_TITLE})(?=,[ ](?:[a-zæøåäö]+[ ]){{0,2}}(?:{_words(_UNIT_KINDS[lang])}){_END})"
        rf"|(?<![\w\-])(?i:ring|ringe|ringer|ring[ ]til|kontakt|kontakte|ringa|kontakta)[ ](?P<ru>{_TITLE})"
        rf"(?=[ ](?:direkte|direkt|på[ ]tlf|på[ ]telefon|tlf)|,[ ]tlf)"
    )


def _wards(rule: NordicPlaceRule, text: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    if m.group("wn") is not None or m.group("wu") is not None:
        s, e = m.span("wn" if m.group("wn") is not None else "wu")
        if _name_ok(text, m.start("wun") if m.group("wu") else s, e, rule.lang):
            yield s, e, "DEPARTMENT"
        return
    if m.group("post") is not None:
        s, e = m.span("post")
        vs = text.index(" ", s) + 1
        if text[vs].isdigit() or text[vs + 1 : vs + 2].isdigit() or _name_ok(text, vs, e, rule.lang):
            yield s, e, "DEPARTMENT"
    else:
        s, e = m.span("wv")
        if text[s].isdigit() or text[s + 1 : s + 2].isdigit() or _name_ok(text, s, e, rule.lang):
            yield s, e, "DEPARTMENT"
    if m.group("wh") is not None and acronym_ok(m.group("wh")):
        yield m.start("wh"), m.end("wh"), "HOSPITAL"


_DEFINITE_UNITS = (
    "kliniken", "klinikken", "avdelingen", "avdelningen", "afdelingen", "posten", "seksjonen", "mottaket",
    "mottagningen", "enheten", "enheden", "afsnittet", "poliklinikken", "sektionen",
)  # fmt: skip


def _units(rule: NordicPlaceRule, text: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    group = "un" if m.group("un") is not None else "ru"
    s, e = m.span(group)
    lex = name_lexicon(NAME_WORDS[rule.lang].lexicon)
    # "Kirurgkliniken, avdelning 12": a definite unit noun is a kind, not a unit's name
    kind = text[s:e].lower().endswith(_DEFINITE_UNITS)
    if text[s:e].lower() not in lex.first and not kind and _name_ok(text, s, e, rule.lang):
        yield s, e, "DEPARTMENT"


# ------------------------------------------------------------------------------------------------
# Hospitals: acronyms, buildings, facilities with an adjective.
_UNIT_NOUNS = (
    "akuttmottak", "mottak", "poliklinikk", "sengepost", "avdeling", "klinikk", "sykehus", "sjukehus",
    "akutmodtagelse", "afdeling", "sygehus", "akutmottagning", "akuten", "mottagning", "avdelning", "sjukhus",
)  # fmt: skip
_UNIT_DEFINITE = r"[a-zæøåäö]*(?:poliklinikken|avdelingen|mottaket|sengeposten|klinikken|posten|afdelingen|afsnittet|ambulatoriet|mottagningen|avdelningen|kliniken)"
_HOSP_ACR_RE = re.compile(
    rf"(?:HF|Helse[ ]{_TITLE})[ ]?[-–,][ ]?(?P<a1>{_ACR})(?![\w\-])"
    rf"|(?<![\w\-])(?P<a2>{_ACR})(?=[ ](?:{trie_pattern(_UNIT_NOUNS, ignore_case=False)})(?![\w\-]))"
    rf"|(?<![\w\-])(?:{_UNIT_DEFINITE}|[a-zæøå]*avd\.)[ ](?P<a3>{_ACR})(?![\w\-])"
    rf"|(?<![\w\-])(?:ved|på|til|fra|frå|hos|vid|från|till)[ ](?P<a4>{_ACR})(?=[ ]\d{{1,2}}[./]\d|[ ]?[,)]|[ ]om[ ]|[ ]?\.(?:\s|\Z)|[ \t]*\n|\Z)"
    rf"|(?<=[a-zæøåäö]),[ ](?P<a5>{_ACR})(?=\)|[ ]\()"
)


def _hospital_acronyms(rule: NordicPlaceRule, text: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    group = str(m.lastgroup)
    word = m.group(group)
    if acronym_ok(word, {"a2": "unit", "a4": "weak", "a5": "weak"}.get(group, "strong")):
        yield m.start(group), m.end(group), "HOSPITAL"


_FACILITY_NOUNS = (
    "legevakt", "sykehus", "sjukehus", "legekontor", "legesenter", "helsesenter", "sykehjem", "sjukeheim",
    "omsorgssenter", "hospital", "sygehus", "plejehjem", "plejecenter", "lægehus", "sjukhus", "vårdcentral",
    "lasarett", "äldreboende", "helsehus", "DPS",
)  # fmt: skip
_FAC_ADJ_RE = re.compile(
    rf"(?<![\w\-])(?P<f>{_TITLE}(?:[ ]{_TITLE}){{0,2}}[ ](?:[a-zæøåäö]{{3,}}(?:ale|iske|ske|lige|liga)[ ]){{1,2}}"
    rf"(?:{trie_pattern(_FACILITY_NOUNS, ignore_case=False)})){_END}"
)


def _buildings(rule: NordicPlaceRule, text: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    s, e = m.span(str(m.lastgroup))
    first = text[s:e].split(" ", 1)[0]
    if _name_ok(text, s, s + len(first), rule.lang):
        yield s, e, "HOSPITAL"


# ------------------------------------------------------------------------------------------------
# Towns.
_SERVICES = (
    "hjemmetjenesten", "hjemmesykepleien", "hjemmesjukepleia", "heimetenesta", "tildelingskontoret",
    "helsestasjonen", "legevakten", "legevakta", "legekontoret", "legesenteret", "sykehjemmet", "omsorgssenter",
    "omsorgssenteret", "omsorgsbolig", "helsehuset", "kommunen", "NAV", "fastlege", "fastlegen", "sykehuset",
    "sjukehuset", "hjemmeplejen", "plejecentret", "plejehjemmet", "vagtlægen", "lægevagten", "visitationen",
    "hemtjänsten", "hemsjukvården", "vårdcentralen", "äldreboendet", "biståndshandläggare", "kommunen",
    "tingretten", "politiet", "skolen", "barnehagen", "bydel",
)  # fmt: skip
_LIVE = (
    "bor", "bur", "bodde", "budde", "bosatt", "busett", "busatt", "bosat", "oppvokst", "vokste opp", "født",
    "fødd", "bott", "född", "uppvuxen", "boende",
)  # fmt: skip
_MOVE = (
    "kom",
    "kommer",
    "flyttet",
    "flytta",
    "flyttede",
    "flyttade",
    "innvandret",
    "invandrade",
    "reiste",
    "rejste",
    "reste",
)


@cache
def _town_re(lang: str) -> re.Pattern[str]:
    code = _pack(lang)
    kin = _words(NAME_WORDS[code].kin)
    name = rf"{_TOK}(?:[ ]{_TOK}){{0,3}}"
    words = WORDS[code]
    fac = "|".join(re.escape(w) for w in _FACILITY_NOUNS)
    return re.compile(
        rf"(?<![\w\-])(?:{_words(_SERVICES)})[ ](?i:i|på)[ ](?P<t1>{_PLACE})(?![\w\-])"
        rf"|(?<![\w\-])(?:{kin})[ ]{name}[ ](?i:i|på)[ ](?P<t2>{_PLACE})(?![\w\-])"
        rf"|(?<![\w\-])(?:{_words(_LIVE)})[ ](?i:i|på)[ ](?P<t3>{_PLACE})(?![\w\-])"
        rf"|(?<![\w\-])(?:{_words(_MOVE)})[ ](?i:til|fra|frå|till|från)[ ](?P<t4>{_PLACE})(?![\w\-])"
        rf"(?:[ ](?i:til|fra|frå|till|från)[ ](?P<t5>{_PLACE})(?![\w\-]))?"
        rf"|(?<![\w\-])(?i:{fac})[ ]?,[ ](?P<t6>{_PLACE})(?=[ \t]*(?:\n|\Z|,[ ]|\.(?:\s|\Z)))"
        rf"|(?P<street>(?<![\w\-]){words.street_re}),[ ](?:(?P<zipv>{words.zip_re})[ ])?(?P<t7>{_PLACE})"
        rf"(?=[ \t]*(?:\n|\Z|[,.;)](?:\s|\Z))|[ ]{{2}}|\t)"
        rf"|(?<![\w\-])(?P<t8>{_TOK})(?=[ ](?i:kommune|kommun|bydel|herred){_END})"
        # "Hjemmetjenesten Vadsø, sone øst", "Hjemmetjenesten Alta - sone Elvebakken": a home-care
        # service and its town; a named zone of it
        rf"|(?<![\w\-])(?i:{_RX.text('HOME_SERVICES')})[ ](?P<t9>{_TOK})(?=[ \t]*(?:[,\n]|[ ][-–][ ]|\Z))"
        rf"|(?<![\w\-])(?i:sone|bydel)[ ](?P<t10>{_TOK})(?![\w\-])"
        # "hjemme på Romsås", "sommerbeite på Magerøya", "fly fra Båtsfjord": a place name by its ending
        rf"|(?<![\w\-])(?:på|fra|frå|til|ved|mot|nær|i)[ ](?P<t11>{_RX.text('TOPONYM')})(?![\w\-])"
        # "Polen (Rzeszów)": a town in brackets after its country
        rf"|(?<![\w\-])(?P<cc>{_TITLE})[ ]\((?P<t12>[A-ZÆØÅ][^\W\d_]+(?:-[A-ZÆØÅ][^\W\d_]+)?)\)"
    )


_TOWN_GROUPS = ("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12")


def _towns(rule: NordicPlaceRule, text: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    if m.group("t7") is not None and m.group("n") is None:
        return  # a street without its number ("Storgata, Bergen") is no address line
    if m.group("t12") is not None and _place_label(m.group("cc")) != "COUNTRY":
        return  # "Metformin (Glucophage)": a town in brackets only after a country
    for group in _TOWN_GROUPS:
        s, e = m.span(group)
        if s < 0:
            continue
        first = text[s:e].split(" ")[0]
        if len(first) > 1 and first.isupper() and not _upper_line(text, s):
            continue  # "i OUS": an acronym on a mixed-case line
        if " " in text[s:e] and not _name_ok(text, s, e, rule.lang):
            e = s + len(first)  # "i Fjordvik Buss": the town is the first word at most
        street = group not in ("t10", "t11") and _street_word(text[s:e], rule.lang)
        if not _name_ok(text, s, e, rule.lang) or street:
            continue
        if group == "t6" and first.lower() in name_lexicon(NAME_WORDS[rule.lang].lexicon).first:
            continue  # "Havnegata legesenter, Gunnar Ulvestad": a person after the facility
        if group == "t7" and m.group("zipv") is not None:
            yield m.start("zipv"), m.end("zipv"), "ZIP"
        yield s, e, _place_label(text[s:e])


@cache
def _street_end_re(lang: str) -> re.Pattern[str]:
    return re.compile(rf"(?:{WORDS[_pack(lang)].street_re})")


def _street_word(surface: str, lang: str) -> bool:
    """A street name ("i Storgata"): the street rule reads it."""
    m = _street_end_re(lang).fullmatch(surface)
    return m is not None


#: Listed towns that are also common lower-case words ("på ski", "otta" is early morning in nynorsk).
_LOWER_TOWN_WORDS = frozenset(
    ("ski", "moss", "otta", "stange", "bryne", "gol", "ås", "voss", "mandal", "stord")
)


def _lower_towns(rule: NordicPlaceRule, text: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    """``sønnen i narvik``, ``reiser fra bodø``: a listed town in lower case in a note written in lower case."""
    word = m.group("lt")
    if word in _LOWER_TOWN_WORDS or word.title() not in nordic_towns(rule.lang) or not lower_case_note(text):
        return
    yield m.start("lt"), m.end("lt"), "CITY"


def _countries(rule: NordicPlaceRule, text: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    s, e = m.span("c")
    if _place_label(text[s:e]) == "COUNTRY":
        yield s, e, "COUNTRY"


# ------------------------------------------------------------------------------------------------
# Organisations.
_COMPANY_FORMS = r"(?:ASA|AS|A/S|ApS|AB|HB|KB|I/S|IKS|ANS|DA|SA|BA|Oy)"

_RX = pattern_data("intl_nordic_places", globals())

_INSTITUTIONS = (
    "skole", "skule", "barnehage", "kirke", "kyrkje", "menighet", "sokn", "ungdomsskole", "barneskole",
    "videregående skole", "vgs", "universitet", "høgskole", "høyskole", "folkehøgskole", "Kirke", "Skole",
    "skola", "förskola", "kyrka", "församling", "gymnasium", "gymnasiet", "børnehave", "folkeskole", "sogn",
    "idrettslag", "fotballklubb", "bedehus", "moské", "moske", "fagskole", "fagskule", "yrkesskole",
    "folkehögskola", "högskola", "erhvervsskole", "vidaregåande skule", "ungdomsskule", "barneskule",
    "grunnskule", "høgskule", "folkehøgskule", "kulturskule",
)  # fmt: skip
_INSTITUTION_RE = re.compile(
    rf"(?<![\w\-.])(?P<in>{_TITLE}(?:[ ]{_TITLE}){{0,2}}[ ](?:{trie_pattern(_INSTITUTIONS, ignore_case=False)}))(?![\w\-])"
)
_WORK = (
    "jobber", "jobbet", "jobba", "arbeider", "arbeidet", "arbeida", "ansatt", "tilsett", "ansat", "arbejder",
    "arbejdede", "arbejdet", "arbetar", "arbetade", "anställd", "jobbar", "jobbade", "pensjonert fra", "lærling",
)  # fmt: skip
_EMPLOYER_RE = re.compile(
    rf"(?<![\w\-])(?:{_words(_WORK)})(?![\w\-])[^\n;.]{{0,40}}?[ ](?:på|i|hos|ved|for|vid|til)[ ]"
    rf"(?P<emp>{_TITLE}(?:[ ](?:{_TITLE}|&|og|och)){{0,3}}(?:[ ](?:{_COMPANY_FORMS}|{trie_pattern(_INSTITUTIONS, ignore_case=False)}))?)"
    rf"(?![\w/\-])"
)
#: Words before a company name in its capitalised run ("Jobber Fjordvik Buss AS" -> "Fjordvik Buss AS").
_LEAD = frozenset(
    [
        "jobber",
        "jobbet",
        "arbeider",
        "arbeidet",
        "ansatt",
        "firma",
        "firmaet",
        "arbeidsgiver",
        "hos",
        "i",
        "på",
    ]
)


def _companies(rule: NordicPlaceRule, text: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    group = str(m.lastgroup)
    s, e = m.span(group)
    words = text[s:e].split(" ")
    while words and (words[0].lower() in _LEAD or common_word(words[0])):
        s += len(words.pop(0)) + 1
    after_prep = re.search(r"(?<![\w])(?:på|ved|hos|fra|frå|til|vid|från|till)[ ]\Z", text[max(0, s - 6) : s])
    if text[e : e + 12].lstrip().split(" ")[0].isdigit() and text[s:e].endswith("ASA"):
        return  # "Fått ASA 300 mg": acetylsalicylic acid and its dose
    if group == "co" and len(words) < 3 and not text[s:e].endswith(("ASA", "A/S", "ApS")) and not after_prep:
        return  # "Kjent AS" (aortic stenosis): one capitalised word before AS names no company
    if len(words) < 2 or not _name_ok(text, s, s + len(words[0]), rule.lang):
        return
    yield s, e, "ORGANIZATION"


def _employers(rule: NordicPlaceRule, text: str, m: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    s, e = m.span("emp2" if "emp2" in m.re.groupindex and m.group("emp2") else "emp")
    surface = text[s:e]
    first = surface.split(" ")[0]
    if not _name_ok(text, s, s + len(first), rule.lang):
        return
    if " " not in surface:
        label = _place_label(surface)
        if label == "COUNTRY" or surface in _nordic_towns(rule.lang):
            yield s, e, label
            return
    yield s, e, "ORGANIZATION"


@cache
def _nordic_towns(lang: str) -> frozenset[str]:
    """The bundled towns of a Nordic pack (``lexicons/{nb,da,sv}/cities.txt``)."""
    path = resources.files("phiscrub.resources").joinpath("lexicons", lang, "cities.txt")
    return frozenset(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def nordic_towns(lang: str) -> frozenset[str]:
    """The bundled towns of a Nordic language (nynorsk reads the bokmål list)."""
    return _nordic_towns(_pack(lang))


# ------------------------------------------------------------------------------------------------
_Handler = Callable[["NordicPlaceRule", str, re.Match[str]], Iterator[tuple[int, int, str]]]


@dataclass(frozen=True)
class NordicPlaceRule(PatternRule):
    """One Nordic place trigger; ``handler`` reads the place at each trigger, ``kind`` names it in
    the rule's name (see module doc)."""

    lang: str = "nb"
    kind: str = "town"
    handler: _Handler = _towns

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of every place next to this rule's trigger."""
        for m in self.pattern.finditer(text):
            yield from self.handler(self, text, m)


def _pack(lang: str) -> str:
    """The pack of a Nordic language (nynorsk shares the bokmål words)."""
    return "nb" if lang == "nn" else lang


def nordic_extra_place_rules(lang: str) -> tuple[PatternRule, ...]:
    """The place rules of this module for a Nordic language (``nb``, ``nn``, ``da``, ``sv``)."""
    code = _pack(lang)

    def rule(
        label: str, pattern: re.Pattern[str], kind: str, handler: _Handler, extra: tuple[str, ...] = ()
    ) -> NordicPlaceRule:
        return NordicPlaceRule(
            label, pattern, name=f"nordic_{kind}_{lang}", score=0.8, extra_labels=extra, lang=code, kind=kind,
            handler=handler,
        )  # fmt: skip

    return (
        rule("DEPARTMENT",   _ward_re(code),         "ward",     _wards, ("HOSPITAL",)),
        rule("DEPARTMENT",   _unit_re(code),         "unit",     _units),
        rule("HOSPITAL",     _HOSP_ACR_RE,           "hacr",     _hospital_acronyms),
        rule("HOSPITAL",     _RX["FLOOR_RE"],        "building", _buildings),
        rule("HOSPITAL",     _FAC_ADJ_RE,            "building", _buildings),
        rule("CITY",         _town_re(code),         "town",     _towns, ("ZIP", "COUNTRY")),
        rule("CITY",         _RX["LOWER_TOWN_RE"],   "low_town", _lower_towns),
        rule("COUNTRY",      _RX["COUNTRY_RE"],      "country",  _countries),
        rule("ORGANIZATION", _RX["COMPANY_RE"],      "company",  _companies),
        rule("ORGANIZATION", _INSTITUTION_RE,        "company",  _companies),
        rule("ORGANIZATION", _EMPLOYER_RE,           "employer", _employers, ("CITY", "COUNTRY")),
        rule("ORGANIZATION", _RX["EMPLOYER_FIELD_RE"], "employer", _employers, ("CITY", "COUNTRY")),
        rule("ORGANIZATION", _RX["PHARMACY_RE"],     "company",  _employers),
    )  # fmt: skip
