"""Word lists of the English name rules (:mod:`.names`); NAME_STOPWORDS is also used by the
language packs.
"""

from __future__ import annotations

# Words never taken as (part of) a name after a trigger (see NAME_STOPWORDS).
_STOPWORD_TEXT = """
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
    phone fax email mobile cell visit note signed routine admission assessment environmental acute request
    summary appeal certificate urgent expedited letter strain index consultant scribe access monitoring
    portal message financial healthy proband well active ill sick elderly young female male woman man boy
    girl infant child baby previously otherwise currently proxy
    thinks think says wants feels agrees agreed recommends recommend states stated believes prefers
    alert awake asleep sleeping resting oriented tearful calm anxious agitated confused comfortable stable
    lethargic drowsy restless pleasant cooperative comma period colon paragraph semicolon
"""

#: Words never taken as (part of) a name after a trigger, compared lower-case.
NAME_STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())

# --- triggers ------------------------------------------------------------------------------------
# Title spellings taken as titles (case matters: "MR" is mitral regurgitation, "MS" multiple sclerosis).
DOCTOR_TITLES = frozenset(
    (
        "Dr",
        "Dr.",
        "DR",
        "DR.",
        "dr",
        "dr.",
        "Drs",
        "Drs.",
        "DRS",
        "DRS.",
        "Prof",
        "Prof.",
        "PROF",
        "PROF.",
        "Doctor",
        "DOCTOR",
        "Professor",
        "PROFESSOR",
    )
)

PATIENT_TITLES = frozenset(
    (
        "Mr",
        "Mr.",
        "MR.",
        "Mrs",
        "Mrs.",
        "MRS",
        "MRS.",
        "mrs",
        "mrs.",
        "Ms",
        "Ms.",
        "MS.",
        "Mx",
        "Mx.",
        "Miss",
        "MISS",
        "mr.",
        "ms.",
    )
)

# Signature words that introduce a name after a colon anywhere in a line.
SIGNATURE_WORDS = (
    "electronically signed",
    "e-signed",
    "esigned",
    "cosigned",
    "co-signed",
    "cosigner",
    "exp cosigner",
    "signed",
    "signature",
    "signed electronically",
)

DOCTOR_BY = (
    "electronically signed by",
    "e-signed by",
    "esigned by",
    "signed by",
    "dictated by",
    "cosigned by",
    "co-signed by",
    "reviewed by",
    "read by",
    "interpreted by",
    "performed by",
    "requested by",
    "req by",
    "seen by",
    "referred by",
    "examined by",
    "attested by",
    "authenticated by",
)

DOCTOR_FIELDS = (
    "attending",
    "attending physician",
    "attending of record",
    "pcp",
    "primary care",
    "primary care physician",
    "primary care provider",
    "surgeon",
    "assistant surgeon",
    "referring",
    "referring physician",
    "referring provider",
    "referring md",
    "ordering",
    "ordering physician",
    "ordering provider",
    "ordering md",
    "consultant",
    "provider",
    "prov",
    "physician",
    "radiologist",
    "pathologist",
    "anesthesiologist",
    "proceduralist",
    "cardiologist",
    "oncologist",
    "neurologist",
    "resident",
    "fellow",
    "intern",
    "author",
    "signing physician",
    "outgoing",
    "incoming",
    "treating physician",
    "supervising physician",
    "primary oncologist",
    "signature",
    "signed",
    "cc",
)

PATIENT_FIELDS = (
    "patient",
    "patient name",
    "pt",
    "pt name",
    "name",
    "re",
    "client",
    "inmate",
    "decedent",
    "resident name",
    "res",
    "surname/forename",
    "full name",
    "member name",
    "child",
    "infant",
    "student",
    "employee",
    "subscriber",
    "insured",
)

# Role words before a name: "paramedic Lorelei Oestrovsky", "RN Ivka Sarić", "hospitalist Veenstra".
ROLE_CREDENTIALS = frozenset({"RN", "NP", "MD", "CNM", "LPN", "PA-C", "DO", "CRNA", "NNP", "FNP"})

ROLE_WORDS = (
    "paramedic",
    "pharmacist",
    "hospitalist",
    "therapist",
    "nurse",
    "physician",
    "surgeon",
    "intensivist",
    "anesthesiologist",
    "radiologist",
    "cardiologist",
    "neurologist",
    "oncologist",
    "geriatrician",
    "pediatrician",
    "psychiatrist",
    "psychologist",
    "dietitian",
    "chaplain",
    "social worker",
    "case manager",
    "midwife",
    "clinician",
    "sonographer",
    "technologist",
    "counselor",
    "interpreter",
    "scribe",
    "nephrologist",
    "urologist",
    "dermatologist",
    "gastroenterologist",
    "endocrinologist",
    "pulmonologist",
    "periodontist",
    "orthodontist",
    "dentist",
    "optometrist",
    "ophthalmologist",
    "audiologist",
    "physiatrist",
    "podiatrist",
)

PT_WORDS = frozenset({"Pt", "PT", "pt", "Patient", "patient"})

KIN_WORDS = (
    "wife",
    "husband",
    "spouse",
    "partner",
    "son",
    "daughter",
    "mother",
    "father",
    "mom",
    "dad",
    "brother",
    "sister",
    "sibling",
    "niece",
    "nephew",
    "aunt",
    "uncle",
    "cousin",
    "grandson",
    "granddaughter",
    "grandmother",
    "grandfather",
    "grandma",
    "grandpa",
    "fiance",
    "fiancee",
    "fiancé",
    "fiancée",
    "boyfriend",
    "girlfriend",
    "friend",
    "neighbor",
    "neighbour",
    "guardian",
    "proxy",
    "caregiver",
    "stepson",
    "stepdaughter",
    "stepmother",
    "stepfather",
    "mother-in-law",
    "father-in-law",
    "son-in-law",
    "daughter-in-law",
    "sister-in-law",
    "brother-in-law",
    "dtr-in-law",
    "married to",
    "engaged to",
    # shorthand of nursing and social work notes ("dtr renata", "bro Kieran")
    "dtr",
    "dau",
    "bro",
    "sis",
    "gdtr",
    "gson",
    "hubby",
)

BABY = frozenset({"baby boy", "baby girl"})

# Credentials after a name. Ambiguous ones (DO, PT, OT, SLP ...) only at the end of a phrase.
CREDENTIAL_WORDS = (
    "MD",
    "M.D.",
    "RN",
    "NP",
    "PA-C",
    "DDS",
    "DMD",
    "PharmD",
    "PhD",
    "CRNA",
    "CNM",
    "LPN",
    "LCSW",
    "LICSW",
    "DPT",
    "OTR/L",
    "CCC-SLP",
    "RDN",
    "RRT",
    "ACNP",
    "ACNP-BC",
    "FNP",
    "FNP-BC",
    "ANP",
    "DNP",
    "MSN",
    "BSN",
    "APRN",
    "FACS",
    "FACC",
    "MBBS",
    "MPH",
    "CGC",
    "LMFT",
    "PsyD",
    "EMT-P",
    "NRP",
    "CCRN",
    "BCPS",
    "AuD",
    "DPM",
    "MSW",
    "LMSW",
    "LPC",
    "CNA",
    "AGACNP",
    "PMHNP",
    "CNP",
    "RD",
    "RDCS",
    "RDMS",
    "RVT",
    "CPNP",
    "CNSC",
    "CPHON",
    "OSW-C",
    "BCC",
    "MDiv",
    "CDCES",
    "CDE",
    "IBCLC",
    "CCM",
    "CRRN",
    "CHPN",
    "OCN",
    "CPN",
    "CEN",
    "CTRS",
    "LICSW",
    "PMHNP-BC",
    "NP-C",
    "FNP-C",
    "ANP-BC",
    "AGPCNP-BC",
    "AGACNP-BC",
    "CPNP-PC",
    "CPNP-AC",
    "NNP-BC",
    "WHNP-BC",
    "RN-BC",
    "LADC",
    "LSW",
    "LCPC",
    "RPSGT",
    "CCP",
)

# Ambiguous ones only at the end of a phrase ("Jane Roe, PT." but not "..., PT TO FOLLOW").
CREDENTIAL_AMBIGUOUS_WORDS = ("DO", "D.O.", "PT", "OT", "SLP", "RT", "EMT", "Paramedic")

# Degrees that only count inside a chain ("Ann Lee, MS, CGC"; "Boston, MA" is a place).
CREDENTIAL_CHAIN_WORDS = ("MS", "MA", "PA", "BS", "BA", "MBA", "MSc", "MHA", "MEd", "MSEd")

# Verb and role cues after which clinicians are named without a title: "per J. SMITH", "as per K
# JONES", "d/w Tejedor", "paged Okafor", "spoke with Hinton", "signed out to Reyes".
CUE_PHRASES = (
    "per",
    "as per",
    "d/w",
    "dw",
    "discussed with",
    "discussed w/",
    "spoke with",
    "spoke w/",
    "spoke to",
    "talked to",
    "talked with",
    "paged",
    "repaged",
    "re-paged",
    "notified",
    "signed out to",
    "s/o to",
    "handed off to",
    "endorsed to",
    "report given to",
    "report to",
    "report from",
    "report received from",
    "reviewed with",
    "d/w and seen by",
    "covering",
    "cross-covering",
)
