"""Clinical-context guard: drop PHI proposals that are clinical measurements or clinical vocabulary.

Real notes are dense in numbers and jargon that look like PHI to a tagger: vital signs and their
ranges and decades (``hr 80s``, ``sbp 90-100s``), I/O volumes, drip rates, doses, scores
(``GCS 3/15``), clock times and shift spans (``0300``, ``7a-7p``), lab values; care units and
services (``MICU``, ``the floor``, ``blood bank``); drugs, devices, EHR names and shorthand that a
tagger calls names in ALL-CAPS or all-lower-case notes. :func:`guard` looks at each proposed span
and drops it when the clinical reading outweighs the PHI reading.

It weighs evidence instead of deleting blindly. For each span it scores:

* the clinical reading: a measurement keyword, unit, drug or score word next to a number; a time,
  shift, decade, range or ratio shape; a word from the bundled medical lexicon
  (``resources/medical/``: drugs, abbreviations, terms, units, and ``clinical_context.txt``), the
  :data:`~phiscrub.detect.lexicon.EPONYMS`, or a common English word (WordNet) where the letter
  case of the line carries no information;
* the PHI reading: a title (``Dr. Foley``), a credential after (``Foley, MD``), a kinship or role
  word or a verb cue before (``wife``, ``per``, ``d/w``), a place cue (``seen at Mercy``), a
  facility word inside the span (``MERCY HOSPITAL``), an identifier or date cue before a number
  (``MRN``, ``DOB``), an age form (``95 yo``), and the digit patterns of dates, phone numbers and
  identifiers (a full date with a year, five digits in a row).

A span is dropped only when the clinical score is higher than the PHI score; ties keep the span.
Every decision carries a reason (``measurement``, ``clock-time``, ``care-unit`` ...), counted in a
:class:`collections.Counter` for diagnostics: counts by reason, never text.

Example:
    >>> from phiscrub.document import Document, Span
    >>> doc = Document("n1", "hr 80s, seen by Dr. Foley; foley in place")
    >>> [doc.surface(s) for s in guard(doc, [Span(3, 6, "AGE"), Span(20, 25, "DOCTOR"), Span(27, 32, "DOCTOR")])]
    ['Foley']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, LabelError
from phiscrub.labels import fold

__all__ = [
    "GUARD_REASONS",
    "PROTECTED_LABELS",
    "GuardDecision",
    "clinical_vocabulary",
    "decide",
    "guard",
    "is_clinical_word",
    "is_common_word",
    "measurement_before",
]

#: Labels whose PHI status is the policy's call, not the guard's: professions are common words by
#: nature (:mod:`phiscrub.policy` keeps or drops them). States and countries are only dropped as
#: clinical abbreviations without an address around them ("from MI" yes, "Lansing, MI 48906" no).
PROTECTED_LABELS = frozenset({"PROFESSION"})
_REGION_LABELS = frozenset({"STATE", "COUNTRY"})
_ADDRESS_BEFORE_RE = re.compile(r"(?P<w>[A-Za-z][A-Za-z.'\-]*),[ \t]*\Z")
_ZIP_AFTER_RE = re.compile(r"[ \t,]*\d{5}")

#: Every reason a span can be dropped for (the keys of the diagnostic counts).
GUARD_REASONS: tuple[str, ...] = (
    "measurement",  # a measurement keyword (vital, lab, I/O, score) before the number
    "unit",  # a unit or count noun after the number ("450cc", "20 meq", "3 days")
    "dose",  # a drug name right before the number
    "clock-time",  # 0300, 14:30, "@ 1615", "at 1945"
    "shift-span",  # 7a-7p, 0700-1900
    "decade",  # 80s, 120S, 90's (vital-sign decades)
    "range",  # 15-20, 300-450 (ascending numeric ranges)
    "ratio",  # 6/15, 24/30, day 3/7, 5/5 strength (scores and fractions, not calendar dates)
    "duration",  # "x 30 yrs", "10 yrs ago" tagged AGE
    "decimal",  # 22.4, 2.8
    "obstetric",  # G3P2002, 39w2d
    "care-unit",  # MICU, the floor, blood bank, ortho
    "clinical-term",  # drugs, devices, EHR names, abbreviations, eponyms, clinical shorthand
    "common-word",  # an English word where case carries no information ("FOUND", "its", "warehouse")
    "lone-initial",  # a bare "A." (specimen letters, list markers)
    "weekday",  # a weekday name standing alone ("on Monday"): no date of anyone
    "edge-word",  # not a drop: function words cut from the edges of a kept name span
)


@dataclass(frozen=True)
class GuardDecision:
    """What the guard decided about one span.

    Attributes:
        span: the proposed span.
        keep: whether it stays.
        reason: the clinical reason when dropped (one of :data:`GUARD_REASONS`), ``edge-word`` when
            a kept name span was narrowed, else None.
    """

    span: Span
    keep: bool
    reason: str | None = None


# --- vocabulary -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClinicalVocabulary:
    """Lower-case word sets the guard uses (built once from the bundled files)."""

    care_units: frozenset[str]
    clinical: frozenset[str]
    drugs: frozenset[str]
    abbreviations: frozenset[str]
    ambiguous: frozenset[str]
    common: frozenset[str]
    wordnet: frozenset[str]
    first_names: frozenset[str]
    names: frozenset[str]
    places: frozenset[str]


def _read_sections(name: str) -> dict[str, list[str]]:
    path = resources.files("phiscrub.resources").joinpath("medical", name)
    if not path.is_file():
        raise ConfigError(f"missing bundled medical lexicon file medical/{name}; reinstall phiscrub")
    sections: dict[str, list[str]] = {}
    current = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            continue
        sections.setdefault(current, []).append(line.lower())
    return sections


def _read_lines(folder: str, name: str) -> list[str]:
    path = resources.files("phiscrub.resources").joinpath(folder, name)
    if not path.is_file():
        raise ConfigError(f"missing bundled file {folder}/{name}; reinstall phiscrub")
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@cache
def clinical_vocabulary() -> ClinicalVocabulary:
    """The guard's vocabulary: bundled medical lexicon, eponyms, WordNet common words, name lists.

    Raises:
        ConfigError: a bundled file is missing.
    """
    from phiscrub.detect.lexicon import EPONYMS
    from phiscrub.resources import load_lexicon

    extra = _read_sections("clinical_context.txt")
    first = frozenset(
        w.lower() for stem in ("first_names_female", "first_names_male") for w in load_lexicon(stem)
    )
    last = frozenset(w.lower() for w in load_lexicon("last_names"))
    names = first | last
    clinical: set[str] = set()
    drugs: set[str] = set(extra.get("drugs", ()))
    for entry in _read_lines("medical", "drugs.txt"):
        low = entry.lower()
        # "insulin glargine": its words are drug words too
        drugs.update([low] if " " not in low else [w for w in low.split() if len(w) >= 4])
    clinical.update(drugs)
    for entry in _read_lines("medical", "terms.txt"):
        if " " not in entry:
            clinical.add(entry.lower())
    clinical.update(u.lower() for u in _read_lines("medical", "units.txt") if u.isalpha())
    for section in ("drugs", "devices", "shorthand"):
        clinical.update(extra.get(section, ()))
    clinical.update(EPONYMS)
    abbreviations = frozenset(_read_lines("medical", "abbreviations.txt"))
    care = set(extra.get("care_units", ()))
    care.update(d.lower() for d in load_lexicon("departments") if not any(c.isdigit() for c in d))
    care.update(d.lower() for d in load_lexicon("department_abbreviations"))
    # Drug and abbreviation entries that are also given names or surnames (Allegra, SARA, ALF)
    # are ambiguous: they weigh less than plain clinical words.
    ambiguous = frozenset((clinical | {a.lower() for a in abbreviations}) & names) - EPONYMS
    common: set[str] = set()
    wordnet: set[str] = set()
    for line in _read_lines("wordnet", "lexicon.tsv"):
        word, tags = line.split("\t")
        wordnet.add(word)
        if sum(int(t.split(":")[1]) for t in tags.split()) >= 3:
            common.add(word)
    places = frozenset(
        w.lower()
        for stem in ("cities", "states")
        for place in load_lexicon(stem)
        for w in place.split()
        if len(w) > 3
    )
    common.update(_read_lines("wordnet", "stopwords.txt"))
    return ClinicalVocabulary(
        care_units=frozenset(care),
        clinical=frozenset(clinical),
        drugs=frozenset(drugs),
        abbreviations=abbreviations,
        ambiguous=ambiguous,
        common=frozenset(common),
        wordnet=frozenset(wordnet),
        first_names=first,
        names=names,
        places=places,
    )


def is_clinical_word(word: str) -> bool:
    """True when ``word`` is a care unit, service, drug, device, abbreviation or clinical term.

    Abbreviations match case-sensitively (``MI`` yes, ``Mi`` no); other entries in any case.
    """
    v = clinical_vocabulary()
    low = word.lower()
    return low in v.care_units or low in v.clinical or word in v.abbreviations


def is_common_word(word: str) -> bool:
    """True when ``word`` is a common English word (a stop word or a WordNet word used 3+ times)."""
    return word.lower() in clinical_vocabulary().common


# --- context words ----------------------------------------------------------------------------------
def _words(items: str) -> str:
    return "|".join(sorted((re.escape(w) for w in items.split()), key=len, reverse=True))


# Vital signs, labs, I/O, vent settings, scores: a number right after one of these is a measurement.
_MEASURE_WORDS = _words(
    """
    hr bp b/p sbp dbp map rr t temp tmax tm tc spo2 sao2 o2 sat sats pulse p fsbg fs bg cbg bgs glucose
    gluc accucheck accuchecks fingerstick wt weight ht height bmi uop i/o io ins outs intake output net
    volume volumes residual residuals cvp pap icp cpp ef lvef rvsp peep fio2 tv vt ps psv ipap epap rate
    ac simv prvc ie etco2 pip plat ph pco2 po2 hco3 paco2 pao2 lactate lac abg vbg na k cl co2 bun cr creat
    scr mg phos wbc hgb hb hct plt plts inr pt ptt aptt alt ast alk ap tbili bili dbili alb prealb
    albumin trop tropo troponin bnp ck cpk ldh lipase amylase a1c hba1c tsh ft4 t4 psa ammonia nh3 crp esr
    procal ferritin iron tibc b12 anc retic ddimer d-dimer fibrinogen cd4 egfr gfr osm uosm sosm trough
    peak level levels vanc vanco gent tobra dig lithium goal target range baseline score scale grade
    gcs rass cpot cam nrs vas pain moca mmse slums gds phq phq9 phq2 gad gad7 cows ciwa audit braden morse
    aldrete apgar apgars nihss asa ecog kps meld child wells curb chads chads2 cha2ds2 hasbled caprini
    fim barthel mrc strength power tone reflexes dtr dtrs day pod hd dol cycle c fraction fractions fx
    drip gtt gtts infusion bolus dose doses rate tf tfs feeds feed free flush flushes
    ua sg ketones protein hr's bp's sbps hrs's ntprobnp probnp hemoglobin platelets potassium sodium
    creatinine magnesium calcium phosphorus chloride bicarb cortisol cea ca125 afp beta hcg bhcg
    fhr fht fhts cx dilation dilated station effaced ctx ctxs contractions rom
    incentive spirometer spirometry ana titer titre rpr
    qtc qt qrs pr axis vent amp amps
    """
)
_MEASURE_RE = re.compile(rf"(?<![\w/])(?:{_MEASURE_WORDS})(?![\w/])", re.IGNORECASE)
# What may sit between a measurement word and its number: other numbers, units, glue words.
_GLUE_RE = re.compile(
    r"(?:[ \t\d.:=/()<>~%+\-–@#]|->|x\d|"
    r"(?<![A-Za-z])(?:of|to|from|up|down|now|today|tonight|yesterday|last|prior|this|am|pm|was|is|were"
    r"|the|range|goal|baseline|ranging|approx|about|around|mid|high|low|upper|lower|increased|decreased"
    r"|incr|decr|inc|dec|up|down|trending|trended|then|and|with|w|visit|check|checked|recheck|repeat|initial"
    r"|ra|nc|l|lpm|mmhg|bpm|mg|dl|mg/dl|meq|mmol|cc|ml|cc/hr|ml/hr|units|u|mcg|kg|min|hr|hrs|s|'s)(?![A-Za-z])"
    r")*\Z",
    re.IGNORECASE,
)
_UNIT_AFTER_RE = re.compile(
    r"(?:[ \t]?(?:%|°|/(?:min|hr|h|d|day|kg|dl|l|ul|μl|µl|mm3|hpf|lpf)\b)"
    r"|[ \t]?(?:mg|mcg|ug|µg|g|gm|grams?|kg|lbs?|oz|ml|mls|l|dl|cc|cc's|mmol|meq|units?|u|iu|mmhg|mm|cm"
    r"|inch(?:es)?|ft|feet|bpm|mins?|minutes?|hrs?|hours?|h|days?|d|wks?|weeks?|mos?|months?|yrs?|years?"
    r"|x|times|tabs?|tablets?|caps?|capsules?|puffs?|drops?|gtts?|sprays?|cells|k|ng|pg|secs?|seconds?"
    r"|beats|breaths|kcal|cal|ppm|fr|french|gauge|ga|lpm|l/min|nc|pack|ppd|pk|joules|j|mv|ms|cmh2o|ft"
    r"|steps|reps|sets|servings|drinks|beers|cigarettes|cans|pts|points|mets|degrees?|deg)(?![A-Za-z]))",
    re.IGNORECASE,
)
_AGE_AFTER_RE = re.compile(
    r"[ \t]*(?:-[ \t]*)?(?:yo\b|y/o|y\.o\.?|yoa|years?[ \t-]*old|yrs?[ \t-]*old|y[ \t]?[mf]\b|[mf]\b"
    r"|-?years?-old|-?yr-old|month[s]?[ \t-]*old|(?:year|yr)[ \t]old"
    r"|(?:male|female|man|woman|boy|girl|gentleman|lady|gent)\b)",
    re.IGNORECASE,
)
_AGE_BEFORE_RE = re.compile(
    r"\b(?:age|aged|ages|age[ \t]+of|age[ \t]*/[ \t]*(?:sex|gender)|(?:his|her|their)(?:[ \t]+(?:early|mid|late))?)"
    r"[ \t:=\-]*\Z",
    re.IGNORECASE,
)
_DURATION_BEFORE_RE = re.compile(
    r"(?:\b(?:x|for|over|past|last|in|q|every|within)|[x×])[ \t]*\Z", re.IGNORECASE
)
_AGO_AFTER_RE = re.compile(
    r"[ \t]*(?:yrs?|years?|mos?|months?|wks?|weeks?|days?|d)?[ \t]*(?:ago|prior|earlier|before)\b",
    re.IGNORECASE,
)
_ID_CUE_RE = re.compile(
    r"(?:\b(?:mrn|mr|med[ \t]*rec|medical[ \t]+record|acct|account|id|ssn|ss|no|num|number|accession|acc"
    r"|job|member|policy|plan|group|license|lic|npi|dea|serial|lot|mbi|hicn|claim|case|encounter|enc|fin"
    r"|csn|har|visit|ref|reference|confirmation|auth|authorization|device|tag|plate|vin|badge)\b\.?"
    r"|#)[ \t:#.]*\Z",
    re.IGNORECASE,
)
_DATE_CUE_RE = re.compile(
    r"\b(?:dob|d\.o\.b|date|dated|dos|doa|dod|adm|admit|admitted|admission|discharged?|d/c|dc|born|birth"
    r"|expired|died|death|seen|visit|on|since|from|until|till|thru|through|last|next|dated|in|quit|dx"
    r"|diagnosed|s/p|hx|h/o|status\s+post|comparison|compared|prior|performed|done|placed|started|stopped"
    r"|scheduled|appt|appointment|f/u|follow[ -]?up|returns?|rtc|due|by|before|after|of|between|around"
    r"|about|approx|approximately|circa|ca|early|late|mid|implanted|underwent|showed|shows|report|reported"
    r"|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"[ \t:\-]*\Z|\([ \t]*\Z",
    re.IGNORECASE,
)
_CONTACT_CUE_RE = re.compile(
    r"\b(?:phone|ph|tel|telephone|call|calls|called|cell|mobile|home|work|pager|pgr|page|paged|beeper|fax"
    r"|contact|number|no|at|ext|x|#)[ \t:#.]*\Z",
    re.IGNORECASE,
)
_ROOM_CUE_RE = re.compile(
    r"\b(?:room|rm|bed|bedspace|bay|pod|cell|housing|or|zip|apt|suite|ste|box|unit|ward|floor)\b[ \t:#.]*\Z",
    re.IGNORECASE,
)
# Cues strong enough to make any m/d or m-d shape a date, whatever label it was proposed with.
_STRONG_DATE_CUE_RE = re.compile(
    r"\b(?:date|dated|dos|dob|d\.o\.b|admitted|admit|adm|discharged|discharge|seen|on|service)[ \t:.#\-]*\Z",
    re.IGNORECASE,
)
_CLOCK_AFTER_RE = re.compile(r"[ \t,]+(?:@[ \t]*)?(?:[01]?\d|2[0-3]):[0-5]\d")
# Right before a clock time: "@ 1615", "at 1945", "RCVD 1412", "given 2000".
_TIME_CUE_RE = re.compile(
    r"(?:@|~|\b(?:at|by|around|approx|approximately|until|till|starting|start|since|from|to|after|before"
    r"|given|paged|called|notified|arrived|returned|rcvd|recvd|received|scene|transport|transported"
    r"|dest|departed|left|ended|began|dose|due|last|next|bedside|overnight|shift|time|timed|tonight"
    r"|this\s+am|this\s+pm|am|pm|noted|found|started|stopped|held|resumed|drawn|sent|done|extubated"
    r"|intubated|pulled|placed|changed|removed|checked|rechecked|repeat|report|reported)\b)[ \t:.,]*\Z",
    re.IGNORECASE,
)
# For values that are also plausible years (1920-2059) only cues no year takes: "@ 1945", "at 1955".
_TIME_CUE_STRONG_RE = re.compile(
    r"(?:@|~|\b(?:at|given|paged|called|notified|arrived|rcvd|recvd|scene|transport|transported|dest"
    r"|departed|bedside|overnight|shift|tonight|this\s+am|this\s+pm|extubated|intubated|drawn|checked"
    r"|rechecked|report|reported|last\s+dose|dose|due)\b)[ \t:.,]*\Z",
    re.IGNORECASE,
)
# A number after a comma that follows a complete value ("day 1, 7/30") starts a new item.
_EVENT_BEFORE_RE = re.compile(r"\d[ \t]*[,;][ \t]*\Z")
_LINE_START_TIME_RE = re.compile(r"(?:^|\n)[ \t]*(?:-[ \t]*)?\Z")
_SCORE_AFTER_RE = re.compile(
    r"[ \t]*(?:\w+[ \t]+)?(?:tabs?|tablets?|caps?|strength|murmur|holosystolic|systolic|diastolic|pain"
    r"|bottles?|cultures?|sets?|views?|nodes?|cores?|ratio|score|scale|power|reflexes|motor|bilat|b/l"
    r"|throughout|criteria|items?|points?|correct|words?|recall|lobes?|vessels?|segments?|quadrants?"
    r"|fingers?|digits?|positive|negative|dilated|effaced)\b",
    re.IGNORECASE,
)
_TITLE_BEFORE_RE = re.compile(
    r"\b(?P<t>dr|drs|doctor|prof|professor|mr|mrs|ms|miss|mx)\.?[ \t]*\Z",
    re.IGNORECASE,
)
_CREDENTIAL_AFTER_RE = re.compile(
    r"(?:,[ \t]*[A-Z][A-Za-z]{1,6}(?:-[A-Z]{1,4})?)*?,?[ \t]*(?:MD|M\.D\.|DO|RN|NP|PA-C|PA|DDS|DMD|PharmD|PhD|CRNA|CNM|LPN|LCSW|LICSW|DPT|RRT|FNP|DNP"
    r"|APRN|NNP|CNA|MSW|RD|RDN|OTR/L|CCC-SLP|PT|OT|SLP)(?![\w-])"
)
# A department named in a location field ("Unit: Cardiology", "LOC: SLEEP MEDICINE", "Mercy Hospital,
# Nephrology") is where the patient is; a unit word in running text ("transferred to MICU") is not.
_DEPT_FIELD_RE = re.compile(
    r"(?:\b(?:unit|location|loc|ward|service|svc|dept|department|housing|bed|transferring\s+(?:from|to)"
    r"|sending|receiving|from|to|admit\s+to|admitted\s+to|floor)[ \t]*:[ \t]*"
    r"|\b(?:hospital|center|centre|clinic|institute|health|system|infirmary|medical)[ \t]*[,\-–—|/][ \t]*)\Z",
    re.IGNORECASE,
)
_FIELD_BEFORE_RE = re.compile(
    r"\b(?:name|patient|pt|attending|pcp|surgeon|assist|assistant|anes|anesthesia|provider|physician"
    r"|consultant|consult|nurse|rn|np|pa|therapist|social\s+worker|case\s+manager|coordinator|contact"
    r"|caregiver|guardian|emergency\s+contact|next\s+of\s+kin|nok|spouse|mother|father|from|to"
    r"|institution|facility|site|agency|practice|organization|company|sending|receiving|employer"
    r"|resident|fellow|intern|author|signed|by|to|cc|re|referring|ordering|hospital|facility|nursing\s+home"
    r"|snf|rehab|pharmacy|employer|school|address|city|town|lives\s+in|from)[ \t]*:[ \t]*\Z",
    re.IGNORECASE,
)
_KIN_WORDS = _words(
    """
    wife husband spouse partner son sons daughter daughters mother father mom dad mum brother brothers
    sister sisters sibling niece nephew aunt uncle cousin grandson granddaughter grandmother grandfather
    grandma grandpa fiance fiancee fiancé fiancée boyfriend girlfriend friend neighbor neighbour guardian
    proxy hcp poa caregiver stepson stepdaughter stepmother stepfather mother-in-law father-in-law
    son-in-law daughter-in-law sil dil dtr gf bf
    """
)
_ROLE_WORDS = _words(
    """
    per d/w dw paged called notified informed updated rn np md pa lpn cna crna resident fellow intern
    attending pcp hospitalist surgeon nurse therapist pharmacist chaplain dietitian contacted texted
    messaged emailed asked told cc worker manager coordinator navigator aide tech technician counselor
    interpreter chaplain advocate
    """
)
_KIN_BEFORE_RE = re.compile(rf"(?<![\w-])(?:{_KIN_WORDS})(?:'s)?[ \t:,]*(?:\([ \t]*)?\Z", re.IGNORECASE)
_ROLE_BEFORE_RE = re.compile(
    rf"(?:(?<![\w-])(?:{_ROLE_WORDS})(?:[ \t]*,)?|\b(?:discussed|spoke|spoken|reviewed|met|talked|signed\s+out|handed\s+off"
    r"|endorsed|report(?:ed)?|seen|evaluated|examined|covered)[ \t]+(?:with|to|by|w/))[ \t:,]*\Z",
    re.IGNORECASE,
)
_PLACE_BEFORE_RE = re.compile(
    r"\b(?:at|from|to|in|into|near|seen\s+at|transferred\s+(?:from|to)|admitted\s+(?:from|to)|discharged\s+to"
    r"|transfer\s+(?:from|to)|tx\s+(?:from|to)|went\s+to|lives\s+in|resides\s+in|followed\s+at|f/u\s+at"
    r"|moved\s+to|visiting|works\s+at|employed\s+at|via)[ \t]+(?:the[ \t]+)?\Z",
    re.IGNORECASE,
)
_FACILITY_WORDS = frozenset(
    [
        "hospital",
        "hospitals",
        "medical",
        "center",
        "centre",
        "clinic",
        "rehab",
        "rehabilitation",
        "infirmary",
        "health",
        "healthcare",
        "institute",
        "home",
        "manor",
        "hospice",
        "memorial",
        "university",
        "college",
        "school",
        "county",
        "general",
        "regional",
        "community",
        "sanatorium",
        "sanitarium",
        "nursing",
        "living",
        "care",
        "village",
        "gardens",
        "house",
        "lodge",
        "residence",
        "campus",
        "pavilion",
        "children's",
        "childrens",
        "hosp",
        "med",
        "ctr",
        "hlth",
        "univ",
    ]
)
_DATE_WORD_CUE_RE = re.compile(
    r"\b(?:in|since|of|last|next|early|mid|late|until|by|on|from|this|before|after|during|through)[ \t]+\Z",
    re.IGNORECASE,
)
_WEEKDAY_RE = re.compile(
    r"(?i:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\.?|thursdays?|wednesdays?)"
)
_MONTHS = frozenset(
    [
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)

_NAME_AGE_AFTER_RE = re.compile(
    r",?[ \t]+\d{1,3}[ \t]?(?:y/o|yo|y\.o\.|YO|Y/O|-year-old|[ \t]year[ \t]old|[MF](?![\w]))"
)
_TOKEN_RE = re.compile(r"[^\W\d_](?:[\w'’\-/&]*[^\W_])?")
_DRUG_BEFORE_RE = re.compile(r"([A-Za-z][A-Za-z\-]{2,})[ \t]+(?:\S+[ \t]+)?\Z")


# --- helpers -------------------------------------------------------------------------------------------
# Lines are looked for at most this far from a span, so that a note of one huge line (or many spans
# on it) stays linear in its length: a longer line is read as the stretch around the span.
_LINE_REACH = 1000


def _line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    floor = max(0, start - _LINE_REACH)
    lo = text.rfind("\n", floor, start) + 1 or floor
    ceiling = min(len(text), end + _LINE_REACH)
    hi = text.find("\n", end, ceiling)
    return lo, ceiling if hi < 0 else hi


def _upper_share(text: str) -> tuple[int, float]:
    """Number of letters in ``text`` and the share of them in upper case (C-speed counting)."""
    letters = sum(map(str.isalpha, text))
    return letters, (sum(map(str.isupper, text)) / letters if letters else 0.0)


@lru_cache(maxsize=4)
def _note_upper_share(text: str) -> tuple[int, float]:
    """:func:`_upper_share` of a whole note, once per note rather than once per span."""
    return _upper_share(text)


def _caseless(text: str, start: int, end: int) -> bool:
    """True when letter case carries no information around the span: an ALL-CAPS or all-lower line."""
    lo, hi = _line_bounds(text, start, end)
    letters, upper = _upper_share(text[lo:hi])
    if letters < 20:
        letters, upper = _note_upper_share(text)
    if not letters:
        return True
    return upper >= 0.85 or upper <= 0.03


def _chunk(text: str, start: int, end: int) -> tuple[int, int]:
    """The whitespace-delimited chunk around a span, without edge punctuation."""
    lo, hi = start, end
    while lo > 0 and not text[lo - 1].isspace():
        lo -= 1
    while hi < len(text) and not text[hi].isspace():
        hi += 1
    while lo < hi and text[lo] in "([{\"'":
        lo += 1
    while hi > lo and text[hi - 1] in ".,;:)]}\"'!?":
        hi -= 1
    lo = min(lo, start)
    hi = max(hi, end)
    return lo, hi


_CLOCK4_RE = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
_CLOCK_RE = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:[ \t]?(?:[ap]\.?m?\.?))?\Z", re.IGNORECASE)
_CLOCK_SUFFIX_RE = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d[ \t]?(?:h|hr|hrs|hours)\Z", re.IGNORECASE)
_SHIFT_RE = re.compile(
    r"(?:(?:1[0-2]|0?[1-9])(?::?[0-5]\d)?[ \t]?[ap]m?|(?:[01]\d|2[0-3]):?[0-5]\d)[ \t]*(?:-|–|to)[ \t]*"
    r"(?:(?:1[0-2]|0?[1-9])(?::?[0-5]\d)?[ \t]?[ap]m?|(?:[01]\d|2[0-3]):?[0-5]\d)\Z",
    re.IGNORECASE,
)
_DECADE_RE = re.compile(
    r"(?:\d{2,3}['’]?s(?:[-–/]\d{2,3}['’]?s?)*|\d{2,3}[-–/]\d{2,3}['’]?s)\Z", re.IGNORECASE
)
_RANGE_RE = re.compile(r"(?P<a>\d+(?:\.\d+)?)[ \t]*(?:-|–|to)[ \t]*(?P<b>\d+(?:\.\d+)?)\D{0,6}\Z")
_RATIO_RE = re.compile(r"(?P<a>\d{1,3})/(?P<b>\d{1,3})\Z")
_FULL_DATE_RE = re.compile(r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}|\d{1,2}/(?:19|20)\d\d")
_DECIMAL_RE = re.compile(r"\d+\.\d{1,3}\Z")
_OBSTETRIC_RE = re.compile(r"(?:G\d{1,2}P\d{1,4}(?:-\d{1,4})*|\d{1,2}w\d(?:d)?|\d{1,2}\+\d)\Z", re.IGNORECASE)
_GLUED_UNIT_RE = re.compile(
    r"\d(?:\.\d+)?(?:cc|ml|mls|mg|mcg|meq|mmol|units?|u|kg|g|gm|l|mmhg|bpm|%|u/hr|ml/hr|cc/hr|mg/hr"
    r"|mcg/min|mcg/kg/min|units/hr|lpm|fr|ga|mm|cm|min|mins|hrs?|h|d|x)\Z",
    re.IGNORECASE,
)


def _before(text: str, start: int, n: int = 40) -> str:
    lo = max(text.rfind("\n", max(0, start - n), start) + 1, start - n, 0)
    return text[lo:start]


def _after(text: str, end: int, n: int = 30) -> str:
    hi = text.find("\n", end, end + n)
    hi = len(text) if hi < 0 else hi
    return text[end : min(hi, end + n)]


def _measure_before(text: str, start: int) -> bool:
    """A measurement word earlier on the line, with only numbers, units and glue words in between."""
    before = _before(text, start, 45)
    for m in reversed(list(_MEASURE_RE.finditer(before))):
        if _GLUE_RE.match(before, m.end()):
            return True
    return False


def measurement_before(text: str, start: int) -> bool:
    """True when a measurement word (vital, lab, I/O, score, vent setting) leads up to ``text[start:]``.

    Only numbers, units and glue words ("goal", "to", "from", "->") may lie between the word and
    ``start`` on the same line: ``sbp 90-`` and ``trough 22.4 (goal `` lead up to a measurement.
    """
    return _measure_before(text, start)


def _drug_before(text: str, start: int) -> bool:
    """A drug name within the two words before (``oxycodone 5-10``, ``levothyroxine 75 -> 88``)."""
    v = clinical_vocabulary()
    before = _before(text, start, 40)
    for m in reversed(list(re.finditer(r"[A-Za-z][A-Za-z\-]+", before))[-3:]):
        # everything between the drug and the number is numbers and glue ("5 ->", "incr to")
        gap = before[m.end() :]
        if not _GLUE_RE.match(gap) and not re.fullmatch(
            r"[ \t\d.:/()\-x>]*(?:incr|decr|to|->)?[ \t\d.:/()\-x>]*", gap
        ):
            break
        if m.group().lower() in v.drugs and m.group().lower() not in v.common:
            return True
    return False


# --- decisions on numbers ----------------------------------------------------------------------------
def _number_reason(text: str, span: Span, coarse: str) -> str | None:
    """The clinical reason to drop a span holding digits, or None to keep it."""
    cs, ce = _chunk(text, span.start, span.end)
    chunk = text[cs:ce]
    surface = text[span.start : span.end]
    before = _before(text, cs)
    after = _after(text, ce)
    digits = sum(c.isdigit() for c in chunk)

    # Digit patterns of PHI win outright: full dates with a year, long identifiers, phone numbers,
    # e-mail addresses and URLs.
    if _FULL_DATE_RE.search(chunk) or re.search(r"\d{5}", chunk) or digits >= 10:
        return None
    if re.fullmatch(r"['’]\d\d", chunk):
        return None  # "CVA '13": a year
    if "@" in chunk.strip("@") or re.search(r"(?i)www\.|https?:|\.(?:com|org|edu|net|gov)\b", chunk):
        return None
    if any(w in _MONTHS for w in re.findall(r"[A-Za-z]+", surface.lower())):
        return None
    # Cues before the number that make the PHI reading explicit.
    if coarse == "ID" and _ID_CUE_RE.search(before):
        return None
    if coarse == "CONTACT" and _CONTACT_CUE_RE.search(before):
        return None
    if coarse == "LOCATION" and _ROOM_CUE_RE.search(before):
        return None
    if coarse == "AGE":
        if _AGE_AFTER_RE.match(text, ce) or _AGE_AFTER_RE.match(text, span.end):
            return None
        if _AGE_BEFORE_RE.search(before):
            return None
        if re.search(r"\([ \t]*\Z", before) and re.match(
            r"[ \t]*(?:y|yo|yrs?|years?)[ \t]*\)", after, re.IGNORECASE
        ):
            return None  # "DOB 6/14/1970 (45 yrs)"

    if _OBSTETRIC_RE.match(chunk):
        return "obstetric"
    coded = re.fullmatch(r"([A-Za-z]{2,})-?(\d{1,2})", chunk)
    if coded and (is_clinical_word(coded.group(1)) or is_clinical_word(chunk)):
        return "clinical-term"  # PGY1, DM2, PHQ9
    if _SHIFT_RE.match(chunk):
        return "shift-span"
    if re.fullmatch(r"\d{4}", chunk) and _CLOCK4_RE.fullmatch(chunk):
        value = int(chunk)
        year_like = 1920 <= value <= 2059
        if coarse == "DATE" and year_like:
            if _DATE_CUE_RE.search(before) and not re.search(r"(?:@|\bat)[ \t]*\Z", before, re.IGNORECASE):
                return None
            if _TIME_CUE_STRONG_RE.search(before) or (
                _LINE_START_TIME_RE.search(before) and re.match(r"[ \t]*[-:]", after)
            ):
                return "clock-time"
            return None
        if not year_like or _TIME_CUE_RE.search(before) or _LINE_START_TIME_RE.search(before):
            return "clock-time"
    if _CLOCK_RE.match(chunk) or _CLOCK_SUFFIX_RE.match(chunk):
        return "clock-time"
    if _DECADE_RE.match(chunk):
        return "decade"
    # Letters between or before digits ("M-12", "75NI1986", "I967-3396"): an identifier shape.
    core = re.sub(r"(?i)(?:['’]?s|[a-z/%°]+)\Z", "", chunk)
    if re.search(r"[A-Za-z]", core) and not _GLUED_UNIT_RE.search(chunk):
        return None
    if coarse == "DATE" and _DATE_CUE_RE.search(before) and not _measure_before(text, cs):
        return None
    glued = _GLUED_UNIT_RE.search(chunk) is not None and (coarse != "LOCATION" or _measure_before(text, cs))
    if glued or _UNIT_AFTER_RE.match(text, ce):
        if coarse == "AGE":
            return (
                "duration" if _DURATION_BEFORE_RE.search(before) or _AGO_AFTER_RE.match(text, ce) else "unit"
            )
        return "unit"
    if coarse == "AGE" and _AGO_AFTER_RE.match(text, ce):
        return "duration"
    ratio = _RATIO_RE.match(chunk)
    if ratio:
        a, b = int(ratio.group("a")), int(ratio.group("b"))
        calendar = (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)
        calendar = calendar or (1 <= a <= 12 and 32 <= b <= 99)  # 12/98: month and two-digit year
        if not calendar or _SCORE_AFTER_RE.match(after):
            return "ratio"
        if _STRONG_DATE_CUE_RE.search(before) or _CLOCK_AFTER_RE.match(text, ce):
            return None
        if coarse == "DATE" and (
            _DATE_CUE_RE.search(before)
            or re.match(r"[ \t]*\)?[ \t]*:", after)
            or _EVENT_BEFORE_RE.search(before)
        ):
            return None  # "WBC 9.1 on 2/06", "HbA1c (7/11): 7.9%", "cycle 4 day 1, 7/30"
        if _measure_before(text, cs):
            return "ratio"
    rng = _RANGE_RE.match(chunk)
    month_day = rng is not None and re.fullmatch(r"(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])", chunk)
    if month_day and (_STRONG_DATE_CUE_RE.search(before) or _CLOCK_AFTER_RE.match(text, ce)):
        return None  # "Date of service: 8-20", "12-30 15:25"
    if rng:
        lo_v, hi_v = float(rng.group("a")), float(rng.group("b"))
        round_pair = lo_v % 10 == 0 and hi_v % 10 == 0
        if hi_v > lo_v and (coarse != "CONTACT" or round_pair or _measure_before(text, cs)):
            return "range"
    if _measure_before(text, cs):
        return "measurement"
    if _drug_before(text, cs):
        return "dose"
    if _DECIMAL_RE.match(chunk) and coarse in ("DATE", "AGE", "ID", "LOCATION"):
        return "decimal"
    if coarse == "AGE" and (int(re.sub(r"\D", "", surface) or 0) > 125):
        return "measurement"
    return None


# --- decisions on words -------------------------------------------------------------------------------
_TITLE_CASE_ABBREVS = frozenset({"MR", "MS"})


def _word_weight(tok: str, caseless: bool, sentence_start: bool) -> int:
    """How strongly one word reads as clinical/common (0: it may be a name or place)."""
    v = clinical_vocabulary()
    low = tok.lower().strip("'’")
    if low.endswith(("'s", "’s")):
        low = low[:-2]
    if low in v.care_units:
        return 3
    proper = not caseless and tok[:1].isupper() and not tok.isupper() and not sentence_start
    if proper and low in v.common and low not in v.drugs:
        return 0  # "our social worker, Brown": a capitalised common word mid-sentence may be a name
    clinical = low in v.clinical or tok in v.abbreviations or (caseless and tok.upper() in v.abbreviations)
    if clinical:
        return 1 if low in v.ambiguous else 2
    if re.fullmatch(r"pgy-?\d", low):
        return 2
    if low in v.common:
        if not caseless and tok[:1].isupper() and not sentence_start:
            return 0  # a capitalised word mid-sentence in mixed case: possibly a proper name
        if low in v.names:
            return 1 if caseless and low not in v.first_names else (1 if not tok[:1].isupper() else 0)
        return 2 if not caseless and tok[:1].islower() else 1
    return 0


def _alone_on_line(text: str, span: Span) -> bool:
    lo, hi = _line_bounds(text, span.start, span.end)
    return not text[lo : span.start].strip() and not text[span.end : hi].strip(" \t.,:;")


def _sentence_start(text: str, start: int) -> bool:
    before = text[max(0, start - 6) : start]
    return start == 0 or re.search(r"(?:[.!?:;]\s+|\n\s*|^\s*|[-•*]\s+)\Z", before) is not None


def _word_reason(text: str, span: Span, coarse: str, keep_generic: bool = False) -> str | None:
    """The clinical reason to drop a word span, or None to keep it."""
    if span.label in PROTECTED_LABELS or coarse == "PROFESSION":
        return None
    surface = text[span.start : span.end]
    if coarse == "DATE" and not keep_generic and _WEEKDAY_RE.fullmatch(surface.strip()):
        return "weekday"
    before = _before(text, span.start, 40)
    caseless = _caseless(text, span.start, span.end)
    title = _TITLE_BEFORE_RE.search(before)
    title_weight = 0
    if title is not None:
        t = title.group("t")
        ambiguous_title = t.upper() in _TITLE_CASE_ABBREVS and t.isupper() and not caseless
        title_weight = 0 if ambiguous_title else 3
    if re.fullmatch(r"[A-Z]\.?", surface.strip()):
        return None if title_weight else "lone-initial"

    toks = list(_TOKEN_RE.finditer(surface))
    toks = [m for m in toks if len(m.group().rstrip(".")) > 1]
    if not toks:
        return None
    weights = []
    kinds = []
    v = clinical_vocabulary()
    for i, m in enumerate(toks):
        tok = m.group()
        abs_start = span.start + m.start()
        w = _word_weight(tok, caseless, i == 0 and _sentence_start(text, abs_start))
        weights.append(w)
        low = tok.lower()
        kinds.append(
            "care-unit"
            if low in v.care_units
            else (
                "common"
                if w and low in v.common and low not in v.clinical and tok not in v.abbreviations
                else "clinical"
            )
        )
    lows = [m.group().lower().strip("'’") for m in toks]
    if " ".join(lows) in v.care_units:
        weights = [3] * len(weights)  # "Family Medicine", "blood bank", "the floor"
        kinds = ["care-unit"] * len(kinds)
    strength = min(weights)
    if strength == 0:
        return None
    # "MERCY HOSPITAL", "St. Mary's Rehab": a facility word beside a non-unit word is a named place.
    if any(w in _FACILITY_WORDS for w in lows) and any(k != "care-unit" for k in kinds):
        return None

    evidence = title_weight
    if _CREDENTIAL_AFTER_RE.match(text, span.end):
        evidence = max(evidence, 3)
    if _FIELD_BEFORE_RE.search(before):
        evidence = max(evidence, 2)
    if coarse == "NAME":
        if _NAME_AGE_AFTER_RE.match(text, span.end):
            evidence = max(evidence, 1 if caseless else 3)  # "AD, 48 F": initials before an age and sex
        if _KIN_BEFORE_RE.search(before) and lows[0] in v.first_names:
            evidence = max(evidence, 3)  # "HUSBAND ALF", "daughter mary"
        elif _KIN_BEFORE_RE.search(before) or _ROLE_BEFORE_RE.search(before):
            evidence = max(evidence, 2)
    if coarse == "LOCATION" and _PLACE_BEFORE_RE.search(before):
        evidence = max(evidence, 1)
    # "in MAR" in a mixed-case line is the medication administration record, not March.
    if coarse == "DATE" and _DATE_WORD_CUE_RE.search(before) and (caseless or not surface.isupper()):
        evidence = max(evidence, 2)
    if span.label == "DEPARTMENT" and _DEPT_FIELD_RE.search(before):
        evidence = max(evidence, 3)
    if _alone_on_line(text, span):
        evidence = max(evidence, 2)  # a letterhead or signature line: "PMC", "GH"
    if span.label in _REGION_LABELS:
        address = _ADDRESS_BEFORE_RE.search(before)
        if (address and not is_clinical_word(address.group("w"))) or _ZIP_AFTER_RE.match(text, span.end):
            return None
        if all(k == "common" for k in kinds):
            return None  # "Georgia", "Hawaii": the policy decides about states and countries
    if strength <= evidence:
        return None
    if all(k == "care-unit" for k in kinds) or strength == 3:
        return None if keep_generic and span.label == "DEPARTMENT" else "care-unit"
    if all(k == "common" for k in kinds):
        return "common-word"
    return "clinical-term"


# --- API ------------------------------------------------------------------------------------------------
_WS_TOKEN_RE = re.compile(r"\S+")


def _trim_name(text: str, span: Span) -> Span:
    """A name span without function words at its edges ("its Herzog" -> "Herzog")."""
    stop = _stopwords()
    toks = list(_WS_TOKEN_RE.finditer(text, span.start, span.end))
    core = [m for m in toks if _keep_edge(m.group(), stop)]
    if not core or len(core) == len(toks):
        return span
    start, end = core[0].start(), core[-1].end()
    while end > start and text[end - 1] in ",;:":
        end -= 1
    if start == span.start and end == span.end:
        return span
    return Span(start, end, span.label, span.score, span.source)


def _keep_edge(tok: str, stop: frozenset[str]) -> bool:
    word = tok.strip(",;:()'’")
    # initials ("I. Rodenas", "A. Cudic") are name parts, not the words "I" and "a"
    return len(word.rstrip(".")) < 2 or word.endswith(".") or word.lower() not in stop


@cache
def _stopwords() -> frozenset[str]:
    return frozenset(_read_lines("wordnet", "stopwords.txt"))


def _reason(text: str, span: Span, coarse: str, keep_generic: bool = False) -> str | None:
    surface = text[span.start : span.end]
    if any(c.isdigit() for c in surface):
        if any(w in _MONTHS for w in re.findall(r"[a-z]+", surface.lower())):
            return None  # "March 3", "november 1, 2018"
        parts = list(_WS_TOKEN_RE.finditer(text, span.start, span.end))
        numeric = [m for m in parts if any(c.isdigit() for c in m.group())]
        words = [m.group() for m in parts if not any(c.isdigit() for c in m.group())]
        if words and numeric:
            # "RCVD 1412": clinical words beside a number; the number decides.
            caseless = _caseless(text, span.start, span.end)
            if not all(_word_weight(w.strip(".,:;()"), caseless, False) for w in words if w.strip(".,:;()")):
                return None
            sub = Span(numeric[0].start(), numeric[-1].end(), span.label, span.score, span.source)
            return _number_reason(text, sub, coarse)
        return _number_reason(text, span, coarse)
    if any(c.isalpha() for c in surface):
        return _word_reason(text, span, coarse, keep_generic)
    return None


def decide(doc: Document, spans: Sequence[Span], *, keep_generic: bool = False) -> list[GuardDecision]:
    """Decide, for each span of ``doc``, whether it stays; the reason is set for dropped spans.

    Args:
        doc: the document the spans index.
        spans: proposed PHI spans (fine or coarse labels).
        keep_generic: keep what i2b2 annotates although it identifies no one: ``DEPARTMENT`` spans
            that are generic service or unit names ("Cardiology", "Coronary Care Unit") and bare
            weekday names ("on Monday"). Without it (Safe Harbor) they are dropped as ``care-unit``
            and ``weekday``.

    A kept name span may come back narrower: function words at its edges are cut
    (``its Herzog`` -> ``Herzog``) and counted under ``edge-word``.
    """
    out: list[GuardDecision] = []
    text = doc.text
    for span in spans:
        try:
            coarse = fold(span.label, "coarse") or span.label
        except LabelError:  # a corpus's own type (--labels native): no guard rule applies
            coarse = span.label
        if coarse == "NAME":
            trimmed = _trim_name(text, span)
            if trimmed is not span:
                reason = _reason(text, trimmed, coarse, keep_generic)
                out.append(GuardDecision(trimmed, reason is None, reason or "edge-word"))
                continue
        reason = _reason(text, span, coarse, keep_generic)
        out.append(GuardDecision(span, reason is None, reason))
    return out


def guard(
    doc: Document,
    spans: Sequence[Span],
    counts: Counter[str] | None = None,
    *,
    keep_generic: bool = False,
) -> list[Span]:
    """Return the spans of ``doc`` that survive the clinical-context guard, in their order.

    Args:
        doc: the document the spans index.
        spans: proposed PHI spans (any labels, fine or coarse).
        counts: when given, incremented by one per dropped span under its reason (no text).
        keep_generic: see :func:`decide`.

    Returns:
        The kept spans.
    """
    kept: list[Span] = []
    for d in decide(doc, spans, keep_generic=keep_generic):
        if d.keep:
            kept.append(d.span)
        if counts is not None and d.reason is not None:
            counts[d.reason] += 1
    return kept
