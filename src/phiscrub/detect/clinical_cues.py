"""Context cues of the clinical-context guard: cue patterns and where a span sits in its note.

The patterns before and after a span that :mod:`phiscrub.detect.clinical` weighs (measurement words
and units, age, date, identifier, contact and room cues, titles, credentials, kinship and role
words, place cues, clock-time and score shapes) and the helpers that read a span's line, chunk and
neighbourhood.
"""

from __future__ import annotations

import re
from functools import lru_cache

from phiscrub.detect.clinical_vocab import clinical_vocabulary, stopwords, words_pattern
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.document import Span

# A culture of one specimen that is not blood, right before an x/y ("drain cx 3/3 E. coli", "UCx 1/12
# neg", "sputum cx 4/2"): such a culture is one sample, not a count of bottles, so the x/y is the day it
# was sent (blood cultures are the ones counted in bottles: "BCx 2/2").
SPECIMEN_CULTURE_BEFORE_RE = re.compile(
    r"(?:\bucx|\b(?:urine|ur|u|sputum|spt|drain|wound|stool|csf|fluid|tip|resp|bal|tissue|abscess|pleural"
    r"|peritoneal|joint|bone|throat|nasal|swab|jp|trach|catheter|cath|line|bile|body\s+fluid)[ \t]*"
    r"(?:cx|cxs|cultures?|cult)|\bcultured)\b[ \t:#]*(?:(?:on|from|of|sent|drawn|collected)[ \t]+)?\Z",
    re.IGNORECASE,
)


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
# What may sit between a measurement word and its number: other numbers, units, glue words.
_GLUE_WORDS = words_pattern(
    """
    of to from up down now today tonight yesterday last prior this am pm was is were the range goal
    baseline ranging approx about around mid high low upper lower increased decreased incr decr inc dec
    trending trended then and with w visit check checked recheck repeat initial ra nc l lpm mmhg bpm mg
    dl mg/dl meq mmol cc ml cc/hr ml/hr units u mcg kg min hr hrs s 's
    """
)

_RX = pattern_data("clinical_cues", globals())

_UNIT_WORDS = words_pattern(
    """
    mg mcg ug µg g gm gram grams kg lb lbs oz ml mls l dl cc cc's mmol meq unit units u iu mmhg mm cm inch
    inches ft feet bpm min mins minute minutes hr hrs hour hours h day days d wk wks week weeks mo mos month
    months yr yrs year years x times tab tabs tablet tablets cap caps capsule capsules puff puffs drop drops
    gtt gtts spray sprays cells k ng pg sec secs second seconds beats breaths kcal cal ppm fr french gauge
    ga lpm l/min nc pack ppd pk joules j mv ms cmh2o steps reps sets servings drinks beers cigarettes cans
    pts points mets degree degrees deg
    """
)
UNIT_AFTER_RE = re.compile(
    rf"(?:[ \t]?(?:%|°|/(?:min|hr|h|d|day|kg|dl|l|ul|μl|µl|mm3|hpf|lpf)\b)|[ \t]?(?:{_UNIT_WORDS})(?![A-Za-z]))",
    re.IGNORECASE,
)
_AGE_FORMS = words_pattern(
    "y/o y.o. y.o yoa year-old years-old -year-old -years-old yr-old -yr-old year_old yr_old"
)
_AGE_NOUNS = words_pattern("male female man woman boy girl gentleman lady gent")
AGE_AFTER_RE = re.compile(
    rf"[ \t]*(?:-[ \t]*)?(?:yo\b|{_AGE_FORMS}|years?[ \t-]*old|yrs?[ \t-]*old|y[ \t]?[mf]\b|[mf]\b"
    rf"|month[s]?[ \t-]*old|(?:{_AGE_NOUNS})\b)",
    re.IGNORECASE,
)
_AGE_LEAD = (
    r"age|aged|ages|age[ \t]+of|age[ \t]*/[ \t]*(?:sex|gender)|(?:his|her|their)(?:[ \t]+(?:early|mid|late))?"
    # "Pt is 95." (issue 28, item 10): a bare number said of the patient, found by rule age_is
    r"|(?:pt\.?|patient|he|she)[ \t]+(?:is|was)(?:[ \t]+now)?"
)
AGE_BEFORE_RE = re.compile(rf"\b(?:{_AGE_LEAD})[ \t:=\-]*\Z", re.IGNORECASE)
DURATION_BEFORE_RE = re.compile(
    r"(?:\b(?:x|for|over|past|last|in|q|every|within)|[x×])[ \t]*\Z", re.IGNORECASE
)
AGO_AFTER_RE = re.compile(
    r"[ \t]*(?:yrs?|years?|mos?|months?|wks?|weeks?|days?|d)?[ \t]*(?:ago|prior|earlier|before)\b",
    re.IGNORECASE,
)


def _cue_before(items: str, tail: str, extra: str = "") -> re.Pattern[str]:
    """A case-blind pattern for a cue word (``items``, white-space separated, ``_`` for a space) that
    ends a text, followed only by ``tail``; ``extra`` adds raw alternatives."""
    alternatives = words_pattern(items) + (f"|{extra}" if extra else "")
    return re.compile(rf"\b(?:{alternatives})(?![\w/]){tail}\Z", re.IGNORECASE)


ID_CUE_RE = re.compile(
    r"(?:\b(?:"
    + words_pattern(
        """
        mrn mr medrec med_rec medical_record acct account id ssn ss no num number accession acc job member
        policy plan group license lic npi dea serial lot mbi hicn claim case encounter enc fin csn har visit
        ref reference confirmation auth authorization device tag plate vin badge
        """
    )
    + r")\b\.?|#)[ \t:#.]*\Z",
    re.IGNORECASE,
)
DATE_CUE_RE = re.compile(
    r"(?:\b(?:"
    + words_pattern(
        """
        dob d.o.b date dated dos doa dod adm admit admitted admission discharge discharged d/c dc born birth
        expired died death seen visit on since from until till thru through last next in quit dx diagnosed
        s/p hx h/o status_post comparison compared prior performed done placed started stopped scheduled
        appt appointment f/u follow-up followup follow_up return returns rtc due by before after of between
        around about approx approximately circa ca early late mid implanted underwent showed shows report
        reported mon tue tues wed thu thur thurs fri sat sun monday tuesday wednesday thursday friday
        saturday sunday
        """
    )
    + r")[ \t:\-]*|\([ \t]*)\Z",
    re.IGNORECASE,
)
CONTACT_CUE_RE = _cue_before(
    "phone ph tel telephone call calls called cell mobile home work pager pgr page paged beeper fax contact "
    "number no at ext x",
    r"[ \t:#.]*",
    extra="#",
)
ROOM_CUE_RE = _cue_before(
    "room rm bed bedspace bay pod cell housing or zip apt suite ste box unit ward floor", r"[ \t:#.]*"
)
# Cues strong enough to make any m/d or m-d shape a date, whatever label it was proposed with.
STRONG_DATE_CUE_RE = _cue_before(
    "date dated dos dob d.o.b admitted admit adm discharged discharge seen on service", r"[ \t:.#\-]*"
)
CLOCK_AFTER_RE = re.compile(r"[ \t,]+(?:@[ \t]*)?(?:[01]?\d|2[0-3]):[0-5]\d")
_STRONG_TIME_WORDS = """
    at given paged called notified arrived rcvd recvd scene transport transported dest departed bedside
    overnight shift tonight this_am this_pm extubated intubated drawn checked rechecked report reported
    last_dose dose due
"""
# For values that are also plausible years (1920-2059) only cues no year takes: "@ 1945", "at 1955".
TIME_CUE_STRONG_RE = re.compile(
    rf"(?:@|~|\b(?:{words_pattern(_STRONG_TIME_WORDS)})\b)[ \t:.,]*\Z", re.IGNORECASE
)
# Right before a clock time: "@ 1615", "at 1945", "RCVD 1412", "given 2000".
TIME_CUE_RE = re.compile(
    r"(?:@|~|\b(?:"
    + words_pattern(
        _STRONG_TIME_WORDS
        + """
        by around approx approximately until till starting start since from to after before returned
        received left ended began last next time timed am pm noted found started stopped held resumed sent
        done pulled placed changed removed repeat
        """
    )
    + r")\b)[ \t:.,]*\Z",
    re.IGNORECASE,
)
# A number after a comma that follows a complete value ("day 1, 7/30") starts a new item.
EVENT_BEFORE_RE = re.compile(r"\d[ \t]*[,;][ \t]*\Z")
LINE_START_TIME_RE = re.compile(r"(?:^|\n)[ \t]*(?:-[ \t]*)?\Z")
_SCORE_WORDS = words_pattern(
    """
    tab tabs tablet tablets cap caps strength murmur holosystolic systolic diastolic pain bottle bottles
    culture cultures set sets view views node nodes core cores ratio score scale power reflexes motor bilat
    b/l throughout criteria item items point points correct word words recall lobe lobes vessel vessels
    segment segments quadrant quadrants finger fingers digit digits positive negative dilated effaced
    """
)
SCORE_AFTER_RE = re.compile(rf"[ \t]*(?:\w+[ \t]+)?(?:{_SCORE_WORDS})\b", re.IGNORECASE)
TITLE_BEFORE_RE = re.compile(
    r"\b(?P<t>dr|drs|doctor|prof|professor|mr|mrs|ms|miss|mx)\.?[ \t]*\Z", re.IGNORECASE
)
_CREDENTIAL_SUFFIXES = words_pattern(
    """
    MD M.D. DO RN NP PA-C PA DDS DMD PharmD PhD CRNA CNM LPN LCSW LICSW DPT RRT FNP DNP APRN NNP CNA MSW
    RD RDN OTR/L CCC-SLP PT OT SLP
    """
)
#: Credentials a note writes in lower case after the initials that sign it ("-bg rn", "-rs, licsw"):
#: read by the sign-off rule (:mod:`phiscrub.detect.rules.names_roles`) and by the guard's evidence.
SIGNOFF_CREDENTIALS = "(?:rn|lpn|cna|np|pa-c|pa|md|rt|msw|sw|licsw|lcsw|lmft|lmhc|psyd|ot|pt|slp)"
CREDENTIAL_AFTER_RE = re.compile(
    rf"(?:,[ \t]*[A-Z][A-Za-z]{{1,6}}(?:-[A-Z]{{1,4}})?)*?,?[ \t]*(?:{_CREDENTIAL_SUFFIXES})(?![\w-])"
)
# A department named in a location field ("Unit: Cardiology", "LOC: SLEEP MEDICINE", "Mercy Hospital,
# Nephrology") is where the patient is; a unit word in running text ("transferred to MICU") is not.
_DEPT_FIELD_WORDS = words_pattern(
    "unit location loc ward service svc dept department housing bed transferring_from transferring_to "
    "sending receiving from to admit_to admitted_to floor"
)
_FACILITY_FIELD_WORDS = words_pattern(
    "hospital center centre clinic institute health system infirmary medical"
)
DEPT_FIELD_RE = re.compile(
    rf"(?:\b(?:{_DEPT_FIELD_WORDS})[ \t]*:[ \t]*|\b(?:{_FACILITY_FIELD_WORDS})[ \t]*[,\-–—|/][ \t]*)\Z",
    re.IGNORECASE,
)
FIELD_BEFORE_RE = _cue_before(
    """
    name patient pt attending pcp surgeon assist assistant anes anesthesia provider physician consultant
    consult nurse rn np pa therapist social_worker case_manager coordinator contact caregiver guardian
    emergency_contact next_of_kin nok spouse mother father from to institution facility site agency
    practice organization company sending receiving employer resident fellow intern author signed by cc re
    referring ordering hospital nursing_home snf rehab pharmacy school address city town lives_in
    """,
    r"[ \t]*:[ \t]*",
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
_HANDOFF_VERBS = words_pattern(
    "discussed spoke spoken reviewed met talked signed_out handed_off endorsed report reported seen evaluated "
    "examined covered"
)
KIN_BEFORE_RE = re.compile(
    rf"(?<![\w-])(?:(?:{KIN_WORDS})(?:'s)?|married[ \t]+to|engaged[ \t]+to|widow(?:er)?[ \t]+of)[ \t:,]*(?:\([ \t]*)?\Z",
    re.IGNORECASE,
)
# "(goes by frank)", 'prefers to be called "Bud"': the cue says a name follows, whatever the word.
NICKNAME_BEFORE_RE = re.compile(
    r"\b(?:goes|go|going)[ \t]+by[ \t]*:?[ \t]*[\"'“‘]?\Z|\b(?:prefers|likes)[ \t]+to[ \t]+be[ \t]+called[ \t]*:?[ \t]*[\"'“‘]?\Z"
    r"|\b(?:known[ \t]+as|a\.?k\.?a\.?|nicknamed?)[ \t]*:?[ \t]*[\"'“‘]?\Z"
    r"|\bprefers?[ \t]*[\"“'‘]\Z",
    re.IGNORECASE,
)
# 'Harold Rice ("Bud")', 'eugene ("gene")': a quoted word in brackets after a word (a name when that
# word is one: see the guard).
QUOTED_AFTER_WORD_RE = re.compile(r"(?P<w>[A-Za-z][a-z'’-]+)[ \t]*\([ \t]*[\"“'‘]\Z")
ROLE_BEFORE_RE = re.compile(
    rf"(?:(?<![\w-])(?:{ROLE_WORDS})(?:[ \t]*,)?|\b(?:{_HANDOFF_VERBS})[ \t]+(?:with|to|by|w/))[ \t:,]*\Z",
    re.IGNORECASE,
)
_PLACE_CUES = words_pattern(
    """
    at from to in into near seen_at transferred_from transferred_to admitted_from admitted_to discharged_to
    transfer_from transfer_to tx_from tx_to went_to lives_in resides_in followed_at f/u_at moved_to visiting
    works_at employed_at via
    """
)
PLACE_BEFORE_RE = re.compile(rf"\b(?:{_PLACE_CUES})[ \t]+(?:the[ \t]+)?\Z", re.IGNORECASE)
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
_HOUR = r"(?:(?:1[0-2]|0?[1-9])(?::?[0-5]\d)?[ \t]?[ap]m?|(?:[01]\d|2[0-3]):?[0-5]\d)"
SHIFT_RE = re.compile(rf"{_HOUR}[ \t]*(?:-|–|to)[ \t]*{_HOUR}\Z", re.IGNORECASE)
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
    for m in reversed(list(_RX["MEASURE_RE"].finditer(before))):
        if _RX["GLUE_RE"].match(before, m.end()):
            return True
    return False


def drug_before(text: str, start: int) -> bool:
    """A drug name within the two words before (``oxycodone 5-10``, ``levothyroxine 75 -> 88``)."""
    v = clinical_vocabulary()
    before = text_before(text, start, 40)
    for m in reversed(list(re.finditer(r"[A-Za-z][A-Za-z\-]+", before))[-3:]):
        # everything between the drug and the number is numbers and glue ("5 ->", "incr to")
        gap = before[m.end() :]
        if not _RX["GLUE_RE"].match(gap) and not re.fullmatch(
            r"[ \t\d.:/()\-x>]*(?:incr|decr|to|->)?[ \t\d.:/()\-x>]*", gap
        ):
            break
        if m.group().lower() in v.drugs and m.group().lower() not in v.common:
            return True
    return False


def trim_name(text: str, span: Span) -> Span:
    """A name span without function words at its edges ("its Herzog" -> "Herzog")."""
    before = text_before(text, span.start, 20)
    if _RX["NAME_FIELD_BEFORE_RE"].search(before):
        return span  # "NAME: CAN SPEIJER": a name field's value is a name from its first word
    if (
        CREDENTIAL_AFTER_RE.match(text, span.end)
        or TITLE_BEFORE_RE.search(before)
        or KIN_BEFORE_RE.search(before)
    ):
        return span  # "Will Swan, MD", "Dr. Will Miller", "son Rich March": a name from its first word
    stop = stopwords()
    toks = list(_RX["WS_TOKEN_RE"].finditer(text, span.start, span.end))
    core = [m for m in toks if _keep_edge(m.group(), stop)]
    if not core or len(core) == len(toks):
        return span
    if core[-1] is toks[-2] and _surname_after_first_name(toks[-2].group(), toks[-1].group()):
        core.append(toks[-1])  # "Dr. Ronald Young": a capitalised word after a first name
    start, end = core[0].start(), core[-1].end()
    while end > start and text[end - 1] in ",;:":
        end -= 1
    if start == span.start and end == span.end:
        return span
    return Span(start, end, span.label, span.score, span.source)


def _surname_after_first_name(first: str, last: str) -> bool:
    word = last.strip(",;:()'’")
    title = word[:1].isupper() and not word.isupper()
    return title and first[:1].isupper() and first.strip(",;:").lower() in clinical_vocabulary().first_names


def _keep_edge(tok: str, stop: frozenset[str]) -> bool:
    word = tok.strip(",;:()'’")
    # initials ("I. Rodenas", "A. Cudic") are name parts, not the words "I" and "a"
    if len(word.rstrip(".")) < 2 or word.endswith(".") or word.lower() not in stop:
        return True
    # "Will Hart", "Don Ruiz": a capitalised first name that is also a function word
    return word[:1].isupper() and not word.isupper() and word.lower() in clinical_vocabulary().first_names
