"""Short clinical search queries: over-redaction and leaks of the default pipeline (issue 25).

An independent set of 1,051 clinical search queries showed the default ``phiscrub redact`` redacting
something in 39% of the PHI-free ones. This script GENERATES a set of the same kind (EHR search boxes,
cohort queries, clinician questions), deterministically from ``--seed``, with no real PHI: every name,
number and place is drawn from the small synthetic pools below.

- ``free`` queries (``--n-free``, default 200, from 70 templates): no PHI under Safe Harbor. Their
  gold spans are only bare years, ages of 89 and under, states and countries, which the
  ``safe-harbor`` policy keeps (checked at generation). They are full of eponyms, drugs, capitalised
  disease names, scores, numbers, units, ethnicity and nationality words and US state names.
- ``phi`` queries (``--n-phi``, default 400, from 70 templates): PHI written out (names with or
  without titles, cities, towns, hospitals, MRNs, dates, phones, streets ...), gold spans with fine
  labels.

Queries are spread over the templates in turn (query ``i`` of a group uses template ``i mod T``), and
each query's fillers come from its own generator seeded by ``(seed, group, i)``, so the first ``n``
queries are the same whatever the set size.

The default pipeline (``Deidentifier()``: bundled model, English rules, guard, ``safe-harbor``) runs
on every query. Reported (``--out DIR``: ``results.json``, ``results.md``; figures only, no query text):

- the share of PHI-free queries with at least one redaction, and the redacted spans by label, by
  detector source and by the filler pool they fall on (``template`` when on the template's own words);
- binary token recall and precision on the PHI queries, the policy applied to gold and predicted
  spans alike (:func:`phiscrub.policy.apply_policy`), per gold label;
- the place spans (city, town, street, zip, hospital, organisation ...) left fully or partly in clear,
  and how many of those a detector proposed as a state or country.

``--show`` prints the surfaces of the free-query redactions and of the places left in clear to the
terminal (stderr) for diagnosis; nothing of it is written to ``--out``.

Usage:
    OMP_NUM_THREADS=1 python scripts/eval_queries.py --out build/eval-queries [--show]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from phiscrub.deid import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.evaluate.metrics import evaluate
from phiscrub.policy import apply_policy
from phiscrub.text import tokenize

POLICY = "safe-harbor"
SEED = 25
#: Gold labels of the places whose leaks are counted (when PHI under the policy).
PLACE_LABELS = frozenset(
    {
        "CITY",
        "STREET",
        "ZIP",
        "LOCATION",
        "HOSPITAL",
        "ORGANIZATION",
        "DEPARTMENT",
        "ROOM",
        "STATE",
        "COUNTRY",
    }
)
_REGION_LABELS = frozenset({"STATE", "COUNTRY"})


def _p(text: str) -> tuple[str, ...]:
    """A pool written one entry per ``|``."""
    return tuple(w.strip() for w in text.split("|") if w.strip())


# --- filler pools (synthetic; no entry names a real patient) ---------------------------------------
POOLS: dict[str, tuple[str, ...]] = {
    "disease": _p(
        "type 2 diabetes|CHF|COPD|lupus nephritis|ulcerative colitis|atrial fibrillation|sickle cell disease"
        "|multiple sclerosis|rheumatoid arthritis|ESRD on HD|cirrhosis|HFpEF|DKA|pulmonary embolism|gout"
        "|iron deficiency anemia|C. diff colitis|MRSA bacteremia|hep C|HIV|osteoporosis|CKD stage 3b"
        "|Type 1 Diabetes|Major Depressive Disorder|Acute Kidney Injury|Pancreatic Cancer|ALS|SLE|PCOS"
        "|sleep apnea|Lyme neuroborreliosis|NASH|T2DM|AAA|DVT|UTI|CAP|NSTEMI|TIA|GERD|BPH|OSA"
    ),
    "eponym": _p(
        "Parkinson disease|Alzheimer disease|Crohn's disease|Hashimoto thyroiditis|Graves disease"
        "|Addison disease|Cushing syndrome|Down syndrome|Turner syndrome|Marfan syndrome|Huntington disease"
        "|Hodgkin lymphoma|Kaposi sarcoma|Wilson disease|Tourette syndrome|Guillain-Barre syndrome|Bell's palsy"
        "|Raynaud phenomenon|Sjogren syndrome|Kawasaki disease|Paget disease|Meniere disease|Barrett esophagus"
        "|Wernicke encephalopathy|Stevens-Johnson syndrome|Takayasu arteritis|Hirschsprung disease"
        "|Tetralogy of Fallot|Wolff-Parkinson-White|Brugada syndrome|Ewing sarcoma|Wilms tumor|Burkitt lymphoma"
        "|Waldenstrom macroglobulinemia|Zollinger-Ellison syndrome|Charcot foot|Dupuytren contracture"
        "|Osgood-Schlatter|Baker cyst|Colles fracture|Crohn's|Parkinson's|Alzheimer's|Bell palsy|Still disease"
        "|Behcet disease|Fabry disease|Gaucher disease|Tay-Sachs|Creutzfeldt-Jakob disease|Klinefelter syndrome"
        "|Asperger syndrome|Lou Gehrig disease|Legionnaires disease|Horner syndrome|Budd-Chiari syndrome"
    ),
    "placedisease": _p(
        "Lyme disease|West Nile virus|Zika|Ebola|Rocky Mountain spotted fever|MERS|Valley fever|Coxsackie"
        "|Norwalk virus|Marburg virus|Spanish flu|German measles|Japanese encephalitis|Chagas disease"
        "|Lassa fever|St. Louis encephalitis|Hantavirus|Mediterranean fever|Bornholm disease"
    ),
    "drug": _p(
        "metformin|Lasix|Eliquis|Xarelto|Keppra|Humira|Ozempic|Jardiance|Lipitor|Coumadin|warfarin|Lantus"
        "|insulin glargine|Zoloft|Seroquel|Depakote|Synthroid|Norco|Dilaudid|vancomycin|Zosyn|Keytruda"
        "|Herceptin|Plavix|Entresto|Trulicity|Mounjaro|Narcan|Suboxone|Adderall|prednisone|Solu-Medrol"
        "|Toradol|Zofran|Ativan|Haldol|Precedex|Levophed|Ancef|Rocephin|Augmentin|Bactrim|Cipro|Flagyl"
        "|Paxlovid|remdesivir|Dupixent|Stelara|Remicade|Tecfidera|Ocrevus|Xeljanz|Brilinta|Farxiga|Wegovy"
    ),
    "procedure": _p(
        "CABG|TAVR|ERCP|EGD|PCI|DBS|lap chole|Whipple procedure|Nissen fundoplication|Roux-en-Y gastric bypass"
        "|Hartmann procedure|Mohs surgery|Ross procedure|Fontan|Kasai procedure|Billroth II|Bankart repair"
        "|Tommy John surgery|TURP|total knee arthroplasty|ACL reconstruction|carotid endarterectomy|Watchman"
        "|MitraClip|ECMO|CRRT|PEG tube|Ilizarov frame|Le Fort osteotomy|Pringle maneuver|Seldinger technique"
    ),
    "sign": _p(
        "Murphy sign|Homans sign|Babinski sign|Kernig sign|Chvostek sign|Trousseau sign|Tinel sign|Phalen test"
        "|McMurray test|Lachman test|Romberg test|Allen test|Dix-Hallpike|Brudzinski sign|Cullen sign"
        "|Grey Turner sign|Kehr sign|Rovsing sign|Hoffmann sign|Spurling test"
    ),
    "score": _p(
        "CHA2DS2-VASc|HAS-BLED|MELD|Child-Pugh|Wells|Ranson|Gleason|Braden|Morse|PHQ-9|GAD-7|MoCA|NIHSS"
        "|Epworth|APACHE II|SOFA|qSOFA|CURB-65|TIMI|HEART|Glasgow-Blatchford|Caprini|Centor|ASCVD"
    ),
    "lab": _p(
        "A1c 9.2|LDL 190|eGFR < 30|troponin 0.04|INR 3.5|K 6.1|Na 128|BNP > 900|PSA 12|TSH 0.01|ferritin 2000"
        "|CD4 < 200|HbA1c >= 8%|platelets < 50k|Hgb 6.8|lactate 4.2|Cr 2.3|WBC 18.5|ALT 450|lipase 900"
        "|Mg 1.2|phos 7.1|ANC 400|procalcitonin 2.5|D-dimer > 500|CK 12000|ammonia 110|vitamin D < 20"
    ),
    "gene": _p(
        "EGFR|BRCA1|BRCA2|KRAS G12C|HLA-B27|JAK2 V617F|BCR-ABL|ALK|HER2|MTHFR|APOE4|CFTR|Factor V Leiden"
        "|HLA-B*5701|TP53|BRAF V600E|FLT3|NPM1|PD-L1|MSI-high"
    ),
    "eth": _p(
        "Asian|Hispanic|Black|White|African American|Caucasian|Latino|Latina|Native American|Pacific Islander"
        "|Hispanic or Latino|non-Hispanic white|Alaska Native|Middle Eastern|Ashkenazi Jewish|Afro-Caribbean"
    ),
    "nat": _p(
        "Korean|Somali|Vietnamese|Haitian|Hmong|Navajo|Amish|Japanese|Filipino|Mexican|Puerto Rican|Nigerian"
        "|Ethiopian|Brazilian|Chinese|Indian|Pakistani|Arab|Cuban|Dominican|Guatemalan|Russian|Polish|Irish"
        "|Italian|Greek|Ukrainian|Cambodian|Bangladeshi|Eritrean|Salvadoran|Jamaican|Laotian|Afghan"
    ),
    "lang": _p(
        "Spanish|Mandarin|Cantonese|Arabic|Somali|Haitian Creole|Vietnamese|Russian|Tagalog|Portuguese|Hmong"
        "|Korean|Amharic|Nepali|Farsi|Swahili|ASL|Polish|French|Punjabi"
    ),
    "sex": _p("male|female|males|females|men|women|M|F|boys|girls|adults|pts"),
    "unit": _p("ICU|MICU|SICU|CCU|ED|PACU|NICU|PICU|L&D|step-down unit|telemetry|med surg|CVICU|burn unit"),
    "dept": _p(
        "Cardiology|Oncology|Nephrology|Neurology|GI|Endocrinology|Rheumatology|Palliative Care"
        "|Infectious Disease|Psychiatry|Dermatology|Urology|Pulmonology|Hematology|Orthopedics|ENT"
    ),
    "payer": _p("Medicaid|Medicare|Medicare Advantage|Tricare|VA|CHIP|dual eligible|ACA marketplace"),
    "vaccine": _p(
        "COVID-19 vaccine|Pfizer booster|Moderna|Shingrix|Gardasil|Tdap|MMR|Prevnar 20|RSV vaccine|flu shot"
        "|Hep B series|Novavax|Arexvy|Pneumovax 23"
    ),
    "dose": _p("500 mg|10 mg daily|40 units|0.5 mg/kg|2 g q8h|25 mcg|1 mg IV|5 mg BID|81 mg|100 mg/m2"),
    "stage": _p("stage IV|Stage IIIA|T2N1M0|grade 3|NYHA class III|GOLD 4|BCLC B|Stage 2|FIGO IIIC|ISS III"),
    "decade": _p("1950s|1960s|70s|1980s|nineties"),
    "weekday": _p("Monday|Tuesday|Wednesday|Thursday|Friday|weekend"),
    # safe-harbor keeps these (gold STATE, COUNTRY, AGE <= 89, DATE year)
    "state": _p(
        "Texas|California|Ohio|Florida|Georgia|Washington|New York|Virginia|Michigan|Arizona|Louisiana"
        "|Minnesota|Colorado|Alabama|Oregon|Kentucky|New Mexico|North Carolina|Indiana|Nevada|Maine|Utah"
    ),
    "stabbr": _p("TX|CA|NY|FL|OH|GA|WA|MI|AZ|LA|MN|CO|NC|PA|IL|NJ|MA|TN|VA|MO"),
    "country": _p(
        "Mexico|India|China|Canada|Germany|Japan|Brazil|Nigeria|Philippines|Guatemala|Haiti|Somalia|Vietnam"
        "|Ukraine|Ghana|Peru|Honduras|Kenya|Egypt|Italy"
    ),
    "year": tuple(str(y) for y in range(2008, 2026)),
    "agenum": _p("18|21|30|40|45|50|55|60|65|70|75|80|85|89"),
    "agephrase": _p(
        "over 65|age 18-45|65 and older|under 5|40 yo|75 year old|in their 80s|50s|aged 60-79|over 80"
    ),
    # PHI (synthetic)
    "first": _p(
        "Maria|John|Linh|Aisha|DeShawn|Jose|Wei|Priya|Olga|Kenji|Fatima|Connor|Grace|Hope|Faith|Joy|June"
        "|April|Will|Rose|Dale|Glen|Brooke|Sierra|Dakota|Austin|Paris|Jordan|Savannah|Florence|Georgia"
        "|Virginia|Carolina|Madison|Tyler|Mohammed|Svetlana|Tomasz|Ngozi|Ana|Luis|Hannah|Ethan|Chloe|Raj"
    ),
    "last": _p(
        "Garcia|Smith|Nguyen|Patel|Kim|Johnson|Williams|Brown|White|Young|King|Rivera|Okafor|Kowalski"
        "|O'Brien|Schmidt|Haddad|Yamamoto|Hernandez|Washington|Jackson|Parker|Wilson|Graves|Bell|Addison"
        "|Cushing|Hodgkin|Moreno|Abernathy|Lindqvist|Delacroix|Mbeki|Castellanos|Fitzgerald|Tran|Gonzalez"
        "|Oyelaran|Brandt|Novak|Dubois|Sato|Chen|Alvarez|Murphy|Rhodes|Bishop|Banks|Fields"
    ),
    "city": _p(
        "Houston|Miami|Phoenix|Dallas|Tampa|Fresno|Tulsa|Omaha|Boise|Toledo|Akron|Dayton|Eugene|Spokane|Reno"
        "|Mesa|Plano|Laredo|Provo|Savannah|Macon|Springfield|Lubbock|Waco|Yuma|Flint|Gary|Baton Rouge"
        "|San Antonio|El Paso|Corpus Christi|Fort Worth|St. Petersburg|Ann Arbor|Grand Rapids|Des Moines"
        "|Little Rock|Sioux Falls|Salt Lake City|Las Cruces|Chattanooga|Knoxville|Lafayette|Orlando|Denver"
    ),
    "town": _p(
        "Brookfield|Millbrook|Fairview|Cedar Falls|Oak Ridge|Pine Bluff|Grand Forks|Eau Claire|Kingsport"
        "|Beaufort|Cle Elum|Walla Walla|Belle Glade|Immokalee|Hays|Ponca City|Elko|Moab|Bemidji|Ukiah"
    ),
    "homocity": _p("New York|Washington|Kansas City|Oklahoma City|Indianapolis|Atlanta|Boston"),
    "intlcity": _p(
        "Kumasi|Lagos|Guadalajara|Manila|Hanoi|Mogadishu|Port-au-Prince|Monterrey|Karachi|Puebla|Oaxaca"
        "|San Pedro Sula|Addis Ababa|Cebu|Da Nang"
    ),
    "hosp": _p(
        "Mercy General|Lakeview Medical Center|Riverside Regional|St. Agnes Hospital|Good Samaritan"
        "|Cedar Ridge Hospital|Sacred Heart|Providence St. Vincent|Baptist Memorial|Hillcrest Medical Center"
        "|St. Luke's|Memorial Hermann|Parkland|Northside Hospital|Valley Children's|Saint Elizabeth"
        "|Bayfront Health|Kestrel Point Community Hospital|Maple Grove Nursing Home|Sunrise Rehab"
    ),
    "org": _p(
        "Lakeside Packing Co|Redwood Logistics|Hillcrest Elementary|Acme Steel|Northgate Mall|Pinecrest Academy"
        "|Tri-County Transit|Blue Ridge Poultry|Harbor Freight Lines|Summit Roofing"
    ),
    "title": _p("Dr.|Dr|Mr.|Mrs.|Ms.|Mr|Mrs|Ms"),
}

_MONTHS = _p("January|February|March|April|May|June|July|August|September|October|November|December")


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def _date_md(rng: random.Random) -> str:
    m, d = rng.randint(1, 12), rng.randint(1, 28)
    return rng.choice(
        [f"{m}/{d}", f"{m:02d}/{d:02d}", f"{_MONTHS[m - 1][:3]} {d}", f"{_MONTHS[m - 1]} {d}th"]
    )


def _date_mdy(rng: random.Random) -> str:
    m, d, y = rng.randint(1, 12), rng.randint(1, 28), rng.randint(2015, 2025)
    forms = [f"{m}/{d}/{y}", f"{m:02d}/{d:02d}/{y % 100:02d}", f"{_MONTHS[m - 1]} {d}, {y}",
             f"{d} {_MONTHS[m - 1][:3]} {y}", f"{y}-{m:02d}-{d:02d}", f"{m}-{d}-{y}"]  # fmt: skip
    return rng.choice(forms)


def _dob(rng: random.Random) -> str:
    m, d, y = rng.randint(1, 12), rng.randint(1, 28), rng.randint(1930, 2010)
    return rng.choice(
        [f"{m}/{d}/{y}", f"{m:02d}/{d:02d}/{y}", f"{_MONTHS[m - 1]} {d}, {y}", f"{y}-{m:02d}-{d:02d}"]
    )


def _name(rng: random.Random, form: str) -> str:
    first, last = rng.choice(POOLS["first"]), rng.choice(POOLS["last"])
    if form == "full" and rng.random() < 0.2:
        return f"{first} {rng.choice('ABCDEJKLMRST')}. {last}"
    return {"full": f"{first} {last}", "lastfirst": f"{last}, {first}", "lower": f"{first} {last}".lower(),
            "upper": f"{first} {last}".upper()}[form]  # fmt: skip


def _phone(rng: random.Random) -> str:
    a, b, c = _digits(rng, 3), _digits(rng, 3), _digits(rng, 4)
    return rng.choice([f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"{a}.{b}.{c}", f"{a} {b} {c}", f"{b}-{c}"])


def _street(rng: random.Random) -> str:
    name = rng.choice(
        _p("Oak|Maple|Elm|Main|Cedar|Pine|Lincoln|Park|Lake|Hill|Sunset|Magnolia|Willow|Jefferson")
    )
    kind = rng.choice(_p("St|Street|Ave|Avenue|Road|Rd|Dr|Lane|Blvd|Court"))
    return f"{rng.randint(2, 9899)} {name} {kind}"


#: Generated fillers (number forms); the list pools above are drawn from uniformly.
GENERATED: dict[str, Callable[[random.Random], str]] = {
    "full": lambda r: _name(r, "full"),
    "lastfirst": lambda r: _name(r, "lastfirst"),
    "lower": lambda r: _name(r, "lower"),
    "upper": lambda r: _name(r, "upper"),
    "md": _date_md,
    "mdy": _date_mdy,
    "dob": _dob,
    "monyear": lambda r: f"{r.choice(_MONTHS)} {r.randint(2012, 2025)}",
    "mrn": lambda r: r.choice(["", "", "00", "A"]) + _digits(r, r.choice([6, 7, 8])),
    "phone": _phone,
    "ssn": lambda r: f"{_digits(r, 3)}-{_digits(r, 2)}-{_digits(r, 4)}",
    "zip": lambda r: r.choice(["7", "3", "9", "4", "6"]) + _digits(r, 4),
    "street": _street,
    "acct": lambda r: _digits(r, 9),
    "hp": lambda r: r.choice(["", "MCD", "W"]) + _digits(r, 9),
    "lic": lambda r: r.choice("ABDGKS") + _digits(r, 7),
    "email": lambda r: (
        f"{r.choice(POOLS['first']).lower()}.{r.choice(POOLS['last']).lower()}{r.randint(1, 99)}@example.com"
    ),
    "room": lambda r: r.choice(["", "", "B-", "4"]) + str(r.randint(101, 899)) + r.choice(["", "", "A", "B"]),
    "old": lambda r: r.choice(["{} yo", "{}-year-old", "{} y/o", "{} year old", "age {}", "{}yo"]).format(
        r.randint(90, 104)
    ),
}

# --- templates: {pool} is a filler without a label, {LABEL:pool} one with a gold fine label ---------
FREE_TEMPLATES: tuple[str, ...] = (
    "patients with {disease} diagnosed in {DATE:year}", "{eth} {sex} with {disease}",
    "{eth} {sex} over {AGE:agenum} on {drug}", "{disease} readmission within 30 days",
    "MRI brain with contrast {DATE:year}", "sepsis protocol {unit}", "{eponym} candidates for {procedure}",
    "{eponym} adults", "{vaccine} reactions {DATE:year}", "BMI > 40 bariatric referral {drug}",
    "{lab} follow up", "hep C genotype 1a {drug}", "{eponym} flare", "GCS 3/15 trauma {unit}",
    "{stage} NSCLC {gene}+", "{STATE:state} Medicaid patients with {disease}",
    "{nat} patients {disease} screening", "{placedisease} cases {DATE:year}", "{drug} vs {drug} for {disease}",
    "{score} > 4 on {drug}", "{procedure} outcomes {DATE:year} to {DATE:year}",
    "{AGE:agephrase} with {disease} and {disease}", "{eth} women {AGE:agephrase} mammogram overdue",
    "{disease} in {nat} immigrants", "{STATE:stabbr} {payer} {procedure} prior auth",
    "{vaccine} booster reactions {unit}", "{gene} mutation carriers with {eponym}", "{unit} delirium {drug} use",
    "{dept} referrals for {disease}", "how to dose {drug} in {disease}", "{drug} {dose} side effects",
    "{disease} with {lab}", "{lab} and {lab} trend", "{sign} positive {disease}",
    "{COUNTRY:country} travel history {disease}", "returned from {COUNTRY:country} with fever",
    "{procedure} complications {AGE:agephrase}", "{disease} {stage} on {drug}",
    "{lang} speaking patients needing interpreter", "{lang} interpreter requests {unit}",
    "{DATE:year} flu season admissions {unit}", "{sex} {AGE:agenum} to {AGE:agenum} with {disease}",
    "{eponym} {drug} response", "{disease} EF < 35% {procedure}", "{score} score {disease}",
    "{weekday} clinic no-shows {dept}", "born in the {decade} with {disease}", "{payer} denials for {drug}",
    "{placedisease} exposure {unit}", "{eth} {disease} risk {gene}", "{disease} after {procedure}",
    "pediatric {disease} {drug} dosing", "{lab} in {eth} patients", "{drug} started {DATE:year}",
    "{eponym} diagnosed {DATE:year}", "{procedure} at {AGE:agenum}", "{STATE:state} {disease} registry",
    "{disease} {STATE:state} and {STATE:state}", "{nat} American {sex} {disease}",
    "{eth} {sex} {AGE:agenum} yo {disease} {drug}", "{vaccine} in {eponym}", "{drug} allergy alternatives",
    "{gene} {disease} {drug} response", "{disease} {COUNTRY:country} born", "{procedure} {unit} length of stay",
    "{dept} {unit} transfer criteria", "{eponym} vs {eponym}", "{lab} {drug} titration",
    "{disease} in {AGE:agephrase}", "{STATE:state} {nat} community {placedisease} {DATE:year}",
)  # fmt: skip

PHI_TEMPLATES: tuple[str, ...] = (
    "{PATIENT:full} {disease}", "{PATIENT:full} labs {DATE:md}", "Mr. {PATIENT:last} {drug} refill",
    "Mrs. {PATIENT:last} from {CITY:city}", "pt {PATIENT:full} MRN {MEDICALRECORD:mrn}",
    "{PATIENT:lastfirst} DOB {DATE:dob}", "Dr. {DOCTOR:last} clinic notes {DATE:md}",
    "referrals from Dr. {DOCTOR:full} for {procedure}", "{PATIENT:full} lives in {CITY:city}",
    "patients from {CITY:city} with {disease}", "{disease} cases at {HOSPITAL:hosp} in {DATE:year}",
    "our {CITY:homocity} clinic {disease} cohort", "transfer from {HOSPITAL:hosp} {DATE:mdy}",
    "{PATIENT:full} phone {PHONE:phone}", "call back {PHONE:phone} re {drug}", "MRN {MEDICALRECORD:mrn}",
    "mrn# {MEDICALRECORD:mrn} {lab}", "{PATIENT:full} {AGE:old} {disease}",
    "{AGE:old} with {disease} from {CITY:city}", "{PATIENT:full} {STREET:street} {CITY:city} {STATE:stabbr} {ZIP:zip}",
    "ssn {SSN:ssn}", "{PATIENT:full} seen {DATE:md}", "admitted {DATE:mdy} {disease}",
    "{PATIENT:first}'s daughter {RELATIVE:first} called re {drug}", "wife {RELATIVE:first} at {PHONE:phone}",
    "{eth} {sex} from {CITY:city} with {disease}", "Dr. {DOCTOR:full} {procedure} patients {DATE:year}",
    "{PATIENT:last} {disease} {HOSPITAL:hosp} readmit", "{disease} pts at {HOSPITAL:hosp}",
    "{PATIENT:full} email {EMAIL:email}", "pts seen by Dr. {DOCTOR:last} in {DATE:monyear}",
    "{CITY:city}, {STATE:state} {disease} cluster", "moved to {CITY:city} last year {disease}",
    "works at {ORGANIZATION:org} {disease}", "{PATIENT:full} room {ROOM:room}",
    "{PATIENT:full} Medicaid ID {HEALTHPLAN:hp}", "{PATIENT:lower} {drug}", "{PATIENT:upper} {disease}",
    "{PATIENT:first} {PATIENT:last} {AGE:agenum} yo {sex}", "{PATIENT:full} {nat} {sex} {disease}",
    "{PATIENT:full} {DATE:mdy} {procedure}", "{procedure} by Dr. {DOCTOR:last} at {HOSPITAL:hosp}",
    "{PATIENT:full} {CITY:city} {STATE:state}", "{disease} {CITY:city} {DATE:year}",
    "{PATIENT:last} {PATIENT:first} {MEDICALRECORD:mrn}", "{PATIENT:full} fax {FAX:phone}",
    "{PATIENT:full} acct {ACCOUNT:acct}", "{DOCTOR:full} MD patients on {drug}",
    "{PATIENT:full} son {RELATIVE:full} {PHONE:phone}", "{PATIENT:full} from {CITY:intlcity}, {COUNTRY:country}",
    "{title} {PATIENT:last} {disease} {DATE:md}", "{eponym} pt {PATIENT:full}",
    "{PATIENT:full} {eponym} {HOSPITAL:hosp}", "{PATIENT:full} DOB {DATE:dob} {CITY:city}",
    "last seen {DATE:md} by NP {DOCTOR:full}", "{DOCTOR:full}, MD {dept} consult {DATE:md}",
    "{PATIENT:full} {lab} {DATE:md}", "{PATIENT:full} {STREET:street}", "{disease} patients zip {ZIP:zip}",
    "{PATIENT:full} ED visit {DATE:mdy}", "{HOSPITAL:hosp} residents with {disease}",
    "{PATIENT:full} {eth} {AGE:old}", "{disease} in {CITY:city} {STATE:stabbr}",
    "pts in {CITY:town} area with {disease}", "{PATIENT:full} license {LICENSE:lic}",
    "{PATIENT:full} {placedisease}", "{PATIENT:full} nephew {RELATIVE:first} in {CITY:town}",
    "{PATIENT:full} {DATE:monyear} {procedure} {HOSPITAL:hosp}", "{STATE:state} patients from {CITY:city}",
    "{PATIENT:first} {disease} {drug}", "{COUNTRY:country} born {PATIENT:full} {disease}",
    "{PATIENT:full} {DATE:year} {eponym}", "lives in {CITY:town} {STATE:state} {disease}",
    "our {CITY:city} clinic {eponym}", "{PATIENT:full} {dept} {DATE:md} {CITY:homocity}",
)  # fmt: skip

_SLOT = re.compile(r"\{(?:(?P<label>[A-Z]+):)?(?P<pool>[a-z]+)\}")


def fill(pool: str, rng: random.Random) -> str:
    """One filler of ``pool``."""
    if pool in GENERATED:
        return GENERATED[pool](rng)
    return rng.choice(POOLS[pool])


def render(template: str, rng: random.Random) -> tuple[str, list[Span], list[tuple[int, int, str]]]:
    """The query text of ``template``, its gold spans and its fillers ``(start, end, pool)``."""
    out: list[str] = []
    spans: list[Span] = []
    fillers: list[tuple[int, int, str]] = []
    pos = last = 0
    for m in _SLOT.finditer(template):
        out.append(template[last : m.start()])
        pos += m.start() - last
        value = fill(m.group("pool"), rng)
        out.append(value)
        fillers.append((pos, pos + len(value), m.group("pool")))
        if m.group("label"):
            spans.append(Span(pos, pos + len(value), m.group("label")))
        pos += len(value)
        last = m.end()
    out.append(template[last:])
    return "".join(out), spans, fillers


def generate(n_free: int = 200, n_phi: int = 400, seed: int = SEED) -> list[Document]:
    """The query set: ``n_free`` PHI-free then ``n_phi`` PHI queries (metadata: group, template, fillers).

    Raises:
        ValueError: a free query with PHI under the policy, or a PHI query without (a template bug).
    """
    docs: list[Document] = []
    for group, templates, n in (("free", FREE_TEMPLATES, n_free), ("phi", PHI_TEMPLATES, n_phi)):
        for i in range(n):
            k = i % len(templates)
            rng = random.Random(f"{seed}-{group}-{i}")
            text, spans, fillers = render(templates[k], rng)
            if bool(apply_policy(text, spans, POLICY)) != (group == "phi"):
                raise ValueError(f"template {group}-{k} does not give a {group} query")
            meta = {"group": group, "template": f"{group}-{k:02d}", "fillers": fillers}
            docs.append(Document(f"{group}-{i:04d}", text, tuple(spans), meta))
    return docs


# --- running and scoring ---------------------------------------------------------------------------


def run_pipeline(
    deid: Deidentifier, docs: Sequence[Document], batch: int = 64
) -> list[tuple[list[Span], list[Span]]]:
    """Per query: the detectors' proposals (above the threshold) and the final (redacted) spans."""
    out: list[tuple[list[Span], list[Span]]] = []
    for i in range(0, len(docs), batch):
        chunk = list(docs[i : i + batch])
        for doc, props in zip(chunk, deid.propose_many(chunk)):
            final = deid.select(doc, props)
            out.append(([s for s in props if s.score >= deid.threshold], final))
    return out


def source_kind(source: str) -> str:
    """A detector source in short: ``model``, ``rules``, ``model+rules``, or the source itself."""
    parts = set(source.split("+"))
    model = any(p.startswith("model") for p in parts)
    rules = any(p.startswith("rule") for p in parts)
    if model and rules:
        return "model+rules"
    if model or rules:
        return "model" if model else "rules"
    return source


def _pool_at(doc: Document, span: Span) -> str:
    """The filler pool a span falls on (the largest overlap), else ``template``."""
    best, pool = 0, "template"
    for start, end, name in doc.metadata["fillers"]:
        overlap = min(end, span.end) - max(start, span.start)
        if overlap > best:
            best, pool = overlap, name
    return pool


def _covered(text: str, span: Span, spans: Sequence[Span]) -> tuple[int, int]:
    """(tokens of ``span`` covered by ``spans``, tokens of ``span``)."""
    toks = [t for t in tokenize(text) if t.start < span.end and span.start < t.end]
    hit = sum(1 for t in toks if any(s.start < t.end and t.start < s.end for s in spans))
    return hit, len(toks)


def _top(counter: Counter[str], n: int = 15) -> dict[str, int]:
    return dict(counter.most_common(n))


def score_free(
    docs: Sequence[Document], outs: Sequence[tuple[list[Span], list[Span]]], show: bool
) -> dict[str, Any]:
    """Over-redaction on the PHI-free queries (counts only)."""
    by_label: Counter[str] = Counter()
    by_source: Counter[str] = Counter()
    by_pair: Counter[str] = Counter()
    by_pool: Counter[str] = Counter()
    by_template: Counter[str] = Counter()
    kept_pool: Counter[str] = Counter()
    hit_pool: Counter[str] = Counter()
    redacted = fp_tokens = tokens = 0
    for doc, (_, final) in zip(docs, outs):
        tokens += len(tokenize(doc.text))
        fp_tokens += sum(
            1 for t in tokenize(doc.text) if any(s.start < t.end and t.start < s.end for s in final)
        )
        redacted += bool(final)
        if final:
            by_template[doc.metadata["template"]] += 1
        for s in final:
            pool = _pool_at(doc, s)
            kind = source_kind(s.source)
            by_label[s.label] += 1
            by_source[kind] += 1
            by_pair[f"{s.label} | {kind}"] += 1
            by_pool[pool] += 1
            if show:
                print(f"FREE {doc.metadata['template']} {s.label:<12} {s.source:<28} {pool:<12} "
                      f"{doc.text[s.start:s.end]!r} in {doc.text!r}", file=sys.stderr)  # fmt: skip
        for start, end, pool in doc.metadata["fillers"]:
            kept_pool[pool] += 1
            hit_pool[pool] += any(s.start < end and start < s.end for s in final)
    n = len(docs)
    return {
        "queries": n,
        "redacted_queries": redacted,
        "share_redacted": round(redacted / n, 4) if n else 0.0,
        "redacted_spans": sum(by_label.values()),
        "fp_tokens": fp_tokens,
        "tokens": tokens,
        "spans_by_label": _top(by_label),
        "spans_by_source": _top(by_source),
        "spans_by_label_source": _top(by_pair, 25),
        "spans_by_filler_pool": _top(by_pool, 30),
        "fillers_redacted_by_pool": {p: [hit_pool[p], kept_pool[p]] for p in sorted(kept_pool)},
        "top_templates": _top(by_template, 15),
        "bare_years_redacted": [hit_pool["year"], kept_pool["year"]],
        "states_redacted": [hit_pool["state"] + hit_pool["stabbr"], kept_pool["state"] + kept_pool["stabbr"]],
    }


def _policy_view(docs: Sequence[Document], spans: Sequence[Sequence[Span]]) -> list[Document]:
    return [d.with_spans(apply_policy(d.text, s, POLICY)) for d, s in zip(docs, spans)]


def score_phi(docs: Sequence[Document], outs: Sequence[tuple[list[Span], list[Span]]]) -> dict[str, Any]:
    """Binary token scores under the policy (both sides), per gold label, and queries with PHI left."""
    gold = _policy_view(docs, [d.spans for d in docs])
    pred = _policy_view(docs, [final for _, final in outs])
    res = evaluate(gold, pred, "fine")
    per_label = {
        lab: {"gold_tokens": s.gold_tokens, "binary_recall": round(s.binary_recall, 4)}
        for lab, s in sorted(res.per_label.items())
        if s.gold_tokens
    }
    left = 0
    fp_pool: Counter[str] = Counter()
    for g, p in zip(gold, pred):
        left += any(_covered(g.text, s, p.spans)[0] < _covered(g.text, s, p.spans)[1] for s in g.spans)
        for s in p.spans:
            if not any(s.overlaps(t) for t in g.spans):
                fp_pool[f"{s.label} | {_pool_at(g, s)}"] += 1
    b = res.binary
    return {
        "queries": len(docs),
        "binary": {
            "precision": round(b.precision, 4),
            "recall": round(b.recall, 4),
            "f1": round(b.f1, 4),
            "tp": b.tp,
            "fp": b.fp,
            "fn": b.fn,
        },
        "per_gold_label": per_label,
        "queries_with_phi_left": left,
        "fp_spans_by_label_pool": _top(fp_pool, 20),
    }


def score_places(
    docs: Sequence[Document], outs: Sequence[tuple[list[Span], list[Span]]], show: bool
) -> dict[str, Any]:
    """Place gold spans (PHI under the policy) left fully or partly in clear, and why."""
    total: Counter[str] = Counter()
    clear: Counter[str] = Counter()
    partly: Counter[str] = Counter()
    as_region = region_proposed = 0
    for doc, (props, final) in zip(docs, outs):
        for g in apply_policy(doc.text, doc.spans, POLICY):
            if g.label not in PLACE_LABELS:
                continue
            key = f"{g.label} | {_pool_at(doc, g)}"
            total[key] += 1
            regional = any(p.label in _REGION_LABELS and p.overlaps(g) for p in props)
            region_proposed += regional
            hit, n = _covered(doc.text, g, final)
            if hit == n:
                continue
            (clear if hit == 0 else partly)[key] += 1
            as_region += regional
            if show:
                labs = sorted({f"{p.label}/{p.source}" for p in props if p.overlaps(g)})
                print(f"PLACE {key:<24} {hit}/{n} {doc.text[g.start:g.end]!r} proposals={labs} in {doc.text!r}",
                      file=sys.stderr)  # fmt: skip
    return {
        "place_spans": sum(total.values()),
        "fully_in_clear": sum(clear.values()),
        "partly_in_clear": sum(partly.values()),
        "in_clear_with_state_or_country_proposal": as_region,
        "proposed_as_state_or_country": region_proposed,
        "by_label_pool": {
            k: {"spans": total[k], "in_clear": clear[k], "partly": partly[k]} for k in sorted(total)
        },
    }


def evaluate_queries(docs: Sequence[Document], deid: Deidentifier, show: bool = False) -> dict[str, Any]:
    """Every figure of the report for ``docs`` (from :func:`generate`)."""
    outs = run_pipeline(deid, docs)
    free = [i for i, d in enumerate(docs) if d.metadata["group"] == "free"]
    phi = [i for i, d in enumerate(docs) if d.metadata["group"] == "phi"]
    phi_docs, phi_outs = [docs[i] for i in phi], [outs[i] for i in phi]
    return {
        "policy": POLICY,
        "templates": {"free": len(FREE_TEMPLATES), "phi": len(PHI_TEMPLATES)},
        "free": score_free([docs[i] for i in free], [outs[i] for i in free], show),
        "phi": score_phi(phi_docs, phi_outs),
        "places": score_places(phi_docs, phi_outs, show),
        "guard_drops": dict(sorted(deid.guard_counts.items())),
    }


def _table(title: str, counts: dict[str, Any], head: str = "count") -> list[str]:
    lines = [f"### {title}", "", f"| key | {head} |", "|---|---:|"]
    lines += [f"| {k} | {v} |" for k, v in counts.items()]
    return [*lines, ""]


def markdown(res: dict[str, Any]) -> str:
    """``results.md``: the figures of ``results.json`` as tables (no query text)."""
    f, p, pl = res["free"], res["phi"], res["places"]
    b = p["binary"]
    lines = [
        "# Clinical search queries: default pipeline (issue 25)", "",
        (
            f"Seed {res['seed']}; {f['queries']} PHI-free and {p['queries']} PHI queries from "
            f"{res['templates']['free']} + {res['templates']['phi']} templates; policy `{res['policy']}`."
        ), "",
        "| figure | value |", "|---|---:|",
        f"| PHI-free queries with a redaction | {f['redacted_queries']} / {f['queries']} ({f['share_redacted']:.1%}) |",
        f"| PHI-free tokens redacted | {f['fp_tokens']} / {f['tokens']} |",
        f"| bare years redacted (free) | {f['bare_years_redacted'][0]} / {f['bare_years_redacted'][1]} |",
        f"| state names redacted (free) | {f['states_redacted'][0]} / {f['states_redacted'][1]} |",
        f"| PHI queries binary token recall | {b['recall']:.4f} |",
        f"| PHI queries binary token precision | {b['precision']:.4f} |",
        f"| PHI queries with PHI left | {p['queries_with_phi_left']} / {p['queries']} |",
        f"| place spans fully in clear | {pl['fully_in_clear']} / {pl['place_spans']} |",
        f"| place spans partly in clear | {pl['partly_in_clear']} / {pl['place_spans']} |",
        f"| places in clear with a STATE/COUNTRY proposal | {pl['in_clear_with_state_or_country_proposal']} |",
        "",
    ]  # fmt: skip
    lines += _table("Free-query redactions by label", f["spans_by_label"])
    lines += _table("Free-query redactions by source", f["spans_by_source"])
    lines += _table("Free-query redactions by label and source", f["spans_by_label_source"])
    lines += _table("Free-query redactions by filler pool", f["spans_by_filler_pool"])
    lines += _table("Free queries redacted by template", f["top_templates"])
    lines += _table(
        "PHI queries: binary recall per gold label",
        {k: v["binary_recall"] for k, v in p["per_gold_label"].items()},
        "recall",
    )
    lines += _table("PHI queries: false-positive spans by label and pool", p["fp_spans_by_label_pool"])
    lines += _table(
        "Places in clear (fully / partly / spans)",
        {k: f"{v['in_clear']} / {v['partly']} / {v['spans']}" for k, v in pl["by_label_pool"].items()},
        "in clear",
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True, help="folder for results.json and results.md")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--n-free", type=int, default=200)
    ap.add_argument("--n-phi", type=int, default=400)
    ap.add_argument(
        "--show", action="store_true", help="print surfaces to stderr for diagnosis (never to --out)"
    )
    ap.add_argument("--dump", type=Path, help="write the generated queries (synthetic) to this JSONL file")
    args = ap.parse_args(argv)
    docs = generate(args.n_free, args.n_phi, args.seed)
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as fh:
            for d in docs:
                spans = [{"start": s.start, "end": s.end, "label": s.label} for s in d.spans]
                fh.write(json.dumps({"id": d.id, "text": d.text, "spans": spans, **d.metadata}) + "\n")
    res = {"seed": args.seed, **evaluate_queries(docs, Deidentifier().load(), args.show)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    (args.out / "results.md").write_text(markdown(res) + "\n", encoding="utf-8")
    f, b = res["free"], res["phi"]["binary"]
    print(f"free redacted {f['redacted_queries']}/{f['queries']} ({f['share_redacted']:.1%}); "
          f"PHI R {b['recall']:.4f} P {b['precision']:.4f}; places in clear "
          f"{res['places']['fully_in_clear']}/{res['places']['place_spans']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
