"""Name rules: names after titles, before credentials, and after field or signature labels.

Names are only taken next to a trigger, never as bare capitalised words, so eponyms
(``Parkinson's disease``, ``Foley catheter``, ``Glasgow Coma Scale``, ``Apgar``, ``Babinski``)
survive. The span excludes the title and the credential: ``Smith`` in ``Dr. Smith``, ``Jane Smith``
in ``Jane Smith, MD``.

* DOCTOR: ``Dr.``/``Dr``/``DR.``/``dr``/``Doctor``/``Prof.`` + name; name + ``, MD``/``, RN``/
  ``, NP``/``, PA-C``/``, DO``; ``Attending:``, ``PCP:``, ``Dictated by:``, ``Electronically signed by:``.
* PATIENT: ``Mr.``/``Mrs.``/``Ms.``/``Miss`` + name; ``Patient:``, ``Name:``, ``Pt:``, ``Re:``.
* RELATIVE: kinship word + name (``her son, Mark``, ``wife Mary Jones``).

A candidate is a run of up to four name-like tokens in one case style (Title, UPPER, or lower
after a lower-case title), cut at the first stop word (``Dr. visit``, ``Mr. Coffee``, ``MR. No``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from phiscrub.detect.rules.base import PatternRule, RuleDetector, trie_pattern

__all__ = ["NAME_RULES_EN", "NAME_STOPWORDS", "NameRule", "name_detector", "name_rules"]

#: Words never taken as (part of) a name after a trigger, compared lower-case.
NAME_STOPWORDS: frozenset[str] = frozenset(
    """
    a an the and or nor but not no yes of on in at to from with without for per by via as is was were be been
    are am will would should could may might can has have had do does did this that these those it its he
    she they we you i me my his her their our your him them us who whom which what when where why how all
    any some each every other another same such than then there here also only just very more most less
    said says say saw seen see sees note notes noted visit visits appt appointment appointments office
    offices clinic clinics hospital hospitals service services team teams unit units floor ward room bed
    today tonight yesterday tomorrow now later soon again ago am pm next last first second night day
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    january february march april june july august september october november december jan feb mar apr
    jun jul aug sep sept oct nov dec
    patient patients pt pts client resident fellow intern attending physician physicians provider providers
    doctor doctors dr drs mr mrs ms miss mx prof professor nurse nurses nursing staff surgeon surgeons
    family primary care general internal emergency medicine medical surgery surgical cardiology neurology
    oncology radiology pathology nephrology pulmonology pulmonary psychiatry psychology pediatrics
    urology orthopedics orthopaedics dermatology gastroenterology endocrinology hematology rheumatology
    infectious disease diseases anesthesia anesthesiology obstetrics gynecology ophthalmology ent
    cardiothoracic vascular trauma critical palliative hospice rehab rehabilitation therapy
    gi ed er icu micu sicu ccu nicu picu or pacu ir cath lab labs
    md do rn np pa pac lpn cna crna dds dmd phd pharmd mph msn bsn dnp aprn fnp facs facc mbbs cgc lcsw
    licsw dpt otr slp rd rdn rt rrt emt ma ms mdiv bcc rdcs cpnp cnsc cphon ccrn ccm cnm ot pt psyd
    charge triage infusion research sending accepting receiving supervising covering consulting on-call
    night day evening primary bedside floor float home health hospice wound respite mother-baby l&d
    manager supervisor educator navigator coordinator practitioner station aide assistant director
    chaplain therapist technician tech specialist counselor worker veteran protocol spinal general local
    order orders recs recommendation recommendations aware notified updated paged called calling call
    plan follow up re copy cc signed dictated electronically reviewed review case discussed consult
    consulted consults consultation report reports result results name names number date time
    coffee clean bean right left both none unknown n/a na tbd pending same different new old
    home work school church store pharmacy insurance increase decrease continue start stop hold
    will would please thanks thank sincerely dear regards
    admitted discharged transferred refer referred referral
    mrn dob age sex exam dt dos acct ssn id rm ht wt bmi bp hr rr temp spo2 dx hx hpi ros
    stat prn po iv im sq bid tid qid qhs qd daily weekly monthly
    advisor telephone encounter line license shift progress tele collected employee medicaid medicare pager
    phone fax email mobile cell visit note signed
    """.split()
)

# One name-like token: Title (O'Brien, McDonald, Smith-Jones), UPPER (O'BRIEN), lower (smith) or an
# initial. A possessive "'s" stays outside ("Dr. Smith's office" -> "Smith").
_L = r"[^\W\d_]"  # any letter, accented ones included (Seničić, Kivimäki)
_WORD = rf"(?:{_L}['’](?={_L}{{2}}))?{_L}+(?:-{_L}+)*"
_TOKEN_RE = re.compile(rf"[ \t]*(?P<tok>{_L}\.(?!{_L})|{_WORD})(?![\w\-])")


def _style(tok: str) -> str:
    """Case style of a token: initial (``J.``), upper, lower or title."""
    if len(tok.rstrip(".")) == 1:
        return "initial" if tok[0].isupper() else "lower"
    if tok.isupper():
        return "upper"
    if tok[0].islower():
        return "lower"
    return "title"


def _scan_after(
    text: str, pos: int, *, lower_ok: bool, upper_ok: bool = True, max_tokens: int = 4
) -> tuple[int, int] | None:
    """Collect name tokens from ``pos`` onward; return the span of the accepted tokens or None."""
    start = end = -1
    style = ""
    count = 0
    while count < max_tokens:
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            break
        tok = m.group("tok")
        if count and text[pos : m.start("tok")] != " ":
            break  # name parts are separated by exactly one space; wider gaps are table columns
        st = _style(tok)
        if st != "initial" and tok.lower() in NAME_STOPWORDS:
            break
        if (st == "lower" and not lower_ok) or (st == "upper" and not upper_ok):
            break
        if st != "initial":
            if style and st != style:
                break  # "Dr. Smith ICU", "DR SMITH Tuesday": a change of case ends the name
            style = st
        if start < 0:
            start = m.start("tok")
        end = m.end("tok")
        pos = m.end()
        count += 1
        if st == "lower" and count >= 2:
            break
    if not style:
        return None  # nothing but initials (or nothing at all)
    return (start, end)


_BACK_TOKEN_RE = re.compile(rf"(?<![\w'’\-]){_WORD}\.?")


def _scan_before(text: str, end: int, *, max_tokens: int = 3) -> tuple[int, int] | None:
    """Collect name tokens ending at ``end`` (right to left) for ``Jane Smith, MD``."""
    base = max(0, end - 80)
    toks = list(_BACK_TOKEN_RE.finditer(text, base, end))
    chosen: list[tuple[int, int]] = []
    style = ""
    expect_end = end
    for m in reversed(toks):
        s, e = m.start(), m.end()
        if text[e:expect_end] != ("" if expect_end == end else " "):
            break  # the name touches the credential part; its tokens are one space apart
        tok = m.group()
        st = _style(tok)
        if st == "lower" or (st != "initial" and tok.endswith(".")):
            break
        if tok.lower().rstrip(".") in NAME_STOPWORDS and st != "initial":
            break
        if st != "initial":
            if style and st != style:
                break
            style = st
        chosen.append((s, e))
        expect_end = s
        if len(chosen) >= max_tokens:
            break
    if not chosen or all(_style(text[s:e]) == "initial" for s, e in chosen):
        return None
    return (chosen[-1][0], chosen[0][1])


@dataclass(frozen=True)
class NameRule(PatternRule):
    """A trigger pattern; the name is scanned after the match (``after``) or before it (``before``).

    Args:
        direction: ``after`` (titles and field labels) or ``before`` (credentials).
        lower_ok: accept lower-case name tokens (only after lower-case titles: ``dr smith``).
        upper_ok: accept UPPER-case name tokens.
    """

    direction: str = "after"
    lower_ok: bool = False
    upper_ok: bool = True

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of every name found next to a trigger."""
        for m, label in self.matches(text):
            if self.direction == "before":
                span = _scan_before(text, m.start())
            else:
                # Lower-case names ("dr smith") only after a lower-case title.
                lower_ok = self.lower_ok and m.group().lstrip()[:1].islower()
                span = _scan_after(text, m.end(), lower_ok=lower_ok, upper_ok=self.upper_ok)
            if span is not None:
                yield span[0], span[1], label


# --- triggers ------------------------------------------------------------------------------------
_DR_TITLES = r"(?:Dr|DR|dr|Drs|DRS|Prof|PROF)\.?|Doctor|DOCTOR|Professor|PROFESSOR"
_PT_TITLES = r"(?:Mr|Mrs|Ms|Mx|MRS)\.?|MR\.|MS\.|Miss|MISS|mrs\.?|mr\.|ms\."
_OPT_TITLE = r"(?:(?:Dr|DR|Mr|Mrs|Ms|MR|MRS|MS)\.?[ \t]+)?"

_TITLE_RE = re.compile(
    # The name follows after spaces, or right after the period ("Dr.Smith").
    rf"(?<![\w.])(?:(?P<dr>{_DR_TITLES})|(?P<pt>{_PT_TITLES}))(?=[ \t]|(?<=\.)[A-Z])"
)


def _title_label(m: re.Match[str]) -> str:
    return "DOCTOR" if m.group("dr") is not None else "PATIENT"


_DOCTOR_BY = trie_pattern(
    (
        "electronically signed by", "e-signed by", "esigned by", "signed by", "dictated by", "cosigned by",
        "co-signed by", "reviewed by", "read by", "interpreted by", "performed by", "requested by", "req by",
        "seen by", "referred by", "examined by", "attested by", "authenticated by",
    )
)
_DOCTOR_FIELDS = trie_pattern(
    (
        "attending", "attending physician", "attending of record", "pcp", "primary care",
        "primary care physician", "primary care provider", "surgeon", "assistant surgeon", "referring",
        "referring physician", "referring provider", "referring md", "ordering", "ordering physician",
        "ordering provider", "ordering md", "consultant", "provider", "prov", "physician", "radiologist",
        "pathologist", "anesthesiologist", "proceduralist", "cardiologist", "oncologist",
        "neurologist", "resident", "fellow", "intern", "author", "signing physician", "outgoing", "incoming",
        "treating physician", "supervising physician", "primary oncologist", "signature", "signed",
    )
)
_PATIENT_FIELDS = trie_pattern(
    (
        "patient", "patient name", "pt", "pt name", "name", "re", "client", "inmate", "decedent", "resident name",
        "member name", "child", "infant", "student", "employee", "subscriber", "insured",
    )
)
# Credentials after a name. Ambiguous ones (DO, PT, OT, SLP ...) only at the end of a phrase.
_CREDENTIAL_WORDS = (
    "MD", "M.D.", "RN", "NP", "PA-C", "DDS", "DMD", "PharmD", "PhD", "CRNA", "CNM", "LPN", "LCSW", "LICSW", "DPT",
    "OTR/L", "CCC-SLP", "RDN", "RRT", "ACNP", "ACNP-BC", "FNP", "FNP-BC", "ANP", "DNP", "MSN", "BSN", "APRN",
    "FACS", "FACC", "MBBS", "MPH", "CGC", "LMFT", "PsyD", "EMT-P", "NRP", "CCRN", "BCPS", "AuD", "DPM", "MSW",
    "LMSW", "LPC", "CNA", "AGACNP", "PMHNP", "CNP", "RD", "RDCS", "RDMS", "RVT", "CPNP", "CNSC", "CPHON", "OSW-C",
    "BCC", "MDiv", "CDCES", "CDE", "IBCLC", "CCM", "CRRN", "CHPN", "OCN", "CPN", "CEN", "CTRS", "LICSW",
)
# Ambiguous ones only at the end of a phrase ("Jane Roe, PT." but not "..., PT TO FOLLOW").
_CREDENTIAL_AMBIGUOUS_WORDS = ("DO", "D.O.", "PT", "OT", "SLP", "RT", "EMT", "Paramedic")
# Degrees that only count inside a chain ("Ann Lee, MS, CGC"; "Boston, MA" is a place).
_CREDENTIAL_CHAIN_WORDS = ("MS", "MA", "PA", "BS", "BA", "MBA", "MSc", "MHA", "MEd", "MSEd")
_CREDENTIALS = trie_pattern(_CREDENTIAL_WORDS, ignore_case=False)
_CREDENTIALS_AMBIGUOUS = trie_pattern(_CREDENTIAL_AMBIGUOUS_WORDS, ignore_case=False)
_CREDENTIALS_CHAIN = trie_pattern(
    (*_CREDENTIAL_WORDS, *_CREDENTIAL_AMBIGUOUS_WORDS, *_CREDENTIAL_CHAIN_WORDS), ignore_case=False
)
_CREDENTIALS_BARE = trie_pattern(
    ("MD", "M.D.", "DDS", "DMD", "PharmD", "CRNA", "FNP", "DNP", "PhD", "LICSW", "LCSW", "PA-C", "RN", "NP"),
    ignore_case=False,
)
_CREDENTIAL_ANCHOR_RE = re.compile(rf"(?<![\w\-]){_CREDENTIALS_CHAIN}(?![\w\-])")
_PHRASE_END = r"(?=[ \t]*(?:$|[,;|/()\]]|[ \t]{2}|\.(?:\s|$)))"
_CREDENTIAL_RE = re.compile(
    # Jane Smith, MD / Ann Lee, MS, CGC / John Roe, PT. (one or more ", credential")
    rf"(?:,[ \t]*{_CREDENTIALS_CHAIN}(?![\w\-]))*?,[ \t]*(?:{_CREDENTIALS}(?![\w\-])|{_CREDENTIALS_AMBIGUOUS}{_PHRASE_END})"
    # Jane Smith MD (no comma: only before the end of the phrase or a date).
    rf"|[ \t]+{_CREDENTIALS_BARE}(?=[ \t]*(?:$|[,;|/()\]]|[ \t]{{2}}|\.(?:\s|$)|\d))",
    re.MULTILINE,
)
# Role words before a name: "paramedic Lorelei Oestrovsky", "RN Ivka Each", "hospitalist Veenstra".
_ROLE_CREDENTIALS = trie_pattern(("RN", "NP", "MD", "CNM", "LPN", "PA-C", "DO"), ignore_case=False)
_ROLE_WORDS = trie_pattern(
    (
        "paramedic", "pharmacist", "hospitalist", "therapist", "nurse", "physician", "surgeon", "intensivist",
        "anesthesiologist", "radiologist", "cardiologist", "neurologist", "oncologist", "geriatrician",
        "pediatrician", "psychiatrist", "psychologist", "dietitian", "chaplain", "social worker", "case manager",
        "midwife", "clinician", "sonographer", "technologist", "counselor", "interpreter", "scribe", "nephrologist",
        "urologist", "dermatologist", "gastroenterologist", "endocrinologist", "pulmonologist", "periodontist",
        "orthodontist", "dentist", "optometrist", "ophthalmologist", "audiologist", "physiatrist", "podiatrist",
    )
)
_ROLE_RE = re.compile(
    # A credential right before a name takes no punctuation ("Jane Roe, MD, Breast Imaging" is not one).
    rf"(?<!,[ \t])(?<![\w\-,])(?:{_ROLE_CREDENTIALS}:?(?=[ \t])|{_ROLE_WORDS}(?![\w\-])[,:]?(?=[ \t]))"
)
_KIN = trie_pattern(
    (
        "wife", "husband", "spouse", "partner", "son", "daughter", "mother", "father", "mom", "dad", "brother",
        "sister", "sibling", "niece", "nephew", "aunt", "uncle", "cousin", "grandson", "granddaughter",
        "grandmother", "grandfather", "grandma", "grandpa", "fiance", "fiancee", "fiancé", "fiancée", "boyfriend",
        "girlfriend", "friend", "neighbor", "neighbour", "guardian", "proxy", "caregiver", "stepson",
        "stepdaughter", "stepmother", "stepfather", "mother-in-law", "father-in-law", "son-in-law",
        "daughter-in-law",
    )
)

_FIELD_RE = re.compile(
    # "Electronically signed by: Jane Smith" anywhere; "Attending: ...", "Patient: ..." as field labels.
    # ("cc:" in lower case is a copy list; "CC:" is the chief complaint)
    rf"(?<![\w\-])(?:(?P<by>{_DOCTOR_BY})|(?P<doc>{_DOCTOR_FIELDS}|cc)|(?P<pat>{_PATIENT_FIELDS}))(?![\w])"
    rf"(?P<sep>[ \t]*[:\-–—])?[ \t]*{_OPT_TITLE}"
)
# A field label starts a line, or follows "|", ";", a tab or two spaces (header tables).
_FIELD_START_RE = re.compile(r"(?:\n|\|[ \t]?|  |\t|; )\Z")


def _field_ok(m: re.Match[str]) -> bool:
    if m.group("by") is not None:
        return True
    start = m.start()
    return m.group("sep") is not None and (
        start == 0 or _FIELD_START_RE.search(m.string, max(0, start - 2), start) is not None
    )


def _field_label(m: re.Match[str]) -> str:
    return "PATIENT" if m.group("pat") is not None else "DOCTOR"


_KIN_RE = re.compile(
    rf"(?<![\w\-])(?:(?P<baby>Baby[ \t]+(?:Boy|Girl)|BABY[ \t]+(?:BOY|GIRL))|{_KIN}(?![\w\-])(?:,|[ \t]+(?:is|named|called))?)"
    r"(?=[ \t])"
)


def _kin_label(m: re.Match[str]) -> str:
    return "PATIENT" if m.group("baby") is not None else "RELATIVE"


NAME_RULES_EN: tuple[PatternRule, ...] = (
    NameRule(
        "DOCTOR",
        _TITLE_RE,
        labeler=_title_label,
        extra_labels=("PATIENT",),
        lower_ok=True,
        score=0.9,
        name="title",
    ),
    NameRule(
        "DOCTOR",
        _CREDENTIAL_RE,
        direction="before",
        anchor=_CREDENTIAL_ANCHOR_RE,
        reach=(8, 0),
        score=0.85,
        name="credential",
    ),
    NameRule("DOCTOR", _ROLE_RE, score=0.7, name="role", upper_ok=False),
    NameRule(
        "DOCTOR",
        _FIELD_RE,
        validator=_field_ok,
        labeler=_field_label,
        extra_labels=("PATIENT",),
        score=0.8,
        name="field",
    ),
    NameRule(
        "RELATIVE",
        _KIN_RE,
        labeler=_kin_label,
        extra_labels=("PATIENT",),
        score=0.65,
        name="kinship",
        upper_ok=False,
    ),
)


def name_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The name rules for ``lang`` (English titles and labels; other languages get none for now)."""
    return NAME_RULES_EN if lang == "en" else ()


def name_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``name`` with the name rules for ``lang``."""
    return RuleDetector("name", name_rules(lang))
