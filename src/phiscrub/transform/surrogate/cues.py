"""Context cues of seeded filling: what the text around a placeholder says about its value.

A title before a name makes it a surname, "DOB:" makes a date a birth date, "since" a year, a
kinship word a relative's first name, an all-caps line an all-caps value.
"""

from __future__ import annotations

import re

TITLE_BEFORE = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Dra|Sr|Sra|Srta|Prof)\.?|\b(?:Mister|Senyor|Senyora))\s*$", re.IGNORECASE
)
FEMALE_TITLE = re.compile(r"\b(?:Mrs|Ms|Miss|Sra|Srta|Senyora)\.?\s*$", re.IGNORECASE)
MALE_TITLE = re.compile(r"\b(?:Mr|Sr|Senyor)\.?\s*$", re.IGNORECASE)
YEARISH_BEFORE = re.compile(
    r"\b(?:quit|since|in|from|until|circa|year|during|by|around|desde|en|año|des de|l'any|fins)\s*\(?$",
    re.IGNORECASE,
)
DOB_BEFORE = re.compile(
    r"(?:DOB|D\.O\.B\.|birth|born|nacimiento|naixement|出生|生日)\W{0,12}$", re.IGNORECASE
)
TIME_AFTER = re.compile(r"^\s*(?:@\s*)?\d{1,2}:?\d{2}\b|^\s*at\s+\d")


def _kin(words: str, han: str) -> re.Pattern[str]:
    """Kinship words (whole words, any case) or Chinese kinship terms."""
    return re.compile(r"\b(?:" + "|".join(words.split()) + r")\b|" + "|".join(han.split()), re.IGNORECASE)


MALE_KIN = _kin(
    "son husband father brother grandson nephew hijo marido esposo padre hermano fill marit pare germà",
    "儿子 丈夫 父亲 哥哥 弟弟",
)
FEMALE_KIN = _kin(
    "daughter wife mother sister granddaughter niece hija esposa mujer madre hermana filla dona mare germana",
    "女儿 妻子 母亲 姐姐 妹妹",
)
KIN = re.compile(MALE_KIN.pattern + "|" + FEMALE_KIN.pattern, re.IGNORECASE)
CREDENTIAL_AFTER = re.compile(r"^,?\s*(?:MD|DO|RN|NP|PA|PhD|MBBS|DDS)\b")
# English real-note habits (issue 11): who writes "per J. SMITH", "daughter mary", "cx from 3/14".
ROLE_CUE_BEFORE = re.compile(
    r"\b(?:as per|per|d/w|dw|discussed with|spoke (?:with|to)|talked to|paged|called|notified|informed|"
    r"seen by|covering|cross[- ]?cover|attending|resident|fellow|intern|surgeon|RN|NP|PA|MD|pcp)\s*:?\s*$",
    re.IGNORECASE,
)
KIN_BEFORE = re.compile(r"(?:" + KIN.pattern + r"|\b(?:dtr|wife's|husband's|hcp|fob|mom|dad|gf|bf|partner))"
                         r"\W{0,3}$", re.IGNORECASE)  # fmt: skip
PROSE_DATE_BEFORE = re.compile(
    r"\b(?:on|since|from|until|till|thru|through|of|after|before|dated|drawn|sent|started|stopped|placed|"
    r"removed|changed|d/c'?d|dc'?d|s/p|cx|bcx|ucx|cultures?|cxr|ct|mri|echo|tte|tee|egd|ekg|ecg|labs?|"
    r"admitted|discharged|seen|last|started on|due)\s*$",
    re.IGNORECASE,
)
HISTORY_BEFORE = re.compile(
    r"(?:\bs/p|\bstatus post|\bhx(?: of)?|\bh/o|\bdx(?:'d)?|\bdiagnosed(?: in)?|\bcabg(?: x\s?\d)?|\bpci|\bmi|"
    r"\bn?stemi|\bcva|\btia|\bstroke|\bstent|\bicd|\bppm|\bturp|ectomy|otomy|plasty|\brepair|\bfx|"
    r"\bfracture|\bsurgery|\bplaced|\breplacement|\btransplant|\bdvt|\bpe|\bcancer|\bca|\bchemo|\bxrt|"
    r"\bsmoker|\bsobriety|\bsober)\s*[(,-]?\s*$",
    re.IGNORECASE,
)
OPEN_ENDED_BEFORE = re.compile(r"\b(?:since|from|until|by)\s*$", re.IGNORECASE)
LIST_LINE = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)]|#\d*)\s")
SHORT_FACILITY_AFTER = re.compile(
    r"^\s+(?:ED|ER|LTC|SNF|ICU|MICU|SICU|CCU|NICU|Cancer Center|Medical Practice|Inpatient|Emergency|"
    r"Rehab|Clinic|campus|Heart|Hospital|Medical Center|Dialysis|Lab|Radiology|Pharmacy|Wound)\b",
    re.IGNORECASE,
)
ROOM_CUE_BEFORE = re.compile(r"(?:\broom|\brm|\bbed|\bsuite|\bbay|#|\bno\.?)\W{0,3}$", re.IGNORECASE)
UNIT_CUE = re.compile(
    r"\b(?:unit|floor|ward|transfer(?:red)?|to|from|on|accepting|receiving|sending)\b", re.IGNORECASE
)
#: Labels whose fill follows an all-lower-case line ("pt seen at st marys by dr smith").
CASE_FOLLOWING = frozenset({"PATIENT", "DOCTOR", "RELATIVE", "HOSPITAL", "ORGANIZATION", "DEPARTMENT", "CITY",
                             "STATE", "COUNTRY", "STREET", "LOCATION", "DATE", "PROFESSION", "ROOM", "USERNAME"})  # fmt: skip

# Catalan elision: "l'Hospital", "d'Oftalmologia" take a value starting with a vowel or h.
ELISION_BEFORE = re.compile(r"(?:^|[\s(])[lLdD]['’]$")
