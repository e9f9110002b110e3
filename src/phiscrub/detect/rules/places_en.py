"""English place rules for what real notes write and the facility rule misses (recall first).

* ORGANIZATION: a name before an organisation head word (``Brennock Family Pharmacy``,
  ``Brennock PD``, ``Ostrander Fire``, ``Harbor Street Men's Shelter``, ``Lakes Region Transit``,
  ``Wickham County Area Agency on Aging``), and congregations (``First Lutheran of Brennock``,
  ``Grace Methodist``).
* HOSPITAL: practices and urgent cares (``Lowry Flats Urgent Care``, ``Coldwater Junction Family
  Practice``); a hospital named with a common word plus ``Hosp`` (``Lakeside Hosp``); an invented
  facility abbreviation of two to five capitals after a place preposition or before ``ED``/``ER``
  (``closer to AMH``, ``Called AMH ED``, ``at KPCH``).
* DEPARTMENT: a named unit or building with a floor after a unit cue (``Unit Tallis 6``) or a
  named ICU (``Corrigan ICU``).
* CITY: the place after a where-cue (``from Boston``, ``visiting from Seattle``, ``lives in
  Brennock``, ``family in Tanner's Bend``): a town of the bundled list, or, after a strong cue,
  a capitalised word that is neither English nor clinical; ``neighborhood`` names (``the Old
  Quarry neighborhood``).

Each candidate needs a word that can name something (not clinical vocabulary, not a care unit,
not a generic modifier such as ``Homeless`` or ``Local``); in an ALL-CAPS line only the listed
shapes pass, so a shouted sentence is not read as a name.
"""

from __future__ import annotations

import re

from phiscrub.detect.clinical_vocab import word_set
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, TrimmedRule
from phiscrub.detect.rules.locations_data import STATE_ABBREVIATIONS
from phiscrub.detect.rules.places_en_cities import (
    CITY_RULES_EN,
    MONTHS_DAYS,
    PLACE_STOP,
    clinical_or_calendar,
    plain_word,
    upper_line,
)
from phiscrub.detect.unit_names import NAMED_UNIT_RE, named_unit_word

_RX = pattern_data("places_en")


__all__ = ["PLACE_RULES_EN"]

_WORD = r"(?:[A-Z][a-z]+(?:['’]s)?|[A-Z]{2,}(?:['’]S)?|St\.|Mt\.|[A-Z][a-z]*[A-Z][a-z]+)"
_JOIN = r"(?:[ ](?:of|and|&|on|the|OF|AND|ON|THE)[ ]|[ ]|-)"

_ORG_HEADS = (
    "Pharmacy", "PD", "Police", "Police Department", "Police Dept", "Sheriff", "Fire",
    "Fire Department", "Fire Dept", "Fire Rescue", "EMS", "Ambulance", "Shelter", "Transit",
    "Agency on Aging", "Agency", "Home Health", "Home Care", "Homecare", "Church", "Parish", "Temple",
    "Synagogue", "Mosque", "Chapel", "Ministries", "School", "Middle School", "High School",
    "Elementary", "Elementary School", "Academy", "College", "University", "Logistics", "Textile",
    "Textiles", "Foods", "Farms", "Inc", "Inc.", "LLC", "Corp", "Corp.", "Corporation",
    "Foundation", "Bank", "Credit Union", "Health Plan", "Trucking", "Motors", "Plant",
    "Factory", "Mill", "Industries", "Manufacturing", "Construction", "Dialysis", "Adult Day",
    "Day Program", "Food Bank", "Pantry", "Drug", "Drugs", "ISD", "School District", "Public Schools",
    "VNA", "Visiting Nurses", "Roofing", "Plumbing", "Sheet Metal", "Council on Aging", "Mobile Crisis",
    "Freight Lines", "Life & Disability", "Mutual", "DME", "Medical Supply", "Public Library", "Library",
    "Co-op", "Co-Op", "Coop", "Recovery Partners", "Care Partners", "Medical Partners",
)  # fmt: skip
_HOSP_HEADS = (
    "Urgent Care", "Family Practice", "Family Medicine", "Family Med", "Fam Med", "Internal Med", "Primary Care", "Internal Medicine",
    "Pediatrics", "Medical Associates", "Physicians", "Health Clinic", "Hosp", "Hosp.", "Dialysis Center",
    "Cancer Center", "Nursing & Rehab", "Nursing and Rehab", "Rehab Center", "Care Center",
    "Heart & Vascular", "Heart and Vascular", "Cancer Associates",
)  # fmt: skip
_DENOMINATIONS = ("Lutheran", "Methodist", "Baptist", "Presbyterian", "Episcopal", "Catholic", "Pentecostal")


def _alt(words: tuple[str, ...]) -> str:
    forms = sorted({f for w in words for f in (w, w.upper())}, key=len, reverse=True)
    return "(?:" + "|".join(re.escape(f).replace(r"\ ", "[ ]") for f in forms) + ")"


_ORG_RE = re.compile(
    rf"(?<![\w'’.])(?P<org>{_WORD}(?:{_JOIN}{_WORD}){{0,4}}?[ ]{_alt(_ORG_HEADS)})(?![\w'’])"
    rf"|(?<![\w'’.])(?P<church>{_WORD}(?:[ ]{_WORD})?[ ]{_alt(_DENOMINATIONS)}"
    rf"(?:[ ](?:Church|CHURCH))?(?:[ ](?:of|OF)[ ]{_WORD}(?:[ ]{_WORD})?)?)(?![\w'’])"
)
# Heads that are everyday English words: the name before them must hold a word no dictionary has or
# a person's name ("Halvorsen Cardiology", "Pemberton House", "Quellford Senior Center").
_WEAK_HEADS = (
    "Center", "Centre", "Club", "Association", "Society", "Council", "Office", "Store", "Market",
    "Restaurant", "Cafe", "Diner", "Hotel", "Motel", "Inn", "Airlines", "Airport", "Station", "Prison",
    "Jail", "Correctional Facility", "Court", "Depot", "Mart", "Dairy", "Farm", "Ranch", "Daycare",
    "Day Care", "Preschool", "Camp", "Ministry", "Recovery", "Treatment Center", "House", "Home", "Place",
    "Gardens", "Terrace", "Village", "Commons", "Estates", "Residence", "Services", "Group", "Partners",
    "Associates", "Specialists", "Physicians", "Orthopedics", "Orthopaedics", "Cardiology", "Urology",
    "Dermatology", "Oncology", "Pediatrics", "Family Medicine", "Internal Medicine", "Women's Health",
    "Health", "Healthcare", "Health Partners", "Medical", "Imaging", "Radiology", "Laboratory", "Labs",
    "Memory Care", "Skilled Nursing", "Nursing Facility", "Senior Center", "Community Center",
)  # fmt: skip
_WEAK_RE = re.compile(
    rf"(?<![\w'’.])(?P<weak>{_WORD}(?:{_JOIN}{_WORD}){{0,3}}?[ ]{_alt(_WEAK_HEADS)})(?![\w'’])"
)
_HOSP_RE = re.compile(
    rf"(?<![\w'’.])(?P<hosp>{_WORD}(?:{_JOIN}{_WORD}){{0,4}}?[ ]{_alt(_HOSP_HEADS)})(?![\w'’])"
)
#: Services and people written in capitals after the same cues ("called PT", "at HS" is bedtime).
_SERVICE_ABBR = word_set(
    """
    PT OT ST SLP RT SW CM IR OR ED ER PCP MD DO RN LPN NP PA GI ID HCP POA VNA EMS HS RA BL MN NOC
    PM AM CT MRI US XR EKG ECG EEG LAB RRT ICU CCU NICU PICU PACU SICU MICU SDU PCU ACU HD ASAP PRN
    NPO NARE NARES LIP LIPS GUM GUMS
    """
)


# "d/c to heritage home health", "admitted from pine springs dialysis": in lower case, a place after a
# move cue and before a facility head; the words before the head must hold a name (see _lower_ok).
_LOWER_HEADS = (
    "home health", "home care", "urgent care", "family practice", "family medicine", "skilled nursing",
    "nursing home", "nursing and rehab", "nursing & rehab", "rehab", "rehab center", "dialysis",
    "cardiology associates", "medical associates", "medical group", "health partners", "health center",
    "medical center", "hospital", "hosp", "clinic", "hospice", "assisted living", "senior living",
    "care center", "behavioral health", "orthopedics", "imaging", "counseling",
)  # fmt: skip
_LOWER_FACILITY_RE = re.compile(
    r"\b(?:d/c|dc|discharged?|transfer(?:red)?|tx|xfer|sent|admitted|readmitted|go(?:es|ing)?|went"
    r"|return(?:s|ed|ing)?|back|referred|referral)[ \t]+(?:to|from|at)[ \t]+"
    r"(?P<low>[a-z][a-z'’-]+(?:[ \t][a-z][a-z'’-]+){0,2}?[ \t]"
    + "(?:"
    + "|".join(re.escape(h).replace(r"\ ", "[ \\t]") for h in sorted(_LOWER_HEADS, key=len, reverse=True))
    + ")"
    + r")(?![\w'’-])"
)
# "pcp dr hutto (pettigrew family medicine)": the same lower-case place in brackets after a person.
_LOWER_PAREN_RE = re.compile(
    r"\((?P<low>[a-z][a-z'’-]+(?:[ \t][a-z][a-z'’-]+){0,2}?[ \t]"
    + "(?:"
    + "|".join(re.escape(h).replace(r"\ ", "[ \\t]") for h in sorted(_LOWER_HEADS, key=len, reverse=True))
    + ")"
    + r")(?=[ \t]*[),;])"
)


_GENERIC_ORG = word_set(
    """
    homeless local retail specialty mail order community public city county state federal national
    the our his her their my men's women's womens mens youth family emergency domestic violence
    medical home outpatient inpatient hospital health care new old first main north south east west
    central regional area senior adult day elementary middle high school fire police rescue any same
    """
)


#: Compass words: generic in capitals or lower case, a name in Title Case before a head.
_DIRECTIONS = frozenset({"north", "south", "east", "west", "central"})


def _generic_words(mixed: bool) -> frozenset[str]:
    """The words that name no organisation: in a mixed-case line a compass word may ("South Credit
    Union"), in capitals it may not."""
    return _GENERIC_ORG - _DIRECTIONS if mixed else _GENERIC_ORG


def _trim_left(text: str, start: int, end: int) -> int:
    """Move ``start`` past leading cue words and articles ("Pt attends First ..." keeps "First")."""
    cut = start
    for w in re.finditer(r"\S+", text[start:end]):
        if w.group().lower().strip(",.") in PLACE_STOP - {"of", "and", "the"} or w.group() in ("The", "THE"):
            cut = start + w.end() + 1
        else:
            break
    return min(cut, end)


def _named(words: list[str], generic: frozenset[str]) -> bool:
    """One word that can name something: not generic, not a stop or cue word."""
    return any(w.lower() not in generic and w.lower() not in PLACE_STOP and not w.isdigit() for w in words)


def _org_ok(m: re.Match[str]) -> bool:
    group = "org" if m.group("org") is not None else "church"
    text = m.string
    start = _trim_left(text, m.start(group), m.end(group))
    span = text[start : m.end(group)]
    words = re.findall(r"[A-Za-z][A-Za-z'’\.]*", span)
    heads = {w.lower() for h in (*_ORG_HEADS, *_DENOMINATIONS, "Church") for w in h.split()}
    names = [w for w in words if w.lower() not in heads and w.lower() not in ("of", "and", "the", "on")]
    if not names:
        return False
    if upper_line(text, m.start(), m.end()) and (len(names) > 3 or any(plain_word(w) for w in names)):
        return False
    if group == "church":
        return True
    if span.endswith(" PD") and all(
        any(plain_word(w.removesuffix(x)) for x in ("", "s", "ed", "d", "ing")) for w in names
    ):
        return False  # "Attended PD education", "Good PD candidate": peritoneal dialysis, no police
    generic = _generic_words(not upper_line(text, m.start(), m.end()))
    return _named(names, generic) and not all(plain_word(w) and w.lower() in generic for w in names)


def _weak_ok(m: re.Match[str]) -> bool:
    text = m.string
    if upper_line(text, m.start(), m.end()):
        return False
    start = _trim_left(text, m.start("weak"), m.end("weak"))
    words = re.findall(r"[A-Za-z][A-Za-z'’\.]*", text[start : m.end("weak")])
    heads = {w.lower() for h in _WEAK_HEADS for w in h.split()}
    names = [w for w in words if w.lower() not in heads and w.lower() not in ("of", "and", "the", "&", "on")]
    if not names or not all(w[0].isupper() for w in names) or any(_service(w) for w in names):
        return False
    return any(_name_like(w) and w.lower() not in MONTHS_DAYS for w in names)


def _hosp_ok(m: re.Match[str]) -> bool:
    text = m.string
    start = _trim_left(text, m.start("hosp"), m.end("hosp"))
    words = re.findall(r"[A-Za-z][A-Za-z'’\.]*", text[start : m.end("hosp")])
    heads = {w.lower() for h in _HOSP_HEADS for w in h.split()}
    names = [w for w in words if w.lower() not in heads and w.lower() not in ("of", "and", "the", "&")]
    mixed = not upper_line(text, m.start(), m.end())
    if not names or not _named(names, _generic_words(mixed)):
        return False
    if words[-1].lower().rstrip(".") == "hosp" and mixed:
        return True  # "Lakeside Hosp": a common word names a hospital too
    # In a mixed-case line a capitalised word before a practice head names it, even an English one
    # ("Silver Urgent Care", "West Family Practice"), unless it says what kind of practice it is.
    if mixed and all(w[0].isupper() for w in names):
        return all(_namelike_common(w) or w.lower() in _DIRECTIONS for w in names)
    return any(_name_like(w) for w in names)


def _name_like(word: str) -> bool:
    """A given name, a surname or a word no English dictionary has ("Lowry", "Coldwater")."""
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word

    low = word.lower().removesuffix("'s").removesuffix("’s")
    vocab = clinical_vocabulary()
    if is_clinical_word(word) or low in vocab.care_units or low in PLACE_STOP:
        return False
    if low in vocab.common and low not in vocab.names:
        return False  # function words ("Against") and everyday words
    base = {"women": "woman", "men": "man", "children": "child"}.get(low, low)
    forms = {base, base.removesuffix("s"), base.removesuffix("es")}
    return low in vocab.names or not (forms & vocab.wordnet)


_STRONG_FACILITY_HEADS = frozenset(
    {
        "hospital", "hosp", "hosp.", "medical center", "medical centre", "manor", "memorial", "infirmary",
        "hospice", "rehab", "rehabilitation", "rehab center", "rehabilitation center", "nursing home",
        "nursing center", "care center", "health center", "healthcare", "health care", "health system",
        "dental", "sports medicine", "correctional facility", "correctional center", "detention center",
        "county jail", "jail", "home medical", "medical supply", "recovery center", "treatment center",
    }
)  # fmt: skip


_SERVICE_ONLY = frozenset(["urgent", "care"])


def named_with_common_words(text: str, start: int, end: int, fac: str) -> bool:
    """A facility candidate ``fac`` (cue words cut) named with English words: two or more name words,
    or one before a hospital word, one of them no service, clinical or generic word; mixed-case
    lines only (in an ALL-CAPS line every phrase would pass)."""
    if upper_line(text, start, end):
        return False
    words = re.findall(r"[A-Za-z][A-Za-z'’\-]*", fac)
    if not words or not words[0][0].isupper():
        return False
    from phiscrub.detect.rules.facility_data import FACILITY_SUFFIXES

    tail = fac.lower()
    head = max((h for h in FACILITY_SUFFIXES if tail.endswith(h.lower())), key=len, default="")
    head_words = {w.lower() for w in head.split()}
    names = [w for w in words if w.lower() not in head_words and w.lower() not in ("of", "and", "the")]
    if not names or any(not w[0].isupper() for w in names):
        return False
    if len(names) < 2 and head.lower() not in _STRONG_FACILITY_HEADS:
        return False
    blocking = (_SERVICE_WORDS | _SERVICE_ONLY) - _GENERIC_FACILITY
    if any(_service(w) or w.lower() in blocking for w in names):
        return False
    return any(_namelike_common(w) for w in names)


def _service(word: str) -> bool:
    """A clinical word or care unit: the candidate is a service ("Sleep Clinic", "Heart Center")."""
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word

    low = word.lower().removesuffix("'s").removesuffix("’s")
    return is_clinical_word(word) or is_clinical_word(low) or low in clinical_vocabulary().care_units


def _namelike_common(word: str) -> bool:
    low = word.lower().removesuffix("'s").removesuffix("’s")
    return (
        low not in _GENERIC_ORG
        and low not in _GENERIC_FACILITY
        and low not in PLACE_STOP
        and low not in _SERVICE_WORDS
        and not _service(word)
    )


#: English words that make a service or a kind of place, not a name ("Sleep Clinic", "Free Clinic").
_SERVICE_WORDS = word_set(
    """
    sleep eye eyes heart lung vein travel allergy wound weight loss fertility transplant stroke burn
    trauma breast spine cancer pain memory diabetes kidney liver skin foot hand bone joint brain
    women's women men's children's kids teen free walk-in walk express virtual pediatric geriatric
    behavioral mental rehab rehabilitation nursing surgical surgery dental vision hearing infusion
    imaging lab wellness student employee occupational veterans va university academic teaching
    county state city private psychiatric acute subacute sub-acute short-term long-term physical
    occupational speech vocational inpatient outpatient home day night weekend primary specialty
    resident residents faculty continuity charity cardiac cardio pulmonary neuro ortho geri psych
    peds child abuse adolescent neonatal developmental sports addiction
    """
)

#: Words that make a kind of hospital, not its name ("General Hospital", "Community Hospital").
_GENERIC_FACILITY = frozenset(["general", "community", "regional", "district", "memorial", "satellite"])


def _abbr_ok(m: re.Match[str]) -> bool:
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word

    abbr = m.group("a1") or m.group("a2")
    if abbr in STATE_ABBREVIATIONS or abbr in _SERVICE_ABBR or abbr in ("US", "USA", "UK"):
        return False
    vocab = clinical_vocabulary()
    if abbr.lower() in vocab.clinical or abbr.lower() in vocab.common or abbr.lower() in vocab.care_units:
        return False
    if m.group("a1") is None:
        return True
    if _RX["SERVICE_NOUN_RE"].match(m.string, m.end()):
        return False  # "at HF clinic": a service
    # "at" is a weak cue ("sats 93% at RA"): a known clinical abbreviation after it is not a place.
    weak = m.group("cue").lower() == "at"
    if (weak or upper_line(m.string, m.start(), m.end())) and (
        abbr in vocab.abbreviations or plain_word(abbr)
    ):
        return False
    if not upper_line(m.string, m.start(), m.end()):
        return True
    # In an ALL-CAPS line every word is capitals: only a long one no dictionary knows.
    low = abbr.lower()
    forms = {low, low.removesuffix("s"), low.removesuffix("es"), low + "s", {"teeth": "tooth"}.get(low, low)}
    return len(abbr) >= 4 and not (forms & vocab.wordnet) and not any(is_clinical_word(f) for f in forms)


def _house_acronym_ok(m: re.Match[str]) -> bool:
    """An acronym no dictionary, state or clinical list knows ("TPMC", "SEI"; not "BMC", "HPI")."""
    from phiscrub.detect.clinical import clinical_vocabulary

    abbr = m.group("mc") or m.group("head")
    if abbr.endswith("U"):
        return False  # a care unit heading the note: "CSRU NPN", "CVICU TRANSFER NOTE"
    if m.group("head") and m.string.upper() == m.string:
        return False  # an ALL-CAPS note: every heading word is capitals ("CHEMO TEACH - ONCOLOGY RN")
    vocab = clinical_vocabulary()
    low = abbr.lower()
    return not (
        abbr in STATE_ABBREVIATIONS
        or abbr in _SERVICE_ABBR
        or abbr in vocab.abbreviations
        or low in vocab.clinical
        or low in vocab.common
        or low in vocab.care_units
        or plain_word(abbr)
    )


_LOWER_HEAD_WORDS = frozenset(w for h in _LOWER_HEADS for w in h.split())


def _lower_ok(m: re.Match[str]) -> bool:
    words = m.group("low").split()
    while words and words[-1] in _LOWER_HEAD_WORDS:
        words.pop()  # the head phrase
    if not words:
        return False
    return all(
        w not in PLACE_STOP and w not in _GENERIC_ORG and w not in _SERVICE_WORDS and not _service(w)
        for w in words
    ) and any(not plain_word(w) or w in _NATURE_WORDS for w in words)


#: Everyday words that name places in lower-case notes ("pine springs", "cedar bend", "heritage").
_NATURE_WORDS = word_set(
    """
    pine pines oak oaks cedar maple birch willow aspen elm spruce river lake creek brook springs spring
    valley ridge hill hills meadow meadows grove harbor harbour bay bend falls summit crest haven park
    heritage liberty pioneer evergreen sunrise sunset golden silver crystal stone rock canyon prairie
    eagle falcon mesa point view glen field fields woods forest
    """
)


def _ward_ok(m: re.Match[str]) -> bool:
    ward = m.group("w1") or m.group("w2") or m.group("w4")
    return not plain_word(ward.split()[0]) and not upper_line(m.string, m.start(), m.end())


def _ward_anycase_ok(m: re.Match[str]) -> bool:
    from phiscrub.detect.rules._common import followed_by_unit

    word = m.group("w3").split()[0]
    move = re.search(
        r"(?i:transfer(?:red)?|tx|moved?|back)[ \t]+\Z", m.string[max(0, m.start() - 14) : m.start()]
    )
    cue = (m.group("wcue") or "").lower()
    if word.islower() and cue in ("to", "on", "from") and move is None:
        return False  # "on fent 50": after a weak cue only a capitalised word names a unit
    if m.group("fac") is not None:
        from phiscrub.detect.clinical_vocab import clinical_vocabulary

        fac = m.group("fac")
        if fac.isupper() and (fac in clinical_vocabulary().abbreviations or _service(fac)):
            return False  # "ICU Bed 4", "ED Room 2": a care unit or service, not a facility's name
        if not re.match(
            r"[ \t]*(?:\n|\Z|[,;)|(]|[ \t]{2}|[ \t]+(?:for|in|stepdown|step-down|tele|rm|room|bed)\b)",
            m.string[m.end() :],
        ):
            return False  # "CPMC Pettus 5 for GI eval", "RCH Ashby 3  rm 312": a unit ends there
    if m.group("paren") is not None and (
        not word.istitle()
        or m.string[m.end() : m.end() + 1] != ")"
        or not re.search(
            r"(?i:micu|sicu|ccu|cvicu|icu|ed|pacu|stepdown|step-down|unit|floor|tele)[ \t]*\Z",
            m.string[max(0, m.start() - 12) : m.start()],
        )
    ):
        return False  # "MICU (Tolliver 5)": after a care unit, a Title-case name and its floor in brackets
    if m.group("arrow") is not None and not re.search(
        r"(?:(?i:micu|sicu|ccu|cvicu|icu|ed|pacu|or|stepdown|step-down|floor|unit)|\))[ \t]*\Z",
        m.string[max(0, m.start() - 12) : m.start()],
    ):
        return False  # "micu -> tolliver 7", "(Tolliver 5) -> Tolliver 7": from a care unit only
    if followed_by_unit(m.string, m.end()) or word.lower() in MONTHS_DAYS:
        return False
    from phiscrub.detect.english_words import lowercase_ok as _lowercase_ok

    low = word.casefold()
    return _lowercase_ok(low) and not _service(word) and low not in _WARD_WORD_STOP and low not in PLACE_STOP


#: Shorthand that precedes a number in notes and is no dictionary word ("levo 5", "prop 20").
_WARD_WORD_STOP = word_set(
    """
    levo neo prop precedex dex vaso epi nitro bicarb lytes abx gtt pod hd dol
    """
)


def _osh_ok(m: re.Match[str]) -> bool:
    from phiscrub.detect.rules.names_data import NAME_STOPWORDS

    return not any(
        w.lower() in PLACE_STOP or w.lower() in NAME_STOPWORDS or clinical_or_calendar(w)
        for w in m.group("osh").split()
    )


def _workplace_ok(m: re.Match[str]) -> bool:
    words = [w for w in m.group("work").split() if w[0].isupper()]
    if upper_line(m.string, m.start(), m.end()) or any(w.lower() in PLACE_STOP for w in words):
        return False
    if any(clinical_or_calendar(w) for w in words):
        return False  # "works at Memory Care", "retired in March"
    return len(words) >= 2 or not plain_word(words[0])


def _destination_ok(m: re.Match[str]) -> bool:
    """Every word of the destination unknown to the dictionaries (English, clinical, care units,
    names of months and days): "Spaulding", "whittier", not "home", "rehab", "radiology"."""
    from phiscrub.detect.english_words import lowercase_ok

    if upper_line(m.string, m.start(), m.end()):
        return False
    for word in m.group("dest").split():
        low = word.lower().removesuffix("'s").removesuffix("’s")
        if plain_word(word) or _service(word) or not lowercase_ok(low):
            return False
    return True


# "Step down - Lantern Unit": see :mod:`phiscrub.detect.unit_names`.
def _named_unit_ok(m: re.Match[str]) -> bool:
    return named_unit_word(m.group("u")) and not upper_line(m.string, m.start(), m.end())


PLACE_RULES_EN: tuple[PatternRule, ...] = (
    TrimmedRule("ORGANIZATION", _ORG_RE, name="organization", score=0.6, group=("org", "church"), validator=_org_ok, trim=_trim_left),
    TrimmedRule("ORGANIZATION", _WEAK_RE, name="organization_weak_head", score=0.5, group="weak", validator=_weak_ok, trim=_trim_left),
    TrimmedRule("HOSPITAL", _HOSP_RE, name="practice", score=0.6, group="hosp", validator=_hosp_ok, trim=_trim_left),
    PatternRule("HOSPITAL", _LOWER_FACILITY_RE, name="facility_lower", score=0.5, group="low", validator=_lower_ok),
    PatternRule("HOSPITAL", _LOWER_PAREN_RE, name="facility_lower_paren", score=0.5, group="low", validator=_lower_ok),
    PatternRule("HOSPITAL", _RX["ABBR_RE"], name="facility_abbr", score=0.5, group=("a1", "a2"), validator=_abbr_ok),
    PatternRule("HOSPITAL", _RX["HOUSE_ACRONYM_RE"], name="house_acronym", score=0.5, group=("mc", "head"), validator=_house_acronym_ok),
    PatternRule("DEPARTMENT", _RX["WARD_RE"], name="named_unit", score=0.6, group=("w1", "w2", "w4"), validator=_ward_ok),
    PatternRule("DEPARTMENT", _RX["WARD_ANYCASE_RE"], name="named_unit_anycase", score=0.5, group="w3", validator=_ward_anycase_ok),
    PatternRule("DEPARTMENT", NAMED_UNIT_RE, name="named_unit_word", score=0.5, group="u", validator=_named_unit_ok),
    PatternRule("HOSPITAL", _RX["VA_RE"], name="va_site", score=0.5, group="va"),
    PatternRule("HOSPITAL", _RX["OSH_RE"], name="outside_hospital", score=0.6, group="osh", validator=_osh_ok),
    PatternRule("CITY", _RX["OSH_RE"], name="outside_hospital_town", score=0.6, group="town", validator=_osh_ok),
    PatternRule("HOSPITAL", _RX["DESTINATION_RE"], name="destination", score=0.5, group="dest", validator=_destination_ok),
    PatternRule("ORGANIZATION", _RX["WORKPLACE_RE"], name="workplace", score=0.5, group="work", validator=_workplace_ok),
    *CITY_RULES_EN,
)  # fmt: skip
