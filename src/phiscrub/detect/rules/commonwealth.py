"""English rules for the forms of UK, Irish, Australian, New Zealand and Canadian notes.

* Identifiers after their word, labelled as their scheme is: national health numbers (NHS and CHI
  numbers, NHI, IHI, Medicare, PPSN, SIN: ``SSN``), provincial health cards with their version code
  (OHIP, HCN, PHN: ``HEALTHPLAN``), professional registrations (GMC, NMC, AHPRA, MCNZ, MCRN, CPSO,
  Medicare provider numbers: ``LICENSE``), hospital and unit numbers (``MEDICALRECORD``). In a
  Commonwealth note a bare ten- or sixteen-digit number is a national health number only with its
  real check digit (NHS and CHI mod 11, Medicare's weighted sum, the IHI's Luhn digit).
* Postcodes: UK postcodes, Irish Eircodes and Canadian postal codes (with the province written
  before them), which no US ZIP rule reads; ``Private Bag`` boxes and Canadian rural routes.
* Dates: a day/month date without a year (``22/2``, ``16/10``, ``20/03``), which US notes never
  write. :func:`duration_verdict` tells the clinical guard which ``a/b`` are British durations
  (``2/52`` weeks, ``5/7`` days, ``3/12`` months, ``28/40`` weeks of gestation), not dates.

Which note is a Commonwealth note is read once per text (:func:`commonwealth_note`): a full date
with its day first, a ``n/52`` duration, or a word only those notes write (``NHS``, ``NHI``,
``AHPRA``) -- and no full date with its month first.
"""

from __future__ import annotations

import re
from functools import lru_cache

from stdnum import luhn

from phiscrub.detect.clinical_vocab import word_set
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, RuleDetector, trie_pattern
from phiscrub.detect.rules.checksums import nhs_ok
from phiscrub.document import Span

__all__ = [
    "COMMONWEALTH_FIELD_LABELS",
    "COMMONWEALTH_RULES",
    "american_spelling",
    "chi_ok",
    "commonwealth_detector",
    "commonwealth_guard",
    "commonwealth_note",
    "commonwealth_rules",
    "duration_verdict",
    "field_label_edges",
    "ihi_ok",
    "medicare_au_ok",
    "nhi_ok",
    "no_one_named",
    "ppsn_ok",
    "trusted_span",
]

#: Identifier words -> the label of the value after them.
_ID_LABELS: dict[str, str] = {
    **dict.fromkeys(
        (
            "NHS", "NHS No", "NHS number", "CHI", "CHI No", "CHI number", "NHI", "NHI No", "NHI number",
            "IHI", "IHI No", "Medicare", "Medicare No", "Medicare number", "Medicare card", "PPSN",
            "PPS No", "PPS number", "SIN", "H&C", "H&C No", "H&C number",
        ),
        "SSN",
    ),
    **dict.fromkeys(
        ("OHIP", "HCN", "PHN", "Health Card", "Health Card No", "GMS", "GMS No", "medical card", "DVA", "DVA No"),
        "HEALTHPLAN",
    ),
    **dict.fromkeys(
        (
            "GMC", "GMC No", "NMC", "NMC PIN", "HCPC", "GPhC", "AHPRA", "MCNZ", "NCNZ", "MCRN", "NMBI",
            "IMC", "CPSO", "CPSBC", "CPSA", "Provider No", "Provider number", "Prescriber No",
            "Prescriber number",
        ),
        "LICENSE",
    ),
    **dict.fromkeys(
        ("Hosp No", "Hospital No", "Hospital number", "URN", "UR No", "UR number", "Unit No", "Unit number", "Chart"),
        "MEDICALRECORD",
    ),
    **dict.fromkeys(("UBRN",), "IDNUM"),
}  # fmt: skip
_LABEL_OF = {" ".join(k.lower().split()): v for k, v in _ID_LABELS.items()}
# Mixed-case words that are ordinary words too ("Chart", "medical card") need their written case.
_ID_WORDS = trie_pattern([w for w in _ID_LABELS if not w[0].islower()], ignore_case=False) + "|medical card"

#: Field labels of these identifiers: a tagger may take one for part of the value it introduces.
COMMONWEALTH_FIELD_LABELS: frozenset[str] = word_set(
    "nhs chi nhi ihi ppsn ohip hcn gmc nmc hcpc ahpra mcnz mcrn cpso ubrn urn ph mob tel"
) | frozenset({"nhs no", "hosp no"})

_RX = pattern_data("commonwealth", globals())


# --- check digits ------------------------------------------------------------------------------------
def _digits(value: str) -> str:
    return _RX["SPACES_RE"].sub("", value)


def chi_ok(value: str) -> bool:
    """A Scottish CHI number: a date of birth DDMMYY and four digits, with the NHS number's mod 11
    check (:func:`~phiscrub.detect.rules.checksums.nhs_ok`): ``010101 1237``."""
    d = _digits(value)
    if not nhs_ok(d):
        return False
    day, month = int(d[:2]), int(d[2:4])
    return 1 <= day <= 31 and 1 <= month <= 12


def ihi_ok(value: str) -> bool:
    """An Australian Individual Healthcare Identifier: sixteen digits from ``800360``, Luhn."""
    d = _digits(value)
    return len(d) == 16 and d.startswith("800360") and d.isdigit() and luhn.is_valid(d)


def medicare_au_ok(value: str) -> bool:
    """An Australian Medicare card number: ten digits (an issue and a reference digit may follow), the
    first 2-6, the ninth the weighted sum (1 3 7 9 1 3 7 9) of the first eight mod 10."""
    d = _digits(value.split("/")[0])
    if len(d) not in (10, 11) or not d.isdigit() or d[0] not in "23456":
        return False
    return sum(int(c) * w for c, w in zip(d[:8], (1, 3, 7, 9, 1, 3, 7, 9), strict=True)) % 10 == int(d[8])


# NHI letters are numbered A=1 .. Z=24 without I and O.
_NHI_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def nhi_ok(value: str) -> bool:
    """A New Zealand NHI: ``AAA9999`` (check digit mod 11) or ``AAA99AX`` (check letter mod 24)."""
    v = value.upper()
    if re.fullmatch(r"[A-HJ-NP-Z]{3}\d{4}", v):
        total = sum((_NHI_LETTERS.index(c) + 1) * w for c, w in zip(v[:3], (7, 6, 5), strict=True))
        total += sum(int(c) * w for c, w in zip(v[3:6], (4, 3, 2), strict=True))
        check = 11 - total % 11
        return check != 11 and check % 10 == int(v[6])
    if re.fullmatch(r"[A-HJ-NP-Z]{3}\d{2}[A-HJ-NP-Z]{2}", v):
        total = sum((_NHI_LETTERS.index(c) + 1) * w for c, w in zip(v[:3], (7, 6, 5), strict=True))
        total += int(v[3]) * 4 + int(v[4]) * 3 + (_NHI_LETTERS.index(v[5]) + 1) * 2
        return _NHI_LETTERS[24 - total % 24 - 1] == v[6]
    return False


def ppsn_ok(value: str) -> bool:
    """An Irish PPS number: seven digits and a check letter (mod 23, weights 8..2; a second letter
    counts nine times its place in the alphabet)."""
    v = _digits(value).upper()
    m = re.fullmatch(r"(\d{7})([A-W])([A-IW]?)", v)
    if m is None:
        return False
    total = sum(int(c) * w for c, w in zip(m.group(1), range(8, 1, -1), strict=True))
    if m.group(3) and m.group(3) != "W":
        total += (ord(m.group(3)) - 64) * 9
    return "WABCDEFGHIJKLMNOPQRSTUV"[total % 23] == m.group(2)


def field_label_edges(text: str, start: int, end: int, place: bool = False) -> tuple[int, int]:
    """``(start, end)`` without a field label a tagger took at an edge of the span: "NHI ZKT4821" ->
    "ZKT4821", "Agnes McALLISTER        CHI" -> "Agnes McALLISTER", "MVH ED" -> "MVH"; unchanged
    when there is none. A ``place`` loses such a head only before an identifier's value (digits, no
    lower case: a tagger's "NHI ZZZ0016" read as a town): "NMC 4 West" is a hospital's unit, "Tel
    Aviv" a city."""
    for rx in (_RX["LABEL_HEAD_RE"], _RX["ROLE_HEAD_RE"]):
        head = rx.match(text, start, end)
        if head is None or head.end() >= end:
            continue
        value = text[head.end() : end]
        if (
            not place
            or rx is _RX["ROLE_HEAD_RE"]
            or (any(c.isdigit() for c in value) and not any(c.islower() for c in value))
        ):
            start = head.end()
    for rx in (_RX["LABEL_TAIL_RE"], _RX["ED_TAIL_RE"]):
        tail = rx.search(text, start, end)
        if tail is not None and tail.start() > start:
            end = tail.start()
    return start, end


#: Labels of this module's keyword-typed and shaped rules: the clinical guard keeps their spans
#: ("Chart 0221-8847" is no clock-time range, "RR 2, 118 Elm Grove Rd" no respiratory rate).
_TRUSTED_LABELS = frozenset({"SSN", "HEALTHPLAN", "LICENSE", "MEDICALRECORD", "STREET", "ZIP", "ROOM"})


def trusted_span(source: str, label: str) -> bool:
    """A span this module's identifier, postcode, street or bay rule proposed (``source`` may list
    several detectors joined by ``+``)."""
    return label in _TRUSTED_LABELS and "rule:commonwealth" in source.split("+")


#: Words of te reo Māori that New Zealand notes write as English (greetings, family, gatherings).
_TE_REO_WORDS = word_set(
    """
    ngā nga mihi nui kia ora karakia whānau whanau hui mokopuna kaumātua kaumatua tangihanga tangi
    marae iwi hapū hapu tikanga wairua kōrero korero tamariki pēpi pepi tēnā tena koe koutou hauora
    rongoā rongoa mahi kai māori maori
    """
)
#: Nationwide services and programmes, no one place ("St John" is New Zealand's ambulance service).
_NATIONAL_SERVICES = frozenset(
    {
        "st john", "st john ambulance", "st john pts", "whānau ora", "whanau ora", "māori health",
        "maori health", "iptaas", "nihb", "winz", "rfds", "royal flying doctor service", "nhs 111",
        "nhs direct", "healthline", "ngā mihi", "ngā mihi nui",
    }
)  # fmt: skip


#: Commonwealth degrees and fellowships ("MB BCh BAO", "FRCP", "FRACS"), grades, roles and teams of
#: the NHS and its sister services ("Med Reg", "SHO", "CPN", "Named Nurse Safeguarding Children").
_ROLE_WORDS = word_set(
    """
    frcp frcs frcpc fracs fracp frcpi frcsi mrcp mrcs mrcgp micgp fracgp franzcp fanzca franzcog facem
    frcem fcem frcr frca frcog mrcog frcpath frcpsych mrcpsych frcpch mrcpch ccfp fcfp mb bch bao mbbs
    mbchb chb bmbs bm bs bsc msc mbbch
    sho reg med registrar spr str fy1 fy2 ho rmo smo cns anp cnm num nic cpn hca sn slt msk camhs cmht
    mash csc marac htt ehch anc mts ats sskin alo chr jhsc nihb iptaas racf ptwr wr
    named nurse midwife safeguarding children adults lead haem resp gen ed dr a&e on-call mc&s orth
    maternal mental health service adult inpatient inpatients outpatient outpatients psychiatry cardiac
    rehabilitation rehab orthopaedic registrar rural hospital medicine tertiary centre center gp tr&orth t&o
    department dept of the and & clinical medical cardiology respiratory haematology hematology oncology neurology
    gastroenterology rheumatology endocrinology nephrology urology dermatology geriatrics paediatrics
    pediatrics obstetrics gynaecology orthopaedics radiology pathology anaesthetics
    """
)
_NUMBERED_RE = re.compile(r"(?:Ward|WARD|Year|Yr)[ \t]+\d{1,2}[A-Z]?")


def no_one_named(surface: str, *, roles: bool = True) -> bool:
    """Words that name no one and no place: te reo Māori greetings and family words ("Ngā mihi nui",
    "whānau hui"), nationwide services ("St John", "Whānau Ora"), degrees, grades and teams ("FRCP",
    "Med Reg", "Safeguarding Children"; not with ``roles=False``), a numbered ward or school year
    ("Ward 6", "Year 10")."""
    words = [w.strip(",;:()") for w in surface.lower().replace(".", "").split()]
    if not words or _NUMBERED_RE.fullmatch(surface.strip()):
        return bool(words)
    if " ".join(words) in _NATIONAL_SERVICES:
        return True
    return all(w in _TE_REO_WORDS for w in words) or (roles and all(w in _ROLE_WORDS for w in words))


#: British spellings of clinical roots and their American forms (the clinical vocabulary is American).
_BRITISH_ROOTS = (
    ("orthopae", "orthope"), ("haemorrh", "hemorrh"), ("haem", "hem"), ("paed", "ped"), ("anaes", "anes"),
    ("gynae", "gyne"), ("aetiol", "etiol"), ("anaem", "anem"), ("leukaem", "leukem"), ("ischaem", "ischem"),
    ("oedem", "edem"), ("oesoph", "esoph"), ("foet", "fet"), ("diarrhoea", "diarrhea"), ("dyspnoea", "dyspnea"),
    ("apnoea", "apnea"), ("centre", "center"), ("theatre", "theater"), ("programme", "program"),
    ("tumour", "tumor"), ("behaviour", "behavior"), ("colour", "color"),
)  # fmt: skip


def american_spelling(word: str) -> str:
    """``word`` with a British clinical root spelt the American way ("Haematology" -> "Hematology",
    "centre" -> "center"), its case kept; other words unchanged."""
    low = word.lower()
    for uk, us in _BRITISH_ROOTS:
        if uk in low:
            low = low.replace(uk, us)
            break
    else:
        return word
    if word.isupper():
        return low.upper()
    return low[:1].upper() + low[1:] if word[:1].isupper() else low


#: Labels of places (fine and coarse), whose spans keep a head that reads as a field label.
_PLACE_LABELS = frozenset(
    {
        "LOCATION",
        "HOSPITAL",
        "DEPARTMENT",
        "ORGANIZATION",
        "CITY",
        "STATE",
        "STREET",
        "ZIP",
        "COUNTRY",
        "ROOM",
    }
)


def commonwealth_guard(text: str, span: Span) -> tuple[Span, str | None]:
    """The clinical guard's questions this module answers, for ``span`` of ``text``.

    Returns:
        The span without a field label at its edges (:func:`field_label_edges`), and ``keep`` for a
        span of this module's trusted rules (:func:`trusted_span`), ``field-label`` for a span that
        is only a Commonwealth field label ("GMC", "NHS No"), ``common-word`` for words that name no
        one (:func:`no_one_named`), else None (the guard decides).
    """
    start, end = field_label_edges(text, span.start, span.end, place=span.label in _PLACE_LABELS)
    if (start, end) != (span.start, span.end):
        span = Span(start, end, span.label, span.score, span.source)
    if trusted_span(span.source, span.label):
        return _value_only(text, span), "keep"
    surface = text[start:end]
    label = " ".join(surface.strip(" \t:#.").lower().split())
    if label in COMMONWEALTH_FIELD_LABELS and _RX["VALUE_AFTER_RE"].match(text, end):
        return span, "field-label"  # "GMC 7190452"; "Transferred to NMC" names a hospital
    # Generic departments ("Cardiology") are the guard's call: i2b2 annotates them.
    return span, "common-word" if no_one_named(surface, roles=span.label != "DEPARTMENT") else None


def _value_only(text: str, span: Span) -> Span:
    """An identifier span a tagger widened over the words before it ("FRCPC     CPSO 76503") cut to
    the value this module's identifier rule read ("76503"); a span holding other numbers before the
    value ("05/09/83 - CHI 050983 2253") is left whole."""
    if span.label not in _ID_RULE_LABELS:
        return span
    irn = re.search(r"[ \t]*/[ \t]*\d\Z", text[span.start : span.end])  # a Medicare card's "/ 1"
    if irn is not None and irn.start() > 0:
        span = Span(span.start, span.start + irn.start(), span.label, span.score, span.source)
    for rx in (_RX["ID_RE"], _RX["HEALTH_CARD_RE"]):
        for m in rx.finditer(text, max(0, span.start - 40), span.end):
            prefix = text[span.start : m.start("v")]
            if span.start < m.start("v") and m.end("v") <= span.end and not any(c.isdigit() for c in prefix):
                return Span(m.start("v"), span.end, span.label, span.score, span.source)
    return span


_ID_RULE_LABELS = frozenset({"SSN", "HEALTHPLAN", "LICENSE", "MEDICALRECORD", "IDNUM"})


# --- which notes are Commonwealth notes ----------------------------------------------------------------
@lru_cache(maxsize=4)  # the note being guarded; a few, so few texts stay in memory
def commonwealth_note(text: str) -> bool:
    """A note written with day-first dates and British durations (see the module docstring)."""
    day_first = month_first = 0
    for m in _RX["DMY_FULL_RE"].finditer(text):
        a, b = int(m.group("a")), int(m.group("b"))
        if 12 < a <= 31 and 1 <= b <= 12:
            day_first += 1
        elif 1 <= a <= 12 and 12 < b <= 31:
            month_first += 1
    if month_first:
        return False
    weeks = any(
        _RX["DATE_CUE_BEFORE_RE"].search(text, max(0, m.start() - 24), m.start()) is None
        for m in _RX["WEEKS_RE"].finditer(text)
    )
    if day_first or weeks or _RX["MARKER_RE"].search(text) is not None:
        return True
    weak = {m.group().lower() for m in _RX["WEAK_MARKER_RE"].finditer(text)}
    return len(weak) >= 2


# --- the guard's question: duration or date? -----------------------------------------------------------
def duration_verdict(text: str, start: int, end: int) -> str | None:
    """The clinical guard's reading of a DATE span ``text[start:end]`` of shape ``a/b``.

    Returns:
        ``duration`` for a British duration of a Commonwealth note (``2/52``, ``5/7``, ``3/12``),
        ``obstetric`` for weeks of gestation (``28/40``, ``28+3/40``), ``ratio`` for an hour fraction
        (``1/2 hrly``) or a day-first note's impossible date (``Barthel 11/20``), ``date`` for a
        day/month date of a Commonwealth note (``22/2``, ``20/03``), else None (not decided here).
    """
    chunk = text[start:end].strip().lstrip("?><~≈")
    m = re.fullmatch(r"(?:(\d{1,2})([+-]))?(\d{1,2})/(\d{1,2})", chunk)
    if m is None:
        return None
    a, b_text = int(m.group(3)), m.group(4)
    if m.group(1) is not None:
        if m.group(2) == "+" and b_text == "40" and 4 <= int(m.group(1)) <= 43 and a <= 6:
            return "obstetric"  # 28+3/40
        a = int(m.group(1)) if b_text in ("7", "52") else a  # 2-3/7, 1-2/52: a range of durations
    if _RX["DATE_CUE_BEFORE_RE"].search(text, max(0, start - 24), start):
        return None
    if a < int(b_text) <= 4 and _RX["FRACTION_AFTER_RE"].match(text, end):
        return "ratio"  # 1/2 hrly obs
    if not commonwealth_note(text):
        return None
    return _day_first_verdict(text, end, a, b_text, chunk.startswith("0"))


def _day_first_verdict(text: str, end: int, a: int, b_text: str, padded: bool) -> str | None:
    """:func:`duration_verdict` in a Commonwealth note, for ``a/b`` ending at ``end``."""
    b = int(b_text)
    if b_text == "52" and 1 <= a <= 52:
        return "duration"
    if 12 < b <= 31 and a <= 12 and not padded:
        return "ratio"  # Barthel 11/20: no day-first date
    if b_text == "40" and 4 <= a <= 43:
        return "obstetric"
    if b_text in ("7", "12") and 1 <= a <= 24 and _RX["DURATION_AFTER_RE"].match(text, end):
        return "duration"  # 10/7 ago, 18/12 hx
    if (b_text == "7" and (1 <= a <= 7 or a in (10, 14, 21, 28))) or (b_text == "12" and 1 <= a <= 24):
        return "duration"
    if 1 <= b <= 12 and 1 <= a <= 31 and (a > 12 or b_text.startswith("0")) and not (a == 24 and b == 7):
        return "date"
    return None


# --- rules ----------------------------------------------------------------------------------------------
def _dm_date_ok(m: re.Match[str]) -> bool:
    """A day/month date of a Commonwealth note: the day over 12, or the month with its zero; never a
    British duration or ``24/7``."""
    a, b_text = int(m.group("a")), m.group("b")
    b = int(b_text)
    if not (1 <= b <= 12 and 1 <= a <= 31) or (a == 24 and b == 7) or not (a > 12 or b_text.startswith("0")):
        return False
    return duration_verdict(m.string, m.start(), m.end()) == "date"


def _id_label(m: re.Match[str]) -> str | None:
    kw = " ".join(m.group("kw").lower().split())
    label = _LABEL_OF.get(kw)
    value = m.group("v")
    digits = sum(c.isdigit() for c in value)
    if label is None or digits < 4:
        return None
    if kw in ("chart", "medical card", "sin") and digits < 6:
        return None  # ordinary words: a long number only
    return label


def _health_card_ok(m: re.Match[str]) -> bool:
    return sum(c.isdigit() for c in str(m.group("v"))) == 10


def _bare_health_label(m: re.Match[str]) -> str | None:
    """A bare number of a national scheme's shape: kept in a Commonwealth note with its check digit."""
    value = m.group("v")
    if not commonwealth_note(m.string):
        return None
    d = _digits(value.split("/")[0])
    if len(d) == 16:
        return "SSN" if ihi_ok(d) else None
    if nhs_ok(d) or medicare_au_ok(value):  # a CHI number passes the NHS check too
        return "SSN"
    return None


def _eircode_ok(m: re.Match[str]) -> bool:
    tail = m.group("pc")[-4:]
    return any(c.isdigit() for c in tail) and any(c.isalpha() for c in tail)


def _uk_postcode_ok(m: re.Match[str]) -> bool:
    """Not an ordinal ("3RD", "1ST" after a number) and not in a run of capitals words ("B2 B4")."""
    pc = m.group("pc")
    return not re.search(r"\d(?:ST|ND|RD|TH)\Z", pc) or " " in pc


#: Words that make a ward's kind, not its name ("Medical Ward", "Children's Ward", "this ward").
_WARD_KINDS = word_set(
    """
    medical surgical acute maternity labour labor children's childrens stroke cardiac renal respiratory
    elderly geriatric psychiatric psychiatry orthopaedic orthopedic day private general isolation assessment
    admissions admission short observation postnatal antenatal oncology haematology hematology rehab
    rehabilitation recovery burns neonatal paediatric pediatric gynae gynaecology surgery medicine the a
    this that same which her his their our your any each every other another old new main male female
    mixed single side open closed locked secure east west north south upper lower ground first second
    third fourth fifth community hospital care nursing mental health inpatient discharge transfer elective
    emergency trauma respite palliative hospice dementia frailty escalation overflow winter covid
    """
)


def _ward_ok(m: re.Match[str]) -> bool:
    """A ward named after a person, tree or bird: not a kind of ward, not clinical vocabulary."""
    from phiscrub.detect.clinical_vocab import clinical_vocabulary, is_clinical_word

    name = m.group("name")
    low = name.lower()
    if low in _WARD_KINDS or name.isupper() and len(name) <= 4:
        return False
    vocab = clinical_vocabulary()
    return not (is_clinical_word(name) or low in vocab.care_units or low in vocab.common)


def _care_home_ok(m: re.Match[str]) -> bool:
    """A named home or practice: its first name word is neither a kind of place nor clinical."""
    from phiscrub.detect.clinical_vocab import is_clinical_word

    words = [w for w in m.group("home").split() if w not in ("The", "THE")]
    first = words[0]
    return first.lower() not in _WARD_KINDS and not is_clinical_word(first)


_VEHICLE_WORDS = (
    "vehicle",
    "car",
    "reg",
    "registration",
    "plate",
    "estate",
    "hatchback",
    "saloon",
    "van",
    "taxi",
)


def _site_abbr_ok(m: re.Match[str]) -> bool:
    """Not a clinical abbreviation ("LVH", "BPH", "SAH")."""
    from phiscrub.detect.clinical_vocab import clinical_vocabulary

    abbr = m.group("a1") or m.group("a2")
    vocab = clinical_vocabulary()
    return abbr not in vocab.abbreviations and abbr.lower() not in vocab.clinical and len(abbr) >= 3


def _nurse_name_ok(m: re.Match[str]) -> bool:
    """Not a clinical word; an English word ("Precious", not "Stable overnight") only where a signature
    ends (line end, "/", a bracket)."""
    from phiscrub.detect.clinical_vocab import clinical_vocabulary, is_clinical_word

    name = m.group("n").split()[0]
    if is_clinical_word(name) or name.lower() in _WARD_KINDS:
        return False
    vocab = clinical_vocabulary()
    common = name.lower() in vocab.common and name.lower() not in vocab.first_names
    return not common or re.match(r"[ \t]*(?:\n|\Z|/|\||,|\()", m.string[m.end() :]) is not None


COMMONWEALTH_RULES: tuple[PatternRule, ...] = (
    PatternRule("SSN",        _RX["ID_RE"],           name="cw_id",          score=0.9,  group="v", labeler=_id_label, extra_labels=("HEALTHPLAN", "LICENSE", "MEDICALRECORD", "IDNUM")),
    PatternRule("HEALTHPLAN", _RX["HEALTH_CARD_RE"],  name="cw_health_card", score=0.9,  group="v", validator=_health_card_ok),
    PatternRule("SSN",        _RX["BARE_HEALTH_RE"],  name="cw_bare_health", score=0.8,  group="v", labeler=_bare_health_label),
    PatternRule("ZIP",        _RX["UK_POSTCODE_RE"],  name="uk_postcode",    score=0.85, group="pc", validator=_uk_postcode_ok),
    PatternRule("ZIP",        _RX["EIRCODE_RE"],      name="eircode",        score=0.8,  group="pc", validator=_eircode_ok),
    PatternRule("ZIP",        _RX["CA_POSTCODE_RE"],  name="ca_postcode",    score=0.85, group="pc"),
    PatternRule("STATE",      _RX["CA_POSTCODE_RE"],  name="ca_province",    score=0.85, group="prov"),
    PatternRule("STREET",     _RX["BOX_RE"],          name="cw_box",         score=0.8,  group="box"),
    PatternRule("DATE",       _RX["DM_DATE_RE"],      name="dm_date",        score=0.8,  validator=_dm_date_ok),
    PatternRule("STREET",     _RX["UK_STREET_RE"],    name="uk_street",      score=0.75, group="st"),
    PatternRule("STREET",     _RX["FLAT_RE"],         name="uk_flat",        score=0.75, group="flat"),
    PatternRule("DEPARTMENT", _RX["NAMED_WARD_RE"],   name="named_ward",     score=0.7,  group="ward", validator=_ward_ok),
    PatternRule("ROOM",       _RX["BAY_RE"],          name="ward_bay",       score=0.7,  group="bay"),
    PatternRule("HOSPITAL",   _RX["NHS_TRUST_RE"],    name="nhs_trust",      score=0.75, group="trust"),
    PatternRule("VEHICLE",    _RX["UK_PLATE_RE"],     name="uk_plate",       score=0.8,  group="plate", context=_VEHICLE_WORDS, window=60),
    PatternRule("HOSPITAL",   _RX["WELSH_SITE_RE"],   name="welsh_site",     score=0.75, group="site"),
    PatternRule("CITY",       _RX["LOCALITY_RE"],     name="uk_locality",    score=0.7,  group=("loc", "town")),
    PatternRule("HOSPITAL",   _RX["SITE_ABBR_RE"],    name="site_abbr",      score=0.6,  group=("a1", "a2"), validator=_site_abbr_ok),
    PatternRule("DOCTOR",     _RX["NURSE_NAME_RE"],   name="nurse_name",     score=0.7,  group="n", validator=_nurse_name_ok),
    PatternRule("PHONE",      _RX["BLEEP_RE"],        name="bleep",          score=0.8,  group="v"),
    PatternRule("IDNUM",      _RX["REF_RE"],          name="slash_ref",      score=0.7,  group="v"),
    PatternRule("HOSPITAL",   _RX["CARE_HOME_RE"],    name="care_home",      score=0.7,  group="home", validator=_care_home_ok),
)  # fmt: skip


def commonwealth_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The Commonwealth rules: English notes only."""
    return COMMONWEALTH_RULES if lang == "en" else ()


def commonwealth_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``commonwealth`` with :func:`commonwealth_rules`."""
    return RuleDetector("commonwealth", commonwealth_rules(lang))
