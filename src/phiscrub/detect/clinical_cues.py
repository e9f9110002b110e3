"""Context cues of the clinical-context guard: cue patterns and where a span sits in its note.

The patterns before and after a span that :mod:`phiscrub.detect.clinical` weighs (measurement words
and units, age, date, identifier, contact and room cues, titles, credentials, kinship and role
words, place cues, clock-time and score shapes) and the helpers that read a span's line, chunk and
neighbourhood.
"""

from __future__ import annotations

import re
from functools import lru_cache

from phiscrub.detect.clinical_vocab import clinical_vocabulary, words_pattern

# Vital signs, labs, I/O, vent settings, scores: a number right after one of these is a measurement.
MEASURE_WORDS = words_pattern(
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
    fim barthel mrc strength power tone reflexes dtr dtrs day pod hd dol cycle c fraction fractions
    drip gtt gtts infusion bolus dose doses rate tf tfs feeds feed free flush flushes
    ua sg ketones protein hr's bp's sbps hrs's ntprobnp probnp hemoglobin platelets potassium sodium
    creatinine magnesium calcium phosphorus chloride bicarb cortisol cea ca125 afp beta hcg bhcg
    fhr fht fhts cx dilation dilated station effaced ctx ctxs contractions rom
    incentive spirometer spirometry ana titer titre rpr
    qtc qt qrs pr axis vent amp amps
    """
)
MEASURE_RE = re.compile(rf"(?<![\w/])(?:{MEASURE_WORDS})(?![\w/])", re.IGNORECASE)
# What may sit between a measurement word and its number: other numbers, units, glue words.
GLUE_RE = re.compile(
    r"(?:[ \t\d.:=/()<>~%+\-–@#]|->|x\d|"
    r"(?<![A-Za-z])(?:of|to|from|up|down|now|today|tonight|yesterday|last|prior|this|am|pm|was|is|were"
    r"|the|range|goal|baseline|ranging|approx|about|around|mid|high|low|upper|lower|increased|decreased"
    r"|incr|decr|inc|dec|up|down|trending|trended|then|and|with|w|visit|check|checked|recheck|repeat|initial"
    r"|ra|nc|l|lpm|mmhg|bpm|mg|dl|mg/dl|meq|mmol|cc|ml|cc/hr|ml/hr|units|u|mcg|kg|min|hr|hrs|s|'s)(?![A-Za-z])"
    r")*\Z",
    re.IGNORECASE,
)
UNIT_AFTER_RE = re.compile(
    r"(?:[ \t]?(?:%|°|/(?:min|hr|h|d|day|kg|dl|l|ul|μl|µl|mm3|hpf|lpf)\b)"
    r"|[ \t]?(?:mg|mcg|ug|µg|g|gm|grams?|kg|lbs?|oz|ml|mls|l|dl|cc|cc's|mmol|meq|units?|u|iu|mmhg|mm|cm"
    r"|inch(?:es)?|ft|feet|bpm|mins?|minutes?|hrs?|hours?|h|days?|d|wks?|weeks?|mos?|months?|yrs?|years?"
    r"|x|times|tabs?|tablets?|caps?|capsules?|puffs?|drops?|gtts?|sprays?|cells|k|ng|pg|secs?|seconds?"
    r"|beats|breaths|kcal|cal|ppm|fr|french|gauge|ga|lpm|l/min|nc|pack|ppd|pk|joules|j|mv|ms|cmh2o|ft"
    r"|steps|reps|sets|servings|drinks|beers|cigarettes|cans|pts|points|mets|degrees?|deg)(?![A-Za-z]))",
    re.IGNORECASE,
)
AGE_AFTER_RE = re.compile(
    r"[ \t]*(?:-[ \t]*)?(?:yo\b|y/o|y\.o\.?|yoa|years?[ \t-]*old|yrs?[ \t-]*old|y[ \t]?[mf]\b|[mf]\b"
    r"|-?years?-old|-?yr-old|month[s]?[ \t-]*old|(?:year|yr)[ \t]old"
    r"|(?:male|female|man|woman|boy|girl|gentleman|lady|gent)\b)",
    re.IGNORECASE,
)
AGE_BEFORE_RE = re.compile(
    r"\b(?:age|aged|ages|age[ \t]+of|age[ \t]*/[ \t]*(?:sex|gender)|(?:his|her|their)(?:[ \t]+(?:early|mid|late))?)"
    r"[ \t:=\-]*\Z",
    re.IGNORECASE,
)
DURATION_BEFORE_RE = re.compile(
    r"(?:\b(?:x|for|over|past|last|in|q|every|within)|[x×])[ \t]*\Z", re.IGNORECASE
)
AGO_AFTER_RE = re.compile(
    r"[ \t]*(?:yrs?|years?|mos?|months?|wks?|weeks?|days?|d)?[ \t]*(?:ago|prior|earlier|before)\b",
    re.IGNORECASE,
)
ID_CUE_RE = re.compile(
    r"(?:\b(?:mrn|mr|med[ \t]*rec|medical[ \t]+record|acct|account|id|ssn|ss|no|num|number|accession|acc"
    r"|job|member|policy|plan|group|license|lic|npi|dea|serial|lot|mbi|hicn|claim|case|encounter|enc|fin"
    r"|csn|har|visit|ref|reference|confirmation|auth|authorization|device|tag|plate|vin|badge)\b\.?"
    r"|#)[ \t:#.]*\Z",
    re.IGNORECASE,
)
DATE_CUE_RE = re.compile(
    r"\b(?:dob|d\.o\.b|date|dated|dos|doa|dod|adm|admit|admitted|admission|discharged?|d/c|dc|born|birth"
    r"|expired|died|death|seen|visit|on|since|from|until|till|thru|through|last|next|dated|in|quit|dx"
    r"|diagnosed|s/p|hx|h/o|status\s+post|comparison|compared|prior|performed|done|placed|started|stopped"
    r"|scheduled|appt|appointment|f/u|follow[ -]?up|returns?|rtc|due|by|before|after|of|between|around"
    r"|about|approx|approximately|circa|ca|early|late|mid|implanted|underwent|showed|shows|report|reported"
    r"|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"[ \t:\-]*\Z|\([ \t]*\Z",
    re.IGNORECASE,
)
CONTACT_CUE_RE = re.compile(
    r"\b(?:phone|ph|tel|telephone|call|calls|called|cell|mobile|home|work|pager|pgr|page|paged|beeper|fax"
    r"|contact|number|no|at|ext|x|#)[ \t:#.]*\Z",
    re.IGNORECASE,
)
ROOM_CUE_RE = re.compile(
    r"\b(?:room|rm|bed|bedspace|bay|pod|cell|housing|or|zip|apt|suite|ste|box|unit|ward|floor)\b[ \t:#.]*\Z",
    re.IGNORECASE,
)
# Cues strong enough to make any m/d or m-d shape a date, whatever label it was proposed with.
STRONG_DATE_CUE_RE = re.compile(
    r"\b(?:date|dated|dos|dob|d\.o\.b|admitted|admit|adm|discharged|discharge|seen|on|service)[ \t:.#\-]*\Z",
    re.IGNORECASE,
)
CLOCK_AFTER_RE = re.compile(r"[ \t,]+(?:@[ \t]*)?(?:[01]?\d|2[0-3]):[0-5]\d")
# Right before a clock time: "@ 1615", "at 1945", "RCVD 1412", "given 2000".
TIME_CUE_RE = re.compile(
    r"(?:@|~|\b(?:at|by|around|approx|approximately|until|till|starting|start|since|from|to|after|before"
    r"|given|paged|called|notified|arrived|returned|rcvd|recvd|received|scene|transport|transported"
    r"|dest|departed|left|ended|began|dose|due|last|next|bedside|overnight|shift|time|timed|tonight"
    r"|this\s+am|this\s+pm|am|pm|noted|found|started|stopped|held|resumed|drawn|sent|done|extubated"
    r"|intubated|pulled|placed|changed|removed|checked|rechecked|repeat|report|reported)\b)[ \t:.,]*\Z",
    re.IGNORECASE,
)
# For values that are also plausible years (1920-2059) only cues no year takes: "@ 1945", "at 1955".
TIME_CUE_STRONG_RE = re.compile(
    r"(?:@|~|\b(?:at|given|paged|called|notified|arrived|rcvd|recvd|scene|transport|transported|dest"
    r"|departed|bedside|overnight|shift|tonight|this\s+am|this\s+pm|extubated|intubated|drawn|checked"
    r"|rechecked|report|reported|last\s+dose|dose|due)\b)[ \t:.,]*\Z",
    re.IGNORECASE,
)
# A number after a comma that follows a complete value ("day 1, 7/30") starts a new item.
EVENT_BEFORE_RE = re.compile(r"\d[ \t]*[,;][ \t]*\Z")
LINE_START_TIME_RE = re.compile(r"(?:^|\n)[ \t]*(?:-[ \t]*)?\Z")
SCORE_AFTER_RE = re.compile(
    r"[ \t]*(?:\w+[ \t]+)?(?:tabs?|tablets?|caps?|strength|murmur|holosystolic|systolic|diastolic|pain"
    r"|bottles?|cultures?|sets?|views?|nodes?|cores?|ratio|score|scale|power|reflexes|motor|bilat|b/l"
    r"|throughout|criteria|items?|points?|correct|words?|recall|lobes?|vessels?|segments?|quadrants?"
    r"|fingers?|digits?|positive|negative|dilated|effaced)\b",
    re.IGNORECASE,
)
TITLE_BEFORE_RE = re.compile(
    r"\b(?P<t>dr|drs|doctor|prof|professor|mr|mrs|ms|miss|mx)\.?[ \t]*\Z",
    re.IGNORECASE,
)
CREDENTIAL_AFTER_RE = re.compile(
    r"(?:,[ \t]*[A-Z][A-Za-z]{1,6}(?:-[A-Z]{1,4})?)*?,?[ \t]*(?:MD|M\.D\.|DO|RN|NP|PA-C|PA|DDS|DMD|PharmD|PhD|CRNA|CNM|LPN|LCSW|LICSW|DPT|RRT|FNP|DNP"
    r"|APRN|NNP|CNA|MSW|RD|RDN|OTR/L|CCC-SLP|PT|OT|SLP)(?![\w-])"
)
# A department named in a location field ("Unit: Cardiology", "LOC: SLEEP MEDICINE", "Mercy Hospital,
# Nephrology") is where the patient is; a unit word in running text ("transferred to MICU") is not.
DEPT_FIELD_RE = re.compile(
    r"(?:\b(?:unit|location|loc|ward|service|svc|dept|department|housing|bed|transferring\s+(?:from|to)"
    r"|sending|receiving|from|to|admit\s+to|admitted\s+to|floor)[ \t]*:[ \t]*"
    r"|\b(?:hospital|center|centre|clinic|institute|health|system|infirmary|medical)[ \t]*[,\-–—|/][ \t]*)\Z",
    re.IGNORECASE,
)
FIELD_BEFORE_RE = re.compile(
    r"\b(?:name|patient|pt|attending|pcp|surgeon|assist|assistant|anes|anesthesia|provider|physician"
    r"|consultant|consult|nurse|rn|np|pa|therapist|social\s+worker|case\s+manager|coordinator|contact"
    r"|caregiver|guardian|emergency\s+contact|next\s+of\s+kin|nok|spouse|mother|father|from|to"
    r"|institution|facility|site|agency|practice|organization|company|sending|receiving|employer"
    r"|resident|fellow|intern|author|signed|by|to|cc|re|referring|ordering|hospital|facility|nursing\s+home"
    r"|snf|rehab|pharmacy|employer|school|address|city|town|lives\s+in|from)[ \t]*:[ \t]*\Z",
    re.IGNORECASE,
)
KIN_WORDS = words_pattern(
    """
    wife husband spouse partner son sons daughter daughters mother father mom dad mum brother brothers
    sister sisters sibling niece nephew aunt uncle cousin grandson granddaughter grandmother grandfather
    grandma grandpa fiance fiancee fiancé fiancée boyfriend girlfriend friend neighbor neighbour guardian
    proxy hcp poa caregiver stepson stepdaughter stepmother stepfather mother-in-law father-in-law
    son-in-law daughter-in-law sil dil dtr gf bf
    """
)
ROLE_WORDS = words_pattern(
    """
    per d/w dw paged called notified informed updated rn np md pa lpn cna crna resident fellow intern
    attending pcp hospitalist surgeon nurse therapist pharmacist chaplain dietitian contacted texted
    messaged emailed asked told cc worker manager coordinator navigator aide tech technician counselor
    interpreter chaplain advocate
    """
)
KIN_BEFORE_RE = re.compile(rf"(?<![\w-])(?:{KIN_WORDS})(?:'s)?[ \t:,]*(?:\([ \t]*)?\Z", re.IGNORECASE)
ROLE_BEFORE_RE = re.compile(
    rf"(?:(?<![\w-])(?:{ROLE_WORDS})(?:[ \t]*,)?|\b(?:discussed|spoke|spoken|reviewed|met|talked|signed\s+out|handed\s+off"
    r"|endorsed|report(?:ed)?|seen|evaluated|examined|covered)[ \t]+(?:with|to|by|w/))[ \t:,]*\Z",
    re.IGNORECASE,
)
PLACE_BEFORE_RE = re.compile(
    r"\b(?:at|from|to|in|into|near|seen\s+at|transferred\s+(?:from|to)|admitted\s+(?:from|to)|discharged\s+to"
    r"|transfer\s+(?:from|to)|tx\s+(?:from|to)|went\s+to|lives\s+in|resides\s+in|followed\s+at|f/u\s+at"
    r"|moved\s+to|visiting|works\s+at|employed\s+at|via)[ \t]+(?:the[ \t]+)?\Z",
    re.IGNORECASE,
)
DATE_WORD_CUE_RE = re.compile(
    r"\b(?:in|since|of|last|next|early|mid|late|until|by|on|from|this|before|after|during|through)[ \t]+\Z",
    re.IGNORECASE,
)
WEEKDAY_RE = re.compile(
    r"(?i:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\.?|thursdays?|wednesdays?)"
)
NAME_AGE_AFTER_RE = re.compile(
    r",?[ \t]+\d{1,3}[ \t]?(?:y/o|yo|y\.o\.|YO|Y/O|-year-old|[ \t]year[ \t]old|[MF](?![\w]))"
)
TOKEN_RE = re.compile(r"[^\W\d_](?:[\w'’\-/&]*[^\W_])?")
DRUG_BEFORE_RE = re.compile(r"([A-Za-z][A-Za-z\-]{2,})[ \t]+(?:\S+[ \t]+)?\Z")


# --- helpers -------------------------------------------------------------------------------------------
# Lines are looked for at most this far from a span, so that a note of one huge line (or many spans
# on it) stays linear in its length: a longer line is read as the stretch around the span.
LINE_REACH = 1000


def line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    floor = max(0, start - LINE_REACH)
    lo = text.rfind("\n", floor, start) + 1 or floor
    ceiling = min(len(text), end + LINE_REACH)
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


def caseless_at(text: str, start: int, end: int) -> bool:
    """True when letter case carries no information around the span: an ALL-CAPS or all-lower line."""
    lo, hi = line_bounds(text, start, end)
    letters, upper = _upper_share(text[lo:hi])
    if letters < 20:
        letters, upper = _note_upper_share(text)
    if not letters:
        return True
    return upper >= 0.85 or upper <= 0.03


def chunk_bounds(text: str, start: int, end: int) -> tuple[int, int]:
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


CLOCK4_RE = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
CLOCK_RE = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:[ \t]?(?:[ap]\.?m?\.?))?\Z", re.IGNORECASE)
CLOCK_SUFFIX_RE = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d[ \t]?(?:h|hr|hrs|hours)\Z", re.IGNORECASE)
SHIFT_RE = re.compile(
    r"(?:(?:1[0-2]|0?[1-9])(?::?[0-5]\d)?[ \t]?[ap]m?|(?:[01]\d|2[0-3]):?[0-5]\d)[ \t]*(?:-|–|to)[ \t]*"
    r"(?:(?:1[0-2]|0?[1-9])(?::?[0-5]\d)?[ \t]?[ap]m?|(?:[01]\d|2[0-3]):?[0-5]\d)\Z",
    re.IGNORECASE,
)
DECADE_RE = re.compile(
    r"(?:\d{2,3}['’]?s(?:[-–/]\d{2,3}['’]?s?)*|\d{2,3}[-–/]\d{2,3}['’]?s)\Z", re.IGNORECASE
)
RANGE_RE = re.compile(r"(?P<a>\d+(?:\.\d+)?)[ \t]*(?:-|–|to)[ \t]*(?P<b>\d+(?:\.\d+)?)\D{0,6}\Z")
RATIO_RE = re.compile(r"(?P<a>\d{1,3})/(?P<b>\d{1,3})\Z")
FULL_DATE_RE = re.compile(r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}|\d{1,2}/(?:19|20)\d\d")
DECIMAL_RE = re.compile(r"\d+\.\d{1,3}\Z")
OBSTETRIC_RE = re.compile(r"(?:G\d{1,2}P\d{1,4}(?:-\d{1,4})*|\d{1,2}w\d(?:d)?|\d{1,2}\+\d)\Z", re.IGNORECASE)
GLUED_UNIT_RE = re.compile(
    r"\d(?:\.\d+)?(?:cc|ml|mls|mg|mcg|meq|mmol|units?|u|kg|g|gm|l|mmhg|bpm|%|u/hr|ml/hr|cc/hr|mg/hr"
    r"|mcg/min|mcg/kg/min|units/hr|lpm|fr|ga|mm|cm|min|mins|hrs?|h|d|x)\Z",
    re.IGNORECASE,
)


def text_before(text: str, start: int, n: int = 40) -> str:
    lo = max(text.rfind("\n", max(0, start - n), start) + 1, start - n, 0)
    return text[lo:start]


def text_after(text: str, end: int, n: int = 30) -> str:
    hi = text.find("\n", end, end + n)
    hi = len(text) if hi < 0 else hi
    return text[end : min(hi, end + n)]


def measurement_before(text: str, start: int) -> bool:
    """True when a measurement word (vital, lab, I/O, score, vent setting) leads up to ``text[start:]``.

    Only numbers, units and glue words ("goal", "to", "from", "->") may lie between the word and
    ``start`` on the same line: ``sbp 90-`` and ``trough 22.4 (goal `` lead up to a measurement.
    """
    before = text_before(text, start, 45)
    for m in reversed(list(MEASURE_RE.finditer(before))):
        if GLUE_RE.match(before, m.end()):
            return True
    return False


def drug_before(text: str, start: int) -> bool:
    """A drug name within the two words before (``oxycodone 5-10``, ``levothyroxine 75 -> 88``)."""
    v = clinical_vocabulary()
    before = text_before(text, start, 40)
    for m in reversed(list(re.finditer(r"[A-Za-z][A-Za-z\-]+", before))[-3:]):
        # everything between the drug and the number is numbers and glue ("5 ->", "incr to")
        gap = before[m.end() :]
        if not GLUE_RE.match(gap) and not re.fullmatch(
            r"[ \t\d.:/()\-x>]*(?:incr|decr|to|->)?[ \t\d.:/()\-x>]*", gap
        ):
            break
        if m.group().lower() in v.drugs and m.group().lower() not in v.common:
            return True
    return False
