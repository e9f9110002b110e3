"""Fill placeholder notes (``[PATIENT]``, ``[DATE]``, ...) with random realistic values.

The zero-shot notes (Kim et al. 2024) write every PHI value as a bracketed label. To train a tagger
on them, each placeholder is replaced by a surrogate of its type and the span is recorded as gold.
Because a tagger learns the surface forms it sees, the fills vary on purpose: dates in many formats
(and a bare year after "quit", "since", "in"), names in several forms (full name, surname after a
title, "J. Smith", "Smith, John", ALL CAPS on upper-case lines), phones and identifiers in realistic
shapes, ages as numbers (sometimes over 89, in months where the note says "months old").

English fills also write what real US notes write and tidy LLM notes never do (issue 11): the
commonest US names; initial + surname in capitals after role cues ("per K. JONES", "d/w J SMITH");
lower-case first names after kinship words ("daughter mary") and lower-case fills on all-lower-case
lines; facility names made of common words ("St. Mary's", "Good Samaritan", "Lakeside Nursing Home",
"X Rehab", "University of X Medical Center") and their initials ("SJH", "BMC"), bare before "ED" /
"LTC"; named wards ("Ellison 4", "Blake 7") for rooms, departments and units; month/day dates in
running text ("BCx 3/14", "since 4/7", "jan 3", "Mar 14th"); month/two-digit-year and bare years
after a diagnosis or in a history list ("CABG 2004", "CVA 3/98"). Care-unit abbreviations (ICU, ED,
PACU) are never drawn as gold PHI: real notes do not treat them as PHI.

``vocab="train"`` / ``"test"`` restricts the open lists (names, towns, hospitals, companies, streets,
facility words) to a fixed hash-defined part of their entries (:func:`vocab_part`, 80% / 20%), so
that a test set filled from ``test`` holds only names a tagger trained on ``train`` fills never saw.

Fills are seeded random draws (:class:`random.Random`), not keyed: the values are invented, not
derived from any real PHI. Within a note the patient is one invented person and dates cluster
around one invented admission date, so notes stay coherent.

:func:`fill_text` is the core (also used on LLM output); :class:`PlaceholderReader` reads ``.txt``
notes and yields gold :class:`~phiscrub.document.Document` objects, one or several draws per note.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
import string
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import PathLike, Reader
from phiscrub.io.text import iter_text_files
from phiscrub.labels import PLACEHOLDER_LABELS, to_fine
from phiscrub.resources import load_lexicon
from phiscrub.transform.dates import format_date

__all__ = [
    "FILL_LANGS",
    "PLACEHOLDER_RE",
    "VOCABS",
    "VOCAB_TEST_SHARE",
    "PlaceholderReader",
    "detect_lang",
    "draw_surrogate",
    "fill_text",
    "vocab_part",
]

#: Languages with their own fill formats; ``auto`` detects one per note.
FILL_LANGS: tuple[str, ...] = ("en", "es", "ca", "zh", "auto")
#: A placeholder-like token: upper-case letters and underscores in square brackets.
PLACEHOLDER_RE = re.compile(r"\[([A-Z][A-Z_]*)\]")

_KNOWN = frozenset(PLACEHOLDER_LABELS) | {"ID", "LOCATION"}
_CJK = re.compile(r"[\u3400-\u9fff]")
_TITLE_BEFORE = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Dra|Sr|Sra|Srta|Prof)\.?|\b(?:Mister|Senyor|Senyora))\s*$", re.IGNORECASE
)
_FEMALE_TITLE = re.compile(r"\b(?:Mrs|Ms|Miss|Sra|Srta|Senyora)\.?\s*$", re.IGNORECASE)
_MALE_TITLE = re.compile(r"\b(?:Mr|Sr|Senyor)\.?\s*$", re.IGNORECASE)
_YEARISH_BEFORE = re.compile(
    r"\b(?:quit|since|in|from|until|circa|year|during|by|around|desde|en|año|des de|l'any|fins)\s*\(?$",
    re.IGNORECASE,
)
_DOB_BEFORE = re.compile(
    r"(?:DOB|D\.O\.B\.|birth|born|nacimiento|naixement|出生|生日)\W{0,12}$", re.IGNORECASE
)
_TIME_AFTER = re.compile(r"^\s*(?:@\s*)?\d{1,2}:?\d{2}\b|^\s*at\s+\d")
_MALE_KIN = re.compile(
    r"\b(?:son|husband|father|brother|grandson|nephew|hijo|marido|esposo|padre|hermano|fill|marit|pare|germà)\b"
    r"|儿子|丈夫|父亲|哥哥|弟弟",
    re.IGNORECASE,
)
_FEMALE_KIN = re.compile(
    r"\b(?:daughter|wife|mother|sister|granddaughter|niece|hija|esposa|mujer|madre|hermana|filla|dona|mare|germana)\b"
    r"|女儿|妻子|母亲|姐姐|妹妹",
    re.IGNORECASE,
)
_KIN = re.compile(_MALE_KIN.pattern + "|" + _FEMALE_KIN.pattern, re.IGNORECASE)
_CREDENTIAL_AFTER = re.compile(r"^,?\s*(?:MD|DO|RN|NP|PA|PhD|MBBS|DDS)\b")
# English real-note habits (issue 11): who writes "per J. SMITH", "daughter mary", "cx from 3/14".
_ROLE_CUE_BEFORE = re.compile(
    r"\b(?:as per|per|d/w|dw|discussed with|spoke (?:with|to)|talked to|paged|called|notified|informed|"
    r"seen by|covering|cross[- ]?cover|attending|resident|fellow|intern|surgeon|RN|NP|PA|MD|pcp)\s*:?\s*$",
    re.IGNORECASE,
)
_KIN_BEFORE = re.compile(r"(?:" + _KIN.pattern + r"|\b(?:dtr|wife's|husband's|hcp|fob|mom|dad|gf|bf|partner))"
                         r"\W{0,3}$", re.IGNORECASE)  # fmt: skip
_PROSE_DATE_BEFORE = re.compile(
    r"\b(?:on|since|from|until|till|thru|through|of|after|before|dated|drawn|sent|started|stopped|placed|"
    r"removed|changed|d/c'?d|dc'?d|s/p|cx|bcx|ucx|cultures?|cxr|ct|mri|echo|tte|tee|egd|ekg|ecg|labs?|"
    r"admitted|discharged|seen|last|started on|due)\s*$",
    re.IGNORECASE,
)
_HISTORY_BEFORE = re.compile(
    r"(?:\bs/p|\bstatus post|\bhx(?: of)?|\bh/o|\bdx(?:'d)?|\bdiagnosed(?: in)?|\bcabg(?: x\s?\d)?|\bpci|\bmi|"
    r"\bn?stemi|\bcva|\btia|\bstroke|\bstent|\bicd|\bppm|\bturp|ectomy|otomy|plasty|\brepair|\bfx|"
    r"\bfracture|\bsurgery|\bplaced|\breplacement|\btransplant|\bdvt|\bpe|\bcancer|\bca|\bchemo|\bxrt|"
    r"\bsmoker|\bsobriety|\bsober)\s*[(,-]?\s*$",
    re.IGNORECASE,
)
_OPEN_ENDED_BEFORE = re.compile(r"\b(?:since|from|until|by)\s*$", re.IGNORECASE)
_LIST_LINE = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)]|#\d*)\s")
_SHORT_FACILITY_AFTER = re.compile(
    r"^\s+(?:ED|ER|LTC|SNF|ICU|MICU|SICU|CCU|NICU|Cancer Center|Medical Practice|Inpatient|Emergency|"
    r"Rehab|Clinic|campus|Heart|Hospital|Medical Center|Dialysis|Lab|Radiology|Pharmacy|Wound)\b",
    re.IGNORECASE,
)
_ROOM_CUE_BEFORE = re.compile(r"(?:\broom|\brm|\bbed|\bsuite|\bbay|#|\bno\.?)\W{0,3}$", re.IGNORECASE)
_UNIT_CUE = re.compile(
    r"\b(?:unit|floor|ward|transfer(?:red)?|to|from|on|accepting|receiving|sending)\b", re.IGNORECASE
)
#: Labels whose fill follows an all-lower-case line ("pt seen at st marys by dr smith").
_CASE_FOLLOWING = frozenset({"PATIENT", "DOCTOR", "RELATIVE", "HOSPITAL", "ORGANIZATION", "DEPARTMENT", "CITY",
                             "STATE", "COUNTRY", "STREET", "LOCATION", "DATE", "PROFESSION", "ROOM", "USERNAME"})  # fmt: skip

# Date templates by language, with weights. Variety here is what a tagger learns from.
_DATE_FORMATS: dict[str, list[tuple[str, int]]] = {
    "en": [
        ("{MM}/{DD}/{YYYY}", 20), ("{M}/{D}/{YYYY}", 14), ("{M}/{D}/{YY}", 8), ("{MM}/{DD}/{YY}", 3),
        ("{YYYY}-{MM}-{DD}", 10), ("{Month} {D}, {YYYY}", 10), ("{Mon} {D}, {YYYY}", 6),
        ("{D} {Mon} {YYYY}", 5), ("{DD}-{Mon}-{YYYY}", 3), ("{D}-{MON}-{YYYY}", 2),
        ("{Month} {Do}, {YYYY}", 3), ("{Do} of {Month} {YYYY}", 1), ("{MM}-{DD}-{YYYY}", 4),
        ("{M}/{D}", 5), ("{Month} {D}", 3), ("{Mon}. {D}", 1), ("{Month} {Do}", 1), ("{M}-{D}", 1),
        ("{DD}.{MM}.{YYYY}", 1), ("{MON} {D}, {YYYY}", 1), ("{Weekday}, {Month} {D}, {YYYY}", 1),
        ("{Wkd} {M}/{D}", 1), ("{YYYY}{MM}{DD}", 1), ("{D} {Month} {YYYY}", 2),
    ],
    "es": [
        ("{DD}/{MM}/{YYYY}", 30), ("{D}/{M}/{YYYY}", 14), ("{DD}/{MM}/{YY}", 8),
        ("{D} de {month:es} de {YYYY}", 14), ("{DD}-{MM}-{YYYY}", 8), ("{YYYY}-{MM}-{DD}", 4),
        ("{D}/{M}", 5), ("{D} de {month:es}", 5), ("{DD}.{MM}.{YYYY}", 3), ("{D} {mon:es} {YYYY}", 2),
        ("{D}-{mon:es}-{YYYY}", 1), ("{weekday:es} {D} de {month:es}", 1),
    ],
    "ca": [
        ("{DD}/{MM}/{YYYY}", 30), ("{D}/{M}/{YYYY}", 14), ("{DD}/{MM}/{YY}", 8),
        ("{D} {de:ca}{month:ca} de {YYYY}", 12), ("{D} {de:ca}{month:ca} del {YYYY}", 3),
        ("{DD}-{MM}-{YYYY}", 8), ("{YYYY}-{MM}-{DD}", 4), ("{D}/{M}", 5), ("{D} {de:ca}{month:ca}", 5),
        ("{DD}.{MM}.{YYYY}", 3), ("{weekday:ca} {D} {de:ca}{month:ca}", 1),
    ],
    "zh": [
        ("{YYYY}年{M}月{D}日", 40), ("{YYYY}-{MM}-{DD}", 30), ("{YYYY}/{M}/{D}", 8), ("{YYYY}.{MM}.{DD}", 5),
        ("{YYYY}年{MM}月{DD}日", 10), ("{M}月{D}日", 5), ("{YYYY}/{MM}/{DD}", 4),
    ],
}  # fmt: skip
#: Dates without a year, as running text writes them ("BCx 3/14", "since 4/7", "jan 3", "Mar 14th").
_EN_MONTH_DAY: list[tuple[str, int]] = [
    ("{M}/{D}", 40), ("{MM}/{DD}", 5), ("{Mon} {D}", 12), ("{mon} {D}", 6), ("{Mon} {Do}", 6), ("{Month} {D}", 8),
    ("{Month} {Do}", 3), ("{M}-{D}", 3), ("{Mon}. {D}", 3), ("{MON} {D}", 1), ("{mon} {Do}", 2),
]  # fmt: skip
#: Dates after a diagnosis or procedure in a history list ("CABG 2004", "CVA 3/98", "dx'd 11/2019").
_EN_HISTORY_FORMATS: list[tuple[str, int]] = [
    ("{YYYY}", 50), ("{M}/{YY}", 15), ("{MM}/{YY}", 4), ("{M}/{YYYY}", 10), ("{Month} {YYYY}", 8),
    ("{Mon} {YYYY}", 5), ("'{YY}", 4), ("{M}/{D}/{YY}", 4),
]  # fmt: skip
_YEARISH_FORMATS: dict[str, list[tuple[str, int]]] = {
    "en": [
        ("{YYYY}", 50),
        ("{M}/{YY}", 6),
        ("{MM}/{YY}", 2),
        ("{Month} {YYYY}", 16),
        ("{M}/{YYYY}", 8),
        ("{MM}/{YYYY}", 4),
        ("'{YY}", 4),
        ("{Season} {YYYY}", 4),
        ("{Mon} {YYYY}", 4),
        ("{Month}", 2),
        ("{M}/{D}/{YYYY}", 8),
        ("{Month} {D}, {YYYY}", 5),
    ],
    "es": [("{YYYY}", 50), ("{month:es} de {YYYY}", 20), ("{MM}/{YYYY}", 15), ("{DD}/{MM}/{YYYY}", 15)],
    "ca": [("{YYYY}", 50), ("{month:ca} de {YYYY}", 20), ("{MM}/{YYYY}", 15), ("{DD}/{MM}/{YYYY}", 15)],
    "zh": [("{YYYY}年", 45), ("{YYYY}年{M}月", 30), ("{YYYY}-{MM}", 10), ("{YYYY}年{M}月{D}日", 15)],
}
_TIMED_FORMATS = {"en", "es", "ca", "zh"}  # when a clock time follows, write a full date

# Shapes: '#' digit, '%' upper-case letter, '^' lower-case letter, '&' digit or upper-case letter.
_ID_SHAPES: dict[str, dict[str, list[str]]] = {
    "MEDICALRECORD": {
        "en": ["#######", "########", "##-##-##", "%#######", "\\MR\\N-########", "00#######", "###-##-##",
               "%%######", "#########", "###-####"],
        "es": ["#######", "########", "%########", "##.###.###", "HC-######"],
        "zh": ["########", "ZY########", "#######", "##########"],
    },
    "IDNUM": {
        "en": ["#######", "%%-##-#####", "S##-#####", "%###-####", "ID\\N-####-#####", "########",
               "#####-%", "%%%######", "#-#######", "%##-######"],
        "es": ["########", "%%-######", "#######/##", "EP-#######"],
        "zh": ["##########", "%%########", "########"],
    },
    "SSN": {
        "en": ["###-##-####", "#########", "### ## ####"],
        "es": ["########%", "%#######%", "##.###.###-%"],
    },
    "HEALTHPLAN": {
        "en": ["%%%#########", "%#########", "#%%#-%%#-%%##", "%########", "####-####-####", "%%%-#####-##",
               "W#########"],
        "es": ["%%%% ##########", "%%%%##########", "#### #### #### ####", "ES########"],
        "zh": ["##########", "%%##########", "############"],
    },
    "ACCOUNT": {
        "en": ["########", "ACCT-#######", "##-#######", "%#########", "####-####-##", "#########"],
        "es": ["##########", "ES## #### #### ## ##########", "########"],
        "zh": ["##########", "################"],
    },
    "LICENSE": {
        "en": ["%%#######", "\\MD######", "%######", "R\\N-######", "##########", "%%-####-###", "%%#######"],
        "es": ["#########", "## ## #####", "######"],
        "zh": ["###############", "##############"],
    },
    "DEVICE": {
        "en": ["S\\N-%%##%####", "%%%######%", "####-%%%-####", "%%%###-#####", "##%%####", "%%&&&&&&&&"],
        "zh": ["%%##########", "S\\N########"],
    },
    "VEHICLE": {
        "en": ["#%%%###", "%%%-####", "%%% ####", "%%#-####", "#%%%##"],
        "es": ["#### %%%", "####-%%%", "%-####-%%"],
    },
    "BIOID": {
        "en": ["FP-########", "BIO-#####", "PS-####-###", "%%########", "FPR-####-####", "%%-######"],
        "zh": ["%%##########", "##########"],
    },
}  # fmt: skip
_UNIT_SHAPES = ["##", "#", "###", "M-##", "Medic ##", "A##", "Unit ##"]
_ZH_PLATE_PREFIX = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼"
_PHONE_SHAPES: dict[str, list[tuple[str, int]]] = {
    "en": [
        ("(N##) N##-####", 30), ("N##-N##-####", 30), ("N##.N##.####", 10), ("N##N######", 5),
        ("+1 N## N## ####", 5), ("1-N##-N##-####", 5), ("N##-N##-#### ext. ###", 3), ("(N##)N##-####", 5),
        ("N##-####", 4), ("N## N## ####", 3),
    ],
    "es": [
        ("9# ### ## ##", 25), ("6## ### ###", 25), ("+34 6## ## ## ##", 10), ("9########", 15),
        ("6########", 10), ("+34 9## ### ###", 10), ("93 ### ## ##", 5),
    ],
    "zh": [("1~#########", 40), ("1~# #### ####", 15), ("1~#-####-####", 5), ("0##-########", 20),
           ("0###-#######", 10), ("+86 1~# #### ####", 10), ("(0##)########", 5)],
}  # fmt: skip
_MAIL_PROVIDERS = {
    "en": ["gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "aol.com", "icloud.com"],
    "es": ["gmail.com", "hotmail.com", "yahoo.es", "outlook.es", "telefonica.net"],
    "zh": ["163.com", "qq.com", "126.com", "sina.com", "foxmail.com"],
}
_INSTITUTION_TLDS = {
    "en": ["org", "org", "com", "net", "edu"],
    "es": ["es", "cat", "org", "com"],
    "zh": ["cn", "com.cn", "com"],
}
_URL_PATHS = ["", "", "/portal", "/patients", "/login", "/appointments", "/patient-portal", "/records",
              "/forms/intake", "/billing", "/en/home", "/resources/education"]  # fmt: skip
_ROOM_SHAPES = {"en": ["###", "####", "#%", "##-#", "%-###", "###%", "##", "###-#", "%###"],
                "es": ["###", "##", "###-%", "#.##", "%-##"], "zh": ["##", "#", "###", "##-#", "#%"]}  # fmt: skip
_EN_STREET_SUFFIX = [("Street", "St"), ("Avenue", "Ave"), ("Road", "Rd"), ("Drive", "Dr"), ("Lane", "Ln"),
                     ("Boulevard", "Blvd"), ("Court", "Ct"), ("Place", "Pl"), ("Way", "Way"), ("Terrace", "Ter"),
                     ("Circle", "Cir"), ("Parkway", "Pkwy")]  # fmt: skip

# The commonest US given names and surnames: real US notes are full of them ("daughter mary", "per
# J. SMITH"), and a tagger trained only on the 29-locale lists rarely sees a plain "Mary" or "Smith".
_US_FEMALE = ("Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah", "Karen",
              "Lisa", "Nancy", "Betty", "Sandra", "Margaret", "Ashley", "Kimberly", "Emily", "Donna", "Michelle",
              "Carol", "Amanda", "Melissa", "Deborah", "Stephanie", "Dorothy", "Rebecca", "Sharon", "Laura",
              "Cynthia", "Amy", "Kathleen", "Angela", "Shirley", "Brenda", "Emma", "Anna", "Pamela", "Nicole",
              "Ruth", "Katherine", "Christine", "Debra", "Rachel", "Carolyn", "Janet", "Maria", "Heather", "Diane",
              "Julie", "Joyce", "Evelyn", "Frances", "Joan", "Alice", "Jean", "Judy", "Gloria", "Rose", "Ann")  # fmt: skip
_US_MALE = ("James", "Robert", "John", "Michael", "David", "William", "Richard", "Joseph", "Thomas", "Christopher",
            "Charles", "Daniel", "Matthew", "Anthony", "Mark", "Donald", "Steven", "Andrew", "Paul", "Joshua",
            "Kenneth", "Kevin", "Brian", "George", "Timothy", "Ronald", "Jason", "Edward", "Jeffrey", "Ryan",
            "Jacob", "Gary", "Nicholas", "Eric", "Jonathan", "Stephen", "Larry", "Justin", "Scott", "Brandon",
            "Benjamin", "Samuel", "Gregory", "Frank", "Raymond", "Patrick", "Jack", "Dennis", "Jerry", "Tyler",
            "Walter", "Peter", "Harold", "Douglas", "Henry", "Carl", "Arthur", "Roger", "Joe", "Bill")  # fmt: skip
_US_LAST = ("Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
            "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
            "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
            "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green",
            "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Murphy",
            "Kelly", "Sullivan", "O'Brien", "Walsh", "McCarthy", "Doyle", "Ryan", "Cohen", "Patel", "Kim", "Chen",
            "Shah", "Reilly", "Fitzgerald", "Brennan", "Gallagher", "Quinn", "Burke", "Lynch")  # fmt: skip
#: Share of English person names drawn from the common-US lists above.
_US_NAME_SHARE = 0.45

# Facility names built from common words: what real US notes call their hospitals and homes.
_SAINTS = ("Mary", "Joseph", "Luke", "Elizabeth", "Francis", "Vincent", "Anne", "John", "Mark", "Peter", "Paul",
           "Michael", "Jude", "Catherine", "Agnes", "Anthony", "Clare", "Margaret", "Patrick", "Rose", "Theresa",
           "Raphael", "Barnabas", "Cloud", "Charles", "Dominic", "Helena", "Monica", "Thomas", "Bernard")  # fmt: skip
_VIRTUE_NAMES = ("Good Samaritan", "Mercy", "Sacred Heart", "Holy Cross", "Providence", "Baptist", "Methodist",
                 "Presbyterian", "Beth Israel", "Holy Family", "Our Lady of Lourdes", "Hope", "Grace", "Trinity",
                 "Good Shepherd", "Covenant", "Christ", "Bethany", "Resurrection", "Shriners", "Genesis",
                 "Advent", "Faith", "Charity", "Harmony", "Unity", "Liberty", "Heritage", "Pilgrim")  # fmt: skip
_PLACE_WORDS = ("Lakeside", "Riverside", "Hillcrest", "Fairview", "Parkview", "Bayview", "Brookside", "Meadowbrook",
                "Cedar Ridge", "Pine Ridge", "Oak Hill", "Maple Grove", "Sunrise", "Valley", "Mountain View",
                "Highland", "Westwood", "Northside", "Seaside", "Harbor", "Spring Hill", "Green Meadows",
                "Evergreen", "Willow Creek", "Lakeview", "Rivercrest", "Brookhaven", "Pleasant Valley", "Sunnyside",
                "Crestview", "Elmwood", "Golden Valley", "Silver Lake", "Twin Rivers", "Bay State", "Cape Cod",
                "North Shore", "South Shore", "Eastside", "Parkside", "Woodland", "Summit", "Pinewood", "Clearwater",
                "Stonebridge", "Autumn Ridge", "Briarwood", "Fox Run", "Heather Hill", "Rolling Hills")  # fmt: skip
_HOSPITAL_SUFFIXES = [("Hospital", 30), ("Medical Center", 25), ("Regional Medical Center", 8), ("Health", 5),
                      ("Memorial Hospital", 6), ("Community Hospital", 6), ("Health Center", 5), ("", 15)]  # fmt: skip
_HOME_SUFFIXES = ["Nursing Home", "Nursing and Rehab", "Rehab and Nursing Center", "Manor", "Senior Living",
                  "Skilled Nursing Facility", "Care Center", "Healthcare Center", "Assisted Living", "House",
                  "Rehabilitation and Nursing", "Gardens", "Village", "Hospice House"]  # fmt: skip
_REHAB_SUFFIXES = ["Rehab", "Rehab", "Rehabilitation Hospital", "Rehab Center", "Rehabilitation Center",
                   "Rehabilitation Institute"]  # fmt: skip
# Care units and services that must never be drawn as a facility acronym (they are not PHI).
_NOT_FACILITY_ACRONYMS = frozenset({
    "ICU", "CCU", "MICU", "SICU", "NICU", "PICU", "CICU", "CVICU", "TICU", "ED", "ER", "OR", "PACU", "SNF", "LTC",
    "LTAC", "LTACH", "IRF", "ALF", "ACU", "ECU", "EMU", "PCU", "IMC", "IMU", "MSU", "CDU", "ICN", "SCN", "L&D",
    "GI", "ENT", "OB", "PT", "OT", "RN", "MD", "NP", "PA", "DO", "CT", "MRI", "EKG", "ECG", "EEG", "EMS", "VNA",
    "DME", "PCP", "HCP", "DNR", "DNI", "MOLST", "POLST", "IV", "PO", "PRN", "ADL", "CHF", "COPD", "CAD", "HTN",
    "CKD", "ESRD", "AKI", "UTI", "MI", "CVA", "TIA", "PE", "DVT", "BMP", "CBC", "ABG", "VBG", "CMP", "LFT", "INR",
    "PTT", "TSH", "UA", "CXR", "KUB", "TTE", "TEE", "EGD", "ERCP", "PEG", "NGT", "OGT", "ETT", "TLC", "PICC",
    "CVC", "VAC", "SCD", "NSR", "SVT", "VT", "VF", "RVR", "AFIB", "SOB", "CP", "HA", "LOC", "AMS", "GCS", "CAM",
    "BPH", "BID", "TID", "QID", "QHS", "NPO", "DM", "HLD", "OSA", "BMI", "CPR", "ACLS", "BLS", "MVC", "GSW",
})  # fmt: skip
_CLINICAL_TERMS: frozenset[str] | None = None


def _clinical_acronyms() -> frozenset[str]:
    """Upper-case clinical abbreviations of the bundled medical lexicon (read once)."""
    global _CLINICAL_TERMS
    if _CLINICAL_TERMS is None:
        from importlib import resources

        path = resources.files("phiscrub.resources").joinpath("medical", "abbreviations.txt")
        words = path.read_text(encoding="utf-8").split() if path.is_file() else []
        _CLINICAL_TERMS = frozenset(w for w in words if w.isupper()) | _NOT_FACILITY_ACRONYMS
    return _CLINICAL_TERMS


#: Fill vocabularies: ``all`` entries, or a fixed ``train`` / ``test`` part of every open name list.
VOCABS: tuple[str, ...] = ("all", "train", "test")
#: Share of the entries of each open list (names, towns, hospitals, companies, streets, facility
#: words) in the ``test`` vocabulary. A tagger trained on ``train`` fills and scored on ``test``
#: fills meets only names it never saw, as on real notes.
VOCAB_TEST_SHARE = 0.2
_VOCAB_SALT = "phiscrub-vocab-v1"
_VOCAB_CACHE: dict[tuple[int, int, str], tuple[str, ...]] = {}
#: Open lists (bundled lexicon stems) that the vocabulary split applies to.
_OPEN_LISTS = frozenset({"first_names_female", "first_names_male", "last_names", "cities", "hospitals", "companies",
                         "street_names", "first_names_female_ca", "first_names_male_ca", "last_names_ca",
                         "cities_ca", "hospitals_ca", "street_names_ca"})  # fmt: skip


def vocab_part(entry: str) -> str:
    """``test`` or ``train``: the fixed part of the fill vocabulary an entry belongs to (hash of it)."""
    digest = hashlib.sha256(f"{_VOCAB_SALT}:{entry}".encode()).hexdigest()
    return "test" if int(digest[:8], 16) / 16**8 < VOCAB_TEST_SHARE else "train"


def _vocab_filter(entries: tuple[str, ...], vocab: str) -> tuple[str, ...]:
    """The entries of ``vocab`` (all of them for ``all``, or when the part would be empty)."""
    if vocab == "all":
        return entries
    key = (id(entries), len(entries), vocab)
    cached = _VOCAB_CACHE.get(key)
    if cached is None:
        cached = tuple(e for e in entries if vocab_part(e) == vocab) or entries
        _VOCAB_CACHE[key] = cached
    return cached


def _acronym(name: str) -> str:
    """ "St. Joseph's Hospital" -> "SJH", "Bay State Medical Center" -> "BSMC" (stop words dropped)."""
    words = [w for w in re.findall(r"[A-Za-z]+", name) if w.lower() not in ("of", "the", "and", "s", "at")]
    return "".join(w[0].upper() for w in words)


#: Catalan notes draw from the hand-written Catalan lists (``lexicons/es/<name>_ca.txt``) with these
#: probabilities, else from the Spanish lists (Catalan hospitals see many Spanish names).
_CA_SHARE: dict[str, float] = {
    "first_names_female": 0.6,
    "first_names_male": 0.6,
    "last_names": 0.6,
    "cities": 0.85,
    "hospitals": 0.85,
    "departments": 1.0,
    "professions": 1.0,
}
# Catalan towns by province (for "[CITY] ([STATE])"); towns not listed are in Barcelona.
_CA_PROVINCE_TOWNS: dict[str, tuple[str, ...]] = {
    "Girona": ("Girona", "Figueres", "Blanes", "Olot", "Salt", "Palafrugell", "Banyoles", "Ripoll",
               "Puigcerdà", "Lloret de Mar", "Sant Feliu de Guíxols", "La Bisbal d'Empordà"),
    "Lleida": ("Lleida", "Balaguer", "Tàrrega", "Mollerussa", "Solsona", "La Seu d'Urgell", "Tremp", "Sort",
               "Vielha"),
    "Tarragona": ("Tarragona", "Reus", "Tortosa", "Valls", "Cambrils", "Salou", "Amposta", "El Vendrell",
                  "Torredembarra", "Falset", "Móra d'Ebre", "Gandesa"),
}  # fmt: skip
# Chinese cities of the bundled list by province; municipalities and SARs get districts.
_ZH_PROVINCE_CITIES: dict[str, tuple[str, ...]] = {
    "北京市": ("朝阳区", "海淀区", "东城区", "西城区", "丰台区"), "上海市": ("浦东新区", "徐汇区", "静安区", "黄浦区"),
    "天津市": ("和平区", "南开区", "河西区"), "重庆市": ("渝中区", "江北区", "沙坪坝区"),
    "香港特别行政区": ("九龙", "新界", "港岛"), "澳门特别行政区": ("氹仔", "路环", "澳门半岛"),
    "广东省": ("广州", "深圳", "东莞", "佛山", "惠州", "汕尾", "潮州"), "安徽省": ("合肥", "六安", "巢湖", "马鞍山"),
    "江苏省": ("南京", "张家港", "海门", "淮安"), "湖北省": ("武汉", "大冶", "宜都", "潜江", "荆门"),
    "辽宁省": ("沈阳", "兴城", "北镇", "辽阳", "阜新"), "广西壮族自治区": ("南宁", "合山", "柳州", "梧州"),
    "贵州省": ("贵阳", "六盘水", "关岭"), "内蒙古自治区": ("呼和浩特", "兴安盟", "通辽"), "福建省": ("福州", "宁德", "永安"),
    "河北省": ("石家庄", "辛集", "邯郸"), "黑龙江省": ("哈尔滨", "齐齐哈尔"), "湖南省": ("长沙", "嘉禾"), "台湾省": ("台北",),
    "新疆维吾尔自治区": ("乌鲁木齐",), "甘肃省": ("兰州",), "四川省": ("成都",), "西藏自治区": ("拉萨",), "云南省": ("昆明",),
    "浙江省": ("杭州",), "山西省": ("太原",), "山东省": ("济南",), "海南省": ("海口",), "青海省": ("西宁",),
    "陕西省": ("西安",), "宁夏回族自治区": ("银川",), "吉林省": ("长春",), "河南省": ("郑州",), "江西省": ("南昌",),
}  # fmt: skip
_ZH_DISTRICTS = frozenset(c for k in ("北京市", "上海市", "天津市", "重庆市", "香港特别行政区", "澳门特别行政区")
                          for c in _ZH_PROVINCE_CITIES[k])  # fmt: skip
# Catalan elision: "l'Hospital", "d'Oftalmologia" take a value starting with a vowel or h.
_ELISION_BEFORE = re.compile(r"(?:^|[\s(])[lLdD]['’]$")
_VOWEL_START = tuple("aeiouàèéíïòóúüh")
_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def _spanish_departments() -> tuple[str, ...]:
    """The Spanish/Catalan department list without its Catalan spellings."""
    catalan = set(load_lexicon("departments_ca", "ca"))
    return tuple(d for d in load_lexicon("departments", "es") if d not in catalan)


def _dni(rng: random.Random) -> str:
    """A Spanish DNI or NIE with a valid check letter, in one of the usual spellings."""
    if rng.random() < 0.2:
        prefix = rng.choice("XYZ")
        number = rng.randrange(10**7)
        letter = _DNI_LETTERS[int(f"{'XYZ'.index(prefix)}{number:07d}") % 23]
        return f"{prefix}{number:07d}{letter}"
    number = rng.randrange(10**6, 10**8)
    digits, letter = f"{number:08d}", _DNI_LETTERS[number % 23]
    return rng.choice(
        [f"{digits}{letter}", f"{digits}-{letter}", f"{digits[:2]}.{digits[2:5]}.{digits[5:]}-{letter}"]
    )


def _nass(rng: random.Random) -> str:
    """A Spanish Social Security affiliation number with its two control digits."""
    province, number = rng.randint(1, 52), rng.randrange(10**8)
    base = province * 10_000_000 + number if number < 10_000_000 else int(f"{province:02d}{number:08d}")
    a, b, c = f"{province:02d}", f"{number:08d}", f"{base % 97:02d}"
    return rng.choice([f"{a} {b} {c}", f"{a}/{b}/{c}", f"{a}{b}{c}", f"{a}-{b}-{c}"])


_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def _cn_resident_id(rng: random.Random, birth: dt.date) -> str:
    """A Chinese resident identity number: province code, birth date, sequence, ISO 7064 check."""
    body = rng.choice(["11", "12", "13", "31", "32", "33", "35", "37", "42", "44", "50", "51", "61"])
    body += _shape(rng, "####") + birth.strftime("%Y%m%d") + _shape(rng, "###")
    return body + "10X98765432"[sum(int(d) * w for d, w in zip(body, _CN_ID_WEIGHTS)) % 11]


def _weighted(rng: random.Random, options: Sequence[tuple[str, int]]) -> str:
    return rng.choices([o for o, _ in options], weights=[w for _, w in options], k=1)[0]


def _shape(rng: random.Random, pattern: str) -> str:
    """'#' digit, 'N' digit 2-9, '~' digit 3-9, '%' A-Z, '^' a-z, '&' digit or A-Z; a backslash makes
    the next character literal (``"\\MR\\N-#"``); anything else literal."""
    out = []
    escaped = False
    for c in pattern:
        if escaped:
            out.append(c)
            escaped = False
        elif c == "\\":
            escaped = True
        elif c == "#":
            out.append(rng.choice(string.digits))
        elif c == "N":
            out.append(rng.choice("23456789"))
        elif c == "~":
            out.append(rng.choice("3456789"))
        elif c == "%":
            out.append(rng.choice(string.ascii_uppercase))
        elif c == "^":
            out.append(rng.choice(string.ascii_lowercase))
        elif c == "&":
            out.append(rng.choice(string.digits + string.ascii_uppercase))
        else:
            out.append(c)
    return "".join(out)


def _ascii(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if c.isascii() and c.isalpha()).lower()


def detect_lang(text: str) -> str:
    """Guess a note's language among en, es, ca and zh from a few marker words and the script."""
    cjk = len(_CJK.findall(text))
    if cjk >= 20 or (cjk and cjk > len(text) * 0.05):
        return "zh"
    words = re.findall(r"[a-zà-ÿ·]+", PLACEHOLDER_RE.sub(" ", text).lower())
    # Marker words of three letters or more, so that English abbreviations ("D/C", "y/o") never count.
    ca = {"amb", "els", "dels", "seva", "pacient", "anys", "aquest", "però", "també", "ingrés", "mesos",
          "dreta", "esquerra", "setmanes", "dies", "hores", "sense", "molt", "tractament", "actualment"}  # fmt: skip
    es = {"con", "los", "paciente", "años", "meses", "pero", "también", "ingreso", "por", "las", "derecha",
          "izquierda", "semanas", "sin", "días", "horas", "hasta", "tratamiento", "actualmente", "muy"}  # fmt: skip
    en = {"the", "and", "with", "patient", "was", "for", "she", "his", "her", "has", "are", "not", "from"}
    counts = {
        "ca": sum(w in ca for w in words),
        "es": sum(w in es for w in words),
        "en": sum(w in en for w in words),
    }
    if max(counts["ca"], counts["es"]) < 2:
        return "en"
    return max(counts, key=lambda k: (counts[k], k == "en"))


@dataclass
class _Person:
    first: str
    last: str
    gender: str  # f | m
    middle: str = ""
    second_last: str = ""  # Spanish second surname


@dataclass
class _NoteState:
    """What one note's fills share: language, the patient, pools of people, the index date."""

    rng: random.Random
    lang: str
    base: dt.date
    patient: _Person | None = None
    patient_gender: str | None = None
    doctors: list[_Person] = field(default_factory=list)
    relatives: list[_Person] = field(default_factory=list)
    usernames: list[str] = field(default_factory=list)
    patient_age: int = 60
    house_format: str = ""  # the note's usual date format, used for about half of its dates
    last_city: str | None = None  # for "[CITY] ([STATE])" and "[STATE][CITY]"
    last_state: str | None = None


class _Filler:
    """Draws a fill for each placeholder of one note."""

    def __init__(self, text: str, rng: random.Random, lang: str, vocab: str = "all") -> None:
        if vocab not in VOCABS:
            raise ConfigError(f"unknown fill vocabulary {vocab!r}; use one of {', '.join(VOCABS)}")
        self.vocab = vocab
        if lang == "auto":
            lang = detect_lang(text)
        if lang not in FILL_LANGS:
            raise ConfigError(f"unknown fill language {lang!r}; use one of {', '.join(FILL_LANGS)}")
        self.text = text
        self.lang = lang
        self.lex = {"es": "es", "ca": "es", "zh": "zh"}.get(lang)
        base = dt.date(2012, 1, 1) + dt.timedelta(days=rng.randrange(365 * 13))
        self.state = _NoteState(rng, lang, base, patient_gender=self._note_gender(text))
        self.state.patient_age = self._draw_age()
        self.state.house_format = _weighted(rng, [f for f in _DATE_FORMATS[lang] if "Y" in f[0]])

    @property
    def rng(self) -> random.Random:
        return self.state.rng

    # -- helpers ----------------------------------------------------------------------------------

    @staticmethod
    def _note_gender(text: str) -> str | None:
        if re.search(r"性别[：:]\s*女", text):
            return "f"
        if re.search(r"性别[：:]\s*男", text):
            return "m"
        low = f" {text.lower()} "
        she = len(re.findall(r"\b(?:she|her|hers|mrs|ms|la paciente|la pacient|sra)\b", low))
        he = len(re.findall(r"\b(?:he|his|him|mr|el paciente|el pacient)\b", low))
        if she > he:
            return "f"
        if he > she:
            return "m"
        return None

    def _lexicon(self, name: str) -> tuple[str, ...]:
        if self.lang == "ca" and name in _CA_SHARE and self.rng.random() < _CA_SHARE[name]:
            return self._part(load_lexicon(f"{name}_ca", "ca"), f"{name}_ca")
        if self.lang == "es" and name == "departments":
            return _spanish_departments()
        return self._part(load_lexicon(name, self.lex), name)

    def _part(self, entries: tuple[str, ...], name: str = "") -> tuple[str, ...]:
        """``entries`` restricted to this filler's vocabulary part (open lists only)."""
        if self.vocab == "all" or (name and name not in _OPEN_LISTS):
            return entries
        return _vocab_filter(entries, self.vocab)

    def _en_list(self, name: str) -> tuple[str, ...]:
        """A top-level (English, multi-locale) bundled list in this filler's vocabulary part."""
        return self._part(load_lexicon(name), name)

    def _person(self, gender: str | None = None, surname: str | None = None) -> _Person:
        rng = self.rng
        gender = gender or rng.choice("fm")
        firsts = self._lexicon("first_names_female" if gender == "f" else "first_names_male")
        lasts = self._lexicon("last_names")
        if self.lang == "en" and rng.random() < _US_NAME_SHARE:
            firsts = self._part(_US_FEMALE if gender == "f" else _US_MALE)
            lasts = self._part(_US_LAST)
        person = _Person(rng.choice(firsts), surname or rng.choice(lasts), gender)
        if self.lang != "zh":
            if rng.random() < 0.2:
                person.middle = rng.choice(
                    self._lexicon("first_names_female" if gender == "f" else "first_names_male")
                )
            if self.lang in ("es", "ca") and rng.random() < 0.6:
                person.second_last = rng.choice(lasts)
        return person

    def _render_person(self, p: _Person, form: str) -> str:
        if self.lang == "zh":
            return p.last + p.first  # Chinese notes write the full name
        last = p.last + (f" {p.second_last}" if p.second_last and form in ("full", "middle", "comma") else "")
        if form == "full":
            return f"{p.first} {last}"
        if form == "middle":
            middle = p.middle or self.rng.choice(self._lexicon("first_names_male"))
            return (
                f"{p.first} {middle[0]}. {last}" if self.rng.random() < 0.7 else f"{p.first} {middle} {last}"
            )
        if form == "last":
            return p.last
        if form == "first":
            return p.first
        if form == "initial":
            return f"{p.first[0]}. {p.last}"
        if form == "comma":
            return f"{last}, {p.first}"
        if form == "initials":
            return (
                f"{p.first[0]}{p.last[0]}".upper()
                if self.rng.random() < 0.6
                else f"{p.first[0]}.{p.last[0]}."
            )
        if form == "initial_caps":  # "per J. SMITH", "K JONES"
            sep = ". " if self.rng.random() < 0.6 else " "
            return f"{p.first[0].upper()}{sep}{p.last.upper()}"
        if form == "caps_last":
            return p.last.upper()
        if form == "lower_first":  # "daughter mary"
            return p.first.lower()
        if form == "lower_full":
            return f"{p.first} {p.last}".lower()
        raise ValueError(form)

    # -- names -----------------------------------------------------------------------------------

    def patient(self, before: str, after: str) -> str:
        st = self.state
        if st.patient is None:
            gender = "f" if _FEMALE_TITLE.search(before) else "m" if _MALE_TITLE.search(before) else None
            st.patient = self._person(gender or st.patient_gender)
        titled = bool(_TITLE_BEFORE.search(before))
        if titled:
            form = self.rng.choices(["last", "full", "initial"], [70, 25, 5])[0]
        elif self.lang == "en":
            form = self.rng.choices(
                [
                    "full",
                    "comma",
                    "middle",
                    "last",
                    "first",
                    "initial",
                    "initials",
                    "lower_first",
                    "initial_caps",
                ],
                [45, 12, 10, 10, 8, 8, 7, 3, 2],
            )[0]
        else:
            form = self.rng.choices(
                ["full", "comma", "middle", "last", "first", "initial", "initials"], [45, 12, 10, 10, 8, 8, 7]
            )[0]
        return self._render_person(st.patient, form)

    def doctor(self, before: str, after: str) -> str:
        st = self.state
        if st.doctors and self.rng.random() < 0.4:
            person = self.rng.choice(st.doctors)
        else:
            person = self._person()
            st.doctors.append(person)
        en = self.lang == "en"
        if _TITLE_BEFORE.search(before):
            form = self.rng.choices(["last", "full", "initial", "caps_last"], [60, 30, 10, 4 if en else 0])[0]
        elif _CREDENTIAL_AFTER.search(after):
            form = self.rng.choices(
                ["full", "middle", "initial", "initial_caps"], [60, 25, 15, 5 if en else 0]
            )[0]
        elif en and _ROLE_CUE_BEFORE.search(before):
            # "per K. JONES", "d/w J SMITH", "paged Smith": initial + surname in capitals is common here.
            form = self.rng.choices(
                ["initial_caps", "full", "last", "initial", "caps_last", "lower_full"],
                [30, 25, 15, 15, 10, 5],
            )[0]
        else:
            form = self.rng.choices(
                ["full", "last", "initial", "comma", "middle", "initial_caps"],
                [50, 15, 15, 10, 10, 6 if en else 0],
            )[0]
        return self._render_person(person, form)

    def relative(self, before: str, after: str) -> str:
        st = self.state
        # The kinship word nearest to the placeholder decides ("father: X, mother: [RELATIVE]").
        kin = [m.group() for m in _KIN.finditer(before[-40:])]
        gender = None if not kin else "m" if _MALE_KIN.fullmatch(kin[-1]) else "f"
        # A named kinship ("father", "母亲") reuses only a relative of that gender.
        known = [p for p in st.relatives if gender is None or p.gender == gender]
        if known and self.rng.random() < 0.5:
            person = self.rng.choice(known)
        else:
            share = st.patient.last if st.patient is not None and self.rng.random() < 0.5 else None
            person = self._person(gender, surname=share)
            st.relatives.append(person)
        if _TITLE_BEFORE.search(before):
            return self._render_person(person, "last")
        if self.lang == "en" and _KIN_BEFORE.search(before):
            # "daughter mary", "son John", "wife Ann Lee": real notes drop the capital often.
            form = self.rng.choices(["first", "full", "last", "initial", "lower_first", "lower_full"],
                                    [40, 30, 8, 4, 15, 3])[0]  # fmt: skip
        else:
            form = self.rng.choices(["first", "full", "last", "initial"], [40, 45, 10, 5])[0]
        if person.last != (st.patient.last if st.patient else None) and form == "last":
            form = "full"
        return self._render_person(person, form)

    def username(self, before: str, after: str) -> str:
        st = self.state
        if st.usernames and self.rng.random() < 0.4:
            return self.rng.choice(st.usernames)
        rng = self.rng
        if self.lang == "zh":
            letters = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 7)))
            name = rng.choice(
                [letters + str(rng.randint(1, 9999)), letters, f"{letters}{rng.randint(10, 99)}"]
            )
        else:
            p = self._person()
            first, last = _ascii(p.first) or "x", _ascii(p.last) or "y"
            name = rng.choice([
                first[0] + last, last + first[0], f"{first[0]}{last}{rng.randint(1, 99)}", f"{first}.{last}",
                f"{first[0]}{last[0]}{rng.randint(100, 9999)}", (first[0] + last).upper(), f"{first}_{last[0]}",
                f"{first[0]}{p.middle[:1].lower()}{last[:6]}",
            ])  # fmt: skip
        st.usernames.append(name)
        return name

    # -- dates and ages ---------------------------------------------------------------------------

    def date(self, before: str, after: str) -> str:
        rng = self.rng
        lang = self.lang
        timed = bool(_TIME_AFTER.search(after))
        if _DOB_BEFORE.search(before):
            # Born patient_age years (and some days) before the index date.
            years_back = self.state.patient_age * 365 + rng.randint(1, 364)
            day = self.state.base - dt.timedelta(days=years_back)
            formats = [f for f in _DATE_FORMATS[lang] if "Y" in f[0]]
            return format_date(day, _weighted(rng, formats))
        # English running text writes "since 4/7", "from 3/14" as often as "since 2004".
        open_ended = lang == "en" and _OPEN_ENDED_BEFORE.search(before) is not None
        yearish_p = 0.45 if open_ended else 0.75
        if not timed and _YEARISH_BEFORE.search(before) and rng.random() < yearish_p:
            day = self.state.base - dt.timedelta(days=rng.randint(60, 365 * 30))
            return format_date(day, _weighted(rng, _YEARISH_FORMATS[lang]))
        line = before[before.rfind("\n") + 1 :]
        if lang == "en" and not timed:
            if _HISTORY_BEFORE.search(line) or (_LIST_LINE.match(line) and re.search(r"[A-Za-z]\s*$", line)):
                # Past history: "CABG 2004", "CVA 3/98", "breast ca dx 11/2019".
                if rng.random() < 0.6:
                    day = self.state.base - dt.timedelta(days=rng.randint(180, 365 * 30))
                    return format_date(day, _weighted(rng, _EN_HISTORY_FORMATS))
            elif _PROSE_DATE_BEFORE.search(line) and rng.random() < 0.45:
                # Running text drops the year: "BCx 3/14 NGTD", "since 4/7", "seen jan 3", "on Mar 14th".
                day = self.state.base + dt.timedelta(days=int(rng.triangular(-120, 30, -3)))
                return format_date(day, _weighted(rng, _EN_MONTH_DAY))
        delta = int(rng.triangular(-400, 120, -5)) if rng.random() < 0.9 else rng.randint(-3000, 400)
        day = self.state.base + dt.timedelta(days=delta)
        if rng.random() < 0.5:
            return format_date(day, self.state.house_format)
        formats = _DATE_FORMATS[lang]
        if timed:
            formats = [f for f in formats if "Weekday" not in f[0]]
        return format_date(day, _weighted(rng, formats))

    def age(self, before: str, after: str) -> str:
        rng = self.rng
        unit = after.lstrip(" -").lower()
        if re.match(r"(?:months?|mos?\b|mo\b|m/o|meses|mesos|个月|月龄)", unit):
            return str(rng.randint(1, 23))
        if re.match(r"(?:weeks?|wks?\b|semanas|setmanes|周)", unit):
            return str(rng.randint(1, 40))
        if re.match(r"(?:days?|d\b|días|dies|天)", unit):
            return str(rng.randint(1, 28))
        # The patient's age unless a relative is named just before.
        if not _KIN.search(before[-40:]) and rng.random() < 0.85:
            return str(self.state.patient_age)
        return str(self._draw_age())

    def _draw_age(self) -> int:
        rng = self.rng
        roll = rng.random()
        if roll < 0.06:
            return rng.randint(90, 104)
        if roll < 0.12:
            return rng.randint(1, 17)
        return int(rng.triangular(18, 89, 64))

    # -- contacts and identifiers -----------------------------------------------------------------

    def phone(self, before: str, after: str) -> str:
        shapes = _PHONE_SHAPES["en" if self.lang == "en" else "zh" if self.lang == "zh" else "es"]
        return _shape(self.rng, _weighted(self.rng, shapes))

    def identifier(self, label: str, before: str, after: str) -> str:
        rng = self.rng
        if label == "VEHICLE" and re.search(
            r"(?:unit|medic|ambulance|ambulancia|ambulància|救护车)\W*$", before, re.IGNORECASE
        ):
            return _shape(rng, rng.choice(_UNIT_SHAPES))
        if label == "VEHICLE" and self.lang == "zh":
            return (
                rng.choice(_ZH_PLATE_PREFIX)
                + rng.choice(string.ascii_uppercase)
                + rng.choice(["", "·"])
                + _shape(rng, "&&&&&")
            )
        if label == "SSN" and self.lang == "zh":
            birth = self.state.base - dt.timedelta(days=rng.randint(365 * 18, 365 * 90))
            return _cn_resident_id(rng, birth)
        if label == "SSN" and self.lang in ("es", "ca"):
            return _dni(rng)
        if label == "HEALTHPLAN" and self.lang in ("es", "ca") and rng.random() < 0.4:
            return _nass(rng) if self.lang == "es" or rng.random() < 0.5 else _shape(rng, "%%%%##########")
        shapes = _ID_SHAPES.get(label, _ID_SHAPES["IDNUM"])
        key = "zh" if self.lang == "zh" else "en" if self.lang == "en" else "es"
        return _shape(rng, rng.choice(shapes.get(key) or shapes["en"]))

    def zip(self, before: str, after: str) -> str:
        rng = self.rng
        if self.lang == "zh":
            return _shape(rng, "N#####")
        if self.lang in ("es", "ca"):
            return f"{rng.randint(1, 52):02d}{rng.randint(0, 999):03d}"
        return _shape(rng, "#####" if rng.random() < 0.85 else "#####-####")

    def ip(self, before: str, after: str) -> str:
        rng = self.rng
        kind = rng.random()
        if kind < 0.3:
            return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
        if kind < 0.6:
            return f"192.168.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
        if kind < 0.75:
            return f"172.{rng.randint(16, 31)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
        first = rng.choice([n for n in range(1, 224) if n not in (10, 127, 172, 192)])
        return f"{first}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"

    def _domain_word(self) -> str:
        pool = load_lexicon("last_names", self.lex if self.lex != "zh" else None)
        for _ in range(20):
            word = _ascii(self.rng.choice(pool))
            if len(word) >= 4:
                return word
        return "clinic"

    def _institution_domain(self) -> str:
        rng = self.rng
        key = "en" if self.lang == "en" else "zh" if self.lang == "zh" else "es"
        word = self._domain_word()
        stem = rng.choice(
            [word, f"{word}health", f"{word}-clinic", f"{word}med", f"{word}hospital", f"st{word}"]
        )
        return f"{stem}.{rng.choice(_INSTITUTION_TLDS[key])}"

    def email(self, before: str, after: str) -> str:
        rng = self.rng
        key = "en" if self.lang == "en" else "zh" if self.lang == "zh" else "es"
        if self.lang == "zh":
            local = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 8)))
            local += str(rng.randint(1, 9999)) if rng.random() < 0.6 else ""
        else:
            p = self._person()
            first, last = _ascii(p.first) or "info", _ascii(p.last) or "mail"
            local = rng.choice([f"{first}.{last}", first[0] + last, f"{first}{last[0]}", f"{first}_{last}{rng.randint(1, 99)}",
                                f"{first[0]}{last}{rng.randint(1, 999)}", rng.choice(["info", "contact", "clinic",
                                "referrals", "records", "nursing"])])  # fmt: skip
        domain = rng.choice(_MAIL_PROVIDERS[key]) if rng.random() < 0.45 else self._institution_domain()
        return f"{local}@{domain}"

    def url(self, before: str, after: str) -> str:
        rng = self.rng
        domain = self._institution_domain()
        host = rng.choice(["www." + domain, domain, "portal." + domain, "mychart." + domain, "www." + domain])
        scheme = rng.choice(["https://", "https://", "http://", ""])
        if not scheme and not host.startswith("www."):
            scheme = "https://"
        return scheme + host + rng.choice(_URL_PATHS)

    # -- places and organizations ------------------------------------------------------------------

    def pick(self, name: str, before: str = "") -> str:
        pool = self._lexicon(name)
        if self.lang == "ca" and _ELISION_BEFORE.search(before):
            pool = tuple(w for w in pool if w.lower().startswith(_VOWEL_START)) or pool
        return self.rng.choice(pool)

    def state_name(self, before: str, after: str) -> str:
        st = self.state
        if self.lang == "en" and self.rng.random() < 0.4:
            return self.rng.choice(load_lexicon("states_abbr"))
        if self.lang == "ca" and st.last_city and re.search(r"\[CITY\]\W{0,3}$", before):
            return next((p for p, towns in _CA_PROVINCE_TOWNS.items() if st.last_city in towns), "Barcelona")
        if self.lang == "zh":
            st.last_state = self.rng.choice(sorted(_ZH_PROVINCE_CITIES))
            return st.last_state
        return self.pick("states")

    def city(self, before: str, after: str) -> str:
        st = self.state
        if self.lang == "zh":
            after_state = bool(re.search(r"\[STATE\]\s*$", before)) and st.last_state in _ZH_PROVINCE_CITIES
            if after_state and st.last_state is not None:
                city = self.rng.choice(_ZH_PROVINCE_CITIES[st.last_state])
            else:
                city = self.pick("cities")
            suffix = city not in _ZH_DISTRICTS and (after_state or self.rng.random() < 0.5)
            st.last_city = city + ("市" if suffix else "")
        else:
            st.last_city = self.pick("cities", before)
        return st.last_city

    def department(self, before: str, after: str) -> str:
        # English care-unit abbreviations (ICU, ED, PACU) are not drawn: they are not PHI in real notes,
        # and gold spans on them teach a tagger false positives. Named wards ("Ellison 4") are.
        if self.lang == "en" and self.rng.random() < 0.25:
            return self._ward()
        return self.pick("departments", before)

    def _ward(self) -> str:
        """A named ward: a surname and a floor, as big hospitals name them ("Ellison 4", "Blake 7")."""
        rng = self.rng
        surname = "Blake"
        for _ in range(20):
            cand = rng.choice(self._en_list("last_names"))
            if cand.isascii() and cand.isalpha() and 3 <= len(cand) <= 9:
                surname = cand
                break
        n = rng.randint(1, 22)
        form = rng.choices(["plain", "letter", "side", "dash"], [70, 10, 12, 8])[0]
        if form == "letter":
            return f"{surname} {n}{rng.choice('ABCD')}"
        if form == "side":
            return f"{surname} {n} {rng.choice(['North', 'South', 'East', 'West'])}"
        if form == "dash":
            return f"{surname}-{n}"
        return f"{surname} {n}"

    def hospital(self, before: str, after: str) -> str:
        """A hospital or care-home name; in English often one made of common words ("St. Mary's",
        "Good Samaritan", "Lakeside Nursing Home", "University of Ohio Medical Center", "SJH")."""
        if self.lang != "en":
            return self.pick("hospitals", before)
        rng = self.rng
        if rng.random() < 0.4:
            return self.pick("hospitals", before)
        # Before "ED", "LTC", "Cancer Center" the name stands alone ("Mercy ED", "St. Luke's LTC").
        bare = bool(_SHORT_FACILITY_AFTER.match(after))
        kind = rng.choices(
            ["saint", "virtue", "place", "rehab", "university", "home", "acronym"],
            [22, 16, 14, 10, 8, 12, 18],
        )[0]
        if kind == "acronym":
            return self._facility_acronym()
        if kind == "rehab" and not bare:
            stem = rng.choice([rng.choice(self._part(_PLACE_WORDS)), self._town(), self._surname()])
            return f"{stem} {rng.choice(_REHAB_SUFFIXES)}"
        if kind == "university" and not bare:
            where = rng.choice(load_lexicon("states")) if rng.random() < 0.6 else self._town()
            return rng.choice(
                [
                    f"University of {where} Medical Center",
                    f"University of {where} Hospital",
                    f"{where} University Hospital",
                    f"University of {where} Health",
                ]
            )
        if kind == "home" and not bare:
            stem = rng.choice(self._part(_PLACE_WORDS)) if rng.random() < 0.7 else self._surname()
            return f"{stem} {rng.choice(_HOME_SUFFIXES)}"
        virtues, places = self._part(_VIRTUE_NAMES), self._part(_PLACE_WORDS)
        stem = self._saint() if kind == "saint" else rng.choice(virtues) if kind == "virtue" else ""
        stem = stem or rng.choice(places)
        suffix = "" if bare else _weighted(rng, _HOSPITAL_SUFFIXES)
        return f"{stem} {suffix}" if suffix else stem

    def _saint(self) -> str:
        rng = self.rng
        prefix = rng.choice(["St.", "St.", "St.", "St", "Saint"])
        name = rng.choice(self._part(_SAINTS))
        return f"{prefix} {name}{chr(39) + 's' if rng.random() < 0.55 else ''}"

    def _town(self) -> str:
        for _ in range(20):
            town = self.rng.choice(self._en_list("cities"))
            if town.isascii() and len(town.split()) <= 2:
                return town
        return "Springfield"

    def _surname(self) -> str:
        for _ in range(20):
            name = self.rng.choice(self._en_list("last_names"))
            if name.isascii() and name.isalpha():
                return name
        return "Lahey"

    def _facility_acronym(self) -> str:
        """Initials of a facility name ("BMC", "SJH", "GSMC"); never a care-unit or clinical acronym."""
        rng = self.rng
        clinical = _clinical_acronyms()
        for _ in range(20):
            stem = rng.choice(
                [
                    self._saint(),
                    rng.choice(self._part(_VIRTUE_NAMES)),
                    rng.choice(self._part(_PLACE_WORDS)),
                    self._town(),
                ]
            )
            suffix = rng.choice(["Hospital", "Medical Center", "Medical Center", "General Hospital", "Health",
                                 "Memorial Hospital", "Regional Hospital"])  # fmt: skip
            acro = _acronym(f"{stem} {suffix}")
            if not 2 <= len(acro) <= 5 or acro in _NOT_FACILITY_ACRONYMS:
                continue
            if acro in clinical and not acro.endswith(("H", "MC")):
                continue
            return acro
        return "SJH"

    def profession(self, before: str, after: str) -> str:
        job = self.pick("professions", before)
        if self.lang == "zh":
            return job
        line_start = before.rstrip(" \t") == "" or before.rstrip(" \t").endswith(("\n", ":", "："))
        return job if line_start else job[0].lower() + job[1:]

    def room(self, before: str, after: str) -> str:
        key = "en" if self.lang == "en" else "zh" if self.lang == "zh" else "es"
        if key == "en" and not _ROOM_CUE_BEFORE.search(before) and self.rng.random() < 0.3:
            return self._ward()  # "placed in Blake 7", "transferred to Ellison 12"
        return _shape(self.rng, self.rng.choice(_ROOM_SHAPES[key]))

    def street(self, before: str, after: str) -> str:
        rng = self.rng
        if self.lang == "zh":
            return rng.choice(load_lexicon("street_names", "zh")) + f"{rng.randint(1, 999)}号"
        if self.lang in ("es", "ca"):
            if self.lang == "ca":
                # Catalan names carry their preposition ("de Balmes", "d'Aragó"); "C/" drops it.
                name = rng.choice(load_lexicon("street_names_ca", "ca"))
                prefix = rng.choice(["Carrer", "Carrer", "C/", "Avinguda", "Passeig", "Plaça", "Rambla"])
                if prefix == "C/":
                    name = re.sub(r"^(?:de(?:l|ls| la| les)?\s|d['’])", "", name)
                    name = name[:1].upper() + name[1:]
            else:
                name = rng.choice(load_lexicon("street_names", "es"))
                prefix = rng.choice(["Calle", "C/", "Avda.", "Avenida", "Paseo", "Plaza"])
            number = rng.randint(1, 350)
            tail = rng.choice(
                [
                    "",
                    "",
                    f", {rng.randint(1, 8)}º {rng.randint(1, 4)}ª",
                    f", {rng.randint(1, 8)}-{rng.randint(1, 4)}",
                ]
            )
            return (
                f"{prefix} {name}, {number}{tail}"
                if rng.random() < 0.5
                else f"{prefix} {name} {number}{tail}"
            )
        name = rng.choice(self._en_list("street_names"))
        full, abbr = rng.choice(_EN_STREET_SUFFIX)
        suffix = rng.choice([full, abbr, abbr + "."])
        direction = rng.choice(["", "", "", "", "N. ", "S. ", "East ", "W "])
        number = rng.choice([rng.randint(1, 99), rng.randint(100, 999), rng.randint(1000, 9999)])
        unit = rng.choice(["", "", "", "", f", Apt {_shape(rng, rng.choice(['#', '##', '#%', '###']))}",
                           f" #{rng.randint(1, 40)}", f", Unit {rng.randint(1, 20)}"])  # fmt: skip
        return f"{number} {direction}{name} {suffix}{unit}"

    def location(self, before: str, after: str) -> str:
        rng = self.rng
        if self.lang == "zh":
            city = self.pick("cities")
            return rng.choice(
                [
                    f"{city}广场",
                    f"{city}公园",
                    f"{city}火车站",
                    rng.choice(load_lexicon("street_names", "zh")),
                ]
            )
        if self.lang in ("es", "ca"):
            town = self.pick("cities")
            return rng.choice(
                [town, f"Parque de {town}", f"Plaza de {town}", f"Playa de {town}", f"Estación de {town}"]
            )
        unit_context = bool(_UNIT_CUE.search(before[-30:]))
        if rng.random() < (0.35 if unit_context else 0.08):
            return self._ward()
        surname = rng.choice(self._en_list("last_names"))
        town = self.pick("cities")
        return rng.choice([
            town, f"Route {rng.randint(1, 299)}", f"I-{rng.randint(5, 99)}", f"{surname} Park", f"{town} Mall",
            f"Lake {surname}", f"{surname} Community Center", f"Highway {rng.randint(1, 120)}",
            f"{town} Beach", f"{surname} Elementary School",
        ])  # fmt: skip

    # -- dispatch ----------------------------------------------------------------------------------

    def fill(self, label: str, before: str, after: str) -> str:
        """A value for the fine label ``label`` given the text before and after the placeholder."""
        value = self._fill(label, before, after)
        line_start = before.rfind("\n") + 1
        line_end = after.find("\n")
        line = PLACEHOLDER_RE.sub(" ", before[line_start:] + (after if line_end < 0 else after[:line_end]))
        letters = [c for c in line if c.isalpha() and c.isascii()]
        if (
            len(letters) >= 6
            and sum(c.isupper() for c in letters) / len(letters) > 0.8
            and label not in ("EMAIL", "URL")
        ):
            value = value.upper()
        elif (
            self.lang == "en"
            and len(letters) >= 12
            and not any(c.isupper() for c in letters)
            and label in _CASE_FOLLOWING
            and self.rng.random() < 0.8
        ):
            value = value.lower()  # an all-lower-case line: "pt seen at st marys, dtr mary at bedside"
        return value

    def _fill(self, label: str, before: str, after: str) -> str:
        if label == "PATIENT":
            return self.patient(before, after)
        if label == "DOCTOR":
            return self.doctor(before, after)
        if label == "RELATIVE":
            return self.relative(before, after)
        if label == "USERNAME":
            return self.username(before, after)
        if label == "DATE":
            return self.date(before, after)
        if label == "AGE":
            return self.age(before, after)
        if label in ("PHONE", "FAX"):
            return self.phone(before, after)
        if label == "EMAIL":
            return self.email(before, after)
        if label == "URL":
            return self.url(before, after)
        if label == "IPADDRESS":
            return self.ip(before, after)
        if label == "ZIP":
            return self.zip(before, after)
        if label in _ID_SHAPES or label == "IDNUM":
            return self.identifier(label, before, after)
        if label == "STATE":
            return self.state_name(before, after)
        if label == "DEPARTMENT":
            return self.department(before, after)
        if label == "PROFESSION":
            return self.profession(before, after)
        if label == "ROOM":
            return self.room(before, after)
        if label == "STREET":
            return self.street(before, after)
        if label == "LOCATION":
            return self.location(before, after)
        if label == "CITY":
            return self.city(before, after)
        if label == "HOSPITAL":
            return self.hospital(before, after)
        lexicon = {
            "ORGANIZATION": "companies",
            "COUNTRY": "countries",
        }
        if label in lexicon:
            return self.pick(lexicon[label], before)
        raise ConfigError(f"no filler for label {label}")


def _fill(
    text: str, rng: random.Random, lang: str, vocab: str = "all"
) -> tuple[str, list[Span], list[tuple[int, int]], str]:
    """Core of :func:`fill_text`; also returns unknown placeholders' output offsets and the language."""
    filler = _Filler(text, rng, lang, vocab)
    pieces: list[str] = []
    spans: list[Span] = []
    unknown: list[tuple[int, int]] = []
    pos = 0
    out_len = 0
    for m in PLACEHOLDER_RE.finditer(text):
        gap = text[pos : m.start()]
        pieces.append(gap)
        out_len += len(gap)
        name = m.group(1)
        if name not in _KNOWN:
            unknown.append((out_len, out_len + len(m.group(0))))
            pieces.append(m.group(0))
            out_len += len(m.group(0))
            pos = m.end()
            continue
        label = to_fine(name, "placeholder")
        before = text[max(0, m.start() - 60) : m.start()]
        after = text[m.end() : m.end() + 60]
        value = filler.fill(label, before, after)
        pieces.append(value)
        spans.append(Span(out_len, out_len + len(value), label, source="fill"))
        out_len += len(value)
        pos = m.end()
    pieces.append(text[pos:])
    return "".join(pieces), spans, unknown, filler.lang


def fill_text(text: str, rng: random.Random, lang: str = "en", vocab: str = "all") -> tuple[str, list[Span]]:
    """Replace every known placeholder in ``text`` with a random surrogate of its type.

    Args:
        text: a note with ``[LABEL]`` placeholders (the zero-shot labels, Kim's ``[ID]``).
        rng: the random source (seed it for reproducible fills).
        lang: ``en``, ``es``, ``ca``, ``zh``, or ``auto`` (detected from the text).
        vocab: ``all`` names, towns, hospitals ... of the bundled lists, or their fixed ``train`` or
            ``test`` part (:func:`vocab_part`): fill training notes from ``train`` and test notes
            from ``test`` so that a test never meets a name the tagger was trained on.

    Returns:
        The filled text and one fine-labelled span per filled placeholder, in order.
        Unknown ``[SOMETHING]`` tokens are left as they are, without a span.

    Raises:
        ConfigError: unknown language or vocabulary.
    """
    filled, spans, _unknown, _lang = _fill(text, rng, lang, vocab)
    return filled, spans


#: The fine label drawn for a coarse label (a coarse label names no single surface shape).
_COARSE_STAND_IN: dict[str, str] = {
    "NAME": "PATIENT",
    "LOCATION": "LOCATION",
    "DATE": "DATE",
    "ID": "IDNUM",
    "CONTACT": "PHONE",
    "AGE": "AGE",
    "PROFESSION": "PROFESSION",
}


def draw_surrogate(
    label: str, rng: random.Random, lang: str = "en", *, before: str = "", after: str = ""
) -> str:
    """One random surrogate value for ``label``, drawn like a placeholder fill.

    Each call stands alone (no note-level memory of the patient or the admission date); callers that
    want one surrogate per original value keep their own table.

    Args:
        label: a fine, coarse or corpus-native label; coarse labels draw a representative fine type
            (NAME -> PATIENT, ID -> IDNUM, CONTACT -> PHONE).
        rng: the random source.
        lang: ``en``, ``es``, ``ca``, ``zh`` or ``auto`` (detected from ``before`` + ``after``).
        before: text just before the value: a title makes a name a surname, "DOB:" a birth date,
            "since" a year; an upper-case line gives an upper-case value.
        after: text just after the value ("months old", "MD", a clock time).

    Returns:
        The surrogate text (never empty).

    Raises:
        LabelError: unknown label.
        ConfigError: unknown language, or a label with no surrogate (``OTHER``).
    """
    fine = to_fine(label)
    fine = _COARSE_STAND_IN.get(fine, fine)
    if fine == "OTHER":
        raise ConfigError("label OTHER has no surrogate")
    return _Filler(before + after, rng, lang).fill(fine, before, after)


class PlaceholderReader(Reader):
    """Read placeholder notes (``.txt``) and yield filled gold documents.

    Args:
        seed: base seed; each note and draw gets its own stream derived from it and the doc id.
        draws: surrogate draws per note; with more than one, ids become ``"<id>#<k>"`` (k from 0).
        lang: fill language, ``en``, ``es``, ``ca``, ``zh`` or ``auto`` (per note).
        encoding: file encoding.
        vocab: ``all``, ``train`` or ``test`` part of the open name lists (see :func:`fill_text`).

    Attributes:
        problems: :class:`phiscrub.io.base.Problem` objects: unknown placeholders (``unknown_label``,
            with output offsets of the first draw) and undecodable files (``decode_error``).

    Raises:
        ConfigError: ``draws`` < 1, unknown language or vocabulary.
    """

    format_name = "placeholder"

    def __init__(
        self, seed: int = 0, draws: int = 1, lang: str = "auto", encoding: str = "utf-8", vocab: str = "all"
    ) -> None:
        super().__init__()
        if draws < 1:
            raise ConfigError("draws must be at least 1")
        if lang not in FILL_LANGS:
            raise ConfigError(f"unknown fill language {lang!r}; use one of {', '.join(FILL_LANGS)}")
        if vocab not in VOCABS:
            raise ConfigError(f"unknown fill vocabulary {vocab!r}; use one of {', '.join(VOCABS)}")
        self.seed = seed
        self.draws = draws
        self.lang = lang
        self.encoding = encoding
        self.vocab = vocab

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield filled documents for a ``.txt`` file, or every ``.txt`` under a folder (sorted).

        Raises:
            InputFormatError: ``path`` does not exist.
        """
        root = Path(path)
        if root.is_dir():
            for f in iter_text_files(root):
                yield from self._read_file(f, f.relative_to(root).with_suffix("").as_posix())
        elif root.is_file():
            yield from self._read_file(root, root.stem)
        else:
            raise InputFormatError(f"no such file or folder: {root}")

    def _read_file(self, path: Path, doc_id: str) -> Iterator[Document]:
        try:
            text = path.read_bytes().decode(self.encoding)
        except UnicodeDecodeError as err:
            self.report(doc_id, "decode_error", f"{path} is not {self.encoding} at byte {err.start}")
            return
        for k in range(self.draws):
            rng = random.Random(f"{self.seed}:{doc_id}:{k}")
            filled, spans, unknown, lang = _fill(text, rng, self.lang, self.vocab)
            if k == 0:
                for start, end in unknown:
                    self.report(
                        doc_id, "unknown_label", "unknown placeholder left as text", start=start, end=end
                    )
            doc_key = doc_id if self.draws == 1 else f"{doc_id}#{k}"
            metadata = {"source": str(path), "lang": lang, "seed": self.seed, "draw": k}
            yield Document(doc_key, filled, tuple(spans), metadata)
